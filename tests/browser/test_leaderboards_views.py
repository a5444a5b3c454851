"""The Leaderboard view, public replays and the player section of the settings, in Chromium."""

from __future__ import annotations

import re
import sqlite3
import uuid
from datetime import UTC, datetime

import pytest
from pagetools import ARTIFACTS, PHONE, LiveServer, Pages, player_id
from playwright.sync_api import Page, expect

from twenty48.rules import Direction
from twenty48.store import GameRecord, Store

pytestmark = pytest.mark.browser

HOSTILE = '<img src=x onerror="document.title=1">'
PREFERENCE = (Direction.UP, Direction.LEFT, Direction.RIGHT, Direction.DOWN)


def unique(prefix: str) -> str:
    """A name no other test of the session's one server has taken."""
    return f"{prefix}{uuid.uuid4().hex[:6]}"


def played_out(store: Store, player: int, record: GameRecord) -> int:
    while not record.over:
        direction = next(d for d in PREFERENCE if d in record.board.legal_moves())
        record = store.move(player, record.id, direction, revision=record.revision).game
    return record.id


def finished_ranked_game(store: Store, player: int) -> int:
    return played_out(store, player, store.new_game(player, ranked=True))


def open_settings(page: Page) -> None:
    page.click("#open-settings")
    page.wait_for_selector("#settings[open] #display-name")


def test_the_name_setting_shows_why_a_name_is_refused(pages: Pages, live_server: LiveServer) -> None:
    # A refusal is a 422, which Chromium logs as a failed load.
    page = pages.open("/?lang=ja", allow_errors=True)
    open_settings(page)
    name = page.locator("#display-name")
    note = page.locator('[data-part="name-note"]')
    name.fill("Ada\u202eevil")
    page.click(".name-form button[type=submit]")
    # A character that draws nothing (or reorders the text) is named, never shown.
    expect(note).to_contain_text("見えない文字\uff08RIGHT-TO-LEFT OVERRIDE, U+202E\uff09は名前に使えません。")
    expect(note).to_contain_text("使えるのは")
    name.fill("ab\U0001f3ae")
    page.click(".name-form button[type=submit]")
    expect(note).to_contain_text("「\U0001f3ae」\uff08VIDEO GAME, U+1F3AE\uff09は名前に使えません。")
    chosen = unique("Ada")
    name.fill(chosen)
    page.click(".name-form button[type=submit]")
    expect(note).to_contain_text(chosen)
    assert live_server.store.profile(player_id(page, live_server)).name == chosen
    # Spaces alone are a refused name, not a wish to be anonymous: the name stays.
    name.fill("   ")
    page.click(".name-form button[type=submit]")
    expect(note).to_contain_text("空白")
    assert live_server.store.profile(player_id(page, live_server)).name == chosen
    # A case-twin from another player is refused in the page's words.
    other = pages.open("/", allow_errors=True)
    open_settings(other)
    other.fill("#display-name", chosen.upper())
    other.click(".name-form button[type=submit]")
    expect(other.locator('[data-part="name-note"]')).to_have_text("Someone else has that name.")
    other.fill("#display-name", "ab\U0001f3ae")
    other.click(".name-form button[type=submit]")
    expect(other.locator('[data-part="name-note"]')).to_have_text(
        "A name cannot hold “\U0001f3ae” (VIDEO GAME, U+1F3AE): "
        "only letters, digits, single spaces and _ - . are allowed."
    )
    other.keyboard.press("Escape")
    other.click("[data-lang=zh]")
    other.wait_for_function("() => document.documentElement.lang === 'zh'")
    open_settings(other)
    other.click(".name-form button[type=submit]")  # what was typed is still there
    expect(other.locator('[data-part="name-note"]')).to_contain_text(
        "名称中不能有“\U0001f3ae”\uff08VIDEO GAME, U+1F3AE\uff09"
    )


