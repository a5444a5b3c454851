"""The review API against the real app: the job lifecycle in a real background process, the stored
review, the queue and the per-player limit, cancelling, another player's game, a game that moves on."""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from test_ai_review import random_game
from twenty48.ai import best_move
from twenty48.ai.review import REVIEW_SETTING, review_game
from twenty48.game import Game
from twenty48.rules import Board
from twenty48.store import Store
from twenty48.web import create_app
from twenty48.web.guard import COOKIE_NAME
from twenty48.web.limits import Limits
from twenty48.web.review_models import ReviewStatus
from twenty48.web.review_worker import _DONE, REVIEW_NICENESS

# Each review runs in the server's background process.
pytestmark = pytest.mark.integration

#: The review job's own fields; a done review's follow them.
JOB = {"game_id", "state", "done", "total", "current"}


def long_game(seed: int, moves: int = 1500) -> Game:
    """A game whose review takes seconds, so that it is still under way when the test acts."""
    game = Game.new(seed)
    while not game.over and game.moves < moves:
        game.move(best_move(game, depth=1))
    return game


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory):
    with Store.open(Path(tmp_path_factory.mktemp("review")) / "web.sqlite3") as s:
        yield s


@pytest.fixture(scope="module")
def client(store: Store):
    # One app for the module: its review process starts once (a second or two) and stays warm.
    with TestClient(create_app(store, limits=Limits(review_queue=2))) as c:
        yield c


def new_player(client: TestClient, store: Store, game: Game) -> int:
    """A fresh player (a new cookie) whose current game is ``game``; returns the game's id."""
    client.cookies.clear()
    client.get("/api/game")
    player = store.web_player(client.cookies[COOKIE_NAME]).id
    return store.add_game(player, game).id


def wait_for(client: TestClient, game_id: int, states: set[str], seconds: float = 120.0) -> dict:
    deadline = time.monotonic() + seconds
    while True:
        answer = client.get(f"/api/games/{game_id}/review")
        assert answer.status_code == 200, answer.text
        body = answer.json()
        if body["state"] in states or time.monotonic() > deadline:
            return body
        time.sleep(0.1)


def idle(client: TestClient) -> None:
    """Wait until this server's review queue is empty (a cancelled job stops within a move)."""
    deadline = time.monotonic() + 30
    while client.app.state.web.reviews.pending and time.monotonic() < deadline:
        time.sleep(0.05)


def graded_so_far(client: TestClient) -> Callable[[], int]:
    """How many moves the server's review process has graded of the job it runs (or ran last)."""
    _, shared = client.app.state.web.reviews._child()
    return lambda: int(shared[_DONE])


@pytest.fixture(autouse=True)
def quiet_queue(client: TestClient) -> None:
    # Each test starts with this server's review queue empty (the module shares one server).
    idle(client)


def test_a_review_runs_in_the_background_and_is_stored(client, store) -> None:
    game = random_game(1, 80)
    game_id = new_player(client, store, game)
    missing = client.get(f"/api/games/{game_id}/review")
    assert missing.status_code == 404 and missing.json()["error"] == "no_review"
    asked = client.post(f"/api/games/{game_id}/review")
    assert asked.status_code == 202, asked.text
    assert asked.json() == {
        "game_id": game_id,
        "state": "queued",
        "done": 0,
        "total": 80,
        "current": False,
    }
    done = wait_for(client, game_id, {"done", "failed"})
    ReviewStatus.model_validate(done)
    assert done["state"] == "done" and done["done"] == done["total"] == 80 and done["current"]
    # The job's fields, then the review's own: the object `2048 review --json` prints.
    assert {k: v for k, v in done.items() if k not in JOB} == review_game(game)
    assert done["setting"] == REVIEW_SETTING
    # Stored: asking again answers the review at once.
    again = client.post(f"/api/games/{game_id}/review")
    assert again.status_code == 200 and again.json() == done


def test_progress_is_visible_and_a_review_can_be_cancelled(client, store) -> None:
    game_id = new_player(client, store, long_game(2))
    assert client.post(f"/api/games/{game_id}/review").status_code == 202
    running = wait_for(client, game_id, {"running"})
    assert running["state"] == "running" and "moves" not in running
    # Asking again while it runs answers the same job.
    assert client.post(f"/api/games/{game_id}/review").json()["state"] == "running"
    cancelled = client.delete(f"/api/games/{game_id}/review")
    assert cancelled.status_code == 200 and cancelled.json()["state"] == "cancelled"
    assert cancelled.json()["done"] < cancelled.json()["total"]
    idle(client)  # the job has stopped: nothing it did on its way out undid the cancel
    assert client.get(f"/api/games/{game_id}/review").json()["state"] == "cancelled"
    # The player may ask again: a new job.
    assert client.post(f"/api/games/{game_id}/review").status_code == 202
    assert client.delete(f"/api/games/{game_id}/review").json()["state"] == "cancelled"


