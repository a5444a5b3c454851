"""The official rules (docs/rules.md §1) on the reference implementation."""

from __future__ import annotations

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from twenty48 import Board, Direction
from twenty48.rules import MAX_TILE, slide_line

tiles = st.sampled_from([0, 0, 0, 2, 2, 4, 4, 8, 16, 32, 64, 2048, 32768, 65536])
# At most one 131072: a board in play never holds two (they could never have been built).
boards = st.tuples(st.lists(tiles, min_size=16, max_size=16), st.integers(-1, 15)).map(
    lambda t: Board.from_cells([131072 if i == t[1] else v for i, v in enumerate(t[0])])
)


def row_board(row: list[int]) -> Board:
    return Board.from_rows([row, [0] * 4, [0] * 4, [0] * 4])


def col_board(col: list[int]) -> Board:
    return Board.from_rows([[v, 0, 0, 0] for v in col])


def mirror(board: Board) -> Board:
    return Board.from_rows([row[::-1] for row in board.rows])


def transpose(board: Board) -> Board:
    return Board.from_rows([list(col) for col in zip(*board.rows, strict=True)])


# ---- the examples docs/rules.md §1 spells out, in every direction ---------------------------


@pytest.mark.parametrize(
    ("line", "toward_start", "toward_end", "points"),
    [
        ([4, 4, 4, 4], [8, 8, 0, 0], [0, 0, 8, 8], 16),  # a tile merges at most once
        ([4, 4, 4, 0], [8, 4, 0, 0], [0, 0, 4, 8], 8),  # pairs resolve from the edge moved toward
        ([2, 0, 0, 2], [4, 0, 0, 0], [0, 0, 0, 4], 4),  # tiles meet across gaps
        ([2, 2, 2, 0], [4, 2, 0, 0], [0, 0, 2, 4], 4),
        ([256, 256, 0, 0], [512, 0, 0, 0], [0, 0, 0, 512], 512),  # two 256s add 512
        ([2, 4, 8, 16], [2, 4, 8, 16], [2, 4, 8, 16], 0),
        ([2, 2, 4, 4], [4, 8, 0, 0], [0, 0, 4, 8], 12),
        ([65536, 65536, 0, 0], [131072, 0, 0, 0], [0, 0, 0, 131072], 131072),
    ],
)
def test_spec_line_examples_in_every_direction(line, toward_start, toward_end, points):
    cases = [
        (row_board(line), Direction.LEFT, row_board(toward_start)),
        (row_board(line), Direction.RIGHT, row_board(toward_end)),
        (col_board(line), Direction.UP, col_board(toward_start)),
        (col_board(line), Direction.DOWN, col_board(toward_end)),
    ]
    for board, direction, expected in cases:
        result = board.move(direction)
        assert result.board == expected, direction
        assert result.score == points, direction
        assert result.changed == (expected != board), direction


def test_two_131072_tiles_cannot_merge():
    with pytest.raises(ValueError, match="131072"):
        row_board([131072, 131072, 0, 0]).move(Direction.LEFT)


def test_equal_neighbours_across_the_motion_do_not_merge():
    board = Board.from_rows([[2, 0, 0, 0], [2, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]])
    result = board.move(Direction.LEFT)
    assert not result.changed
    assert result.score == 0
    assert board.move(Direction.UP).board.rows[0] == (4, 0, 0, 0)


def test_sliding_alone_scores_nothing():
    result = row_board([0, 2, 0, 4]).move(Direction.LEFT)
    assert result.changed
    assert result.board == row_board([2, 4, 0, 0])
    assert result.score == 0


def test_illegal_move_changes_nothing():
    board = row_board([2, 4, 0, 0])
    result = board.move(Direction.LEFT)
    assert not result.changed
    assert result.board == board
    assert result.merges == ()
    assert Direction.LEFT not in board.legal_moves()


def test_slides_and_merges_report_every_tile():
    board = row_board([4, 4, 4, 0])
    result = board.move(Direction.RIGHT)
    assert result.slides == ((0, 2), (1, 3), (2, 3))
    assert result.merges == (3,)
    still = row_board([2, 0, 0, 0]).move(Direction.LEFT)
    assert still.slides == ((0, 0),)


def test_game_over_needs_a_full_board_without_equal_neighbours():
    over = Board.from_rows([[2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4], [4, 2, 4, 2]])
    assert over.is_over()
    assert over.legal_moves() == ()
    one_pair = Board.from_rows([[2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4], [4, 2, 8, 8]])
    assert not one_pair.is_over()
    assert set(one_pair.legal_moves()) == {Direction.LEFT, Direction.RIGHT}
    vertical_pair = Board.from_rows([[2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4], [2, 8, 16, 32]])
    assert set(vertical_pair.legal_moves()) == {Direction.UP, Direction.DOWN}
    gap = Board.from_rows([[2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4], [4, 2, 4, 0]])
    assert not gap.is_over()


# ---- the Board type ------------------------------------------------------------------------------


def test_board_accessors():
    board = Board.from_rows([[2, 2, 0, 0], [0, 4, 0, 0], [0, 0, 0, 0], [0, 0, 0, 131072]])
    assert board.rows[0] == (2, 2, 0, 0)
    assert board.cells == (2, 2, 0, 0, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 131072)
    assert board.max_tile == MAX_TILE
    assert board.empty_cells() == (2, 3, 4, 6, 7, 8, 9, 10, 11, 12, 13, 14)
    assert hash(board) == hash(Board.from_cells(board.cells))
    assert {board: 1}[Board.from_rows(board.rows)] == 1
    with pytest.raises(AttributeError):
        board.cells = ()  # type: ignore[misc]


