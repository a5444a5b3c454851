"""The page to the original's standard, on phones and a desktop: the shipped font, a header that holds
the largest numbers, a play view that fits without scrolling, buttons that never wrap, touch that
never scrolls the page, a readable hint, every overlay on the screen, and controls that do what they
say. Pictures of every state at every size, light and dark: bench/screenshots.py."""

from __future__ import annotations

import json
from typing import Any

import pytest
from pagetools import (
    ARTIFACTS,
    DESKTOP,
    NO_WORKER,
    OPEN,
    LiveServer,
    Pages,
    game_over,
    prepare,
    ready,
    server_state,
    settled,
    still,
    swipe_frames,
    touch,
    wait_until,
)
from playwright.sync_api import Page, Route
from test_page_settings import RECORD_AUDIO, stand_still

pytestmark = pytest.mark.browser

SIZES = {
    "360x640": {"width": 360, "height": 640},
    "375x667": {"width": 375, "height": 667},
    "390x844": {"width": 390, "height": 844},
    "1280x800": DESKTOP,
}
PHONES = [name for name in SIZES if name != "1280x800"]
#: The largest score a game can reach, and a long game's move count.
TOP_SCORE, MANY_MOVES = 3_932_100, 100_000
NEAR_WIN = [[1024, 1024, 4, 0], [2, 8, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]]
NEAR_OVER = [[2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4], [4, 2, 8, 8]]
MIDGAME = [[2, 4, 8, 16], [0, 2, 32, 64], [0, 0, 128, 256], [0, 0, 512, 2048]]


def open_at(pages: Pages, size: str, scheme: str = "light", path: str = "/", **options: Any) -> Page:
    """A page at ``size``; phones are touch devices (no hover, a coarse pointer), as they are."""
    phone = size in PHONES
    touch_screen = {"has_touch": phone, "is_mobile": phone}
    return pages.open(path, viewport=SIZES[size], color_scheme=scheme, **touch_screen, **options)


def big_numbers(page: Page) -> None:
    """Answer the page's loads with the largest score and best it can show and a 6-digit move count."""

    def handle(route: Route) -> None:
        state = route.fetch().json()
        state.update(score=TOP_SCORE, best=TOP_SCORE, moves=MANY_MOVES)
        route.fulfill(json=state)

    page.route("**/api/game", handle)
    page.reload()
    ready(page)


GEOMETRY = """() => {
  const box = (el) => el.getBoundingClientRect();
  const out = (el) => { const r = box(el); return r.left < 0 || r.right > innerWidth + 0.5; };
  // A label wraps when its text covers more than one line.
  const lines = (el) => {
    const range = document.createRange();
    range.selectNodeContents(el);
    return new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top))).size;
  };
  // Beside the language links the daily entry's name stands over the rest by design: each on one line.
  const wraps = (b) => (b.id === 'daily' && getComputedStyle(b.firstElementChild).display === 'block'
    ? [...b.children].some((part) => lines(part) > 1) : lines(b) > 1);
  const visible = (el) => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden';
  const buttons = [...document.querySelectorAll('button')].filter(visible);
  return {
    scrollWidth: document.documentElement.scrollWidth, scrollHeight: document.documentElement.scrollHeight,
    width: innerWidth, height: innerHeight,
    outside: [...document.querySelectorAll('.app *')].filter(visible).filter(out)
      .map((e) => e.id || e.className),
    wrapped: buttons.filter((b) => b.textContent.trim() && wraps(b)).map((b) => b.id || b.textContent),
    // Nowrap labels do not wrap; one too long for its button is cut instead.
    clipped: buttons.filter((b) => b.scrollWidth > b.clientWidth).map((b) => b.id || b.textContent),
    frame: box(document.querySelector('#frame')).toJSON(),
    texts: ['score', 'best', 'moves'].map((id) => document.getElementById(id).textContent),
  };
}"""


