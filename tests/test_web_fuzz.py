"""Property-based fuzz of the API from its own OpenAPI schema (schemathesis on hypothesis).

Every generated request, valid or not, must get a documented answer that is never a 5xx, and a
refused request (4xx) must leave every game of the player exactly as it was. Beside the generated
requests, a corpus of hostile import files (``test_web_imports.HOSTILE``) is sent as it is.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from pathlib import Path

import pytest
import schemathesis
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from test_web_imports import HOSTILE
from twenty48.game import Game
from twenty48.rules import Board
from twenty48.store import Store
from twenty48.web import create_app
from twenty48.web.guard import COOKIE_NAME
from twenty48.web.limits import Limits

# The app over HTTP (a TestClient): integration, not in `pytest -m unit`.
pytestmark = pytest.mark.integration

NEAR_WIN = Board.from_rows([[1024, 1024, 0, 0], [2, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]])
OVER = Board.from_rows([[2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4], [4, 2, 4, 2]])
#: The solver uses its whole time budget; fuzzing needs the budget's validation, not long searches.
FUZZ_HINT_MS = 20


@dataclass
class Site:
    store: Store
    player: int
    cookie: str

    def snapshot(self) -> tuple:
        games = self.store.games(self.player, limit=100)
        return tuple((g.id, self.store.get_game(self.player, g.id)) for g in games)


@pytest.fixture
def site(tmp_path: Path):
    with Store.open(tmp_path / "fuzz.sqlite3") as store:
        token = secrets.token_urlsafe(32)
        player = store.web_player(token).id
        # Small ids the fuzzer tries first: a finished game, a game won on the next move, the current
        # (a Merge 2048 game, so that source cells in moves reach a game that takes them).
        store.add_game(player, Game.from_board(OVER, seed=1))
        store.add_game(player, Game.from_board(NEAR_WIN, seed=2))
        store.new_game(player, seed=3, variant="merge")
        yield (
            Site(store, player, f"{COOKIE_NAME}={token}"),
            create_app(store, limits=Limits(new_games_per_minute=100_000)),
        )


@pytest.fixture
def api(site):
    return schemathesis.openapi.from_asgi("/openapi.json", site[1])


schema = schemathesis.pytest.from_fixture("api")


@schema.parametrize()
@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
def test_no_request_gets_a_server_error_or_changes_state_when_refused(case, site) -> None:
    state, _ = site
    if case.operation.path.endswith("/hint"):
        budget = (case.query or {}).get("time_ms", FUZZ_HINT_MS)
        if isinstance(budget, int) and budget >= 10:
            case.query = {**(case.query or {}), "time_ms": min(budget, FUZZ_HINT_MS)}
    before = state.snapshot()
    response = case.call_and_validate(
        headers={"Cookie": state.cookie},
        checks=[
            not_a_server_error,
            status_code_conformance,
            content_type_conformance,
            response_schema_conformance,
        ],
    )
    if 400 <= response.status_code < 500:
        assert state.snapshot() == before, f"{case.method} {case.formatted_path} changed state"
        assert set(response.json()) >= {"error", "detail"}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_hostile_import_files_are_refused_and_change_nothing(site, name: str) -> None:
    # The schema cannot describe an import's body (a JSON file, or a form's file part): the files
    # that once failed or stalled the server are sent as they are.
    state, app = site
    body, headers, status, error = HOSTILE[name]
    before = state.snapshot()
    with TestClient(app) as client:
        answer = client.post("/api/import", content=body, headers={**headers, "Cookie": state.cookie})
    assert (answer.status_code, answer.json()["error"]) == (status, error)
    assert state.snapshot() == before