def test_a_transfer_code_moves_the_player_to_another_browser(pages: Pages, live_server: LiveServer) -> None:
    laptop = pages.open("/")
    open_settings(laptop)
    chosen = unique("Moving")
    laptop.fill("#display-name", chosen)
    laptop.click(".name-form button[type=submit]")
    expect(laptop.locator('[data-part="name-note"]')).to_contain_text(chosen)
    laptop.click('[data-part="get-code"]')
    code = laptop.locator('[data-part="code"]')
    expect(code).to_have_attribute("data-code", re.compile(r"^[A-Z2-7]{4}(-[A-Z2-7]{4}){6}$"))
    phone = pages.open("/", viewport=PHONE)
    open_settings(phone)
    phone.fill("#claim-code", code.get_attribute("data-code") or "")
    # The page says so, then reloads as that player.
    with phone.expect_navigation():
        phone.click(".claim-form button[type=submit]")
        expect(phone.locator('[data-part="claim-note"]')).to_have_text("This device is now that player.")
    phone.wait_for_selector("body[data-ready]")
    open_settings(phone)
    expect(phone.locator("#display-name")).to_have_value(chosen)
    # The code worked once.
    again = pages.open("/", allow_errors=True)
    open_settings(again)
    again.fill("#claim-code", code.get_attribute("data-code") or "")
    again.click(".claim-form button[type=submit]")
    expect(again.locator('[data-part="claim-note"]')).to_contain_text("used already")


@pytest.mark.parametrize(("scheme", "viewport"), [("light", PHONE), ("dark", {"width": 360, "height": 640})])
def test_the_leaderboard_highlights_the_players_row_and_opens_public_replays(
    pages: Pages, live_server: LiveServer, scheme: str, viewport: dict[str, int]
) -> None:
    store = live_server.store
    others = []
    for _ in range(2):
        other = store.web_player(uuid.uuid4().hex).id
        store.set_name(other, unique("Rival"))
        others.append(finished_ranked_game(store, other))
    rival = store.find_player(str(other)).player_id
    # A name put into the database by hand, past the name rules, is still only text on the page.
    with sqlite3.connect(store.path) as db:
        db.execute("UPDATE players SET name = ? WHERE id = ?", (HOSTILE, rival))
    page = pages.open("/", viewport=viewport, color_scheme=scheme)
    me = player_id(page, live_server)
    mine = unique("Me")
    store.set_name(me, mine)
    game_id = finished_ranked_game(store, me)
    page.click("#leaderboard")
    page.wait_for_selector(".board-table tbody tr")
    expect(page.locator(".view h2")).to_have_text("Leaderboard")
    page.select_option('[data-part="board"]', "all-time")
    row = page.locator(".board-table tr.mine")
    expect(row).to_have_count(1)
    expect(row.locator("td").nth(1)).to_have_text(mine)
    assert "all-time/classic" in page.url
    expect(page.locator(".board-table td", has_text=HOSTILE).first).to_have_text(HOSTILE)
    assert page.locator(".board-table img").count() == 0
    # The table scrolls inside its box; the page itself never scrolls sideways on a phone.
    assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")
    row.get_by_role("link").click()
    page.wait_for_selector('[data-part="move"]')
    expect(page.locator(".view h2")).to_contain_text(f"Replay of {mine}'s game")
    page.wait_for_function("() => document.querySelector('.view').dataset.move !== undefined")
    assert f"#/public/{game_id}/" in page.url
    # Another player opens a public replay from its shared link; an unranked game's stays closed.
    stranger = pages.open(f"/public/{others[0]}")
    stranger.wait_for_selector('[data-part="move"]')
    assert f"/#/public/{others[0]}" in stranger.url
    expect(stranger.locator(".message")).to_have_text("")
    practice = store.new_game(me, seed=3).id
    closed = pages.open(f"/#/public/{practice}", allow_errors=True)
    expect(closed.locator(".view .message")).to_contain_text("not public")


@pytest.mark.parametrize("link", ["/public/0", "/public/1_0", "/public/" + "9" * 25, "/public/7/x"])
def test_a_shared_link_that_names_no_game_says_so_on_the_page(pages: Pages, link: str) -> None:
    page = pages.open(link)
    expect(page.locator(".view .message")).to_contain_text("not public")
    assert page.locator(".view [data-part=move]").count() == 0


