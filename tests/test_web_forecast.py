"""The forecast every game state carries: each legal whole-board move's slides and merges, as the
rules make them, and nothing of the spawn that follows (HTTP tests against the real app)."""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from hypothesis import given, settings
from hypothesis import strategies as st

from twenty48.game import Game
from twenty48.rules import Board, Direction
from twenty48.store import Store
from twenty48.web import create_app
from twenty48.web.guard import COOKIE_NAME

# The app over HTTP (a TestClient): integration, not in `pytest -m unit`.
pytestmark = pytest.mark.integration

tiles = st.sampled_from([0, 0, 0, 0, 2, 2, 4, 4, 8, 16, 128, 2048, 32768])
# At least one tile: a game in play always has one.
boards = st.lists(tiles, min_size=16, max_size=16).filter(any).map(Board.from_cells)
OVER = Board.from_rows([[2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4], [4, 2, 4, 2]])


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    # Module-scoped (hypothesis reruns a test body, not its function-scoped fixtures): every example
    # adds a game of its own for the same player, which becomes the current one.
    with (
        tempfile.TemporaryDirectory() as directory,
        Store.open(Path(directory) / "web.sqlite3") as store,
        TestClient(create_app(store)) as c,
    ):
        c.get("/api/best")
        yield c


def start(client: TestClient, board: Board, seed: int = 1) -> dict:
    store: Store = client.app.state.web.store
    player = store.web_player(client.cookies[COOKIE_NAME]).id
    store.add_game(player, Game.from_board(board, seed=seed))
    state: dict = client.get("/api/game").json()
    return state


def expected(board: Board) -> dict:
    return {
        d.value: {"slides": [list(s) for s in m.slides], "merges": list(m.merges)}
        for d in Direction
        if (m := board.move(d)).changed
    }


@settings(max_examples=150, deadline=None)
@given(board=boards, seed=st.integers(0, 2**53 - 1))
def test_the_forecast_is_the_rules_slides_of_each_legal_direction(
    client: TestClient, board: Board, seed: int
) -> None:
    state = start(client, board, seed)
    assert state["forecast"] == expected(board)
    # An illegal direction has no entry; an over board has none at all.
    assert set(state["forecast"]) == {d.value for d in board.legal_moves()}


@settings(max_examples=40, deadline=None)
@given(board=boards, seeds=st.tuples(st.integers(0, 2**53 - 1), st.integers(0, 2**53 - 1)))
def test_the_forecast_carries_no_spawn(client: TestClient, board: Board, seeds: tuple[int, int]) -> None:
    # The same board under two seeds (two different futures of spawns) forecasts the same:
    # nothing in it depends on what will appear.
    first, second = (start(client, board, seed) for seed in seeds)
    assert first["forecast"] == second["forecast"]
    for entry in first["forecast"].values():
        assert set(entry) == {"slides", "merges"}
        # Only the tiles on the board move: no slide starts on an empty cell.
        assert all(board.cells[src] for src, _ in entry["slides"])


@settings(max_examples=40, deadline=None)
@given(board=boards, seed=st.integers(0, 2**53 - 1))
def test_a_move_answers_what_its_forecast_said_and_adds_the_spawn(
    client: TestClient, board: Board, seed: int
) -> None:
    state = start(client, board, seed)
    for direction, entry in state["forecast"].items():
        body = {"direction": direction, "revision": state["revision"]}
        answer = client.post(f"/api/games/{state['id']}/move", json=body).json()
        assert answer["changed"]
        assert (answer["slides"], answer["merges"]) == (entry["slides"], entry["merges"])
        # The answer's own state forecasts the board after the spawn.
        after = Board.from_rows(answer["state"]["board"])
        assert answer["state"]["forecast"] == expected(after)
        client.post(f"/api/games/{state['id']}/undo", json={"revision": answer["state"]["revision"]})
        state = client.get("/api/game").json()


def test_a_finished_game_forecasts_nothing(client: TestClient) -> None:
    over = start(client, OVER)
    assert over["over"] and over["forecast"] == {}
    played = start(client, Board.from_rows([[2, 2, 0, 0], [0] * 4, [0] * 4, [0] * 4]))
    assert set(played["forecast"]) == {"down", "left", "right"}
    client.post("/api/games", json={"seed": 5})  # replaces `played`: no more moves accepted there
    replaced = client.get(f"/api/games/{played['id']}").json()
    assert replaced["finished"] and replaced["forecast"] == {}


def test_a_refused_move_answers_the_current_forecast(client: TestClient) -> None:
    state = start(client, Board.from_rows([[2, 2, 0, 0], [0] * 4, [0] * 4, [0] * 4]))
    body = {"direction": "left", "revision": state["revision"]}
    after = client.post(f"/api/games/{state['id']}/move", json=body).json()["state"]
    stale = client.post(f"/api/games/{state['id']}/move", json=body)
    assert stale.status_code == 409
    assert stale.json()["state"]["forecast"] == expected(Board.from_rows(after["board"]))


def test_the_schema_documents_the_forecast(client: TestClient) -> None:
    schemas = client.get("/openapi.json").json()["components"]["schemas"]
    forecast = schemas["GameState"]["properties"]["forecast"]
    assert forecast["additionalProperties"] == {"$ref": "#/components/schemas/Forecast"}
    assert set(schemas["Forecast"]["properties"]) == {"slides", "merges"}
    assert "GameState" in str(schemas["MoveAnswer"]["properties"]["state"])
