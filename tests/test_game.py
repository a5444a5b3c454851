"""The Game state machine: spawns, undo, win / keep going / over, replay and JSON."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from twenty48 import Board, Direction, Game
from twenty48.game import (
    UNDO_LIMIT,
    GameOverError,
    IllegalActionError,
    NothingToUndoError,
    NoTileMovesError,
    NotWonError,
    Start,
)

directions = st.lists(st.sampled_from(list(Direction)), max_size=60)


def play(game: Game, n: int, rng: random.Random) -> None:
    for _ in range(n):
        if game.over:
            return
        game.move(rng.choice(list(Direction)))


def test_new_game_has_two_starting_tiles_on_distinct_cells():
    for seed in range(300):
        game = Game.new(seed)
        tiles = [v for v in game.board.cells if v]
        assert len(tiles) == 2
        assert set(tiles) <= {2, 4}
        assert game.score == 0 and game.moves == 0 and not game.won and not game.over
        assert not game.can_undo


def test_seed_is_always_an_int_and_seeds_reproduce():
    assert isinstance(Game.new().seed, int)
    assert Game.new(42).board == Game.new(42).board
    boards = {Game.new(s).board for s in range(50)}
    assert len(boards) > 30
    for bad in (-1, 2**64, "7", 1.5, True):
        with pytest.raises(ValueError):
            Game.new(bad)  # type: ignore[arg-type]


def test_a_legal_move_adds_exactly_one_tile_of_2_or_4():
    rng = random.Random(3)
    game = Game.new(3)
    for _ in range(200):
        if game.over:
            break
        before = game.board
        turn = game.move(rng.choice(list(Direction)))
        if not turn.changed:
            assert game.board == before
            continue
        moved = before.move(turn.direction).board
        cell, value = turn.spawn
        assert value in (2, 4)
        assert moved.cells[cell] == 0
        assert game.board == moved.with_tile(cell, value)
        # The tile sum grows only by the spawned tile.
        assert game.board.tile_sum == before.tile_sum + value
        assert turn.board == game.board


def test_illegal_move_changes_nothing():
    game = Game.from_board(Board.from_rows([[2, 4, 0, 0], [0] * 4, [0] * 4, [0] * 4]), seed=1)
    before = game.to_dict()
    turn = game.move(Direction.LEFT)
    assert not turn.changed and turn.spawn is None and turn.score == 0
    assert game.to_dict() == before
    assert not game.can_undo


def test_score_accumulates_merge_points():
    game = Game.from_board(Board.from_rows([[256, 256, 0, 0], [0] * 4, [0] * 4, [0] * 4]), seed=5, score=10)
    turn = game.move("left")
    assert turn.score == 512
    assert game.score == 522


def test_undo_restores_and_cannot_reroll_the_spawn():
    game = Game.new(11)
    rng = random.Random(11)
    play(game, 12, rng)
    snapshot = game.to_dict()
    direction = next(d for d in Direction if game.board.can_move(d))
    first = game.move(direction)
    game.undo()
    assert game.to_dict() == snapshot  # fewer than 20 positions, so none dropped out
    second = game.move(direction)
    assert second.spawn == first.spawn
    assert second.board == first.board


def test_undo_keeps_at_most_20_positions():
    game = Game.new(5)
    rng = random.Random(5)
    while game.moves < 40:
        assert not game.over
        game.move(rng.choice(list(Direction)))
    undone = 0
    while game.can_undo:
        game.undo()
        undone += 1
    assert undone == UNDO_LIMIT
    assert game.moves == 40 - UNDO_LIMIT
    assert Game.replay(game.seed, game.actions).board == game.board


def test_undo_is_disabled_once_over():
    # One move left: 2 2 merges and the board fills again with no pair (spawn must land in the gap).
    board = Board.from_rows([[2, 2, 8, 16], [32, 64, 128, 256], [512, 1024, 2, 4], [8, 16, 32, 64]])
    for seed in range(200):
        game = Game.from_board(board, seed=seed)
        game.move(Direction.RIGHT)
        if game.over:
            assert not game.can_undo
            with pytest.raises(GameOverError):
                game.undo()
            assert game.move(Direction.LEFT).changed is False
            return
    pytest.fail("no seed ended the game")


def test_win_on_creating_2048_then_keep_going():
    game = Game.from_board(Board.from_rows([[1024, 1024, 0, 0], [0] * 4, [0] * 4, [0] * 4]), seed=2)
    with pytest.raises(ValueError):
        game.keep_going()
    turn = game.move(Direction.LEFT)
    assert turn.won_now and game.won and not game.keep_playing
    game.keep_going()
    assert game.keep_playing
    # No second banner: another 2048 later is not "won_now".
    game2 = Game.from_board(
        Board.from_rows([[1024, 1024, 0, 0], [1024, 1024, 0, 0], [0] * 4, [0] * 4]), seed=2
    )
    assert game2.move(Direction.LEFT).won_now
    assert not game2.move(Direction.DOWN).won_now


def test_moving_on_after_the_win_counts_as_keeping_going():
    game = Game.from_board(Board.from_rows([[1024, 1024, 0, 0], [0] * 4, [0] * 4, [0] * 4]), seed=2)
    game.move(Direction.LEFT)
    game.move(Direction.DOWN)
    assert game.won and game.keep_playing


def test_winning_move_that_ends_the_game_is_won_and_over():
    # Right merges 1024+1024 into 2048 and leaves one gap (cell 0); every other cell then has no
    # equal neighbour, and the spawn (2 or 4) lands next to 4 or 8... search for a seed that ends it.
    board = Board.from_rows([[1024, 1024, 4, 8], [16, 32, 64, 128], [256, 512, 8, 4], [2, 4, 16, 32]])
    found = False
    for seed in range(100):
        game = Game.from_board(board, seed=seed)
        turn = game.move(Direction.RIGHT)
        assert turn.won_now
        if turn.over:
            assert game.won and game.over and not game.can_undo
            found = True
    assert found


def test_undo_of_the_winning_move_unwins():
    game = Game.from_board(Board.from_rows([[1024, 1024, 0, 0], [0] * 4, [0] * 4, [0] * 4]), seed=2)
    game.move(Direction.LEFT)
    game.undo()
    assert not game.won
    assert game.move(Direction.LEFT).won_now


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**64 - 1), directions)
def test_replay_reproduces_the_game(seed, moves):
    game = Game.new(seed)
    for d in moves:
        game.move(d)
    again = Game.replay(seed, [d.value for d in moves])
    assert again.to_dict() == game.to_dict()
    assert Game.replay(seed, game.actions).board == game.board


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**53), directions, st.integers(0, 5), directions)
def test_json_round_trip_preserves_play(seed, moves, undos, more):
    game = Game.new(seed)
    for d in moves:
        game.move(d)
    for _ in range(undos):
        if game.can_undo:
            game.undo()
    data = json.loads(json.dumps(game.to_dict()))
    restored = Game.from_dict(data)
    assert restored.to_dict() == game.to_dict()
    for d in more:
        assert restored.move(d) == game.move(d)
    if game.can_undo:
        restored.undo()
        game.undo()
    else:
        with pytest.raises(IllegalActionError):
            restored.undo()
        with pytest.raises(IllegalActionError):
            game.undo()
    assert restored.to_dict() == game.to_dict()


def test_to_dict_without_actions_is_the_rest_of_the_save():
    game = Game.new(3)
    for d in [Direction.UP, Direction.LEFT, Direction.DOWN]:
        game.move(d)
    full = game.to_dict()
    state = game.to_dict(actions=False)
    assert "actions" not in state
    with pytest.raises(ValueError, match="actions"):
        Game.from_dict(state)
    assert Game.from_dict({**state, "actions": full["actions"]}).to_dict() == full


def valid_dict() -> dict:
    game = Game.new(9)
    for d in [Direction.UP, Direction.LEFT, Direction.DOWN, Direction.RIGHT] * 3:
        game.move(d)
    return game.to_dict()


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.update(version=99), "version"),
        (lambda d: d.pop("version"), "version"),
        (lambda d: d.update(score=-4), "negative"),
        (lambda d: d.update(score="12"), "score"),
        (lambda d: d["board"][0].__setitem__(0, 3), "power of two"),
        (lambda d: d.update(board=[[0] * 4] * 3), "board"),
        (lambda d: d.update(board="oops"), "board"),
        (lambda d: d.update(seed=-1), "seed"),
        (lambda d: d.update(actions=["up", "sideways"]), "sideways"),
        (lambda d: d.update(moves=3), "moves"),
        (lambda d: d.update(over=True), "over"),
        (lambda d: d.update(won="no"), "won"),
        (lambda d: d.update(keep_playing=True), "keep_playing"),
        (lambda d: d.update(extra=1), "extra"),
        (lambda d: d.pop("undo"), "undo"),
        (lambda d: d.update(undo=[{"board": [[0] * 4] * 4}]), "undo"),
        (lambda d: d["undo"][-1].update(score=10**9), "score"),
        (lambda d: d.update(undo=d["undo"] * 5), "undo"),
    ],
)
def test_from_dict_rejects_malformed_data(change, message):
    data = valid_dict()
    change(data)
    with pytest.raises(ValueError, match=message):
        Game.from_dict(data)


def test_from_dict_rejects_non_objects():
    with pytest.raises(ValueError):
        Game.from_dict([1, 2])  # type: ignore[arg-type]


def test_refused_actions_raise_typed_errors_and_change_nothing():
    game = Game.new(5)
    before = game.to_dict()
    with pytest.raises(NothingToUndoError, match="no move to undo"):
        game.undo()
    with pytest.raises(NotWonError):
        game.keep_going()
    with pytest.raises(NoTileMovesError, match="classic"):
        game.move(Direction.LEFT, cell=0)
    assert game.to_dict() == before
    # One family, and still ValueError for callers that only know that much.
    assert all(
        issubclass(e, IllegalActionError) and issubclass(e, ValueError)
        for e in (GameOverError, NothingToUndoError)
    )


def test_a_prepared_game_keeps_its_start_and_replays_from_it():
    board = Board.from_rows([[2, 2, 4, 0], [0, 8, 0, 0], [0, 0, 16, 0], [0, 0, 0, 2]])
    game = Game.from_board(board, seed=11, score=40)
    for d in (Direction.LEFT, Direction.UP, Direction.RIGHT, Direction.DOWN):
        game.move(d)
    assert game.start == Start(board, 40)
    again = Game.replay(game.seed, game.actions, start=game.start)
    assert again.to_dict() == game.to_dict()
    # Without the start, the same seed and moves are a different game: why the start is kept.
    assert Game.replay(game.seed, game.actions).board != game.board
    restored = Game.from_dict(json.loads(json.dumps(game.to_dict())))
    assert restored.start == game.start and restored.to_dict() == game.to_dict()
    assert Game.new(11).start is None and "start" not in Game.new(11).to_dict()


def test_saved_games_of_earlier_versions_still_load():
    game = Game.replay(7, ["up", "left", "left", "down"])
    for version in (1, 2, 3, 4):
        data = game.to_dict()
        data["version"] = version
        # Before version 5 every game was a 4x4 game, and before version 4 a SplitMix64 game, and
        # said nothing of either.
        del data["size"]
        if version < 4:
            del data["spawns"]
        if version == 1:
            del data["variant"]
        assert Game.from_dict(data).to_dict() == game.to_dict()
    data = Game.from_board(game.board, seed=1).to_dict()
    data["version"] = 2
    del data["spawns"], data["size"]
    with pytest.raises(ValueError, match="start"):
        Game.from_dict(data)
    data = game.to_dict()
    data["version"] = 4
    with pytest.raises(ValueError, match="size is a field of version 5"):
        Game.from_dict(data)


@pytest.mark.parametrize(
    "start",
    [
        {"board": [[0] * 4] * 4},
        {"board": "x", "score": 0},
        {"board": [[2] + [0] * 3] + [[0] * 4] * 3, "score": 10**9},
    ],
)
def test_a_malformed_start_is_refused(start):
    data = Game.from_board(Board.from_rows([[2, 0, 0, 0]] + [[0] * 4] * 3), seed=1).to_dict()
    data["start"] = start
    with pytest.raises(ValueError, match="start"):
        Game.from_dict(data)
