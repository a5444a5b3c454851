"""The hint's answer over HTTP: the raw values stay, each move gains its standing (twenty48.ai.standing)."""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from twenty48.ai.standing import standings
from twenty48.game import Game
from twenty48.rules import Board, Direction
from twenty48.store import Store
from twenty48.web import create_app
from twenty48.web.guard import COOKIE_NAME

# The app over HTTP (a TestClient): integration, not in `pytest -m unit`.
pytestmark = pytest.mark.integration

# Up, left and right are legal; left leaves one gap that no spawn can save.
ENDING = Board.from_rows([[16, 4, 0, 64], [2, 16, 32, 8], [64, 32, 16, 32], [4, 2, 64, 2]])


@pytest.fixture
def store(tmp_path: Path):
    with Store.open(tmp_path / "web.sqlite3") as s:
        yield s


@pytest.fixture
def client(store: Store):
    with TestClient(create_app(store)) as c:
        yield c


def test_each_move_carries_its_raw_value_and_its_standing(client: TestClient, store: Store) -> None:
    client.get("/api/best")  # the first request makes the player
    player = store.web_player(client.cookies[COOKIE_NAME]).id
    store.add_game(player, Game.from_board(ENDING, seed=3))
    state = client.get("/api/game").json()
    hint = client.post(f"/api/games/{state['id']}/hint", params={"time_ms": 50}).json()
    moves = {m["direction"]: m for m in hint["moves"]}
    assert set(moves) == {"up", "left", "right"}
    expected = standings(ENDING, {Direction(d): m["value"] for d, m in moves.items()})
    for direction, standing in expected.items():
        assert moves[direction]["standing"] == standing.points
        assert moves[direction]["grade"] == standing.grade.value
    assert moves["left"]["grade"] == "blunder" and moves["left"]["standing"] == 0
    assert max(m["standing"] for m in moves.values()) == 100
    assert any(m["value"] < 0 for m in moves.values())  # the raw values are the solver's own
