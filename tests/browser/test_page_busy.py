"""The page when the server's solver is taken: a short notice, not "offline"."""

from __future__ import annotations

import sqlite3
import threading
import time

import httpx
import pytest
from pagetools import LiveServer, Pages, prepare

from twenty48.web.guard import COOKIE_NAME

pytestmark = pytest.mark.browser

#: A crowded position: a hint on it uses most of its time budget.
CROWDED = [[2, 8, 2, 4], [16, 32, 64, 128], [4, 2, 8, 2], [0, 0, 2, 4]]


def test_a_hint_while_the_solver_is_taken_shows_a_short_notice(pages: Pages, live_server: LiveServer) -> None:
    page = pages.open("/?lang=en", allow_errors=True)  # the browser logs the refused request
    game = prepare(page, live_server, CROWDED)
    token = next(c["value"] for c in page.context.cookies() if c["name"] == COOKIE_NAME)
    state = page.request.get("/api/game").json()
    assert state["board"] == [list(r) for r in game.board.rows]
    # Another tab of the same player asks the solver for a long hint first.
    other_tab = threading.Thread(
        target=httpx.post,
        args=(f"{live_server.url}/api/games/{state['id']}/hint?time_ms=3000",),
        kwargs={"cookies": {COOKIE_NAME: token}, "timeout": 30},
    )
    other_tab.start()
    try:
        # The page asks only once the server holds the other tab's hint (its lease is in the store).
        deadline = time.monotonic() + 20
        while not _hint_in_flight(live_server):
            assert time.monotonic() < deadline, "the other tab's hint never started"
            time.sleep(0.02)
        page.click("#hint")
        page.wait_for_selector("#notice:not([hidden])", timeout=5000)
        assert "solver is busy" in page.text_content("#notice")
        assert "reach the server" not in page.text_content("#notice")
    finally:
        other_tab.join()


def _hint_in_flight(live_server: LiveServer) -> bool:
    with sqlite3.connect(live_server.store.path) as db:
        return db.execute("SELECT 1 FROM player_limits WHERE hint_lease IS NOT NULL").fetchone() is not None
