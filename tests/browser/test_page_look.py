"""How the page looks and reads: layout on a phone and a desktop, contrast measured from the
computed styles, tile text that fits, dark theme, reduced motion, keyboard and screen-reader access.
The layout's screenshots land in test-artifacts/ for a person to look at (every state:
bench/screenshots.py)."""

from __future__ import annotations

import re

import pytest
from pagetools import ARTIFACTS, DESKTOP, PHONE, LiveServer, Pages, board, flat, prepare, ready, settled
from playwright.sync_api import Page

pytestmark = pytest.mark.browser

EVERY_TILE = [[2, 4, 8, 16], [32, 64, 128, 256], [512, 1024, 2048, 4096], [8192, 16384, 32768, 65536]]
TOP_TILE = [[131072, 65536, 32768, 16384], [2, 4, 8, 16], [0, 0, 0, 0], [0, 0, 0, 2]]
MIDGAME = [[2, 4, 8, 16], [0, 2, 32, 64], [0, 0, 128, 256], [0, 0, 512, 2048]]

# [label, text colour, background] for every tile and every visible button; a transparent
# background is the first opaque one behind it.
COLOURS = """() => {
  const opaque = (el) => {
    for (; el; el = el.parentElement) {
      const bg = getComputedStyle(el).backgroundColor;
      if (!/rgba\\(.*, 0\\)$/.test(bg) && bg !== 'transparent') return bg;
    }
    return getComputedStyle(document.documentElement).backgroundColor;
  };
  const visible = (el) => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden';
  return [...document.querySelectorAll('#board .tile, button')].filter(visible)
    .map((el) => [el.dataset.v || el.id || el.textContent.trim() || el.getAttribute('aria-label'),
                  getComputedStyle(el).color, opaque(el)]);
}"""


def luminance(css: str) -> float:
    match = re.fullmatch(r"rgba?\((\d+), (\d+), (\d+)(?:, ([\d.]+))?\)", css)
    assert match, css
    assert match.group(4) in (None, "1"), f"translucent colour {css}"
    channels = [int(c) / 255 for c in match.groups()[:3]]
    r, g, b = (c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: str, b: str) -> float:
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def assert_contrast(page: Page, tiles: bool = True) -> int:
    checked = [c for c in page.evaluate(COLOURS) if tiles or not c[0].isdigit()]
    low = [(label, fg, bg, round(contrast(fg, bg), 2)) for label, fg, bg in checked if contrast(fg, bg) < 4.5]
    assert not low, low
    return len(checked)


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("high_contrast", [True, False])
def test_text_contrast_on_every_tile_and_button(
    pages: Pages, live_server: LiveServer, scheme: str, high_contrast: bool
) -> None:
    # The default look is the original's (white digits from 8 up, below 4.5:1 on orange and gold);
    # with "High-contrast tiles" every tile reads at 4.5:1 too. Buttons always do.
    tiles = high_contrast
    page = pages.open(color_scheme=scheme)
    if high_contrast:
        page.evaluate("localStorage.setItem('twenty48.settings', JSON.stringify({contrast: 'on'}))")
    prepare(page, live_server, EVERY_TILE)
    assert page.is_disabled("#undo")  # disabled buttons are measured too
    assert assert_contrast(page, tiles) >= (16 if tiles else 0) + 10
    prepare(page, live_server, TOP_TILE)
    assert_contrast(page, tiles)
    prepare(page, live_server, [[1024, 1024, 0, 0], [2, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]])
    page.keyboard.press("ArrowLeft")
    page.wait_for_selector("#keep-going", state="visible")
    assert_contrast(page, tiles)  # the banner's buttons
    page.keyboard.press("n")
    page.wait_for_selector("#confirm", state="visible")
    assert_contrast(page, tiles)  # the dialog's buttons
    page.keyboard.press("Escape")
    page.click("#open-settings")
    page.wait_for_selector("#settings[open]")  # built on first open
    assert_contrast(page, tiles)


def test_every_value_fits_its_tile_and_has_its_own_colour(pages: Pages, live_server: LiveServer) -> None:
    sizes = """() => [...document.querySelectorAll('#board .tile')].map((tile) => {
        const range = document.createRange();
        range.selectNodeContents(tile);
        return [+tile.dataset.v, range.getBoundingClientRect().width, tile.getBoundingClientRect().width,
                getComputedStyle(tile).backgroundColor];
    })"""
    page = pages.open(viewport={"width": 360, "height": 640})
    colours: dict[int, str] = {}
    for rows in (EVERY_TILE, TOP_TILE):
        prepare(page, live_server, rows)
        for value, text, tile, colour in page.evaluate(sizes):
            assert text <= 0.9 * tile, (value, text, tile)
            colours[value] = colour
    assert sorted(colours) == [2**k for k in range(1, 18)]
    assert len(set(colours.values())) == 17
    # The original palette up to 2048.
    assert colours[2] == "rgb(238, 228, 218)" and colours[2048] == "rgb(237, 194, 46)"


