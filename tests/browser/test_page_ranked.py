"""Ranked games and the daily challenge in a real browser: the question before the first assisted
action of a ranked game, and the daily challenge's entry in the header."""

from __future__ import annotations

import re
import secrets
from datetime import UTC, datetime

import pytest
from pagetools import ARTIFACTS, LiveServer, Pages, ready, server_state, settled, wait_until

pytestmark = pytest.mark.browser

PHONE_360 = {"width": 360, "height": 640}


def play_one(page) -> None:
    """One move that changes the board, by keys, until the server has it."""
    before = server_state(page)["moves"]
    for key in ("ArrowLeft", "ArrowUp", "ArrowRight", "ArrowDown"):
        page.keyboard.press(key)
        page.wait_for_timeout(150)
        if server_state(page)["moves"] > before:
            break
    settled(page, server_state(page)["moves"])


def score_something(page) -> None:
    """Moves until the game has scored (the daily entry shows a place only then)."""
    for _ in range(60):
        if server_state(page)["score"] > 0:
            return
        play_one(page)
    raise AssertionError("no merge in 60 moves")


def first_move(page) -> None:
    shown = server_state(page)
    play_one(page)
    assert server_state(page)["id"] != shown["id"] == 0  # the first move stored the visitor's game


def test_the_first_assisted_action_of_a_ranked_game_asks_first(pages: Pages) -> None:
    page = pages.open()
    assert server_state(page)["ranked"]
    first_move(page)
    moves = server_state(page)["moves"]
    page.keyboard.press("u")
    page.wait_for_selector("#ask", state="visible")
    assert page.text_content("#ask-text") == "This game will no longer count for the leaderboard."
    assert page.evaluate("document.activeElement.id") == "ask-yes"
    page.click("#ask-no")  # cancelled: nothing sent, nothing remembered
    page.wait_for_timeout(200)
    state = server_state(page)
    assert (state["moves"], state["ranked"]) == (moves, True)
    page.click("#hint")
    page.wait_for_selector("#ask", state="visible")
    page.keyboard.press("Escape")  # as Cancel
    page.wait_for_timeout(200)
    assert server_state(page)["ranked"] and page.is_hidden("#hints")
    page.click("#undo")
    page.wait_for_selector("#ask", state="visible")
    page.click("#ask-yes")
    wait_until(lambda: server_state(page)["moves"] == moves - 1)
    assert not server_state(page)["ranked"]
    page.click("#hint")  # unranked now: no question
    page.wait_for_selector("#hints", state="visible", timeout=20000)
    assert page.is_hidden("#ask")


def test_reviewing_the_ranked_game_in_progress_asks_first(pages: Pages) -> None:
    page = pages.open(allow_errors=True)  # the review's first GET finds none yet (404 no_review)
    first_move(page)
    game_id = server_state(page)["id"]
    page.goto(f"/#/review/{game_id}")
    page.click("[data-part=start-review]")
    page.wait_for_selector("#ask", state="visible")
    assert page.text_content("#ask-text") == "This game will no longer count for the leaderboard."
    page.click("#ask-no")  # cancelled: nothing asked of the server
    page.wait_for_timeout(200)
    assert server_state(page)["ranked"] and page.is_visible("[data-part=start-review]")
    page.click("[data-part=start-review]")
    page.click("#ask-yes")
    page.wait_for_selector("#views .view[data-state=done]", timeout=60_000)
    assert not server_state(page)["ranked"]


def choose_a_name(page) -> None:
    """Only named players stand on the day's board, so only they have a place to show (the
    server outlives one test, and a name is one player's)."""
    name = f"Ada {secrets.token_hex(4)}"
    status = page.evaluate(
        """(name) => fetch("/api/me", {method: "PUT", headers: {"Content-Type": "application/json"},
                                      body: JSON.stringify({name})}).then((answer) => answer.status)""",
        name,
    )
    assert status == 200