FIT_SIZES = {**SIZES, "1366x768": {"width": 1366, "height": 768}, "1440x900": {"width": 1440, "height": 900}}
DESKTOPS = [name for name in FIT_SIZES if name not in PHONES]

# Where the move count sits, against the header's icons and the block that holds it.
MOVES_BOX = """() => {
  const moves = document.getElementById('moves'), about = moves.closest('.about');
  return {moves: moves.getBoundingClientRect().toJSON(), icons: document.getElementById('icons')
    .getBoundingClientRect().toJSON(), about: about.getBoundingClientRect().toJSON(),
    clipped: [moves, about].filter((e) => e.scrollWidth > e.clientWidth).map((e) => e.id || e.className)};
}"""


# One page per language, scheme and kind of screen, resized through its sizes (the layout is CSS
# alone: it follows the viewport at once). Phones are touch screens; a narrow desktop window is not
# (without touch the help speaks of keys, on two lines).
@pytest.mark.parametrize(
    ("touch", "sizes", "scheme"),
    [
        (True, PHONES, "light"),
        (True, PHONES, "dark"),
        (False, DESKTOPS, "light"),
        (False, DESKTOPS, "dark"),
        (False, PHONES, "light"),
    ],
    ids=["phones-light", "phones-dark", "desktops-light", "desktops-dark", "narrow-windows"],
)
@pytest.mark.parametrize("lang", ["en", "ja", "zh"])
def test_the_play_view_with_the_largest_numbers_fits_without_scrolling(
    pages: Pages, lang: str, touch: bool, sizes: list[str], scheme: str
) -> None:
    # With everything the view can hold: the largest numbers and the daily challenge's entry.
    page = pages.open(
        f"/?lang={lang}",
        viewport=FIT_SIZES[sizes[0]],
        color_scheme=scheme,
        has_touch=touch,
        is_mobile=touch,
        **NO_WORKER,
    )
    big_numbers(page)
    page.wait_for_selector("#daily", state="visible")
    for size in sizes:
        viewport = FIT_SIZES[size]
        page.set_viewport_size(viewport)
        found = page.evaluate(GEOMETRY)
        assert found["texts"] == [f"{TOP_SCORE:,}", f"{TOP_SCORE:,}", f"{MANY_MOVES:,}"]  # one number format
        # The whole play view, language links included, is on screen without scrolling.
        assert found["scrollHeight"] <= found["height"], (size, found)
        assert found["scrollWidth"] <= found["width"], (size, found)
        assert found["outside"] == [] and found["wrapped"] == [] and found["clipped"] == [], (size, found)
        langs = page.locator(".langs").bounding_box()
        assert langs is not None and langs["y"] + langs["height"] <= viewport["height"], size
        # The board keeps its size: the original's 500 px where the screen allows it.
        narrow = viewport["width"] < 560
        assert found["frame"]["width"] >= (
            viewport["width"] - 24 if narrow else min(500, viewport["height"] - 300)
        ), size
        if touch:
            a_six_digit_move_count_is_clear_of_the_icons(page, size)


def a_six_digit_move_count_is_clear_of_the_icons(page: Page, size: str) -> None:
    # The page-wide scroll check alone passed while the count was drawn under the icons.
    found = page.evaluate(MOVES_BOX)
    moves, icons, about = found["moves"], found["icons"], found["about"]
    assert page.text_content("#moves") == f"{MANY_MOVES:,}" and moves["width"] > 0
    apart = (
        moves["right"] <= icons["left"]
        or moves["left"] >= icons["right"]
        or moves["bottom"] <= icons["top"]
        or moves["top"] >= icons["bottom"]
    )
    assert apart, (size, found)
    assert found["clipped"] == [], (size, found)
    assert about["left"] <= moves["left"] and moves["right"] <= about["right"], (size, found)


LANDSCAPES = ["844x390", "740x360", "640x360", "667x375"]


