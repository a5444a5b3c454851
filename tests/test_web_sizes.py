"""Board sizes through the HTTP API, on both store backends (``location``): a 3x3 ranked game
played to its end and on the 3x3 board only, statistics and best scores per size, sizes out of
range refused, replays and positions of the size, a 5x5 game exported and imported."""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from test_web_ranked import play_out
from twenty48.game import Game
from twenty48.rules import Board, BoardSize
from twenty48.store import Store, open_store
from twenty48.web import create_app
from twenty48.web.limits import Limits

# The app over HTTP (a TestClient): integration, not in `pytest -m unit`.
pytestmark = pytest.mark.integration

#: Moves that a game of any size plays a while before it ends.
PREFERENCE = ("up", "left", "right", "down")


@pytest.fixture
def store(location: Path | str):
    with open_store(location) as s:
        yield s


@pytest.fixture
def client(store: Store):
    with TestClient(create_app(store, limits=Limits(new_games_per_minute=1000))) as c:
        yield c


def new_game(client: TestClient, **body: object) -> dict:
    answer = client.post("/api/games", json=body)
    assert answer.status_code == 201, answer.text
    return answer.json()


def test_a_ranked_3x3_game_is_played_to_its_end_and_ranks_on_the_3x3_board(client: TestClient) -> None:
    assert client.put("/api/me", json={"name": "Ada"}).status_code == 200
    state = new_game(client, size="3x3")
    assert (state["size"], state["ranked"], state["win_tile"]) == ("3x3", True, BoardSize(3, 3).win_tile)
    assert [len(row) for row in state["board"]] == [3, 3, 3]
    assert all(len(f["slides"]) == 2 for f in state["forecast"].values())  # the two starting tiles
    ended = play_out(client, state)
    assert ended["size"] == "3x3" and ended["ranked"] and ended["over"]
    three = client.get("/api/leaderboard", params={"board": "all-time", "variant": "classic", "size": "3x3"})
    assert three.status_code == 200, three.text
    assert three.json()["size"] == "3x3"
    assert [(e["game_id"], e["score"]) for e in three.json()["entries"]] == [(state["id"], ended["score"])]
    assert three.json()["me"]["rank"] == 1
    official = client.get("/api/leaderboard", params={"board": "all-time"}).json()
    assert (official["size"], official["entries"], official["me"]) == ("4x4", [], None)
    # Its replay and positions are of its size, for its player and for anyone.
    replay = client.get(f"/api/games/{state['id']}/replay").json()
    assert replay["size"] == "3x3"
    rebuilt = Game.replay(bytes.fromhex(replay["seed"]), replay["actions"], size=replay["size"])
    assert rebuilt.board == Board.from_rows(ended["board"])
    assert client.get(f"/api/public/games/{state['id']}").json()["size"] == "3x3"
    positions = client.get(f"/api/public/games/{state['id']}/positions", params={"from": 0, "count": 2})
    assert [len(p["board"]) for p in positions.json()["positions"]] == [3, 3]
    listed = client.get("/api/games").json()["games"]
    assert [(g["id"], g["size"]) for g in listed] == [(state["id"], "3x3")]


def test_best_scores_and_statistics_are_per_size(client: TestClient) -> None:
    small = play_out(client, new_game(client, seed=3, size="3x3"))
    assert client.get("/api/best", params={"size": "3x3"}).json() == {
        "variant": "classic",
        "size": "3x3",
        "best": small["score"],
    }
    assert client.get("/api/best").json()["best"] == 0
    stats = client.get("/api/stats", params={"variant": "classic", "size": "3x3"}).json()
    assert (stats["size"], stats["games"], stats["counted"], stats["best"]) == ("3x3", 1, 1, small["score"])
    official = client.get("/api/stats").json()
    assert (official["size"], official["counted"], official["best"]) == ("4x4", 0, None)
    # A game of the official board answers with its own best, not the 3x3's.
    assert new_game(client, seed=4)["best"] == 0
    assert client.get("/api/stats", params={"size": "5x5"}).json()["games"] == 0


