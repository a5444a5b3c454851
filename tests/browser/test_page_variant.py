"""The "Merge 2048" mode in a real browser: the mode selector on New game, the mode on the page, and
swipes that start on a tile moving only that tile (keys, buttons and other swipes move the board).

Expected boards come from the engine: a copy of the stored game plays the same actions."""

from __future__ import annotations

import pytest
from pagetools import (
    ARTIFACTS,
    OPEN,
    PHONE,
    LiveServer,
    Pages,
    current_game,
    expect_game,
    flat,
    prepare,
    server_state,
    settled,
    still,
    swipe_frames,
    touch,
    wait_until,
)
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser


def centre(page: Page, cell: int) -> tuple[float, float]:
    box = page.locator("#board > .cell").nth(cell).bounding_box()
    assert box is not None
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def stored_actions(page: Page, server: LiveServer) -> list[str]:
    return [str(a) for a in current_game(page, server).actions]


def test_the_mode_selector_on_new_game(pages: Pages, live_server: LiveServer) -> None:
    page = pages.open(viewport=PHONE)
    first = server_state(page)
    assert first["variant"] == "classic"  # the default
    assert page.text_content("#mode") == "Classic · 4\u00d74"
    # The mode button opens the new-game dialog on the current mode (changing it is the player's
    # explicit choice); nothing played yet, so there is no game to warn about.
    page.click("#mode")
    page.wait_for_selector("#confirm", state="visible")  # the dialog's module loads on first use
    assert page.is_hidden("#confirm-text")
    assert page.is_checked("#confirm [value=classic]")
    # The line under the modes describes the one selected, not always Merge 2048.
    assert page.text_content("#mode-rules") == "New tiles are 2s and 4s; every move slides the whole board."
    page.check("#confirm [value=merge]")
    assert "bigger as your largest tile grows" in (page.text_content("#mode-rules") or "")
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=ARTIFACTS / "page-phone-mode-dialog.png")
    page.click("#confirm-yes")
    # The first visit's game was never stored (nothing was played): the new game is the first one.
    wait_until(lambda: server_state(page)["variant"] == "merge")
    merge = server_state(page)
    assert first["id"] == 0 and merge["id"] > 0
    assert merge["variant"] == "merge"
    page.wait_for_function("() => document.querySelector('#mode').textContent === 'Merge 2048 · 4\u00d74'")
    assert page.get_attribute("#mode", "data-variant") == "merge"
    assert "moves only that tile" in (page.text_content("#help") or "")
    settled(page, 0)
    still(page, "#board")  # the new tiles pop in
    page.screenshot(path=ARTIFACTS / "page-phone-merge.png")
    # New game keeps the mode and, with a game in progress, asks with that mode chosen.
    game = current_game(page, live_server)
    direction = game.board.legal_moves()[0]
    page.click(f".pad [data-dir={direction.value}]")
    game.move(direction)
    expect_game(page, game)
    page.keyboard.press("n")
    assert page.is_visible("#confirm") and page.is_visible("#confirm-text")
    assert page.is_checked("#confirm [value=merge]")
    page.click("#confirm-yes")
    wait_until(lambda: server_state(page)["id"] != merge["id"])
    assert server_state(page)["variant"] == "merge"
    # Switching back in the dialog, by choosing the other radio button.
    page.click("#new")  # nothing played: starts at once, same mode
    wait_until(lambda: server_state(page)["moves"] == 0 and server_state(page)["variant"] == "merge")
    page.click("#mode")
    page.check("#confirm [value=merge]")
    page.check("#confirm [value=classic]")
    before = server_state(page)["revision"]
    page.click("#confirm-yes")
    wait_until(lambda: server_state(page)["revision"] != before)  # unplayed: replaced in place
    assert server_state(page)["variant"] == "classic"
    page.wait_for_function("() => document.querySelector('#mode').textContent === 'Classic · 4\u00d74'")
    # Cancelling changes nothing.
    page.click("#mode")
    page.click("#confirm-no")
    page.wait_for_timeout(200)
    assert server_state(page)["variant"] == "classic"