@pytest.mark.parametrize("lang", ["en", "ja", "zh"])
def test_a_landscape_phone_keeps_the_whole_board_in_view(pages: Pages, lang: str) -> None:
    page = pages.open(f"/?lang={lang}", viewport=DESKTOP, has_touch=True, is_mobile=True, **NO_WORKER)
    big_numbers(page)
    for size in LANDSCAPES:
        width, height = map(int, size.split("x"))
        viewport = {"width": width, "height": height}
        page.set_viewport_size(viewport)
        found = page.evaluate(GEOMETRY)
        frame = found["frame"]
        assert frame["top"] >= 0 and frame["bottom"] <= viewport["height"], size
        assert frame["width"] >= (300 if width >= 667 else 280), size
        assert found["scrollHeight"] <= height and found["scrollWidth"] <= width, (size, found)
        assert found["wrapped"] == [] and found["clipped"] == [], (size, found)
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=ARTIFACTS / f"polish-landscape-{size}-{lang}.png")
        # The new-game dialog's buttons too.
        page.click("#mode")
        page.wait_for_selector("#confirm[open]")
        found = page.evaluate(GEOMETRY)
        assert found["wrapped"] == [] and found["clipped"] == [], (size, found)
        page.keyboard.press("Escape")
        page.wait_for_selector("#confirm[open]", state="detached")


def test_notched_screens_pad_the_play_view_by_the_safe_areas() -> None:
    from pathlib import Path

    css = (Path(__file__).parents[2] / "src/twenty48/web/static/style.css").read_text()
    for side in ("top", "right", "bottom", "left"):
        assert f"env(safe-area-inset-{side})" in css
    html = (Path(__file__).parents[2] / "src/twenty48/web/static/index.html").read_text()
    assert "viewport-fit=cover" in html


def test_tiles_are_drawn_in_clear_sans_from_the_apps_origin(pages: Pages, live_server: LiveServer) -> None:
    page = pages.open()
    prepare(page, live_server, MIDGAME)
    page.evaluate("document.fonts.ready")
    cdp = page.context.new_cdp_session(page)
    cdp.send("DOM.enable")
    cdp.send("CSS.enable")
    root = cdp.send("DOM.getDocument")["root"]["nodeId"]
    tile = cdp.send("DOM.querySelector", {"nodeId": root, "selector": "#board .tile"})["nodeId"]
    fonts = cdp.send("CSS.getPlatformFontsForNode", {"nodeId": tile})["fonts"]
    # Every glyph came from a web font (the files name themselves oddly after subsetting), and the
    # only web font the page declares is Clear Sans, which the browser reports loaded.
    assert len(fonts) == 1 and fonts[0]["isCustomFont"]
    cdp.detach()
    faces = page.evaluate("[...document.fonts].map(f => [f.family, f.weight, f.status])")
    assert {tuple(f) for f in faces} >= {("Clear Sans", "700", "loaded")}
    assert {f[0] for f in faces} == {"Clear Sans"}
    assert page.evaluate("getComputedStyle(document.querySelector('#board .tile')).fontFamily").startswith(
        '"Clear Sans"'
    )
    loaded = page.evaluate(
        "performance.getEntriesByType('resource').map(e => e.name).filter(n => /woff2/.test(n))"
    )
    assert loaded and all(name.startswith(live_server.url + "/static/fonts/") for name in loaded)
    response = page.request.get("/static/fonts/clear-sans-700.woff2")
    assert response.ok and response.headers["content-type"] == "font/woff2"
    assert page.request.get("/static/fonts/LICENSE").ok
    # Japanese and Chinese fall back to the CJK fonts after it.
    family = page.evaluate("getComputedStyle(document.body).fontFamily")
    assert "Noto Sans CJK JP" in family and "Noto Sans CJK SC" in family


