"""Stateful property test: the HTTP API behaves exactly like a ``Game`` driven directly.

Hypothesis plays random sequences of moves (whole-board and, in Merge 2048 games, single-tile),
undos, keep-goings and new games of either variant through the real app, mixing in requests that
carry a stale revision, and checks every answer against a reference game.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule

from twenty48.game import Game
from twenty48.rules import Board, Direction
from twenty48.store import Store
from twenty48.web import create_app
from twenty48.web.guard import COOKIE_NAME
from twenty48.web.limits import Limits

# The app over HTTP (a TestClient): integration, not in `pytest -m unit`.
pytestmark = pytest.mark.integration

NEAR_WIN = Board.from_rows([[1024, 1024, 0, 0], [512, 512, 0, 0], [2, 0, 0, 0], [0, 0, 0, 0]])


class ApiMatchesGame(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.directory = tempfile.TemporaryDirectory()
        self.store = Store.open(Path(self.directory.name) / "model.sqlite3")
        # Starting games is what this model does most: no rate limit in the way.
        self.client = TestClient(create_app(self.store, limits=Limits(new_games_per_minute=100_000)))
        # A chosen seed, so that the reference plays the same spawns (a ranked game hides its key).
        state = self.client.post("/api/games", json={"seed": 2048}).json()
        self.game_id = state["id"]
        self.reference = Game.new(state["seed"])
        self.revision = 0
        self.old_revisions: list[int] = []

    def teardown(self) -> None:
        self.client.close()
        self.store.close()
        self.directory.cleanup()

    def _accepted(self) -> None:
        self.old_revisions.append(self.revision)
        self.revision += 1

    def _post(self, action: str, body: dict):
        return self.client.post(f"/api/games/{self.game_id}/{action}", json=body)

    @rule(direction=st.sampled_from(list(Direction)))
    def move(self, direction: Direction) -> None:
        response = self._post("move", {"direction": direction.value, "revision": self.revision})
        if self.reference.over:
            assert response.status_code == 409 and response.json()["error"] == "game_finished"
            return
        turn = self.reference.move(direction)
        assert response.status_code == 200
        answer = response.json()
        assert answer["changed"] == turn.changed and answer["points"] == turn.score
        assert answer["slides"] == [list(s) for s in turn.slides]
        assert answer["merges"] == list(turn.merges)
        spawn = None if turn.spawn is None else {"cell": turn.spawn[0], "value": turn.spawn[1]}
        assert answer["spawn"] == spawn
        assert (answer["won_now"], answer["over"]) == (turn.won_now, turn.over)
        if turn.changed:
            self._accepted()

    @rule(direction=st.sampled_from(list(Direction)), cell=st.integers(0, 15))
    def tile_move(self, direction: Direction, cell: int) -> None:
        body = {"direction": direction.value, "cell": cell, "revision": self.revision}
        response = self._post("move", body)
        if self.reference.over:
            assert response.status_code == 409 and response.json()["error"] == "game_finished"
            return
        if not self.reference.variant.tile_moves:
            assert response.status_code == 409 and response.json()["error"] == "rejected"
            return
        turn = self.reference.move(direction, cell)
        assert response.status_code == 200
        answer = response.json()
        assert answer["changed"] == turn.changed and answer["cell"] == cell
        assert answer["slides"] == [list(s) for s in turn.slides]
        assert answer["state"]["board"] == [list(row) for row in turn.board.rows]
        if turn.changed:
            self._accepted()

    @rule(direction=st.sampled_from(list(Direction)), back=st.integers(0, 30))
    def stale_move(self, direction: Direction, back: int) -> None:
        if not self.old_revisions:
            return
        stale = self.old_revisions[-1 - back % len(self.old_revisions)]
        response = self._post("move", {"direction": direction.value, "revision": stale})
        assert response.status_code == 409
        assert response.json()["error"] in ("stale_revision", "game_finished")

    @rule()
    def undo(self) -> None:
        response = self._post("undo", {"revision": self.revision})
        if self.reference.can_undo:
            self.reference.undo()
            assert response.status_code == 200
            self._accepted()
        else:
            assert response.status_code == 409

    @rule()
    def keep_going(self) -> None:
        response = self._post("keep-going", {"revision": self.revision})
        if self.reference.over or not self.reference.won:
            assert response.status_code == 409
            return
        assert response.status_code == 200
        if not self.reference.keep_playing:
            self.reference.keep_going()
            self._accepted()

    @rule(seed=st.integers(0, 2**53 - 1), variant=st.sampled_from(["classic", "merge"]))
    def new_game(self, seed: int, variant: str) -> None:
        response = self.client.post("/api/games", json={"seed": seed, "variant": variant})
        assert response.status_code == 201
        self.game_id = response.json()["id"]
        self.reference = Game.new(seed, variant)
        # An unplayed current game is replaced where it stands, under its next revision.
        self.revision = response.json()["revision"]
        self.old_revisions = []

    @rule(seed=st.integers(0, 2**53 - 1))
    def near_win(self, seed: int) -> None:
        player = self.store.web_player(self.client.cookies[COOKIE_NAME]).id
        self.reference = Game.from_board(NEAR_WIN, seed=seed)
        self.game_id = self.store.add_game(player, self.reference).id
        self.revision = 0
        self.old_revisions = []

    @invariant()
    def state_matches(self) -> None:
        state = self.client.get("/api/game").json()
        game = self.reference
        assert state["id"] == self.game_id and state["revision"] == self.revision
        assert state["variant"] == game.variant.name
        assert state["board"] == [list(row) for row in game.board.rows]
        assert (state["score"], state["moves"]) == (game.score, game.moves)
        assert (state["won"], state["keep_playing"], state["over"], state["can_undo"]) == (
            game.won,
            game.keep_playing,
            game.over,
            game.can_undo,
        )


ApiMatchesGame.TestCase.settings = settings(max_examples=15, stateful_step_count=40, deadline=None)
TestApiMatchesGame = ApiMatchesGame.TestCase
