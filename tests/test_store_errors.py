"""Unknown players, the one translation of the Game's refusals, and how the web answers them."""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from twenty48.game import Game
from twenty48.rules import Board
from twenty48.store import (
    ActionRejectedError,
    GameFinishedError,
    GameNotFoundError,
    PlayerNotFoundError,
    Store,
    StoreError,
    open_store,
)
from twenty48.web import errors
from twenty48.web.models import ReplayAnswer

OVER = Board.from_rows([[2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4], [4, 2, 4, 2]])


@pytest.fixture
def store(location: Path | str):
    # On SQLite and on PostgreSQL: the fixture ``location`` (conftest.py) is parametrized.
    with open_store(location) as s:
        yield s


@pytest.mark.parametrize("player_id", [99, 0, -1, 2**70])
def test_an_unknown_player_is_a_store_error(store: Store, player_id: int) -> None:
    store.local_player()
    for call in (
        lambda: store.current_game(player_id),
        lambda: store.new_game(player_id),
        lambda: store.add_game(player_id, Game.new(1)),
        lambda: store.best_score(player_id),
        lambda: store.damaged_games(player_id),
        lambda: store.games(player_id),
        lambda: store.daily(player_id, "2026-12-01"),
        lambda: store.stats(player_id, "classic"),
    ):
        with pytest.raises(PlayerNotFoundError, match="no player") as caught:
            call()
        assert isinstance(caught.value, StoreError) and isinstance(caught.value, LookupError)
    assert store.games(store.local_player().id) == []


def test_refusals_keep_their_sentences_and_change_nothing(store: Store) -> None:
    player = store.local_player()
    record = store.new_game(player.id, seed=4)
    with pytest.raises(ActionRejectedError, match="no move to undo") as caught:
        store.undo(player.id, record.id)
    assert caught.value.game == record
    with pytest.raises(
        ActionRejectedError, match=r"not part of the classic variant.*belong to the merge variant"
    ):
        store.move(player.id, record.id, "left", cell=0)
    over = store.add_game(player.id, Game.from_board(OVER, seed=1))
    for action in (
        lambda: store.undo(player.id, over.id),
        lambda: store.keep_going(player.id, over.id),
        lambda: store.move(player.id, over.id, "left"),
    ):
        with pytest.raises(GameFinishedError, match="is over"):
            action()
    assert store.get_game(player.id, over.id) == over


@pytest.mark.integration
def test_the_web_answers_an_unknown_player_like_an_unknown_game() -> None:
    app = FastAPI()
    errors.install(app)
    unknown = {
        "player": PlayerNotFoundError("no player 9"),
        "game": GameNotFoundError("no game 3 for this player"),
    }

    @app.get("/{what}")
    def fail(what: str) -> None:
        raise unknown[what]

    client = TestClient(app)
    for what, exc in unknown.items():
        response = client.get(f"/{what}")
        assert response.status_code == 404
        assert response.json() == {"error": "not_found", "detail": str(exc)}


def test_the_web_replay_carries_the_start_of_a_prepared_game(store: Store) -> None:
    player = store.local_player()
    board = Board.from_rows([[2, 2, 0, 0], [0, 4, 0, 0], [0, 0, 0, 0], [0, 0, 0, 8]])
    prepared = store.add_game(player.id, Game.from_board(board, seed=9, score=12))
    store.move(player.id, prepared.id, "left")
    seeded = store.new_game(player.id, seed=9)
    store.move(player.id, seeded.id, seeded.board.legal_moves()[0])
    store.new_game(player.id)
    answer = ReplayAnswer.of(store.replay(player.id, prepared.id)).model_dump(mode="json")
    assert answer["start"] == {"board": [list(r) for r in board.rows], "score": 12}
    assert answer["actions"] == ["left"]
    assert ReplayAnswer.of(store.replay(player.id, seeded.id)).model_dump(mode="json")["start"] is None
