"""The page when the server's solver is taken: a short notice, not "offline"."""

from __future__ import annotations

import pytest
from pagetools import OPEN, LiveServer, Pages, player_id, prepare

pytestmark = pytest.mark.browser


def test_a_hint_while_the_solver_is_taken_shows_a_short_notice(pages: Pages, live_server: LiveServer) -> None:
    page = pages.open("/?lang=en", allow_errors=True)  # the browser logs the refused request
    prepare(page, live_server, OPEN)
    # Another tab of the same player (or another server process) holds the player's one hint in
    # flight: its lease in the store, held until the test lets it go.
    player = player_id(page, live_server)
    lease = live_server.store.claim_hint(player, 600)
    assert lease is not None
    try:
        page.click("#hint")
        page.wait_for_selector("#notice:not([hidden])", timeout=5000)
        assert "solver is busy" in page.text_content("#notice")
        assert "reach the server" not in page.text_content("#notice")
    finally:
        live_server.store.release_hint(player, lease)
