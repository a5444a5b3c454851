"""Boards of other sizes on the page (issue 32): one of each size class (small 3x3 and 2x4, the
default 4x4, large 6x6) fits 1280x800 and 360x640 without scrolling, its parts lined up with the
board, every tile's number within its tile (6-digit tiles on a 6x6 too) at a readable size; slides
land on their cells; a new game of another size comes through the dialog and plays; history,
statistics and the leaderboards follow the size.

The boards are prepared in the store; the server's answers say everything the page draws."""

from __future__ import annotations

import pytest
from pagetools import (
    LiveServer,
    Pages,
    board,
    current_game,
    expect_game,
    flat,
    hold_first,
    prepare,
    server_state,
    wait_held,
    wait_until,
)
from playwright.sync_api import Page, expect
from test_page_fit import LINE_UP, SIZES

pytestmark = pytest.mark.browser

#: Every tile's number, its width, its tile's width, its font size in px.
TEXTS = """() => [...document.querySelectorAll('#board .tile')].map((tile) => {
  const range = document.createRange();
  range.selectNodeContents(tile);
  return [tile.textContent, range.getBoundingClientRect().width, tile.getBoundingClientRect().width,
          parseFloat(getComputedStyle(tile).fontSize)];
})"""

SMALL = [[2, 4, 8], [16, 32, 64], [128, 256, 0]]
WIDE = [[2, 4, 8, 16], [0, 32, 0, 64]]
DEFAULT = [[2, 4, 8, 16], [32, 64, 128, 256], [512, 1024, 2048, 4096], [8192, 16384, 32768, 65536]]
#: 6-digit tiles (and a 7-digit one) on a 6x6, with room to move.
LARGE = [
    [131072, 262144, 524288, 1048576, 2, 4],
    [8, 16, 32, 64, 128, 256],
    [512, 1024, 2048, 4096, 8192, 16384],
    [32768, 65536, 2, 4, 8, 16],
    [0, 2, 0, 0, 4, 0],
    [0, 0, 0, 0, 0, 2],
]


BOARDS = {"3x3": SMALL, "2x4": WIDE, "4x4": DEFAULT, "6x6": LARGE}


def cells_wide(cells: int) -> float:
    """A board's side in cells: its cells and the gaps (0.1412 of a cell) between and around them."""
    return cells + (cells + 1) * 0.1412


@pytest.mark.parametrize("size", BOARDS)
def test_every_size_class_fits_the_screen_with_readable_tiles(
    pages: Pages, live_server: LiveServer, size: str
) -> None:
    rows = BOARDS[size]
    page = pages.open()
    # A large board's scores run longer: eight digits still fit the header at 360 px.
    prepare(page, live_server, rows, score=12_345_678 if size == "6x6" else 0)
    assert board(page) == flat(rows)  # R x C cells with their values, row-major
    assert page.text_content("#mode") == f"Classic · {size.replace('x', chr(0xD7))}"
    for screen in ("1280x800", "360x640"):
        page.set_viewport_size(SIZES[screen])
        found = page.evaluate(LINE_UP)
        assert found["off"] == [] and found["scroll"] == [True, True], (size, screen, found)
        frame = page.locator("#frame").bounding_box()
        assert frame is not None
        # The longer side is the board's full size; the other follows the board's shape.
        shape = cells_wide(len(rows[0])) / cells_wide(len(rows))
        assert frame["width"] / frame["height"] == pytest.approx(shape, rel=0.01), (size, frame)
        for text, width, tile, font in page.evaluate(TEXTS):
            assert width <= 0.9 * tile, (size, screen, text, width, tile)
            # 6 digits on a 6x6 at 360 px are about 10.5 px; no number is smaller than 9 px.
            assert font >= (9 if len(text) > 6 else 10), (size, screen, text, font)


# Each sliding copy against the cell its slide ends on: where it stands once its animation is done.
LANDED = """() => [...document.querySelectorAll('#fx .ghost')].map((ghost) => {
  const [animation] = ghost.getAnimations();
  animation.finish();
  const g = ghost.getBoundingClientRect();
  return [ghost.textContent, g.left, g.top, g.width];
})"""


BOXES = "cells => cells.map((c) => { const r = c.getBoundingClientRect(); return [r.left, r.top, r.width]; })"


