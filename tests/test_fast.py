"""The bitboard engine against the rules: every row, and random boards in every direction (5,000 in
the quick loop, 100,000 more in the slow run CI makes)."""

from __future__ import annotations

import operator

import numpy as np
import pytest

from twenty48 import Board, Direction, Game, fast, spawns
from twenty48.fast._playouts import random_play
from twenty48.fast.bitboard import draw
from twenty48.fast.tables import build_tables
from twenty48.rules import slide_line


def random_boards(n: int, seed: int) -> np.ndarray:
    """Boards as exponent grids: about a third empty cells, tiles up to 32768, many equal pairs."""
    rng = np.random.default_rng(seed)
    exponents = rng.integers(1, 16, size=(n, 16))
    # Favour small tiles so that neighbours often match, as in play.
    small = rng.random((n, 16)) < 0.5
    exponents[small] = rng.integers(1, 4, size=small.sum())
    exponents[rng.random((n, 16)) < 0.35] = 0
    return exponents


def board_of(exponents: np.ndarray) -> Board:
    return Board.from_cells([1 << int(e) if e else 0 for e in exponents])


#: A tile's exponent by its value, 0 for an empty cell (up to 32768: the bitboard's tiles).
EXPONENT = {0: 0} | {1 << e: e for e in range(1, 16)}
#: Where each cell's exponent sits in a bitboard: cell i in bits 4i..4i+3.
SHIFTS = tuple(range(0, 64, 4))


def packed(cells: tuple[int, ...]) -> int:
    """The bitboard of a board's cells, packed independently of the engine."""
    return sum(map(operator.lshift, map(EXPONENT.__getitem__, cells), SHIFTS))


def test_tables_equal_the_rules_on_every_row():
    tables = build_tables()
    for row in range(1 << 16):
        exps = [(row >> (4 * i)) & 0xF for i in range(4)]
        if exps.count(15) >= 2:
            # Rows where two 32768s may meet are covered by the overflow flag below.
            continue
        moved = slide_line([1 << e if e else 0 for e in exps])
        expected = sum((v.bit_length() - 1 if v else 0) << (4 * i) for i, v in enumerate(moved.values))
        assert tables["left"][row] == expected, exps
        assert tables["score"][row] == moved.score, exps
        assert not tables["overflow"][row]


def test_overflow_flags_a_merge_of_two_32768s():
    row = (15 << 0) | (15 << 8)  # 32768 . 32768 .
    b = fast.to_bitboard(Board.from_rows([[32768, 0, 32768, 0], [0] * 4, [0] * 4, [0] * 4]))
    assert int(b) == row
    assert fast.move_overflows(b, fast.LEFT)
    assert fast.move_overflows(b, fast.RIGHT)
    assert not fast.move_overflows(b, fast.UP)
    apart = fast.to_bitboard(Board.from_rows([[32768, 2, 32768, 0], [0] * 4, [0] * 4, [0] * 4]))
    assert not fast.move_overflows(apart, fast.LEFT)


@pytest.mark.parametrize("boards", [5_000, pytest.param(100_000, marks=pytest.mark.slow)])
def test_random_boards_in_every_direction_agree_with_the_rules(boards: int):
    grids = random_boards(boards, seed=2048)
    directions = [(d, d.index) for d in Direction]
    mismatches = []
    overflowing = 0
    for exps in grids:
        board = board_of(exps)
        b = fast.to_bitboard(board)
        assert fast.from_bitboard(b) == board
        mask = 0
        for d, i in directions:
            result = board.move(d)
            if result.changed:
                mask |= 1 << i
            moved, points, overflows = fast.play(b, i)
            assert overflows == fast.move_overflows(b, i)
            if overflows:
                overflowing += 1
                assert any(result.board.cells[m] == 65536 for m in result.merges)
                continue
            assert (moved, points) == (fast.move(b, i), fast.move_score(b, i))
            # Compared as bitboards (from_bitboard is checked on every board above): building a Board
            # of every answer was most of this test's time.
            if int(moved) != packed(result.board.cells) or points != result.score:
                mismatches.append((board.cells, d))
        assert fast.legal_mask(b) == mask
        assert fast.count_empty(b) == len(board.empty_cells())
        assert fast.is_over(b) == board.is_over()
        assert fast.max_exponent(b) == board.max_tile.bit_length() - 1
    assert mismatches == []
    # The generator must exercise the overflow path without making it common.
    assert 0 < overflowing < boards


def test_spawns_equal_the_games():
    rng = np.random.default_rng(1)
    for seed in range(300):
        game = Game.new(seed)
        assert fast.from_bitboard(fast.new_board(seed)) == game.board
        for _ in range(40):
            before = fast.to_bitboard(game.board)
            turn = game.move(Direction.from_index(int(rng.integers(4))))
            if turn.changed:
                index = 1 + game.moves  # the spawn index this move used
                after = fast.spawn(fast.move(before, turn.direction.index), seed, index)
                assert fast.from_bitboard(after) == game.board


def test_seeds_beyond_63_bits_match():
    seed = 2**64 - 3
    assert draw(seed, 5) == spawns.draw(seed, 5)
    assert fast.from_bitboard(fast.new_board(seed)) == Game.new(seed).board


def test_unrepresentable_boards_are_refused():
    big = Board.from_rows([[65536, 0, 0, 0], [0] * 4, [0] * 4, [0] * 4])
    assert not fast.representable(big)
    with pytest.raises(ValueError, match="65536"):
        fast.to_bitboard(big)


def test_random_play_counts_moves_and_games():
    legal, games = random_play(9, 200_000)
    assert 0 < legal <= 200_000
    assert games > 0