@pytest.mark.parametrize("size", ["7x7", "4x", "0x4", "4x4x4", "", "four"])
def test_a_size_out_of_range_is_422_naming_the_range(client: TestClient, size: str) -> None:
    for answer in (
        client.post("/api/games", json={"size": size}),
        client.get("/api/stats", params={"size": size}),
        client.get("/api/best", params={"size": size}),
        client.get("/api/leaderboard", params={"size": size}),
    ):
        assert answer.status_code == 422, answer.text
        body = answer.json()
        assert body["error"] == "invalid_request" and "from 2 to 6" in body["detail"], body
    assert client.get("/api/games").json()["games"] == []
    refused = client.post("/api/games", json={"size": 33})
    assert refused.status_code == 422 and refused.json()["error"] == "invalid_request"


def test_the_daily_challenge_is_4x4_only(client: TestClient) -> None:
    refused = client.post("/api/games", json={"daily": True, "size": "3x3"})
    assert refused.status_code == 422 and "4x4" in refused.json()["detail"]
    daily = client.get("/api/leaderboard", params={"board": "daily", "size": "5x5"})
    assert daily.status_code == 422 and "4x4" in daily.json()["detail"]
    assert new_game(client, daily=True, size="4X4")["size"] == "4x4"


def test_a_cell_past_the_games_board_is_422_and_changes_nothing(client: TestClient) -> None:
    state = new_game(client, seed=5, variant="merge", size="5x5")
    cell = next(i for i, v in enumerate(Board.from_rows(state["board"]).cells) if v and i >= 5)
    moved = client.post(
        f"/api/games/{state['id']}/move", json={"direction": "up", "cell": cell, "revision": 0}
    )
    assert moved.status_code == 200 and moved.json()["changed"], moved.text
    small = new_game(client, seed=5, variant="merge", size="2x4")
    refused = client.post(
        f"/api/games/{small['id']}/move", json={"direction": "up", "cell": 8, "revision": 0}
    )
    assert refused.status_code == 422, refused.text
    assert refused.json()["error"] == "invalid_request" and "0-7 on a 2x4 board" in refused.json()["detail"]
    assert client.get(f"/api/games/{small['id']}").json()["revision"] == 0


def test_a_5x5_game_round_trips_through_export_and_import(client: TestClient) -> None:
    state = new_game(client, seed=8, size="5x5")
    for direction in PREFERENCE * 6:
        answer = client.post(
            f"/api/games/{state['id']}/move", json={"direction": direction, "revision": state["revision"]}
        ).json()
        state = answer["state"]
    exported = client.get(f"/api/games/{state['id']}/export").json()
    assert exported["size"] == "5x5" and exported["board"] == state["board"]
    with TestClient(client.app) as other:
        answer = other.post("/api/import", json=exported)
        assert answer.status_code == 200, answer.text
        (game_id,) = answer.json()["imported"]
        copy = other.get(f"/api/games/{game_id}").json()
        assert (copy["size"], copy["board"], copy["score"]) == ("5x5", state["board"], state["score"])
        assert [g["size"] for g in other.get("/api/games").json()["games"]] == ["5x5"]
        history = other.get("/api/export").json()
        assert [g["size"] for g in history["games"]] == ["5x5"]


def test_the_api_documents_the_size(client: TestClient) -> None:
    schemas = client.get("/openapi.json").json()["components"]["schemas"]
    requested = schemas["NewGameRequest"]["properties"]["size"]
    assert requested["default"] == "4x4" and "from 2 to 6" in requested["description"]
    for model in (
        "GameState",
        "GameListItem",
        "ReplayAnswer",
        "StatsAnswer",
        "BestScore",
        "LeaderboardAnswer",
    ):
        assert "size" in schemas[model]["required"], model
    paths = client.get("/openapi.json").json()["paths"]
    for path in ("/api/stats", "/api/best", "/api/leaderboard"):
        assert "size" in {p["name"] for p in paths[path]["get"]["parameters"]}, path
