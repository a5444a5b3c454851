"""Browser tests: Debian's Chromium, driven by Playwright, against the real app and a real store.

The server runs for the whole session in a background thread on a free port, over a temporary
database. Each test opens fresh browser contexts through ``pages`` (a new cookie, hence a new
player), so tests do not see each other's games. Prepared positions (a board one move from 2048 or
from the end) are written into the store for the page's player by ``prepare``: a test-only path
beside the app, not a door in the served app.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import pytest
from pagetools import Gate, LiveServer, Pages, serving
from playwright.sync_api import Browser

from twenty48.ai import warm_up
from twenty48.store import Store
from twenty48.web import create_app
from twenty48.web.limits import Limits

#: Without the networking switches Chromium keeps trying to reach the internet.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]


@pytest.fixture(scope="session")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    store = Store.open(tmp_path_factory.mktemp("browser") / "web.sqlite3")
    # As `2048 serve` does: the solver loads in the background, so that the first hint asked does
    # not wait for it (on a busy machine, longer than a test waits for a hint).
    threading.Thread(target=warm_up, name="twenty48-warm-solver", daemon=True).start()
    # Every test's browser is a new player, all from 127.0.0.1: more than a server takes from one
    # address by default.
    gate = Gate(create_app(store, limits=Limits(new_players_per_hour=100_000)))
    with serving(gate) as url:
        yield LiveServer(url, store, gate)
    store.close()


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    # Never `playwright install`: the browser is Debian's.
    chromium = {"executable_path": "/usr/bin/chromium", "headless": True, "args": CHROMIUM_ARGS}
    return {**browser_type_launch_args, **chromium}


@pytest.fixture
def pages(browser: Browser, live_server: LiveServer) -> Iterator[Pages]:
    opened = Pages(browser, live_server)
    yield opened
    problems = opened.close()
    if live_server.gate is not None:
        live_server.gate.release_all()
    assert not problems, f"console errors: {problems}"