def test_slides_land_on_their_cells_on_a_6x6(pages: Pages, live_server: LiveServer) -> None:
    page = pages.open(viewport=SIZES["360x640"])
    game = prepare(page, live_server, LARGE)
    slides = server_state(page)["forecast"]["down"]["slides"]
    assert slides
    held = hold_first(page, live_server, "**/move")
    page.keyboard.press("ArrowDown")
    wait_held(page, held)
    page.wait_for_function("() => document.querySelectorAll('#fx .ghost').length > 0")
    landed = page.evaluate(LANDED)
    cells = page.eval_on_selector_all("#board > .cell", BOXES)
    values = flat(LARGE)
    assert sorted(text for text, *_ in landed) == sorted(str(values[start]) for start, _ in slides)
    ends = sorted(cells[end] for _, end in slides)
    for box, end in zip(sorted(box for _, *box in landed), ends, strict=True):
        assert box == pytest.approx(end, abs=1)
    held[0].continue_()
    game.move("down")
    expect_game(page, game)


def choose_size(page: Page, size: str) -> None:
    page.click("#mode")
    page.wait_for_selector("#confirm[open]")
    page.select_option("#size", size)
    page.click("#confirm-yes")


def play_one(page: Page, server: LiveServer) -> None:
    """A legal move by key, checked against the engine's copy of the game."""
    game = current_game(page, server)
    direction = game.board.legal_moves()[0]
    page.keyboard.press("Arrow" + direction.value.capitalize())
    game.move(direction)
    expect_game(page, game)


def test_a_new_game_of_another_size_through_the_dialog_and_a_move_on_it(
    pages: Pages, live_server: LiveServer
) -> None:
    page = pages.open(viewport=SIZES["360x640"])
    # The dialog offers the sizes, on the current game's.
    page.click("#mode")
    page.wait_for_selector("#confirm[open]")
    offered = page.eval_on_selector_all("#size option", "options => options.map((o) => o.value)")
    assert offered == ["2x4", "3x3", "3x4", "4x4", "5x5", "6x6"]
    assert page.input_value("#size") == "4x4"
    page.keyboard.press("Escape")
    choose_size(page, "3x3")
    wait_until(lambda: server_state(page)["size"] == "3x3")
    expect(page.locator("#board > .cell")).to_have_count(9)
    expect(page.locator("#mode")).to_have_text("Classic · 3\u00d73")
    play_one(page, live_server)
    # Its replay draws the same 3x3 boards, as the server gives them.
    played = server_state(page)
    page.goto(f"/#/replay/{played['id']}/1")
    page.wait_for_function("() => document.querySelector('#views .view')?.dataset.move === '1'")
    replayed = page.eval_on_selector_all(
        "#views .board > .cell", "cells => cells.map((c) => +c.dataset.value)"
    )
    assert replayed == flat(played["board"])
    page.goto("/#/")
    # A new game keeps the size; the dialog opens on it.
    page.click("#mode")
    page.wait_for_selector("#confirm[open]")
    assert page.input_value("#size") == "3x3"
    page.click("#confirm-yes")
    wait_until(lambda: server_state(page)["id"] != played["id"])
    assert server_state(page)["size"] == "3x3"
    expect(page.locator("#board > .cell")).to_have_count(9)


def test_history_stats_and_leaderboards_follow_the_size(pages: Pages, live_server: LiveServer) -> None:
    page = pages.open()
    choose_size(page, "5x5")
    wait_until(lambda: server_state(page)["size"] == "5x5")
    play_one(page, live_server)
    game = server_state(page)["id"]
    page.goto("/#/history")
    expect(page.locator(f"tr[data-game='{game}'] td").nth(2)).to_have_text("5\u00d75")
    page.goto("/#/stats")
    page.select_option("#views [data-part=size]", "5x5")
    page.wait_for_function("() => /size=5x5/.test(document.querySelector('#views .view')?.dataset.loaded)")
    page.goto("/#/leaderboard/all-time/classic/3x3")
    expect(page.locator("#views [data-part=size]")).to_have_value("3x3")
    with page.expect_request(lambda r: "/api/leaderboard" in r.url and "size=6x6" in r.url):
        page.select_option("#views [data-part=size]", "6x6")
    assert page.url.endswith("#/leaderboard/all-time/classic/6x6")
    # The daily board is 4x4 classic: no size to choose.
    page.select_option("#views [data-part=board]", "daily")
    expect(page.locator("#views [data-part=size]")).to_be_hidden()