def test_todays_board_says_when_its_replays_open_and_styles_its_day(
    pages: Pages, live_server: LiveServer
) -> None:
    store = live_server.store
    page = pages.open("/")
    me = player_id(page, live_server)
    store.set_name(me, unique("Today"))
    played_out(store, me, store.daily_game(me, datetime.now(UTC).date().isoformat()))
    page.goto("/#/leaderboard/daily")
    row = page.locator(".board-table tr.mine")
    # Finished, but its day is not: the replay column says when, and so does a line under the board.
    expect(row.locator("[data-part=later]")).to_have_text("Tomorrow")
    expect(row.get_by_role("link")).to_have_count(0)
    expect(page.locator("[data-part=later-note]")).to_have_text(
        "Today's replays open when the day is over (00:00 UTC)."
    )
    # The day is chosen in a box drawn like the board's select beside it.
    look = (
        "e => ['borderTopColor', 'borderRadius', 'minHeight', 'fontSize'].map((k) => getComputedStyle(e)[k])"
    )
    assert page.eval_on_selector("[data-part=date]", look) == page.eval_on_selector("[data-part=board]", look)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_on_a_phone_each_entry_is_one_tidy_row_and_the_players_own_is_highlighted_across_it(
    pages: Pages, live_server: LiveServer, scheme: str
) -> None:
    store = live_server.store
    rival = store.web_player(uuid.uuid4().hex).id
    store.set_name(rival, unique("Longest name here_"))
    finished_ranked_game(store, rival)
    page = pages.open("/", viewport={"width": 360, "height": 640}, color_scheme=scheme)
    me = player_id(page, live_server)
    store.set_name(me, unique("Me"))
    finished_ranked_game(store, me)
    page.goto("/#/leaderboard/all-time/classic")
    page.wait_for_selector(".board-table tr.mine")
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=ARTIFACTS / f"leaderboard-phone-{scheme}.png", full_page=True)
    rows = page.eval_on_selector_all(
        ".board-table tbody tr",
        """rows => rows.map(row => {
            const cells = [...row.children].filter(c => c.getClientRects().length);
            const box = row.getBoundingClientRect();
            return {
                mine: row.classList.contains("mine"),
                left: box.left, right: box.right,
                tops: cells.map(c => Math.round(c.getBoundingClientRect().top)),
                shown: cells.length,
                fill: getComputedStyle(row).backgroundColor,
                cellFills: cells.map(c => getComputedStyle(c).backgroundColor),
            };
        })""",
    )
    table = page.eval_on_selector(".board-table", "t => t.getBoundingClientRect().toJSON()")
    assert len(rows) >= 2
    for row in rows:
        # Rank, name, score, tile and the replay, side by side within the screen.
        assert row["shown"] == 5 and len(set(row["tops"])) == 1, row
        assert row["left"] >= 0 and row["right"] <= 360
    (mine,) = [row for row in rows if row["mine"]]
    others = [row for row in rows if not row["mine"]]
    # The highlight is the row's own, from the table's one edge to the other.
    assert mine["fill"] != others[0]["fill"] and mine["fill"] != "rgba(0, 0, 0, 0)"
    assert (mine["left"], mine["right"]) == (table["left"], table["right"])
    assert all(fill == "rgba(0, 0, 0, 0)" for fill in mine["cellFills"])
    shown = "cells => cells.filter(c => c.getClientRects().length).map(c => c.textContent)"
    headings = page.eval_on_selector_all(".board-table thead th", shown)
    assert headings == ["Rank", "Player", "Score", "Tile", "Replay"]
    assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")


def test_a_past_days_board_lists_a_game_left_unfinished_as_such(
    pages: Pages, live_server: LiveServer
) -> None:
    store = live_server.store
    day = "2026-11-30"  # before any day these tests run on: its board is closed
    player = store.web_player(uuid.uuid4().hex).id
    name = unique("Late")
    store.set_name(player, name)
    record = store.daily_game(player, day)
    record = store.move(player, record.id, record.board.legal_moves()[0], revision=record.revision).game
    page = pages.open(f"/#/leaderboard/daily/{day}")
    row = page.locator(".board-table tr", has_text=name)
    expect(row.locator("td").nth(5)).to_have_text("Unfinished")
    expect(row.get_by_role("link")).to_have_count(0)
