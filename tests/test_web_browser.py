"""The API documentation in real headless Chromium: Swagger UI works offline under the CSP."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import uvicorn

from twenty48.commands.serve import bind
from twenty48.store import Store
from twenty48.web import create_app

pytestmark = pytest.mark.browser

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]


@pytest.fixture(scope="module")
def base_url(tmp_path_factory) -> Iterator[str]:
    store = Store.open(Path(tmp_path_factory.mktemp("browser")) / "b.sqlite3", group_commit=True)
    sock = bind("127.0.0.1", 0)
    server = uvicorn.Server(uvicorn.Config(create_app(store), log_level="warning"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        assert time.monotonic() < deadline, "server did not start"
        time.sleep(0.02)
    yield f"http://127.0.0.1:{sock.getsockname()[1]}"
    server.should_exit = True
    thread.join(10)
    store.close()
    sock.close()


@pytest.fixture(scope="module")
def chromium():
    if not Path(CHROMIUM).exists():
        pytest.skip("Debian's chromium is not installed")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


def watched_page(chromium, base_url: str):
    """A page that records console errors (CSP violations are reported there) and foreign requests."""
    page = chromium.new_page()
    problems: list[str] = []
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.on(
        "request",
        lambda r: None if r.url.startswith((base_url, "data:")) else problems.append(f"foreign {r.url}"),
    )
    return page, problems


def test_api_docs_render_offline_under_the_csp(chromium, base_url: str) -> None:
    page, problems = watched_page(chromium, base_url)
    page.goto(f"{base_url}/docs")
    page.wait_for_selector(".opblock", timeout=15000)
    assert page.locator(".opblock").count() >= 9
    assert "/api/games/{game_id}/move" in page.content()
    assert problems == []
    page.close()
