"""The history API over HTTP against the real app: positions, stats, delete, export/import, ownership."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from twenty48.rules import Board
from twenty48.store import ID_LIMIT, Store
from twenty48.web import create_app
from twenty48.web.guard import COOKIE_NAME, MAX_IMPORT_BODY
from twenty48.web.history_models import PositionsAnswer

# The app over HTTP (a TestClient): integration, not in `pytest -m unit`.
pytestmark = pytest.mark.integration


@pytest.fixture
def store(tmp_path: Path):
    with Store.open(tmp_path / "api.sqlite3") as s:
        yield s


@pytest.fixture
def client(store: Store):
    with TestClient(create_app(store)) as c:
        yield c


def play(client: TestClient, moves: int, auto: bool = False) -> dict:
    state = client.post("/api/games", json={"seed": 3}).json()
    for _ in range(moves):
        direction = Board.from_rows(state["board"]).legal_moves()[0].value
        body = {"direction": direction, "revision": state["revision"], "auto": auto}
        state = client.post(f"/api/games/{state['id']}/move", json=body).json()["state"]
        if state["over"]:
            break
    return state


def test_positions_pages_and_bounds(client: TestClient, store: Store) -> None:
    state = play(client, 30)
    answer = client.get(f"/api/games/{state['id']}/positions", params={"from": 0, "count": 1000}).json()
    # Written without the model, but in its shape, and equal to the store's positions.
    assert PositionsAnswer.model_validate(answer).model_dump(mode="json") == answer
    player = store.web_player(client.cookies[COOKIE_NAME]).id
    expected = store.positions(player, state["id"], 0, 1000).positions
    assert len(expected) == len(answer["positions"])
    for item, position in zip(answer["positions"], expected, strict=True):
        assert item["board"] == [list(r) for r in position.board.rows]
        assert [tuple(s) for s in item["slides"]] == list(position.slides)
        assert item["merges"] == list(position.merges)
        assert (item["spawn"] and (item["spawn"]["cell"], item["spawn"]["value"])) == position.spawn
    assert answer["game_id"] == state["id"] and answer["total"] == state["moves"] + 1
    assert answer["positions"][0]["slides"] == [] and answer["positions"][0]["spawn"] is None
    assert answer["positions"][-1]["board"] == state["board"]
    assert answer["positions"][-1]["score"] == state["score"]
    page = client.get(f"/api/games/{state['id']}/positions", params={"from": 5, "count": 3}).json()
    assert [p["move"] for p in page["positions"]] == [5, 6, 7]
    past = client.get(f"/api/games/{state['id']}/positions", params={"from": 10_000}).json()
    assert past["positions"] == []
    last = client.get(f"/api/games/{state['id']}/positions", params={"from": ID_LIMIT, "count": 1000})
    assert last.status_code == 200 and last.json()["positions"] == []
    for params in ({"from": -1}, {"count": 0}, {"count": 1001}, {"from": ID_LIMIT + 1}, {"from": "1_0"}):
        assert client.get(f"/api/games/{state['id']}/positions", params=params).status_code == 422


def test_another_players_game_is_a_404_everywhere(client: TestClient, store: Store) -> None:
    state = play(client, 3)
    with TestClient(client.app) as other:
        for method, url in (
            ("GET", f"/api/games/{state['id']}/positions"),
            ("GET", f"/api/games/{state['id']}/export"),
            ("DELETE", f"/api/games/{state['id']}"),
        ):
            assert other.request(method, url).status_code == 404
        assert all(g["id"] != state["id"] for g in other.get("/api/games").json()["games"])


def test_list_summaries_stats_and_assisted_counts(client: TestClient) -> None:
    play(client, 5, auto=True)
    state = play(client, 5)
    client.post(f"/api/games/{state['id']}/hint", params={"time_ms": 10})
    games = client.get("/api/games", params={"sort": "score", "finished": "true"}).json()["games"]
    assert len(games) == 1 and games[0]["auto_moves"] == 5 and games[0]["assisted"] is True
    # Left for a new game after 5 moves: finished, but abandoned, not ended.
    assert (games[0]["finished"], games[0]["status"]) == (True, "abandoned")
    current = client.get("/api/games", params={"finished": "false"}).json()["games"][0]
    assert (current["hints"], current["imported"], current["status"]) == (1, False, "playing")
    assert client.get("/api/games", params={"sort": "moves"}).status_code == 422
    stats = client.get("/api/stats").json()
    counts = ("games", "finished", "ended", "abandoned_games", "counted", "assisted", "abandoned")
    assert [stats[k] for k in counts] == [2, 1, 0, 1, 0, "include", "exclude"]
    assert (stats["reach"], stats["mean"], stats["recent"]) == ({}, None, [])
    everything = client.get("/api/stats", params={"abandoned": "include"}).json()
    assert (everything["counted"], everything["recent"], everything["abandoned"]) == (
        1,
        [games[0]["score"]],
        "include",
    )
    # Five moves make no 128: the smallest tile reported, with its rate 0.
    assert everything["reach"] == {"128": 0.0} and everything["streak"] == {"current": 0, "best": 0}
    unassisted = client.get("/api/stats", params={"assisted": "exclude", "abandoned": "include"}).json()
    assert unassisted["finished"] == unassisted["counted"] == 0
    for wrong in ({"assisted": "maybe"}, {"abandoned": "yes"}):
        assert client.get("/api/stats", params=wrong).status_code == 422


def test_auto_plays_hints_count_as_its_moves_not_as_hints(client: TestClient) -> None:
    state = client.post("/api/games", json={"seed": 3}).json()
    assert client.post(f"/api/games/{state['id']}/hint", params={"time_ms": 10}).status_code == 200
    for _ in range(4):
        hint = client.post(f"/api/games/{state['id']}/hint", params={"time_ms": 10, "auto": "true"}).json()
        body = {"direction": hint["best"], "revision": state["revision"], "auto": True}
        state = client.post(f"/api/games/{state['id']}/move", json=body).json()["state"]
    game = client.get("/api/games").json()["games"][0]
    assert (game["hints"], game["auto_moves"], game["assisted"]) == (1, 4, True)


def test_export_import_and_delete(client: TestClient) -> None:
    state = play(client, 12)
    exported = client.get("/api/export")
    assert exported.headers["content-disposition"].startswith("attachment")
    with TestClient(client.app) as other:
        answer = other.post("/api/import", content=exported.content).json()
        assert len(answer["imported"]) == 1 and answer["skipped"] == 0
        again = other.post("/api/import", content=exported.content).json()
        assert again == {"imported": [], "skipped": 1, "resumed": None}
        file = json.loads(client.get(f"/api/games/{state['id']}/export").content)
        file["score"] += 4
        refused = other.post("/api/import", json=file)
        assert refused.status_code == 422 and refused.json()["error"] == "import_refused"
        assert "the game (seed 3)" in refused.json()["detail"]
        # Not JSON, an integer past Python's digit limit, arrays nested past the recursion limit.
        for body in (b"{not json", b'{"seed": ' + b"1" * 5000 + b"}", b"[" * 200_000):
            malformed = other.post("/api/import", content=body)
            assert (malformed.status_code, malformed.json()["error"]) == (400, "malformed_json")
        too_big = other.post("/api/import", content=b" " * (MAX_IMPORT_BODY + 1))
        assert too_big.status_code == 413
    assert client.delete(f"/api/games/{state['id']}").status_code == 204
    assert client.get(f"/api/games/{state['id']}").status_code == 404
    assert client.get("/api/game").json()["id"] > state["id"]


def test_import_takes_a_multipart_upload_too(client: TestClient) -> None:
    play(client, 12)
    exported = client.get("/api/export").content
    with TestClient(client.app) as other:
        # As `curl -F file=@twenty48-history.json` sends it: one file part, beside a plain field.
        form = {"note": "from my laptop"}
        upload = {"file": ("twenty48-history.json", exported, "application/json")}
        answer = other.post("/api/import", data=form, files=upload)
        assert answer.status_code == 200 and len(answer.json()["imported"]) == 1
        again = other.post("/api/import", files=upload).json()
        assert again == {"imported": [], "skipped": 1, "resumed": None}
        broken = other.post("/api/import", files={"file": ("x.json", b"{not json", "application/json")})
        assert (broken.status_code, broken.json()["error"]) == (400, "malformed_json")
        empty = other.post(
            "/api/import", content=b"--b--\r\n", headers={"content-type": "multipart/form-data; boundary=b"}
        )
        assert (empty.status_code, empty.json()["error"]) == (400, "malformed_upload")
        # The game was in progress when exported, and the importing player had none: it goes on.
        listed = other.get("/api/games").json()["games"]
        assert [game["id"] for game in listed if game["current"]] == answer.json()["imported"]
        assert answer.json()["resumed"] == answer.json()["imported"][0]
