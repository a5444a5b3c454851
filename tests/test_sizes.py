"""Boards of every size from 2x2 to 6x6: the rules, the game, its saved form and its actions."""

from __future__ import annotations

import json

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from sized import sized_boards
from twenty48 import Board, BoardSize, Direction, Game
from twenty48.actions import TileMove, make_action, parse_action
from twenty48.game import NoTileMovesError
from twenty48.rules import DEFAULT_SIZE, MAX_TILE, OFFERED_SIZES, WINNING_TILE, two_largest


def transpose(board: Board) -> Board:
    return Board.from_rows([list(col) for col in zip(*board.rows, strict=True)])


def mirror(board: Board) -> Board:
    return Board.from_rows([row[::-1] for row in board.rows])


# ---- the size itself -------------------------------------------------------------------------------


def test_sizes_parse_rows_first_and_print_back():
    size = BoardSize.parse("3x4")
    assert (size.rows, size.cols, size.cells) == (3, 4, 12)
    assert str(size) == "3x4" and BoardSize.parse(" 3X4 ") == size
    assert BoardSize.of((3, 4)) == BoardSize.of("3x4") == BoardSize.of(size) == BoardSize(3, 4)
    assert BoardSize(4, 3) != size
    assert BoardSize(4, 4) == DEFAULT_SIZE and Board.empty().size == DEFAULT_SIZE
    assert [str(s) for s in OFFERED_SIZES] == ["2x4", "3x3", "3x4", "4x4", "5x5", "6x6"]


@pytest.mark.parametrize(
    "text", ["7x4", "1x3", "4x0", "4", "4x4x4", "x4", "four", "-3x4", "3.0x4", "\uff13x4", ""]
)
def test_sizes_out_of_range_or_malformed_name_the_range(text):
    with pytest.raises(ValueError, match="R and C each from 2 to 6"):
        BoardSize.parse(text)


@pytest.mark.parametrize("value", [(1, 4), (7, 7), (True, 4), (4.0, 4), (4,), None, 44])
def test_size_values_out_of_range_are_refused(value):
    with pytest.raises(ValueError, match="from 2 to 6"):
        BoardSize.of(value)


@pytest.mark.parametrize(("rows", "cols"), [(r, c) for r in range(2, 7) for c in range(2, 7)])
def test_every_size_holds_tiles_up_to_two_to_the_cells_plus_one_exactly(rows, cols):
    size = BoardSize(rows, cols)
    top = 2 ** (rows * cols + 1)
    assert size.max_tile == top
    assert size.tile_values == frozenset(2**k for k in range(1, rows * cols + 2))
    cells = [0] * size.cells
    cells[0] = cells[1] = top // 2
    moved = Board.from_cells(cells, size).move(Direction.LEFT if cols > 1 else Direction.UP)
    assert moved.board.cells[0] == top and moved.score == top
    with pytest.raises(ValueError, match=f"from 2 to {top}"):
        Board.from_cells([top * 2] + [0] * (size.cells - 1), size)
    pair = Board.from_cells([top, top] + [0] * (size.cells - 2), size)
    assert two_largest(pair)
    with pytest.raises(ValueError, match=f"two {top} tiles cannot merge"):
        pair.move(Direction.LEFT)


def test_win_tiles_are_2048_from_16_cells_and_the_same_either_way_round():
    for rows in range(2, 7):
        for cols in range(2, 7):
            size = BoardSize(rows, cols)
            assert size.win_tile == BoardSize(cols, rows).win_tile
            assert size.win_tile <= size.max_tile // 2
            if size.cells >= 16:
                assert size.win_tile == WINNING_TILE
    assert DEFAULT_SIZE.win_tile == WINNING_TILE and DEFAULT_SIZE.max_tile == MAX_TILE


# ---- the rules on hand-made boards -----------------------------------------------------------------


def test_a_2x4_moved_up_and_down_slides_its_four_columns_of_two():
    board = Board.from_rows([[2, 0, 4, 8], [2, 2, 8, 8]])
    assert board.size == BoardSize(2, 4)
    up = board.move(Direction.UP)
    assert up.board.rows == ((4, 2, 4, 16), (0, 0, 8, 0))
    assert up.score == 4 + 16 and up.merges == (0, 3)
    assert up.slides == ((0, 0), (2, 2), (3, 3), (4, 0), (5, 1), (6, 6), (7, 3))
    down = board.move(Direction.DOWN)
    assert down.board.rows == ((0, 0, 4, 0), (4, 2, 8, 16))
    assert down.score == 20 and down.merges == (4, 7)
    # The rows are lines of four: left merges 2 2 and 8 8 in the second row only.
    assert board.move(Direction.LEFT).board.rows == ((2, 4, 8, 0), (4, 16, 0, 0))