@pytest.mark.parametrize("size", ["375x667", "360x640"])
def test_a_swipe_beside_the_board_never_scrolls_but_pinch_zoom_stays(pages: Pages, size: str) -> None:
    page = open_at(pages, size)
    frame = page.locator("#frame").bounding_box()
    assert frame is not None
    x, below = frame["x"] + frame["width"] / 2, frame["y"] + frame["height"] + 3
    for sx, sy, dx, dy in [(x, below, 0, -150), (3, frame["y"] + 100, 0, -200), (x, frame["y"] - 3, 0, 200)]:
        touch(page, swipe_frames(sx, sy, dx, dy))
        page.wait_for_timeout(100)
        assert page.evaluate("[scrollX, scrollY]") == [0, 0]
    assert page.evaluate("getComputedStyle(document.querySelector('.app')).touchAction") == "pinch-zoom"
    viewport = page.get_attribute("meta[name=viewport]", "content") or ""
    assert "user-scalable=no" not in viewport and "maximum-scale" not in viewport


def test_a_tapped_button_does_not_stay_highlighted(pages: Pages, live_server: LiveServer) -> None:
    page = open_at(pages, "375x667")
    prepare(page, live_server, OPEN)
    colour = "() => getComputedStyle(document.querySelector('.pad [data-dir=left]')).backgroundColor"
    resting = page.evaluate(colour)
    page.tap(".pad [data-dir=left]")
    settled(page, 1)
    assert page.evaluate(colour) == resting
    # With a mouse, hovering does highlight.
    desktop = pages.open()
    before = desktop.evaluate(colour)
    desktop.hover(".pad [data-dir=left]")
    assert desktop.evaluate(colour) != before


def test_the_help_line_says_what_applies_to_the_device(pages: Pages) -> None:
    phone = open_at(pages, "375x667")
    text = phone.text_content("#help") or ""
    assert "Swipe" in text and "Arrow keys" not in text
    desktop = pages.open()
    text = desktop.text_content("#help") or ""
    assert "Arrow keys" in text and "Swipe" not in text


def test_merged_and_new_tiles_settle_at_their_cells_size(pages: Pages, live_server: LiveServer) -> None:
    page = open_at(pages, "375x667", device_scale_factor=3)
    prepare(page, live_server, OPEN)
    page.keyboard.press("ArrowLeft")  # two merges and a new tile
    settled(page, 1)
    still(page, "#board")  # the grow and pop animations end
    sizes = page.evaluate(
        """() => [...document.querySelectorAll('#board .tile')].map((t) => {
             const a = t.getBoundingClientRect(), b = t.parentElement.getBoundingClientRect();
             return [a.left - b.left, a.top - b.top, a.width - b.width, a.height - b.height,
                     getComputedStyle(t).transform];
           })"""
    )
    assert sizes and all(s == [0, 0, 0, 0, "none"] for s in sizes), sizes


def test_the_hint_shows_standings_and_hides_no_tile(pages: Pages, live_server: LiveServer) -> None:
    for scheme in ("light", "dark"):
        page = open_at(pages, "375x667", scheme)
        prepare(page, live_server, NEAR_WIN)
        page.click("#hint")
        page.wait_for_selector("#hints", state="visible", timeout=20000)
        answer = page.request.post(f"/api/games/{server_state(page)['id']}/hint").json()
        assert all("value" in m and 0 <= m["standing"] <= 100 for m in answer["moves"])
        chips = page.eval_on_selector_all("#hints .chip", "cs => cs.map(c => c.textContent)")
        assert chips and not any(any(c.isdigit() for c in chip) for chip in chips), chips
        assert any(chip.endswith(" best") for chip in chips)
        hints = page.locator("#hints").bounding_box()
        board = page.locator("#board").bounding_box()
        assert hints is not None and board is not None and hints["y"] >= board["y"] + board["height"]
        # Readable in both themes: white on each chip's own colour, never on the page's.
        checked = page.evaluate(
            """() => [...document.querySelectorAll('#hints .chip:not([data-g=""]), #hints .arrow')]
                 .map((c) => [getComputedStyle(c).color, getComputedStyle(c).backgroundColor])"""
        )
        assert all(fg == "rgb(255, 255, 255)" and bg != "rgba(0, 0, 0, 0)" for fg, bg in checked)