@pytest.mark.parametrize(
    "rows",
    [
        [[3, 0, 0, 0], [0] * 4, [0] * 4, [0] * 4],
        [[1, 0, 0, 0], [0] * 4, [0] * 4, [0] * 4],
        [[262144, 0, 0, 0], [0] * 4, [0] * 4, [0] * 4],
        [[-2, 0, 0, 0], [0] * 4, [0] * 4, [0] * 4],
        [[2.0, 0, 0, 0], [0] * 4, [0] * 4, [0] * 4],
        [[True, 0, 0, 0], [0] * 4, [0] * 4, [0] * 4],
        [["2", 0, 0, 0], [0] * 4, [0] * 4, [0] * 4],
        [[0] * 4] * 7,
        [[0] * 4, [0] * 4, [0] * 3],
        [[0] * 7, [0] * 7],
        [[0, 0]],
        [],
        [[0] * 5, [0] * 4, [0] * 4, [0] * 4],
        [[4096, 0], [0, 0]],
        "2 2 0 0",
        None,
    ],
)
def test_from_rows_rejects_bad_boards(rows):
    with pytest.raises(ValueError):
        Board.from_rows(rows)


def test_constructor_and_from_cells_validate():
    with pytest.raises(ValueError):
        Board((0,) * 15)
    with pytest.raises(ValueError):
        Board.from_cells([6] + [0] * 15)
    with pytest.raises(ValueError):
        Board.from_cells(None)  # type: ignore[arg-type]


def test_parse():
    board = Board.parse("2 2 0 0/0 4 0 0/0 0 0 0/0 0 0 2")
    assert board.rows == ((2, 2, 0, 0), (0, 4, 0, 0), (0, 0, 0, 0), (0, 0, 0, 2))
    assert Board.parse(". 2 . ./. . . ./. . . ./. . . .").cells[1] == 2
    with pytest.raises(ValueError, match="row 0, column 1"):
        Board.parse("2 x 0 0/0 0 0 0/0 0 0 0/0 0 0 0")
    with pytest.raises(ValueError):
        Board.parse("2 2 0/0 4 0 0/0 0 0 0/0 0 0 2")


def test_direction_parsing():
    assert Direction("left") is Direction.LEFT
    assert [d.index for d in Direction] == [0, 1, 2, 3]
    assert Direction.from_index(3) is Direction.RIGHT
    with pytest.raises(ValueError):
        Direction("x")


def test_with_tile():
    board = Board.empty().with_tile(5, 4)
    assert board.cells[5] == 4
    with pytest.raises(ValueError):
        board.with_tile(5, 2)
    with pytest.raises(ValueError):
        board.with_tile(16, 2)
    with pytest.raises(ValueError):
        board.with_tile(0, 3)


# ---- invariants (hypothesis) -----------------------------------------------------------------------


@given(boards, st.sampled_from(list(Direction)))
def test_score_is_the_sum_of_merged_values(board, direction):
    result = board.move(direction)
    assert result.score == sum(result.board.cells[m] for m in result.merges)


@given(boards, st.sampled_from(list(Direction)))
def test_a_move_preserves_the_tile_sum(board, direction):
    assert board.move(direction).board.tile_sum == board.tile_sum


@given(boards, st.sampled_from(list(Direction)))
def test_moving_twice_without_a_spawn_only_changes_by_merging(board, direction):
    once = board.move(direction).board
    # Two 65536s beside the 131072 can make a second one, which no game in play could hold.
    assume(once.cells.count(MAX_TILE) < 2)
    twice = once.move(direction)
    # After a move every tile rests against the edge or another tile, so the same move again can
    # change the board only by merging pairs the first move left (2 2 4 . -> 4 4 . . -> 8 . . .).
    assert twice.changed == bool(twice.merges)
    assert twice.score == sum(twice.board.cells[m] for m in twice.merges)


@given(boards, st.sampled_from(list(Direction)))
def test_changed_means_some_tile_moved(board, direction):
    result = board.move(direction)
    moved = any(src != dst for src, dst in result.slides)
    assert result.changed == moved == (result.board != board)
    assert result.changed == (direction in board.legal_moves())


@given(boards, st.sampled_from(list(Direction)))
def test_slides_cover_every_tile_once(board, direction):
    result = board.move(direction)
    sources = [src for src, _ in result.slides]
    assert sources == [i for i, v in enumerate(board.cells) if v]
    destinations = {dst for _, dst in result.slides}
    assert destinations == {i for i, v in enumerate(result.board.cells) if v}
    for dst in result.merges:
        assert sum(1 for _, d in result.slides if d == dst) == 2


@given(boards)
def test_directions_agree_under_mirroring_and_transposition(board):
    left = board.move(Direction.LEFT)
    right = mirror(board).move(Direction.RIGHT)
    assert mirror(right.board) == left.board and right.score == left.score
    up = transpose(board).move(Direction.UP)
    assert transpose(up.board) == left.board and up.score == left.score
    down = transpose(mirror(board)).move(Direction.DOWN)
    assert mirror(transpose(down.board)) == left.board and down.score == left.score


@given(boards)
def test_over_exactly_when_no_legal_move(board):
    # The empty board (which play never reaches) has no legal move yet is not full.
    assume(board.max_tile > 0)
    assert board.is_over() == (board.legal_moves() == ())


@given(st.lists(st.sampled_from([0, 2, 4, 8, 16]), min_size=4, max_size=4))
def test_slide_line_keeps_order_and_merges_once(line):
    moved = slide_line(line)
    tiles = [v for v in line if v]
    # Undo the merges: every merged value splits back into two equal halves, in order.
    restored = []
    merged_positions = set(moved.merges)
    for pos, value in enumerate(moved.values):
        if value:
            restored += [value // 2, value // 2] if pos in merged_positions else [value]
    assert restored == tiles
