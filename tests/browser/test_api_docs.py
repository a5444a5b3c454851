"""The API documentation in real headless Chromium: Swagger UI works offline under the CSP."""

from __future__ import annotations

import pytest
from pagetools import Pages

pytestmark = pytest.mark.browser


def test_api_docs_render_offline_under_the_csp(pages: Pages) -> None:
    context = pages.context()
    page = context.new_page()
    base_url = pages.server.url
    foreign: list[str] = []
    page.on("request", lambda r: None if r.url.startswith((base_url, "data:")) else foreign.append(r.url))
    page.goto("/docs")
    page.wait_for_selector(".opblock", timeout=15000)
    assert page.locator(".opblock").count() >= 9
    assert "/api/games/{game_id}/move" in page.content()
    # CSP violations are console errors, which the ``pages`` fixture turns into a failure.
    assert foreign == []