def test_music_is_off_on_a_fresh_profile_and_effects_are_on(pages: Pages, live_server: LiveServer) -> None:
    context = pages.context()
    context.add_init_script(RECORD_AUDIO)
    context.clock.install()
    page = context.new_page()
    page.goto("/")
    ready(page)
    prepare(page, live_server, OPEN)
    page.keyboard.press("ArrowLeft")
    settled(page, 1)
    stand_still(page)
    page.clock.run_for(800)  # two steps of the loop, had it started
    played = page.evaluate("audioLog.notes.map(n => n.type)")
    assert "triangle" in played  # the merge effect
    assert page.evaluate("audioLog.notes.filter(n => n.type === 'triangle' && n.f === 196).length") == 0
    page.click("#open-settings")
    assert not page.is_checked("[data-setting=music]") and page.is_checked("[data-setting=effects]")


def test_win_banners_new_game_starts_at_once(pages: Pages, live_server: LiveServer) -> None:
    page = pages.open()
    prepare(page, live_server, NEAR_WIN)
    page.keyboard.press("ArrowLeft")
    page.wait_for_selector("#win", state="visible")
    page.click("#win-new")
    assert not page.is_visible("#confirm")
    page.wait_for_selector("#win", state="hidden")
    wait_until(lambda: server_state(page)["moves"] == 0 and server_state(page)["score"] == 0)


def test_cancel_looks_like_a_button_not_like_a_disabled_one(pages: Pages, live_server: LiveServer) -> None:
    page = pages.open()
    prepare(page, live_server, OPEN)
    page.keyboard.press("ArrowLeft")
    settled(page, 1)
    page.click("#new")
    style = """(id) => { const s = getComputedStyle(document.getElementById(id));
                 return [s.borderTopStyle, s.borderTopColor, s.backgroundColor, s.color]; }"""
    cancel = page.evaluate(style, "confirm-no")
    page.keyboard.press("Escape")
    prepare(page, live_server, OPEN)
    disabled = page.evaluate(style, "undo")
    assert cancel[0] == "solid" and cancel[1] != "rgba(0, 0, 0, 0)"
    assert cancel != disabled and disabled[0] == "dashed"


def test_the_mode_control_opens_on_the_current_mode_and_enter_starts_nothing(
    pages: Pages, live_server: LiveServer
) -> None:
    page = pages.open()
    prepare(page, live_server, OPEN)
    before = server_state(page)
    page.click("#mode")
    assert page.is_visible("#confirm") and page.is_checked("#confirm [value=classic]")
    page.keyboard.press("Enter")
    page.wait_for_timeout(200)
    assert page.is_visible("#confirm")
    page.keyboard.press("Escape")
    assert server_state(page) == before


# How a button looks: what tells a disabled one from a live one.
LOOK = "b => ['backgroundColor', 'borderTopStyle', 'color'].map((k) => getComputedStyle(b)[k])"


def test_game_over_disables_auto_play_and_the_arrows_like_hint_and_undo(
    pages: Pages, live_server: LiveServer
) -> None:
    page = pages.open()
    game_over(page, live_server)
    assert page.is_disabled("#auto") and page.is_disabled("#hint") and page.is_disabled("#undo")
    # The arrows under the board look as dead as Hint does (and are).
    hint = page.eval_on_selector("#hint", LOOK)
    for direction in ("left", "up", "down", "right"):
        arrow = f".pad [data-dir={direction}]"
        assert page.is_disabled(arrow) and page.eval_on_selector(arrow, LOOK) == hint
    page.click("#again")
    page.wait_for_selector("#over", state="hidden")  # at once; the new game's state comes after
    page.wait_for_selector("#auto:enabled")
    page.wait_for_selector(".pad [data-dir=left]:enabled")


