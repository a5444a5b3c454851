"""The engine for boards of any size against the rules: random boards of every size in every
direction, hypothesis's boards, and the spawns of whole games."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings

from sized import ALL_SIZES, random_grids, sized_boards
from twenty48 import Board, BoardSize, Direction, Game, fast
from twenty48.fast import grid

#: Random boards per size in the default run (every size, every direction); the slow run takes more.
BOARDS = 300
SLOW_BOARDS = 5_000


#: A tile's exponent by its value, 0 for an empty cell (every tile of every size).
EXPONENT = {0: 0} | {1 << e: e for e in range(1, 64)}


def exponents(board: Board) -> list[int]:
    """The board's exponents, row-major, read independently of the engine."""
    return list(map(EXPONENT.__getitem__, board.cells))


def check_against_rules(board: Board) -> None:
    """Every kernel of the grid engine gives the rules' answer on ``board``."""
    size = board.size
    b = fast.to_grid(board)
    assert fast.from_grid(b, size) == board
    mask = 0
    for d in Direction:
        expected = board.move(d)
        out = np.empty_like(b)
        points, changed = grid.move(b, size.rows, size.cols, d.index, out)
        # As exponents (from_grid is checked on every board above): building a Board of every
        # answer was half of these tests' time.
        assert out.tolist() == exponents(expected.board), (board.rows, d)
        assert (points, changed) == (expected.score, expected.changed), (board.rows, d)
        in_place = b.copy()
        assert grid.move(in_place, size.rows, size.cols, d.index, in_place) == (points, changed)
        assert np.array_equal(in_place, out)
        mask |= expected.changed << d.index
    assert grid.legal_mask(b, size.rows, size.cols) == mask
    assert grid.is_over(b, size.rows, size.cols) == board.is_over()
    assert grid.count_empty(b) == len(board.empty_cells())
    assert grid.max_exponent(b) == max(board.max_tile.bit_length() - 1, 0)


def check_random_boards(size: BoardSize, n: int, seed: int) -> None:
    for exponents in random_grids(size, n, seed):
        check_against_rules(fast.from_grid(exponents, size))


@pytest.mark.parametrize("size", ALL_SIZES, ids=str)
def test_random_boards_of_every_size_agree_with_the_rules(size):
    check_random_boards(size, BOARDS, seed=size.rows * 10 + size.cols)


@pytest.mark.slow
@pytest.mark.parametrize("size", ALL_SIZES, ids=str)
def test_many_random_boards_of_every_size_agree_with_the_rules(size):
    check_random_boards(size, SLOW_BOARDS, seed=1000 + size.rows * 10 + size.cols)


@settings(max_examples=200, deadline=None)
@given(sized_boards())
def test_hypothesis_boards_agree_with_the_rules(board):
    check_against_rules(board)


def test_a_board_full_of_the_largest_tiles_but_one_merges_up_to_the_largest_exactly():
    # 6x6: 2**36 and 2**36 make 2**37, the largest tile a 6x6 board holds; 37 still fits a byte.
    size = BoardSize(6, 6)
    board = Board.from_cells([2**36, 2**36] + [0] * 34, size)
    check_against_rules(board)
    out = np.empty(36, dtype=np.uint8)
    assert grid.move(fast.to_grid(board), 6, 6, grid.LEFT, out) == (2**37, True)
    assert out[0] == 37


@pytest.mark.parametrize("size", ["2x2", "2x5", "3x3", "4x4", "5x3", "6x6"])
def test_spawns_and_new_boards_equal_the_games(size):
    size = BoardSize.parse(size)
    rng = np.random.default_rng(size.cells)
    for seed in (0, 1, 2, 2**64 - 3):
        game = Game.new(seed, size=size)
        b = np.empty(size.cells, dtype=np.uint8)
        grid.new_board(np.uint64(seed), b)
        assert fast.from_grid(b, size) == game.board
        while not game.over and game.moves < 150:
            before = fast.to_grid(game.board)
            turn = game.move(Direction.from_index(int(rng.integers(4))))
            if turn.changed:
                grid.move(before, size.rows, size.cols, turn.direction.index, before)
                cell = grid.spawn(before, np.uint64(seed), np.uint64(1 + game.moves))
                assert cell == turn.spawn[0]
                assert fast.from_grid(before, size) == game.board


def test_the_bitboard_holds_only_4x4_boards():
    board = Board.from_rows([[2, 0, 0], [0, 4, 0], [0, 0, 8]])
    assert not fast.representable(board)
    with pytest.raises(ValueError, match="a bitboard holds a 4x4 board, this one is 3x3"):
        fast.to_bitboard(board)