def test_one_review_at_a_time_per_player_and_a_bounded_queue(client, store) -> None:
    first = new_player(client, store, long_game(3))
    assert client.post(f"/api/games/{first}/review").status_code == 202
    player = store.web_player(client.cookies[COOKIE_NAME]).id
    second = store.add_game(player, random_game(4, 10)).id
    busy = client.post(f"/api/games/{second}/review")
    assert busy.status_code == 429 and busy.json()["error"] == "review_in_progress"
    assert int(busy.headers["Retry-After"]) >= 1
    mine = dict(client.cookies)
    # The queue holds two (Limits above): another player's job fills it, a third is refused.
    other = new_player(client, store, random_game(5, 30))
    assert client.post(f"/api/games/{other}/review").status_code == 202
    third = new_player(client, store, random_game(6, 30))
    full = client.post(f"/api/games/{third}/review")
    assert full.status_code == 503 and full.json()["error"] == "reviews_busy"
    assert int(full.headers["Retry-After"]) >= 1
    assert client.get(f"/api/games/{third}/review").json()["error"] == "no_review"
    client.cookies.clear()
    client.cookies.update(mine)
    assert client.delete(f"/api/games/{first}/review").json()["state"] == "cancelled"


def test_the_review_process_runs_at_the_lowest_priority(client) -> None:
    pool, _ = client.app.state.web.reviews._child()
    assert pool.submit(os.nice, 0).result() == REVIEW_NICENESS == 19


def test_another_players_game_is_not_found(client, store) -> None:
    theirs = new_player(client, store, random_game(7, 10))
    assert client.post(f"/api/games/{theirs}/review").status_code == 202
    new_player(client, store, random_game(8, 10))
    for method in ("post", "get", "delete"):
        answer = getattr(client, method)(f"/api/games/{theirs}/review")
        assert answer.status_code == 404 and answer.json()["error"] == "not_found"


def test_reviewing_a_ranked_game_in_progress_unranks_it(client, store) -> None:
    client.cookies.clear()
    state = client.post("/api/games", json={}).json()
    assert state["ranked"] and state["seed"] is None
    for _ in range(3):
        direction = Board.from_rows(state["board"]).legal_moves()[0].value
        body = {"direction": direction, "revision": state["revision"]}
        state = client.post(f"/api/games/{state['id']}/move", json=body).json()["state"]
    # The current game so far is reviewed; the solver's view of it is help for the moves to come,
    # so the game leaves the leaderboards for good, as after a hint.
    assert client.post(f"/api/games/{state['id']}/review").status_code == 202
    after = client.get(f"/api/games/{state['id']}").json()
    assert not after["ranked"] and after["seed"] is not None
    done = wait_for(client, state["id"], {"done"})
    assert [m["n"] for m in done["moves"]] == [1, 2, 3]
    idle(client)


def test_a_game_that_moves_on_while_reviewed_is_covered_up_to_the_request(client, store) -> None:
    game = random_game(9, 40)
    game_id = new_player(client, store, game)
    state = client.get(f"/api/games/{game_id}").json()
    assert client.post(f"/api/games/{game_id}/review").status_code == 202
    direction = next(d.value for d in game.board.legal_moves())
    moved = client.post(
        f"/api/games/{game_id}/move", json={"direction": direction, "revision": state["revision"]}
    )
    assert moved.status_code == 200
    done = wait_for(client, game_id, {"done", "failed"})
    assert done["state"] == "done" and done["total"] == 40 and done["covers"] == 40
    assert not done["current"] and {k: v for k, v in done.items() if k not in JOB} == review_game(game)
    # Asking again reviews the game as it is now.
    again = client.post(f"/api/games/{game_id}/review")
    assert again.status_code == 202 and again.json()["total"] == 41


def test_the_openapi_schema_documents_the_review(client) -> None:
    schema = client.get("/openapi.json").json()
    paths = schema["paths"]["/api/games/{game_id}/review"]
    assert set(paths) >= {"post", "get", "delete"}
    assert "ReviewStatus" in schema["components"]["schemas"]
    assert {"202", "200", "429", "503"} <= set(paths["post"]["responses"])


def test_shutdown_is_prompt_and_marks_the_running_review_failed(tmp_path) -> None:
    with Store.open(tmp_path / "web.sqlite3") as store:
        with TestClient(create_app(store)) as client:
            game_id = new_player(client, store, long_game(11, 2500))
            assert client.post(f"/api/games/{game_id}/review").status_code == 202
            total = wait_for(client, game_id, {"running"})["total"]
            player = store.web_player(client.cookies[COOKIE_NAME]).id
            graded = graded_so_far(client)
        # Shutting down waits for the child: it stopped at its next move, far from the game's end.
        assert graded() < total
        assert store.review_status(player, game_id, REVIEW_SETTING).state == "failed"


def test_two_server_processes_on_postgresql_share_the_job(postgres_url: str) -> None:
    """What ``serve --workers 2`` does: the job runs in one process; the other answers its progress
    and cancels it."""
    from twenty48.store import open_store

    with (
        open_store(postgres_url) as first,
        open_store(postgres_url) as second,
        TestClient(create_app(first)) as a,
        TestClient(create_app(second)) as b,
    ):
        game_id = new_player(a, first, long_game(12, 2500))
        b.cookies.update(dict(a.cookies))
        assert a.post(f"/api/games/{game_id}/review").status_code == 202
        running = wait_for(b, game_id, {"running"})
        assert running["state"] == "running"
        assert b.post(f"/api/games/{game_id}/review").json()["state"] == "running"  # the same job
        assert b.delete(f"/api/games/{game_id}/review").json()["state"] == "cancelled"
        # The process running it learns it from the store (within a report) and stops at once, long
        # before the review would have finished.
        graded = graded_so_far(a)
        idle(a)
        assert a.app.state.web.reviews.pending == 0 and graded() < running["total"]
        assert a.get(f"/api/games/{game_id}/review").json()["state"] == "cancelled"