def test_the_mode_reads_in_every_language(pages: Pages, live_server: LiveServer) -> None:
    page = pages.open("/?lang=ja")
    prepare(page, live_server, OPEN, variant="merge")
    assert page.text_content("#mode") == "マージ2048 · 4\u00d74"
    assert (page.get_attribute("#mode", "aria-label") or "").startswith("モード: マージ2048 · 4\u00d74")
    page.click("[data-lang=zh]")
    # Chinese is fetched on this first switch; the links say so once the page speaks it.
    page.wait_for_selector("[data-lang=zh][aria-pressed=true]")
    assert page.text_content("#mode") == "合并 2048 · 4\u00d74"
    # A full-width colon in the button's name.
    assert (page.get_attribute("#mode", "aria-label") or "").startswith("模式\uff1a合并 2048 · 4\u00d74")
    page.click("#mode")
    assert page.text_content("#confirm legend") == "模式"
    assert page.text_content("#confirm .size-choice span") == "棋盘大小"
    # The dialog's own words (newgame.js keeps them) follow the language as well.
    assert (page.text_content("#confirm-title") or "").startswith("开始新游戏")
    assert (page.text_content("#mode-rules") or "").startswith("最大方块越大")  # the merge mode's rules
    page.keyboard.press("Escape")
    page.click("[data-lang=en]")
    expect(page.locator("#mode")).to_have_attribute("aria-label", "Mode: Merge 2048 · 4\u00d74 — change")
    assert page.text_content("#confirm-title") == "Start a new game?"


def test_a_swipe_that_starts_on_a_tile_moves_only_that_tile(pages: Pages, live_server: LiveServer) -> None:
    page = pages.open(viewport=PHONE, has_touch=True, is_mobile=True)
    game = prepare(page, live_server, OPEN, variant="merge")
    x, y = centre(page, 3)
    touch(page, swipe_frames(x, y, -80, 5))  # the 2 on cell 3 joins the 2 on cell 0; nothing else moves
    game.move("left", 3)
    expect_game(page, game)
    assert flat(game.board.rows)[5] == 4 and flat(game.board.rows)[12] == flat(game.board.rows)[15] == 8
    x, y = centre(page, 5)
    touch(page, swipe_frames(x, y, 0, 90))  # the 4 alone slides to the bottom row
    game.move("down", 5)
    expect_game(page, game)
    empty = next(c for c, v in enumerate(game.board.cells) if not v)
    x, y = centre(page, empty)
    touch(page, swipe_frames(x, y, 80, 0))  # from an empty cell: the whole board
    game.move("right")
    expect_game(page, game)
    assert stored_actions(page, live_server) == ["left@3", "down@5", "right"]


def test_keys_buttons_and_mouse_drags_in_merge_mode(pages: Pages, live_server: LiveServer) -> None:
    page = pages.open()
    game = prepare(page, live_server, OPEN, variant="merge")
    page.keyboard.press("ArrowLeft")  # keys move the whole board
    game.move("left")
    expect_game(page, game)
    page.click(".pad [data-dir=up]")  # so do the buttons
    game.move("up")
    expect_game(page, game)
    tile = next(c for c, v in enumerate(game.board.cells) if v and game.board.move_tile(c, "down").changed)
    x, y = centre(page, tile)
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x, y + 100, steps=4)
    page.mouse.up()
    game.move("down", tile)
    expect_game(page, game)
    # A swipe on a tile that cannot go that way is an illegal move: nothing changes.
    cells = game.board.cells
    blocked = next(c for c, v in enumerate(cells) if v and not game.board.move_tile(c, "up").changed)
    x, y = centre(page, blocked)
    before = server_state(page)
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x, y - 60, steps=4)
    page.mouse.up()
    page.wait_for_timeout(300)
    assert server_state(page) == before
    expect_game(page, game)
    assert stored_actions(page, live_server) == ["left", "up", f"down@{tile}"]


def test_classic_swipes_on_a_tile_still_move_the_whole_board(pages: Pages, live_server: LiveServer) -> None:
    page = pages.open(viewport=PHONE, has_touch=True, is_mobile=True)
    game = prepare(page, live_server, OPEN)
    x, y = centre(page, 3)
    touch(page, swipe_frames(x, y, -80, 5))
    game.move("left")
    expect_game(page, game)
    assert stored_actions(page, live_server) == ["left"]