def test_the_question_speaks_the_pages_language(pages: Pages) -> None:
    page = pages.open("/?lang=ja")
    first_move(page)
    page.click("#auto")
    page.wait_for_selector("#ask", state="visible")
    assert page.text_content("#ask-text") == "このゲームはランキングに数えられなくなります。"
    page.click("#ask-no")
    assert page.get_attribute("#auto", "aria-pressed") == "false"


def test_the_daily_entry_starts_todays_game_and_shows_its_place(
    pages: Pages, live_server: LiveServer
) -> None:
    page = pages.open()
    choose_a_name(page)
    page.wait_for_selector("#daily", state="visible")
    assert re.fullmatch(r"Daily challenge · (\d+h )?\d+m left", page.text_content("#daily") or "")
    assert page.get_attribute("#daily", "aria-pressed") == "false"
    with page.expect_response("**/api/daily"):  # asked again once today's game has begun
        page.click("#daily")  # nothing played yet: no question
    today = datetime.now(UTC).date().isoformat()
    wait_until(lambda: server_state(page)["daily"] == today)
    page.wait_for_selector("#daily[aria-pressed=true]")
    # At 0 points every game shares the first place: none is shown until this one has scored.
    assert re.fullmatch(r"Daily challenge · (\d+h )?\d+m left", page.text_content("#daily") or "")
    score_something(page)
    page.wait_for_function("() => / · #\\d+ today$/.test(document.querySelector('#daily').textContent)")
    # Another game in between; going back to the daily game asks first, then resumes it.
    play_one(page)
    daily = server_state(page)
    page.keyboard.press("n")
    page.wait_for_selector("#confirm", state="visible")
    page.click("#confirm-yes")
    wait_until(lambda: server_state(page)["id"] != daily["id"])
    page.wait_for_selector("#daily[aria-pressed=false]")
    play_one(page)
    page.click("#daily")
    page.wait_for_selector("#ask", state="visible")
    assert page.text_content("#ask-title") == "Play the daily challenge?"
    page.click("#ask-yes")
    wait_until(lambda: server_state(page)["id"] == daily["id"])
    assert server_state(page)["moves"] == daily["moves"]
    page.wait_for_selector("#daily[aria-pressed=true]")


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_the_daily_entry_fits_a_360_px_phone_in_every_language(pages: Pages, theme: str) -> None:
    page = pages.open(viewport=PHONE_360, has_touch=True, is_mobile=True)  # a phone, as phones are
    page.evaluate(f"localStorage.setItem('twenty48.settings', JSON.stringify({{theme: '{theme}'}}))")
    choose_a_name(page)
    page.wait_for_selector("#daily", state="visible")
    page.click("#daily")  # with today's game that has scored, the entry shows its place: its widest form
    page.wait_for_selector("#daily[aria-pressed=true]")
    score_something(page)
    page.wait_for_function("() => / · #\\d+ today$/.test(document.querySelector('#daily').textContent)")
    for lang in ("en", "ja", "zh"):
        page.goto(f"/?lang={lang}")
        ready(page)
        page.wait_for_selector("#daily", state="visible")
        page.wait_for_function("() => document.querySelector('#daily').textContent !== ''")
        assert page.evaluate("document.documentElement.scrollWidth <= innerWidth"), lang
        entry = page.locator("#daily").bounding_box()
        assert entry is not None and entry["x"] >= 0 and entry["x"] + entry["width"] <= PHONE_360["width"]
        assert entry["y"] + entry["height"] <= PHONE_360["height"], lang  # the play view still fits
        assert page.evaluate("document.documentElement.scrollHeight <= innerHeight"), lang
        colours = page.eval_on_selector(
            "#daily", "e => [getComputedStyle(e).color, getComputedStyle(e).backgroundColor]"
        )
        assert colours[0] != colours[1]
        assert page.get_attribute("#daily", "aria-pressed") == "true"
        page.screenshot(path=ARTIFACTS / f"daily-360-{theme}-{lang}.png")
