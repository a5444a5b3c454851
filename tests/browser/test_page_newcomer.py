"""For a newcomer: how to play (the goal, keys, swipes, undo, the hint) one press away in every
language, and a finished game's result to share (score, largest tile, the public replay's link when
there is one) through the system's share sheet, or the clipboard where there is none."""

from __future__ import annotations

import pytest
from pagetools import LiveServer, Pages, game_over, player_id, ready
from playwright.sync_api import expect
from test_leaderboards_views import finished_ranked_game, unique

pytestmark = pytest.mark.browser

TOPICS = {
    "en": ["Goal", "Keys", "Swipes", "Undo", "Hint"],
    "ja": ["目的", "キー", "スワイプ", "戻す", "ヒント"],
    "zh": ["目标", "按键", "滑动", "撤销", "提示"],
}


def test_how_to_play_is_one_press_away_in_every_language(pages: Pages) -> None:
    page = pages.open()
    for lang, topics in TOPICS.items():
        page.click(f"[data-lang={lang}]")
        page.wait_for_function("lang => document.documentElement.lang === lang", arg=lang)
        page.click("#how-to")
        page.wait_for_selector("#how-to-play[open]")
        assert page.eval_on_selector_all("#how-to-play dt", "ts => ts.map((t) => t.textContent)") == topics
        assert all(
            page.eval_on_selector_all("#how-to-play dd", "ds => ds.map((d) => d.textContent.length > 20)")
        )
        page.click("#how-to-close")
        page.wait_for_selector("#how-to-play", state="hidden")


def test_a_finished_games_result_is_copied_where_there_is_no_share_sheet(
    pages: Pages, live_server: LiveServer
) -> None:
    page = pages.open(permissions=["clipboard-read", "clipboard-write"])
    assert page.evaluate("navigator.share") is None  # Chromium on Linux has no share sheet
    game = game_over(page, live_server)
    page.click("#share")
    text = f"I scored {game.score:,} points in 2048; my largest tile was {game.board.max_tile}."
    expect(page.locator("#notice")).to_have_text(f"Copied to the clipboard: {text}")
    assert page.evaluate("navigator.clipboard.readText()") == text  # a practice game: no public replay


def test_a_leaderboard_games_result_shares_its_public_replay(pages: Pages, live_server: LiveServer) -> None:
    store = live_server.store
    page = pages.context().new_page()
    page.add_init_script("navigator.share = (data) => { window.shared = data; return Promise.resolve(); };")
    page.goto("/")
    ready(page)
    me = player_id(page, live_server)
    store.set_name(me, unique("Sharer"))
    game = store.get_game(me, finished_ranked_game(store, me))
    page.reload()
    page.wait_for_selector("#over", state="visible")
    page.click("#share")
    page.wait_for_function("() => window.shared")
    assert page.evaluate("window.shared") == {
        "title": "2048",
        "text": f"I scored {game.score:,} points in 2048; my largest tile was {game.max_tile}.",
        "url": f"{live_server.url}/public/{game.id}",
    }
