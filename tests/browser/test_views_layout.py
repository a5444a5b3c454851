"""The history, statistics and replay views at the play view's sizes (three phones and a desktop),
light and dark: nothing sticks out sideways, no button label wraps, every text reads at 4.5:1, and
a long view scrolls under a finger (the views live outside the play view, whose swipes never scroll).
Screenshots land in test-artifacts/."""

from __future__ import annotations

import pytest
from pagetools import ARTIFACTS, LiveServer, Pages, player_id, swipe_frames, touch, wait_until
from playwright.sync_api import Page, expect
from test_history_views import at_move, loaded, long_game, ranked_game_in_play
from test_page_look import contrast
from test_page_polish import PHONES, SIZES, open_at

pytestmark = pytest.mark.browser

# What the views show, measured: overflow to the side (a table's own scrolling box excepted), button
# labels on more than one line, and each text's colour over the first opaque background behind it.
VIEW_GEOMETRY = """() => {
  const visible = (el) => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden';
  // A label wraps when its words cover more than one line (a hidden file input inside is no word).
  const lines = (el) => {
    const tops = new Set();
    for (const node of el.childNodes) {
      if (node.nodeType !== Node.TEXT_NODE || !node.textContent.trim()) continue;
      const range = document.createRange();
      range.selectNodeContents(node);
      for (const r of range.getClientRects()) if (r.width > 0) tops.add(Math.round(r.top));
    }
    return tops.size;
  };
  const opaque = (el) => {
    for (; el; el = el.parentElement) {
      const bg = getComputedStyle(el).backgroundColor;
      if (!/rgba\\(.*, 0\\)$/.test(bg) && bg !== 'transparent') return bg;
    }
    return getComputedStyle(document.documentElement).backgroundColor;
  };
  const all = [...document.querySelectorAll('#views *')].filter(visible);
  const out = (el) => {
    const r = el.getBoundingClientRect();
    return r.left < -0.5 || r.right > innerWidth + 0.5;
  };
  const texts = all.filter((el) => !el.closest('svg, .tile')
    && [...el.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && n.textContent.trim()));
  return {
    scrollWidth: document.documentElement.scrollWidth, width: innerWidth,
    outside: all.filter((el) => !el.closest('.table-wrap')).filter(out)
      .map((el) => el.className || el.tagName),
    wrapped: all.filter((el) => el.matches('button, .btn') && lines(el) > 1).map((el) => el.textContent),
    colours: texts.map((el) => [el.textContent.trim().slice(0, 30), getComputedStyle(el).color, opaque(el)]),
  };
}"""


def check_view(page: Page, name: str) -> None:
    found = page.evaluate(VIEW_GEOMETRY)
    assert found["scrollWidth"] <= found["width"], (name, found["scrollWidth"])
    assert found["outside"] == [], name
    assert found["wrapped"] == [], name
    colours = found["colours"]
    low = [(text, fg, bg, round(contrast(fg, bg), 2)) for text, fg, bg in colours if contrast(fg, bg) < 4.5]
    assert not low, (name, low)


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("size", list(SIZES))
def test_the_views_fit_read_and_scroll_at_every_size(
    pages: Pages, live_server: LiveServer, size: str, scheme: str
) -> None:
    page = open_at(pages, size, scheme)
    me = player_id(page, live_server)
    game_id = 0
    for seed in range(51, 63):  # more rows than a screen holds
        game_id = live_server.store.add_game(me, long_game(seed)).id
    live_server.store.new_game(me)  # the games above are finished now
    tag = f"{size}-{scheme}"
    ARTIFACTS.mkdir(exist_ok=True)
    page.click("#history")
    loaded(page, "/api/games")
    check_view(page, "history")
    page.screenshot(path=ARTIFACTS / f"views-{tag}-history.png")
    if size in PHONES:
        # A swipe up scrolls a long view: it is not the play view, whose touch never pans.
        assert page.evaluate("document.documentElement.scrollHeight > innerHeight")
        width = SIZES[size]["width"]
        touch(page, swipe_frames(width / 2, SIZES[size]["height"] - 60, 0, -250))
        wait_until(lambda: page.evaluate("scrollY") > 50)
        page.evaluate("scrollTo(0, 0)")
    page.click(".views-nav a[href='#/stats']")
    loaded(page, "assisted=include")
    check_view(page, "stats")
    page.screenshot(path=ARTIFACTS / f"views-{tag}-stats.png", full_page=True)
    page.goto(f"/#/replay/{game_id}/30")
    at_move(page, 30)
    check_view(page, "replay")
    page.screenshot(path=ARTIFACTS / f"views-{tag}-replay.png")