@pytest.mark.parametrize(
    ("name", "viewport", "scheme", "path"),
    [
        ("desktop", DESKTOP, "light", "/"),
        ("desktop-dark", DESKTOP, "dark", "/"),
        ("phone", PHONE, "light", "/"),
        ("phone-dark", PHONE, "dark", "/"),
        ("phone-ja", PHONE, "light", "/?lang=ja"),
        ("phone-zh", {"width": 360, "height": 640}, "light", "/?lang=zh"),
    ],
)
def test_layout_and_screenshots(
    pages: Pages, live_server: LiveServer, name: str, viewport: dict[str, int], scheme: str, path: str
) -> None:
    page = pages.open(path, viewport=viewport, color_scheme=scheme)
    prepare(page, live_server, MIDGAME, score=23_456)
    geometry = page.evaluate(
        """() => {
          const box = (sel) => document.querySelector(sel).getBoundingClientRect().toJSON();
          return {frame: box('#frame'), pad: box('.pad'), toolbar: box('.toolbar'), top: box('.top'),
                  width: innerWidth, height: innerHeight,
                  scrollWidth: document.documentElement.scrollWidth};
        }"""
    )
    # Everything needed to play is on screen at once, nothing sticks out sideways.
    assert geometry["scrollWidth"] <= geometry["width"]
    for part in ("frame", "pad", "toolbar", "top"):
        assert geometry[part]["left"] >= 0 and geometry[part]["right"] <= geometry["width"], part
        assert geometry[part]["top"] >= 0 and geometry[part]["bottom"] <= geometry["height"], part
    if viewport == DESKTOP:
        assert geometry["frame"]["width"] == 500  # the original's board
    else:
        assert geometry["frame"]["width"] >= viewport["width"] - 24
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=ARTIFACTS / f"page-{name}.png")


def test_dark_theme_follows_the_system_and_the_switch(pages: Pages) -> None:
    background = "() => getComputedStyle(document.body).backgroundColor"
    light, dark = "rgb(250, 248, 239)", "rgb(28, 26, 23)"
    page = pages.open(color_scheme="dark")
    assert page.evaluate(background) == dark
    page.click("#open-settings")
    page.select_option("[data-setting=theme]", "light")
    assert page.evaluate(background) == light
    page.reload()
    page.wait_for_selector("body[data-ready]")
    assert page.evaluate(background) == light  # remembered, over the system's preference
    page.emulate_media(color_scheme="light")
    page.click("#open-settings")
    page.select_option("[data-setting=theme]", "dark")
    assert page.evaluate(background) == dark
    page.select_option("[data-setting=theme]", "system")
    assert page.evaluate(background) == light


def test_reduced_motion_turns_motion_off(pages: Pages, live_server: LiveServer) -> None:
    page = pages.open(reduced_motion="reduce")
    game = prepare(page, live_server, [[2, 0, 0, 2], [0, 4, 0, 0], [0, 0, 0, 0], [8, 0, 0, 8]])
    page.evaluate(
        """() => { window.moving = 0;
           const count = () => window.moving++;
           new MutationObserver(count).observe(document.querySelector('#fx'), {childList: true});
           new MutationObserver(count).observe(document.querySelector('#gain'), {childList: true}); }"""
    )
    for key, direction in [("ArrowLeft", "left"), ("ArrowDown", "down"), ("ArrowRight", "right")]:
        page.keyboard.press(key)
        game.move(direction)
    settled(page, game.moves)
    assert page.evaluate("window.moving") == 0  # no sliding copies, no floating +N
    assert page.evaluate("getComputedStyle(document.querySelector('#board .tile')).animationName") == "none"
    assert board(page) == flat(game.board.rows)


def test_buttons_are_reachable_with_tab_and_the_board_speaks(pages: Pages, live_server: LiveServer) -> None:
    page = pages.open()
    prepare(page, live_server, [[2, 0, 0, 2], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]])
    focused = "(e => e.id || e.dataset.dir || e.dataset.lang || e.tagName)(document.activeElement)"
    reached = set()
    for _ in range(30):
        page.keyboard.press("Tab")
        reached.add(page.evaluate(focused))
    toolbar = {"new", "hint", "auto", "sound", "open-settings"}
    # Undo is left out: it is disabled until there is a move to take back.
    assert toolbar | {"up", "down", "left", "right", "en", "ja", "zh"} <= reached
    labels = page.eval_on_selector_all("#board > *", "cells => cells.map(c => c.getAttribute('aria-label'))")
    assert labels[0] == "2 tile" and labels[1] == "empty cell" and labels.count("empty cell") == 14
    page.keyboard.press("ArrowLeft")
    page.wait_for_function("() => document.querySelector('#live').textContent === 'Score 4'")
    viewport = page.get_attribute("meta[name=viewport]", "content") or ""
    assert "user-scalable=no" not in viewport and "maximum-scale" not in viewport


def test_a_whole_session_logs_no_console_errors(pages: Pages, live_server: LiveServer) -> None:
    page = pages.open(viewport=PHONE, color_scheme="dark")
    prepare(page, live_server, [[2, 2, 0, 0], [4, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 4]])
    for key in ["ArrowLeft", "ArrowUp", "ArrowRight", "u", "ArrowDown"]:
        page.keyboard.press(key)
    page.click("#hint")
    page.wait_for_selector("#hints", state="visible", timeout=20000)
    page.click("#open-settings")
    page.select_option("[data-setting=theme]", "light")
    page.click("#close-settings")
    page.click("[data-lang=ja]")
    page.reload()
    ready(page)
    page.keyboard.press("ArrowLeft")
    page.wait_for_timeout(300)
    assert pages.errors(page) == []
    # The check can fail: an error on a page is seen.
    page.evaluate("setTimeout(() => { throw new Error('seen') })")
    # A timer after the throw's: the error's report reaches the test before this answer does.
    page.evaluate("new Promise((done) => setTimeout(done))")
    assert any("seen" in error for error in pages.errors(page))
    pages.errors(page).clear()