def test_a_3x4_moved_left_and_right_resolves_pairs_from_the_edge_moved_toward():
    board = Board.from_rows([[4, 4, 4, 0], [2, 0, 0, 2], [4, 4, 4, 4]])
    left = board.move(Direction.LEFT)
    assert left.board.rows == ((8, 4, 0, 0), (4, 0, 0, 0), (8, 8, 0, 0))
    assert left.score == 8 + 4 + 16
    right = board.move(Direction.RIGHT)
    assert right.board.rows == ((0, 0, 4, 8), (0, 0, 0, 4), (0, 0, 8, 8))
    assert right.merges == (3, 7, 10, 11)
    # Columns are lines of three.
    assert board.move(Direction.DOWN).board.rows == ((4, 0, 0, 0), (2, 0, 0, 2), (4, 8, 8, 4))


def test_a_tall_board_moves_its_long_columns():
    board = Board.from_rows([[2, 0], [0, 0], [2, 4], [4, 4], [0, 0], [4, 8]])
    assert board.size == BoardSize(6, 2)
    up = board.move(Direction.UP)
    assert up.board.rows == ((4, 8), (8, 8), (0, 0), (0, 0), (0, 0), (0, 0))
    assert up.score == 4 + 8 + 8
    assert board.move(Direction.RIGHT).board.rows == ((0, 2), (0, 0), (2, 4), (0, 8), (0, 0), (4, 8))


def test_full_small_boards_are_over_only_without_equal_neighbours():
    assert Board.from_rows([[2, 4], [4, 2]]).is_over()
    assert not Board.from_rows([[2, 4], [2, 8]]).is_over()
    assert Board.from_rows([[2, 4, 2], [4, 2, 4], [2, 4, 2]]).is_over()
    assert not Board.from_rows([[2, 4, 2], [4, 2, 4], [2, 4, 4]]).is_over()
    over = Board.from_rows([[2, 4, 8, 16], [4, 8, 16, 32]])
    assert over.is_over() and over.legal_moves() == ()
    # The same tiles one per row of a 4x2 board leave a vertical pair in each column.
    column_pairs = Board.from_rows([[2, 4], [4, 2], [4, 2], [2, 4]])
    assert set(column_pairs.legal_moves()) == {Direction.UP, Direction.DOWN}
    assert not Board.from_rows([[2, 4, 8], [4, 8, 0]]).is_over()


def test_single_tile_moves_stay_in_their_line_on_any_size():
    board = Board.from_rows([[0, 0, 2], [0, 0, 0], [2, 0, 2]])
    moved = board.move_tile(8, Direction.UP)
    assert moved.board.rows == ((0, 0, 4), (0, 0, 0), (2, 0, 0)) and moved.merges == (2,)
    with pytest.raises(ValueError, match="cell must be 0-8"):
        board.move_tile(9, Direction.UP)


def test_boards_of_different_sizes_never_compare_equal():
    wide, tall = Board.empty((3, 4)), Board.empty((4, 3))
    assert wide.cells == tall.cells and wide != tall
    assert len({wide, tall, Board.empty((2, 6))}) == 3
    assert Board.parse("2 . ./. . 4") == Board.from_cells([2, 0, 0, 0, 0, 4], "2x3")
    with pytest.raises(ValueError, match="a 3x4 board has exactly 12 cells"):
        Board.from_cells([0] * 16, (3, 4))


# ---- invariants on random boards of random sizes (hypothesis) ------------------------------------


@given(sized_boards(), st.sampled_from(list(Direction)))
def test_moves_keep_the_tile_sum_score_their_merges_and_cover_every_tile(board, direction):
    result = board.move(direction)
    assert result.board.size == board.size
    assert result.board.tile_sum == board.tile_sum
    assert result.score == sum(result.board.cells[m] for m in result.merges)
    assert [src for src, _ in result.slides] == [i for i, v in enumerate(board.cells) if v]
    assert result.changed == (direction in board.legal_moves()) == (result.board != board)


@given(sized_boards())
def test_rectangles_agree_under_mirroring_and_transposition(board):
    left = board.move(Direction.LEFT)
    right = mirror(board).move(Direction.RIGHT)
    assert mirror(right.board) == left.board and right.score == left.score
    # Transposing an R x C board gives a C x R one, whose up is this one's left.
    up = transpose(board).move(Direction.UP)
    assert up.board.size == BoardSize(board.size.cols, board.size.rows)
    assert transpose(up.board) == left.board and up.score == left.score


@given(sized_boards())
def test_over_exactly_when_no_legal_move_on_every_size(board):
    assume(board.max_tile > 0)
    assert board.is_over() == (board.legal_moves() == ())


# ---- the game on every size ----------------------------------------------------------------------


@pytest.mark.parametrize("size", ["2x2", "2x4", "3x3", "3x4", "4x3", "5x5", "6x6", "6x2"])
def test_games_of_every_size_start_with_two_tiles_and_replay_exactly(size):
    game = Game.new(31, size=size)
    assert str(game.size) == size and game.board.size == BoardSize.parse(size)
    assert sum(1 for v in game.board.cells if v) == 2
    for i in range(60):
        game.move(Direction.from_index(i * 7 % 4))
    again = Game.replay(31, game.actions, size=size)
    assert again.to_dict() == game.to_dict()
    # Spawns keep their placement rule: the same draw picks among the empty cells ascending.
    assert Game.replay(31, game.actions, size=BoardSize.parse(size)).board == game.board


