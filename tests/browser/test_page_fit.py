"""The page on every supported screen (1280x800, 1366x768, 390x844, 360x640, phones on their side) in
every language: header, toolbar and footer line up with the board whatever the footer holds (a hint
with four long grades, the daily entry with its place); no dialog runs off the screen (what does not
fit scrolls inside it, its buttons stay in view) and what a button produces, a transfer code, is
brought into view; the replay keeps "Go to move" on a phone's screen. One page per test, resized."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from pagetools import ARTIFACTS, NO_WORKER, LiveServer, Pages, player_id, prepare, server_state
from playwright.sync_api import Page, Route
from test_history_views import at_move, long_game
from test_page_polish import MIDGAME

pytestmark = pytest.mark.browser

SIZES = {
    "1280x800": {"width": 1280, "height": 800},
    "1366x768": {"width": 1366, "height": 768},
    "390x844": {"width": 390, "height": 844},
    "360x640": {"width": 360, "height": 640},
    "844x390": {"width": 844, "height": 390},
    "640x360": {"width": 640, "height": 360},
}
LANGS = ("en", "ja", "zh")
#: Every grade at its longest, one per direction.
GRADES = {"down": "best", "left": "blunder", "up": "inaccuracy", "right": "mistake"}

# The play view's parts against the board: beside it on a phone on its side, else within its width.
LINE_UP = """() => {
  const box = (el) => el.getBoundingClientRect();
  const frame = box(document.getElementById('frame'));
  const side = matchMedia('(orientation: landscape) and (max-height: 560px)').matches;
  const parts = [...document.querySelectorAll('.top, .meta, .toolbar, .bottom, .bottom *')]
    .filter((el) => el.getClientRects().length > 0);
  const off = (r) => (side ? r.left < frame.right || r.right > innerWidth + 0.5
    : r.left < frame.left - 0.5 || r.right > frame.right + 0.5);
  return {
    side, off: parts.filter((el) => off(box(el))).map((el) => el.id || el.className),
    widths: side ? [] : ['.top', '.toolbar', '.bottom']
      .map((s) => Math.round(box(document.querySelector(s)).width)),
    frame: Math.round(frame.width),
    scroll: [document.documentElement.scrollWidth <= innerWidth,
      document.documentElement.scrollHeight <= innerHeight],
  };
}"""

# A dialog within the screen, its last row's buttons (and `extra`) shown where they are, not covered.
SEEN = """([id, extra]) => {
  const dialog = document.getElementById(id), r = dialog.getBoundingClientRect();
  const seen = (el) => {
    const b = el.getBoundingClientRect();
    const hit = document.elementFromPoint(b.left + b.width / 2, b.top + b.height / 2);
    return b.height > 0 && (hit === el || el.contains(hit));
  };
  const inside = r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight + 0.5 && r.right <= innerWidth + 0.5;
  const shown = [...dialog.querySelectorAll(':scope > .row:last-child .btn')];
  if (extra) shown.push(dialog.querySelector(extra));
  return inside && shown.length > 0 && shown.every(seen);
}"""


def show(page: Page, size: str, lang: str) -> None:
    page.set_viewport_size(SIZES[size])
    if page.evaluate("document.documentElement.lang") != lang:
        page.click(f"[data-lang={lang}]")
        page.wait_for_function("lang => document.documentElement.lang === lang", arg=lang)


def placed_today(page: Page) -> None:
    """The daily entry at its widest: a place on today's board."""
    today = datetime.now(UTC).date().isoformat()
    body = {"date": today, "seconds_left": 86_000, "game_id": 1, "rank": 12, "score": 1_000}
    page.route("**/api/daily", lambda route: route.fulfill(json=body))


def test_header_toolbar_and_footer_line_up_with_the_board_at_every_size(
    pages: Pages, live_server: LiveServer
) -> None:
    page = pages.open(**NO_WORKER)
    placed_today(page)
    prepare(page, live_server, MIDGAME)
    state = server_state(page)
    answer = {
        "game_id": state["id"],
        "revision": state["revision"],
        "best": "down",
        "moves": [{"direction": d, "grade": g} for d, g in GRADES.items()],
    }

    def hint(route: Route) -> None:
        route.fulfill(json=answer)

    page.route("**/hint*", hint)
    page.click("#hint")
    page.wait_for_selector("#hints", state="visible")
    page.wait_for_selector("#daily .when")
    ARTIFACTS.mkdir(exist_ok=True)
    for size in SIZES:
        for lang in LANGS:
            show(page, size, lang)
            page.wait_for_function("() => /12/.test(document.querySelector('#daily').textContent)")
            found = page.evaluate(LINE_UP)
            assert found["off"] == [] and found["scroll"] == [True, True], (size, lang, found)
            assert all(abs(width - found["frame"]) <= 1 for width in found["widths"]), (size, lang, found)
        page.screenshot(path=ARTIFACTS / f"fit-{size}.png")
    # The replay on a phone held upright: its board shrinks so that "Go to move" is on the screen.
    game_id = live_server.store.add_game(player_id(page, live_server), long_game(5)).id
    page.goto(f"/#/replay/{game_id}/3")
    at_move(page, 3)
    for size in ("360x640", "390x844", "1366x768", "1280x800"):
        page.set_viewport_size(SIZES[size])
        jump = page.locator(".jump").bounding_box()
        assert jump is not None and jump["y"] + jump["height"] <= SIZES[size]["height"], size
        assert page.evaluate("document.documentElement.scrollHeight <= innerHeight"), size


def test_every_dialog_fits_the_screen_and_shows_what_its_button_made(
    pages: Pages, live_server: LiveServer
) -> None:
    page = pages.open()
    prepare(page, live_server, MIDGAME)
    for size in SIZES:
        for lang in LANGS:
            show(page, size, lang)
            page.click("#open-settings")
            page.wait_for_selector("#settings[open] #display-name")
            page.evaluate("document.getElementById('settings').scrollTop = 0")
            page.click("[data-part=get-code]")
            page.wait_for_function("() => document.querySelector('[data-part=code]').textContent !== ''")
            page.wait_for_function(SEEN, arg=["settings", "[data-part=code]"])
            page.keyboard.press("Escape")
            page.click("#mode")
            page.wait_for_selector("#confirm[open]")
            assert page.evaluate(SEEN, ["confirm", None]), (size, lang)
            page.keyboard.press("Escape")
            page.click("#how-to")
            page.wait_for_selector("#how-to-play[open]")
            assert page.evaluate(SEEN, ["how-to-play", None]), (size, lang)
            page.keyboard.press("Escape")
            page.evaluate("document.querySelector('[data-part=code]').textContent = ''")