# Every history row's buttons against the viewport and the table's scrolling box.
ACTIONS_IN_VIEW = """() => {
  const wrap = document.querySelector('#views .table-wrap'), box = wrap.getBoundingClientRect();
  const inside = (r, b) => r.left >= b.left - 0.5 && r.right <= b.right + 0.5 && r.top >= b.top - 0.5
    && r.bottom <= b.bottom + 0.5;
  const screen = {left: 0, top: -Infinity, right: innerWidth, bottom: Infinity};
  const rows = [...document.querySelectorAll('#views tbody tr[data-game]')];
  return {
    rows: rows.length, overflow: wrap.scrollWidth - wrap.clientWidth,
    buttons: rows.flatMap((row) => [...row.querySelectorAll('.actions .btn')].map((b) => ({
      game: row.dataset.game, part: b.dataset.part || b.textContent, rect: b.getBoundingClientRect().toJSON(),
    }))).map((b) => ({...b, seen: inside(b.rect, screen) && inside(b.rect, box)})),
  };
}"""


@pytest.mark.parametrize("size", ["360x640", "390x844", "1280x800"])
@pytest.mark.parametrize("lang", ["en", "ja", "zh"])
def test_every_history_rows_actions_are_in_view_without_sideways_scrolling(
    pages: Pages, live_server: LiveServer, size: str, lang: str
) -> None:
    page = open_at(pages, size, path=f"/?lang={lang}")
    me = player_id(page, live_server)
    for seed in range(81, 86):
        live_server.store.add_game(me, long_game(seed))
    ranked_game_in_play(live_server.store, me)  # "Playing", with no Export
    page.goto(f"/?lang={lang}#/history")
    loaded(page, "/api/games")
    found = page.evaluate(ACTIONS_IN_VIEW)
    assert found["rows"] == 6 and found["overflow"] <= 0, found
    assert len(found["buttons"]) == 5 * 4 + 3
    assert [b for b in found["buttons"] if not b["seen"]] == [], found
    check_view(page, "history")
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=ARTIFACTS / f"history-{size}-{lang}.png", full_page=True)


def test_the_views_speak_the_language_chosen_before_and_after_they_load(
    pages: Pages, live_server: LiveServer
) -> None:
    page = pages.open("/")
    game_id = live_server.store.add_game(player_id(page, live_server), long_game(71)).id
    # Japanese is fetched on the switch, before the views (and their strings) are.
    page.click("[data-lang=ja]")
    page.wait_for_function("() => document.querySelector('#history').getAttribute('aria-label') === '履歴'")
    page.click("#history")
    loaded(page, "/api/games")
    assert page.text_content("#views h2") == "履歴"
    assert page.text_content(".views-nav a[href='#/']") == "← プレイ"
    assert page.text_content("#views thead th") == "開始"
    # Chinese is fetched after the views loaded; their strings, added earlier, still apply.
    page.click(".views-nav a[href='#/']")
    page.wait_for_selector("main.app", state="visible")
    page.click("[data-lang=zh]")
    page.wait_for_function("() => document.querySelector('#stats').getAttribute('aria-label') === '统计'")
    assert page.text_content(".views-nav a[href='#/']") == "← 游戏"  # the hidden views' nav too
    page.click("#stats")
    loaded(page, "assisted=include")
    assert page.text_content("#views h2") == "统计"
    page.goto(f"/#/replay/{game_id}/5")
    at_move(page, 5)
    assert page.get_attribute("[data-part=play]", "aria-label") == "播放"
    expect(page.locator("#views h2")).to_contain_text("的经典游戏\uff08")
