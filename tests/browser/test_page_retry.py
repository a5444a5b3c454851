"""Parts of the page fetched on first use (the views, the settings dialog, a language's strings) that
cannot be fetched say so, and are fetched again on the next try: once the server is back ("Connected
again."), everything works without a reload."""

from __future__ import annotations

import pytest
from pagetools import NO_WORKER, OPEN, LiveServer, Pages, prepare
from playwright.sync_api import Page, Route, expect

pytestmark = pytest.mark.browser

LOAD_FAILED = "This part of the page could not be loaded; check the connection and try again."


def down(route: Route) -> None:
    route.abort()


def refused(page: Page, control: str) -> None:
    """Pressing ``control`` fetches nothing and says so; the play view stays, at its own address."""
    page.evaluate("document.getElementById('notice').hidden = true")
    page.click(control)
    expect(page.locator("#notice")).to_have_text(LOAD_FAILED)
    assert page.is_visible("main.app") and page.evaluate("location.hash") == ""


def test_a_part_that_could_not_be_fetched_says_so_and_comes_on_the_next_try(
    pages: Pages, live_server: LiveServer
) -> None:
    # The failed fetches are logged; no service worker, whose own fetches a route would not see.
    page = pages.open(allow_errors=True, **NO_WORKER)
    prepare(page, live_server, OPEN)
    page.route("**/static/**", down)
    refused(page, "#history")
    refused(page, "#open-settings")
    assert page.locator("#settings").count() == 0
    refused(page, "[data-lang=ja]")
    assert page.evaluate("document.documentElement.lang") == "en"
    # The whole server goes: a move waits; when it is back, the move goes through and says so.
    page.route("**/api/**", down)
    page.keyboard.press("ArrowLeft")
    expect(page.locator("#notice")).to_contain_text("Can't reach the server")
    page.unroute("**/api/**", down)
    page.unroute("**/static/**", down)
    expect(page.locator("#notice")).to_have_text("Connected again.", timeout=10_000)
    page.click("#history")
    expect(page.locator("#views h2")).to_have_text("History")
    page.click(".views-nav a[href='#/']")
    page.wait_for_selector("main.app", state="visible")
    page.click("#open-settings")
    page.wait_for_selector("#settings[open]")
    page.keyboard.press("Escape")
    page.click("[data-lang=ja]")
    page.wait_for_function("() => document.documentElement.lang === 'ja'")
    expect(page.locator("#history")).to_have_attribute("aria-label", "履歴")
