"""Game review (``twenty48.ai.review``): the grading and chance properties the issues ask for, on
short games."""

from __future__ import annotations

import hashlib
import itertools
import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from twenty48.ai import best_move, pools, solver
from twenty48.ai.chance import Chances
from twenty48.ai.review import (
    GRADES,
    REVIEW_NODES,
    REVIEW_SETTING,
    TURNING_POINT_DROP,
    MoveReview,
    ReviewCancelledError,
    review_game,
    summarise,
)
from twenty48.ai.standing import Grade
from twenty48.game import Game
from twenty48.rules import Board, Direction
from twenty48.store.reviews.operations import setting_text

# Up, left and right are legal; after left the one gap is in the top right corner and whatever
# spawns there nothing can merge (the board of tests/test_ai_standing.py).
ENDING = Board.from_rows([[16, 4, 0, 64], [2, 16, 32, 8], [64, 32, 16, 32], [4, 2, 64, 2]])
# Up and down are legal, each merges the two 4s of the first column, and whatever spawns in the gap
# nothing can merge: every move ends the game.
DEAD_END = Board.from_rows([[8, 64, 4, 32], [64, 2, 8, 2], [4, 32, 64, 4], [4, 64, 2, 32]])
MOVES = 120
#: The fixed-priority player: the first legal of down, left, right, up.
PRIORITY = (Direction.DOWN, Direction.LEFT, Direction.RIGHT, Direction.UP)


def solver_game(seed: int, moves: int = MOVES) -> Game:
    game = Game.new(seed)
    while not game.over and game.moves < moves:
        game.move(best_move(game, nodes=REVIEW_NODES))
    return game


def random_game(seed: int, moves: int = MOVES) -> Game:
    rng = random.Random(seed)
    game = Game.new(seed)
    while not game.over and game.moves < moves:
        game.move(rng.choice(game.board.legal_moves()))
    return game


def priority_game(seed: int) -> Game:
    game = Game.new(seed)
    while not game.over:
        game.move(next(d for d in PRIORITY if game.board.can_move(d)))
    return game


def chances_of(review: dict) -> list[float]:
    return [review["start_chance"], *(m["chance"] for m in review["moves"])]


slow = settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.mark.slow  # plays and reviews whole games
@slow
@given(st.integers(0, 2**32 - 1))
def test_the_solvers_own_game_grades_at_least_99_with_no_mistakes(seed: int) -> None:
    review = review_game(solver_game(seed))
    assert review["accuracy"] >= 99
    assert review["grades"]["mistake"] == 0 and review["grades"]["blunder"] == 0
    assert all(m["best"] == m["played"] for m in review["moves"])


@pytest.mark.slow  # reviews whole games
@slow
@given(st.integers(0, 2**32 - 1))
def test_random_moves_grade_at_least_30_points_lower(seed: int) -> None:
    solver_review = review_game(solver_game(seed))
    random_review = review_game(random_game(seed))
    assert random_review["accuracy"] <= solver_review["accuracy"] - 30


def test_playing_the_move_that_ends_the_game_at_once_is_a_blunder() -> None:
    ended = Game.from_board(ENDING, seed=1)
    ended.move("left")
    assert ended.over
    review = review_game(ended)
    (move,) = review["moves"]
    assert move == move | {"n": 1, "played": "left", "grade": "blunder", "loss": 100}
    assert move["best"] in {"up", "right"} and move["chance"] == 0
    # The chance before was not lost (other moves survive), so this move is the turning point.
    assert review["turning_point"]["n"] == 1 and review["turning_point"]["played"] == "left"
    alive = Game.from_board(ENDING, seed=1)
    alive.move(review["moves"][0]["best"])
    assert review_game(alive)["moves"][0]["grade"] == "best"


def test_the_review_is_the_same_every_time_and_on_any_number_of_threads(monkeypatch) -> None:
    game = random_game(5, 60)
    first = review_game(game)
    assert review_game(game) == first
    monkeypatch.setattr(solver, "PARALLEL_NODES", 0)
    for threads in (1, 3):
        monkeypatch.setattr(pools, "THREADS", threads)
        assert review_game(game) == first


def test_the_json_has_the_documented_shape() -> None:
    game = random_game(9, 40)
    review = review_game(game)
    json.dumps(review, allow_nan=False)
    assert set(review) >= {"accuracy", "grades", "turning_point", "moves", "setting"}
    assert 0 <= review["accuracy"] <= 100
    assert list(review["grades"]) == list(GRADES) and sum(review["grades"].values()) == game.moves
    assert review["setting"] == REVIEW_SETTING and review["covers"] == game.moves
    assert [m["n"] for m in review["moves"]] == list(range(1, game.moves + 1))
    assert [m["played"] for m in review["moves"]] == [a.value for a in game.actions]
    for m in review["moves"]:
        assert set(m) >= {"n", "played", "best", "loss", "grade"}
        assert isinstance(m["loss"], int) and 0 <= m["loss"] <= 100
        assert (m["grade"] == "best") == (m["best"] == m["played"])
        assert 0 <= m["chance"] <= 100
    # Judged on the tile above the largest the game reached.
    assert review["target"] == 2 * game.board.max_tile
    assert all(0 <= c <= 100 for c in chances_of(review))


