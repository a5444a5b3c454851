"""The "Merge 2048" variant's engine: stage-based spawns and single-tile moves."""

from __future__ import annotations

from collections import Counter

import pytest

from twenty48 import Board, Direction, Game
from twenty48.game import FORMAT_VERSION, TileMove
from twenty48.variants import CLASSIC, MERGE, get_variant, stage, stage_weights


def board_with_max(tile: int) -> Board:
    return Board.from_rows([[tile, 0, 0, 0], [0] * 4, [0] * 4, [0] * 4])


@pytest.mark.parametrize(
    ("max_tile", "expected"),
    [(0, 0), (2, 0), (128, 0), (256, 1), (512, 2), (1024, 3), (2048, 4), (131072, 4)],
)
def test_stage_rises_with_the_largest_tile(max_tile, expected):
    assert stage(max_tile) == expected


@pytest.mark.parametrize("max_tile", [64, 256, 512, 1024, 4096])
def test_spawn_distribution_per_stage(max_tile):
    board = board_with_max(max_tile)
    weights = stage_weights(stage(max_tile))
    n = 60_000
    values = Counter(MERGE.spawn(77, index, board)[1] for index in range(n))
    assert set(values) <= {2 << i for i in range(len(weights))}
    total = sum(weights)
    for i, weight in enumerate(weights):
        expected = weight / total
        observed = values[2 << i] / n
        # Five standard deviations of the binomial share, plus the rounding of the 32-bit draw.
        assert abs(observed - expected) < 5 * (expected * (1 - expected) / n) ** 0.5 + 1e-6, 2 << i
    # Smaller values are always more likely.
    shares = [values[2 << i] for i in range(len(weights))]
    assert shares == sorted(shares, reverse=True)


def test_merge_spawns_use_the_same_cells_as_classic():
    board = board_with_max(1024)
    for index in range(200):
        assert MERGE.spawn(5, index, board)[0] == CLASSIC.spawn(5, index, board)[0]


def test_classic_spawns_are_unchanged():
    assert CLASSIC.spawn(5, 3, Board.empty()) == Game.new(5).variant.spawn(5, 3, Board.empty())
    assert not CLASSIC.tile_moves and MERGE.tile_moves


def row(values: list[int]) -> Board:
    return Board.from_rows([values, [0] * 4, [0] * 4, [0] * 4])


@pytest.mark.parametrize(
    ("start", "cell", "direction", "end", "points"),
    [
        ([0, 0, 0, 2], 3, Direction.LEFT, [2, 0, 0, 0], 0),  # slides to the edge
        ([4, 0, 0, 2], 3, Direction.LEFT, [4, 2, 0, 0], 0),  # stops against another tile
        ([2, 0, 0, 2], 3, Direction.LEFT, [4, 0, 0, 0], 4),  # merges with an equal tile
        ([2, 2, 2, 2], 2, Direction.LEFT, [2, 4, 0, 2], 4),  # only that tile moves and merges
        ([2, 2, 2, 2], 1, Direction.RIGHT, [2, 0, 4, 2], 4),
        ([8, 0, 0, 4], 0, Direction.RIGHT, [0, 0, 8, 4], 0),
    ],
)
def test_single_tile_moves(start, cell, direction, end, points):
    result = row(start).move_tile(cell, direction)
    assert result.changed
    assert result.board == row(end)
    assert result.score == points
    moved = [(src, dst) for src, dst in result.slides if src != dst]
    assert len(moved) == 1 and moved[0][0] == cell


def test_single_tile_moves_along_columns():
    board = Board.from_rows([[2, 0, 0, 0], [0, 0, 0, 0], [2, 0, 0, 0], [4, 0, 0, 0]])
    result = board.move_tile(8, Direction.UP)
    assert result.board.rows[0][0] == 4 and result.merges == (0,)
    assert result.board.cells[12] == 4
    down = board.move_tile(12, Direction.UP)
    assert down.board == board and not down.changed  # 4 under a 2: blocked
    stop = Board.from_rows([[2, 0, 0, 0], [0] * 4, [4, 0, 0, 0], [0] * 4]).move_tile(0, Direction.DOWN)
    assert stop.board.cells[4] == 2 and not stop.merges


@pytest.mark.parametrize(
    ("start", "cell", "direction"),
    [
        ([2, 0, 0, 0], 0, Direction.LEFT),  # already at the edge
        ([4, 2, 0, 0], 1, Direction.LEFT),  # blocked by a different tile
        ([0, 2, 0, 0], 0, Direction.RIGHT),  # no tile on that cell
    ],
)
def test_illegal_single_tile_moves_change_nothing(start, cell, direction):
    board = row(start)
    result = board.move_tile(cell, direction)
    assert not result.changed and result.board == board and result.score == 0


def test_game_plays_single_tile_moves_in_the_merge_variant_only():
    board = row([2, 0, 0, 2])
    merge = Game.from_board(board, seed=3, variant="merge")
    turn = merge.move(Direction.LEFT, cell=3)
    assert turn.changed and turn.cell == 3 and turn.score == 4
    assert merge.actions == (TileMove(Direction.LEFT, 3),)
    before = merge.to_dict()
    illegal = merge.move(Direction.LEFT, cell=0)
    assert not illegal.changed and merge.to_dict() == before
    merge.undo()
    assert merge.board == board
    classic = Game.from_board(board, seed=3)
    with pytest.raises(ValueError, match="classic"):
        classic.move(Direction.LEFT, cell=3)
    with pytest.raises(ValueError):
        merge.move(Direction.LEFT, cell=16)


def test_merge_games_replay_and_round_trip():
    game = Game.new(12, variant="merge")
    moves = 0
    for i in range(200):
        if game.over:
            break
        direction = Direction.from_index(i % 4)
        tiles = [c for c, v in enumerate(game.board.cells) if v]
        turn = game.move(direction, cell=tiles[i % len(tiles)]) if i % 3 else game.move(direction)
        moves += turn.changed
    assert game.moves == moves
    assert any(isinstance(a, TileMove) for a in game.actions)
    again = Game.replay(12, [str(a) for a in game.actions], variant="merge")
    assert again.to_dict() == game.to_dict()
    assert Game.from_dict(game.to_dict()).to_dict() == game.to_dict()
    assert game.to_dict()["variant"] == "merge"


def test_version_1_saves_load_as_classic():
    data = Game.replay(4, ["up", "left"]).to_dict()
    data["version"] = 1
    del data["variant"], data["spawns"], data["size"]
    game = Game.from_dict(data)
    assert game.variant is CLASSIC
    assert game.to_dict()["version"] == FORMAT_VERSION


def test_bad_variants_and_actions_are_refused():
    with pytest.raises(ValueError, match="unknown variant"):
        get_variant("hex")
    with pytest.raises(ValueError):
        Game.new(1, variant="hex")
    data = Game.replay(4, ["up"]).to_dict()
    data["actions"] = ["up@3"]
    with pytest.raises(ValueError, match="single-tile"):
        Game.from_dict(data)
    data["actions"] = ["up@99"]
    with pytest.raises(ValueError, match="unknown action"):
        Game.from_dict(data)
