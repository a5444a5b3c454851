"""Stored reviews and review jobs, on both backends, shared by two stores on one database as by two
server processes (``twenty48.store.reviews``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from twenty48.game import Game
from twenty48.store import GameNotFoundError, open_store
from twenty48.store.reviews.operations import STALE_S

SETTING = {"nodes": 100, "solver": 1}
REVIEW = {"accuracy": 90.0, "covers": 2, "moves": [], "setting": SETTING}


@pytest.fixture
def stores(location: Path | str):
    with open_store(location) as first, open_store(location) as second:
        yield first, second


def played(store, player: int, moves: int = 2) -> int:
    game = Game.new(5)
    for direction in ["left", "right", "up", "down"] * moves:
        if game.moves == moves:
            break
        game.move(direction)
    return store.add_game(player, game).id


def test_a_job_runs_to_a_stored_review_that_answers_at_once(stores) -> None:
    first, second = stores
    me = first.local_player().id
    game = played(first, me)
    assert first.review_status(me, game, SETTING) is None
    asked = first.request_review(me, game, SETTING, now=100.0)
    assert asked.outcome == "queued" and asked.game is not None
    assert len(asked.game["actions"]) == 2
    job = asked.record.job
    assert (asked.record.state, asked.record.done, asked.record.total) == ("queued", 0, 2)
    # Asking again, from another process, finds the job under way.
    again = second.request_review(me, game, SETTING, now=101.0)
    assert again.outcome == "pending" and again.record.job == job
    assert first.start_review(game, job, now=102.0)
    assert first.review_progress(game, job, 1, now=103.0)
    status = second.review_status(me, game, SETTING, now=104.0)
    assert (status.state, status.done, status.total, status.review) == ("running", 1, 2, None)
    assert first.finish_review(game, job, REVIEW, now=105.0)
    done = second.review_status(me, game, SETTING, now=106.0)
    assert (done.state, done.done, done.current, done.review) == ("done", 2, True, REVIEW)
    current = second.request_review(me, game, SETTING, now=107.0)
    assert current.outcome == "current" and current.record.review == REVIEW


def test_another_setting_or_a_changed_game_is_recomputed(stores) -> None:
    first, _ = stores
    me = first.local_player().id
    game = played(first, me)
    job = first.request_review(me, game, SETTING).record.job
    first.start_review(game, job)
    first.finish_review(game, job, REVIEW)
    newer = {**SETTING, "solver": 2}
    assert not first.review_status(me, game, newer).current
    assert first.request_review(me, game, newer).outcome == "queued"
    # The stored review of the game as it was stays readable, but is not current once it moves on.
    job = first.request_review(me, game, newer).record.job
    first.start_review(game, job)
    first.finish_review(game, job, REVIEW)
    board = first.get_game(me, game).board
    first.move(me, game, next(d for d in board.legal_moves()).value)
    status = first.review_status(me, game, newer)
    assert status.state == "done" and not status.current and status.total == 2
    asked = first.request_review(me, game, newer)
    assert asked.outcome == "queued" and asked.record.total == 3


def test_one_review_at_a_time_per_player(stores) -> None:
    first, second = stores
    me, other = first.local_player().id, first.local_player("other").id
    a, b = played(first, me), played(first, me)
    theirs = played(first, other)
    assert first.request_review(me, a, SETTING, now=10.0).outcome == "queued"
    assert second.request_review(me, b, SETTING, now=11.0).outcome == "busy"
    assert second.request_review(other, theirs, SETTING, now=11.0).outcome == "queued"
    # A job whose worker went silent is taken for dead: it reads failed and frees the player.
    assert first.review_status(me, a, SETTING, now=10.0 + STALE_S + 1).state == "failed"
    assert second.request_review(me, b, SETTING, now=10.0 + STALE_S + 1).outcome == "queued"


def test_a_cancelled_job_stops_its_worker(stores) -> None:
    first, second = stores
    me = first.local_player().id
    game = played(first, me)
    job = first.request_review(me, game, SETTING).record.job
    assert first.start_review(game, job)
    assert second.cancel_review(me, game, SETTING).state == "cancelled"
    assert not first.review_progress(game, job, 1)
    assert not first.finish_review(game, job, REVIEW)
    assert first.review_status(me, game, SETTING).state == "cancelled"
    # Cancelled before it starts: it never starts.
    job = first.request_review(me, game, SETTING).record.job
    second.cancel_review(me, game, SETTING)
    assert not first.start_review(game, job)
    # A replaced job's worker cannot write over the new one.
    old = first.request_review(me, game, SETTING).record.job
    first.fail_review(game, old)
    assert first.review_status(me, game, SETTING).state == "failed"
    new = first.request_review(me, game, SETTING).record.job
    assert new != old and not first.start_review(game, old) and first.start_review(game, new)


def test_another_players_game_is_not_found(stores) -> None:
    first, _ = stores
    me, other = first.local_player().id, first.local_player("other").id
    theirs = played(first, other)
    for call in (first.request_review, first.review_status, first.cancel_review):
        with pytest.raises(GameNotFoundError):
            call(me, theirs, SETTING)


def test_a_deleted_game_takes_its_review_with_it(stores) -> None:
    first, _ = stores
    me = first.local_player().id
    game = played(first, me)
    first.request_review(me, game, SETTING)
    first.delete_game(me, game)
    with pytest.raises(GameNotFoundError):
        first.review_status(me, game, SETTING)