def test_single_tile_moves_are_listed_ungraded() -> None:
    game = Game.new(3, variant="merge")
    for _ in range(6):
        game.move("left")
        board = game.board
        tile = next(c for c, v in enumerate(board.cells) if v and board.move_tile(c, Direction.UP).changed)
        game.move("up", cell=tile)
    review = review_game(game)
    tile_moves = [m for m in review["moves"] if "@" in m["played"]]
    assert len(tile_moves) == 6
    assert all(m["grade"] is None and m["best"] is None and m["loss"] is None for m in tile_moves)
    assert sum(review["grades"].values()) == game.moves - 6


def test_the_review_covers_the_current_line_only() -> None:
    game = random_game(2, 30)
    game.undo()
    game.undo()
    review = review_game(game)
    assert review["covers"] == game.moves == 28


def test_progress_is_reported_and_a_cancel_stops_the_review() -> None:
    game = random_game(4, 20)
    seen: list[tuple[int, int]] = []
    review_game(game, progress=lambda done, total: seen.append((done, total)))
    assert seen == [(n, 20) for n in range(1, 21)]
    with pytest.raises(ReviewCancelledError):
        review_game(game, cancelled=lambda: len(seen) > 25, progress=lambda d, t: seen.append((d, t)))
    assert len(seen) == 26


def test_a_position_where_every_move_ends_the_game_has_chance_0() -> None:
    assert DEAD_END.legal_moves() and Chances(128, 0).chance(DEAD_END, 0) == 0
    game = Game.from_board(DEAD_END, seed=1)
    game.move("up")
    review = review_game(game)
    assert review["target"] == 128 and chances_of(review) == [0, 0]
    assert review["turning_point"] is None


def test_a_fixed_priority_game_starts_with_a_high_chance_and_ends_with_none() -> None:
    game = priority_game(2)
    review = review_game(game)
    chances = chances_of(review)
    assert review["target"] == 2 * game.board.max_tile == 256
    assert chances[0] >= 90 and chances[-1] == 0
    turn = review["turning_point"]
    falls = [a - b for a, b in itertools.pairwise(chances)]
    assert turn["fall"] == round(max(falls), 1) and turn["n"] == falls.index(max(falls)) + 1


def test_an_empty_line_has_no_accuracy_and_no_turning_point() -> None:
    review = review_game(Game.new(1))
    assert review["accuracy"] is None and review["turning_point"] is None and review["moves"] == []
    assert review["target"] == 2 * Game.new(1).board.max_tile and review["start_chance"] == 100


@given(st.lists(st.floats(0, 100, allow_nan=False), min_size=1, max_size=30), st.floats(0, 100))
def test_the_turning_point_is_the_first_steepest_fall_of_the_chance(
    chances: list[float], start: float
) -> None:
    moves = [MoveReview(n, "left", "left", 0, Grade.BEST, c) for n, c in enumerate(chances, start=1)]
    falls = [b - a for b, a in zip([start, *chances], chances, strict=False)]
    turn = summarise(moves, start, 512)["turning_point"]
    if max(falls) < TURNING_POINT_DROP:
        assert turn is None
    else:
        assert turn["n"] == falls.index(max(falls)) + 1
        assert turn["fall"] == round(max(falls), 1)


#: The review of ``random_game(5, 60)`` at each review setting, as a digest of its JSON.
RECORDED = {
    '{"chance":{"cap":4000,"continuations":64,"depth":1,"streams":8264},"nodes":100000,"solver":1}': (
        "10c5e1b78614d0c649a64c2910d54577ca581c56af7978b7c7c0928a0b592b4d"
    ),
}


def test_a_changed_review_comes_with_a_new_setting() -> None:
    # Stored reviews name the setting they were made at (the solver version in it) and are
    # recomputed under another, so a change that gives any review other values must change the
    # setting: bump SOLVER_VERSION for the search, change CHANCE_SETTING for the chance (and record).
    review = review_game(random_game(5, 60))
    digest = hashlib.sha256(json.dumps(review, sort_keys=True).encode()).hexdigest()
    assert RECORDED.get(setting_text(REVIEW_SETTING)) == digest, "the review changed: change its setting"