@pytest.mark.parametrize("size", ["360x640", "1280x800"])
def test_the_offline_notice_leaves_the_scores_and_the_links_clear(
    pages: Pages, live_server: LiveServer, size: str
) -> None:
    page = open_at(pages, size, allow_errors=True, **NO_WORKER)
    page.route("**/api/games/**", lambda route: route.abort())  # set before the page loads its game
    prepare(page, live_server, OPEN)
    page.keyboard.press("ArrowLeft")
    page.wait_for_selector("#notice", state="visible")
    notice, scores = page.locator("#notice").bounding_box(), page.locator(".top").bounding_box()
    below = page.locator(".bottom").bounding_box()  # the arrows, the daily entry, the language links
    assert notice is not None and scores is not None and below is not None
    assert scores["y"] + scores["height"] <= notice["y"] and notice["y"] + notice["height"] <= below["y"]
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=ARTIFACTS / f"polish-{size}-offline.png")
    page.unroute("**/api/games/**")
    settled(page, 1)


def test_high_contrast_tiles_follow_the_system_and_the_setting(pages: Pages) -> None:
    page = pages.open()
    has = "document.documentElement.classList.contains('hc')"
    assert not page.evaluate(has)
    cdp = page.context.new_cdp_session(page)
    cdp.send("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-contrast", "value": "more"}]})
    page.wait_for_function(f"() => {has}")  # at once, without a reload
    page.reload()
    ready(page)
    assert page.evaluate(has)
    page.click("#open-settings")
    assert page.is_checked("[data-setting=contrast]")
    page.click("[data-setting=contrast]")  # off, over the system's wish
    assert not page.evaluate(has)
    stored = json.loads(page.evaluate("localStorage.getItem('twenty48.settings')"))
    assert stored["contrast"] == "off"
    no_preference = [{"name": "prefers-contrast", "value": "no-preference"}]
    cdp.send("Emulation.setEmulatedMedia", {"features": no_preference})
    page.click("[data-setting=contrast]")  # on, where the system does not ask for it
    assert page.evaluate(has)
    cdp.detach()


# ---- every overlay at every size ---------------------------------------------------------------------


def fits(page: Page, size: str, selector: str) -> None:
    """``selector``'s box lies on the screen, the page does not scroll sideways, and no visible
    button's label wraps or is cut."""
    page.wait_for_selector(selector, state="visible")
    still(page, selector)
    box, viewport = page.locator(selector).bounding_box(), SIZES[size]
    assert box is not None and box["x"] >= 0 and box["y"] >= 0, (selector, box)
    assert box["x"] + box["width"] <= viewport["width"], (selector, box)
    assert box["y"] + box["height"] <= viewport["height"], (selector, box)
    found = page.evaluate(GEOMETRY)
    assert found["scrollWidth"] <= found["width"], (selector, found)
    assert found["wrapped"] == [] and found["clipped"] == [], (selector, found)


@pytest.mark.parametrize("sizes", [PHONES, ["1280x800"]], ids=["phones", "desktop"])
def test_every_overlay_fits_the_screen_and_keeps_its_labels_whole(
    pages: Pages, live_server: LiveServer, sizes: list[str]
) -> None:
    # What bench/screenshots.py's pictures of every state are looked at for, checked.
    page = open_at(pages, sizes[0])

    def everywhere(selector: str) -> None:
        for size in sizes:
            page.set_viewport_size(SIZES[size])
            fits(page, size, selector)

    prepare(page, live_server, NEAR_WIN)
    page.keyboard.press("ArrowLeft")
    everywhere("#win")
    prepare(page, live_server, NEAR_OVER, seed=1)
    page.keyboard.press("ArrowLeft")
    everywhere("#over")
    prepare(page, live_server, OPEN)
    page.keyboard.press("ArrowLeft")
    settled(page, 1)
    page.click("#new")
    everywhere("#confirm[open]")
    page.keyboard.press("Escape")
    page.click("#open-settings")
    everywhere("#settings[open]")