def test_a_4x4_game_plays_exactly_as_before_sizes():
    # Recorded before boards had sizes: these seeds and moves gave these boards and scores.
    game = Game.replay(7, ["up", "left", "left", "down", "right", "up", "up", "left"])
    assert game.board.rows == ((4, 4, 0, 0), (8, 2, 0, 0), (2, 0, 2, 0), (0, 0, 0, 0)) and game.score == 20
    assert game.size == DEFAULT_SIZE and game.win_tile == 2048
    longer = Game.replay(2048, ["up", "left", "down", "right"] * 30)
    assert longer.board.rows == ((2, 0, 8, 2), (4, 64, 4, 2), (2, 16, 128, 8), (8, 2, 8, 4))
    assert (longer.score, longer.moves) == (1168, 118)
    assert Game.new(7).board == Game.new(7, size=(4, 4)).board == Game.new(7, size="4x4").board


def test_small_boards_are_won_with_their_own_win_tile():
    size = BoardSize(3, 3)
    half = size.win_tile // 2
    game = Game.from_board(Board.from_rows([[half, half, 0], [0, 0, 0], [0, 0, 2]]), seed=3)
    assert game.win_tile == size.win_tile
    turn = game.move(Direction.LEFT)
    assert turn.won_now and game.won


def test_a_game_ends_on_a_full_small_board():
    game = Game.from_board(Board.from_rows([[2, 4], [8, 0]]), seed=0)
    while not game.over:
        assert any(game.move(d).changed for d in game.board.legal_moves())
    assert game.board.is_over() and not game.can_undo


def test_saved_games_record_their_size_and_round_trip():
    game = Game.new(5, size=(3, 5))
    for d in [Direction.UP, Direction.LEFT, Direction.DOWN, Direction.RIGHT] * 4:
        game.move(d)
    data = json.loads(json.dumps(game.to_dict()))
    assert data["version"] == 5 and data["size"] == "3x5"
    assert len(data["board"]) == 3 and all(len(row) == 5 for row in data["board"])
    restored = Game.from_dict(data)
    assert restored.size == game.size and restored.to_dict() == game.to_dict()
    prepared = Game.from_board(Board.from_rows([[2, 0], [0, 4]]), seed=2, score=8)
    prepared.move(Direction.UP)
    assert Game.from_dict(prepared.to_dict()).to_dict() == prepared.to_dict()


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.update(size="7x7"), "size: a board size"),
        (lambda d: d.update(size=34), "size: a board size"),
        (lambda d: d.pop("size"), "lacks field.*size"),
        (lambda d: d.update(size="4x3"), "board is 3x4"),
        (lambda d: d.update(board=[[0] * 4] * 4), "board is 4x4"),
        (lambda d: d["undo"][0].update(board=[[2, 0], [0, 0]]), r"undo\[0\].board is 2x2"),
        (lambda d: d.update(actions=["up@12"] * len(d["actions"])), "unknown action"),
    ],
)
def test_saved_games_with_a_wrong_size_are_refused(change, message):
    game = Game.new(5, variant="merge", size=(3, 4))
    for d in [Direction.UP, Direction.LEFT, Direction.DOWN]:
        game.move(d)
    data = game.to_dict()
    change(data)
    with pytest.raises(ValueError, match=message):
        Game.from_dict(data)


def test_single_tile_moves_name_cells_of_their_board():
    size = BoardSize(2, 3)
    assert parse_action("left@5", size) == TileMove(Direction.LEFT, 5)
    with pytest.raises(ValueError, match="0-5 on a 2x3 board"):
        parse_action("left@6", size)
    assert parse_action("left@15") == TileMove(Direction.LEFT, 15)
    with pytest.raises(ValueError, match="0-15"):
        parse_action("left@16")
    with pytest.raises(ValueError, match="0-35"):
        make_action("up", 36, BoardSize(6, 6))
    with pytest.raises(ValueError, match="0-5"):
        parse_action(TileMove(Direction.UP, 6), size)


def test_merge_2048_plays_on_every_size():
    game = Game.new(8, variant="merge", size=(2, 3))
    tile = next(i for i, v in enumerate(game.board.cells) if v)
    game.move(Direction.RIGHT, cell=tile)
    game.move(Direction.DOWN)
    with pytest.raises(ValueError, match="0-5 on a 2x3 board"):
        game.move(Direction.UP, cell=6)
    again = Game.replay(8, [str(a) for a in game.actions], variant="merge", size="2x3")
    assert again.to_dict() == game.to_dict()
    with pytest.raises(NoTileMovesError):
        Game.new(8, size=(2, 3)).move(Direction.UP, cell=0)


def test_replay_refuses_a_size_its_start_board_does_not_have():
    game = Game.from_board(Board.from_rows([[2, 0, 0], [0, 0, 4]]), seed=1)
    assert Game.replay(1, [], start=game.start).size == BoardSize(2, 3)
    with pytest.raises(ValueError, match="start board is 2x3"):
        Game.replay(1, [], start=game.start, size="3x2")
