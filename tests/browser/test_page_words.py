"""The page's words: a game is named by when it began, its mode and its score (a public replay by its
player and final score), never by an id; every date and every number is written one way per
language; counts take their plural forms; what a screen reader hears follows the page's language,
also for what was said before that language's strings came."""

from __future__ import annotations

import pytest
from pagetools import NO_WORKER, LiveServer, Pages, game_over, hold_first, player_id, wait_held
from playwright.sync_api import Page, expect
from test_history_views import loaded, long_game
from test_leaderboards_views import finished_ranked_game, unique
from test_review_view import NO_REVIEW_YET

pytestmark = pytest.mark.browser

JS = "text/javascript"


def written(page: Page, iso: str) -> str:
    """A moment as the page's one date format writes it in English."""
    style = "{dateStyle: 'medium', timeStyle: 'short'}"
    date: str = page.evaluate(f"iso => new Intl.DateTimeFormat('en', {style}).format(new Date(iso))", iso)
    return date


def test_games_are_named_by_date_mode_and_score_in_one_format(pages: Pages, live_server: LiveServer) -> None:
    store = live_server.store
    page = pages.open(allow_errors=True)
    me = player_id(page, live_server)
    game = store.get_game(me, store.add_game(me, long_game(5)).id)
    store.new_game(me)
    assert game.score >= 1_000
    began, score = written(page, game.created_at), f"{game.score:,}"
    page.goto("/#/stats")
    loaded(page, "assisted=include")
    expect(page.locator("figure.line figcaption")).to_have_text("Score of the last game")  # not "1 games"
    page.goto("/#/history")
    loaded(page, "/api/games")
    row = page.locator(f"tr[data-game='{game.id}'] td")
    assert [row.nth(0).text_content(), row.nth(3).text_content()] == [began, score]
    page.goto(f"/#/replay/{game.id}/3")
    expect(page.locator("#views h2")).to_have_text(f"Replay: Classic game of {began}, {score} points")
    page.click("[data-part=to-review]")
    expect(page.locator("#views h2")).to_have_text(f"Review: Classic game of {began}, {score} points")
    # On the leaderboard: the same date and number formats; its public replay names who played it.
    name = unique("Words")
    store.set_name(me, name)
    ranked = store.get_game(me, finished_ranked_game(store, me))
    page.goto("/#/leaderboard/all-time/classic")
    mine = page.locator(".board-table tr.mine td")
    expect(mine.nth(5)).to_have_text(written(page, ranked.finished_at or ""))
    expect(mine.nth(2)).to_have_text(f"{ranked.score:,}")
    mine.nth(6).get_by_role("link").click()
    expect(page.locator("#views h2")).to_have_text(f"Replay of {name}'s game: {ranked.score:,} points")
    # In Chinese and Japanese the board's kind is not called what the view is called.
    for lang in ("zh", "ja"):
        page.goto(f"/?lang={lang}#/leaderboard")
        page.wait_for_selector(".board-table tbody tr")
        kind = page.text_content("[data-part=board] >> xpath=.. >> span")
        assert kind and kind != page.text_content("#views h2"), lang
    assert pages.errors(page) == [NO_REVIEW_YET]  # the review's first look finds none yet


def test_what_was_announced_before_the_pages_language_came_is_said_again_in_it(
    pages: Pages, live_server: LiveServer
) -> None:
    page = pages.open(**NO_WORKER)  # the strings' request is held, not the worker's copy
    score = game_over(page, live_server).score
    held = hold_first(page, live_server, "**/strings/play.zh.js")
    page.goto("/?lang=zh")
    wait_held(page, held)
    page.wait_for_selector("#over", state="visible")  # the game came before the Chinese strings
    held[0].continue_()
    page.wait_for_function("() => document.documentElement.lang === 'zh'")
    expect(page.locator("#live")).to_have_text(f"游戏结束。最终分数 {score}")
    expect(page.locator("#final")).to_have_text(f"最终分数\uff1a{score}")


def test_the_parts_already_shown_follow_a_change_of_language(pages: Pages) -> None:
    # Each part's words come for the page's language only (strings/PART.LANG.js): a change of language
    # fetches those of every part loaded so far before it retranslates them.
    page = pages.open()
    expect(page.locator("#daily .name")).to_have_text("Daily challenge")
    page.click("#open-settings")
    expect(page.locator("#settings [data-i18n=music]")).to_have_text("Music")
    page.keyboard.press("Escape")
    page.click("[data-lang=zh]")
    expect(page.locator("#daily .name")).to_have_text("每日挑战")
    expect(page.locator("#settings [data-i18n=music]")).to_have_text("音乐")
    expect(page.locator("#settings [data-i18n=displayName]")).to_have_text("显示名称")  # player-ui.js's


def test_a_word_missing_in_a_language_is_said_in_english(pages: Pages) -> None:
    # A part's words come with English's, which stand in for a key its language lacks.
    page = pages.open("/?lang=ja", **NO_WORKER)  # the route below sees every fetch
    only_the_goal = 'export default { howGoal: "目的" };'
    page.route("**/strings/howto.ja.js", lambda route: route.fulfill(content_type=JS, body=only_the_goal))
    page.click("#how-to")
    page.wait_for_selector("#how-to-play[open]")
    topics = page.eval_on_selector_all("#how-to-play dt", "ts => ts.map((t) => t.textContent)")
    assert topics == ["目的", "Keys", "Swipes", "Undo", "Hint"]
    assert page.text_content("#how-to-title") == "遊び方"  # the play view's words, in Japanese
