"""The game review in a real browser, against the real server (its review process included): opened
from the history, run with its progress shown, its blunder picked from the list opens the replay
viewer at that position with the played and the better move drawn; Japanese, both themes, a phone."""

from __future__ import annotations

import math
import random

import pytest
from pagetools import ARTIFACTS, PHONE, LiveServer, Pages, flat, player_id
from playwright.sync_api import Page, expect

from twenty48.ai import best_move
from twenty48.game import Game
from twenty48.rules import Board

pytestmark = pytest.mark.browser

# After left the one gap is in the top right corner and whatever spawns there nothing can merge:
# left ends the game at once, up and right do not (tests/test_ai_standing.py).
ENDING = Board.from_rows([[16, 4, 0, 64], [2, 16, 32, 8], [64, 32, 16, 32], [4, 2, 64, 2]])


def blundered() -> Game:
    game = Game.from_board(ENDING, seed=1)
    game.move("left")
    assert game.over
    return game


#: The one console error a review view logs: its first GET finds no review yet (404 no_review).
NO_REVIEW_YET = "Failed to load resource: the server responded with a status of 404 (Not Found)"


def reviewed(page: Page) -> None:
    page.click("[data-part=start-review]")
    page.wait_for_selector("#views .view[data-state=done] .mistake-list", timeout=60_000)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_review_opens_the_replay_at_its_blunder(pages: Pages, live_server: LiveServer, scheme: str) -> None:
    page = pages.open(color_scheme=scheme, allow_errors=True)
    game_id = live_server.store.add_game(player_id(page, live_server), blundered()).id
    page.click("#history")
    page.click(f"tr[data-game='{game_id}'] [data-part=review]")
    page.wait_for_selector("[data-part=start-review]")
    expect(page.locator("#views h2")).to_contain_text("Review: Classic game of ")  # by its date and score
    reviewed(page)
    assert page.text_content("[data-part=accuracy] dd") == "0.0 %"
    assert page.text_content("[data-part=grade-blunder] dd") == "1"
    assert "move 1" in (page.text_content("[data-part=turning-point]") or "")
    # The outlook chart, its blunder ringed, and the table behind it.
    assert page.locator("figure.line circle.mark.blunder").count() == 1
    assert page.locator("figure.line tbody tr").count() == 2
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=ARTIFACTS / f"review-{scheme}.png", full_page=True)
    item = page.locator(".mistake-list li[data-grade=blunder] a")
    assert item.count() == 1
    text = item.text_content() or ""
    assert text.startswith("Move 1: ← Left, better ") and "(lost 100 of 100)" in text
    item.click()
    # The viewer at the position the blunder was played from, both moves drawn.
    page.wait_for_function("() => document.querySelector('#views .view')?.dataset.move === '0'")
    cells = page.eval_on_selector_all("#views .board > .cell", "cells => cells.map(c => +c.dataset.value)")
    assert cells == flat(ENDING.rows)
    assert page.locator("#views .arrows line.played").count() == 1
    assert page.locator("#views .arrows line.better").count() == 1
    legend = page.text_content("[data-part=marks]") or ""
    assert legend.startswith("Played: Left") and ("Better: Up" in legend or "Better: Right" in legend)
    assert page.evaluate("location.hash").startswith(f"#/replay/{game_id}/0/left/")
    page.screenshot(path=ARTIFACTS / f"review-replay-{scheme}.png")
    # Stepping on leaves the marks behind; the review is stored, so opening it again is instant.
    page.keyboard.press("ArrowRight")
    page.wait_for_function("() => document.querySelector('#views .view')?.dataset.move === '1'")
    assert page.locator("#views .arrows line").count() == 0
    assert page.is_hidden("[data-part=marks]")
    page.click("[data-part=to-review]")
    page.wait_for_selector("#views .view[data-state=done] .mistake-list")
    assert pages.errors(page) == [NO_REVIEW_YET]


def test_progress_cancel_and_japanese_on_a_phone(pages: Pages, live_server: LiveServer) -> None:
    page = pages.open("/?lang=ja", viewport=PHONE, allow_errors=True)
    rng = random.Random(3)
    game = Game.new(3)
    while game.moves < 60 and not game.over:
        game.move(rng.choice(game.board.legal_moves()))
    game_id = live_server.store.add_game(player_id(page, live_server), game).id
    page.goto(f"/?lang=ja#/review/{game_id}")
    page.wait_for_selector("[data-part=start-review]")
    expect(page.locator("#views h2")).to_contain_text("のクラシック\uff08")
    reviewed(page)
    assert page.text_content("[data-part=accuracy] dt") == "正確さ"
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.screenshot(path=ARTIFACTS / "review-phone-ja.png", full_page=True)
    # A long game: its progress shows while it runs, and Cancel stops it.
    long = Game.new(4)
    while long.moves < 2000 and not long.over:
        long.move(best_move(long, depth=1))
    long_id = live_server.store.add_game(player_id(page, live_server), long).id
    page.goto(f"/?lang=ja#/review/{long_id}")
    page.click("[data-part=start-review]")
    page.wait_for_selector("#views .view[data-state=running] progress")
    assert "手を評価済み" in (page.text_content("[data-part=progress]") or "")
    page.click("[data-part=cancel-review]")
    page.wait_for_selector("#views .view[data-state=cancelled] [data-part=start-review]")
    assert page.text_content("#views .review-body .message") == "レビューは取り消されました。"
    assert pages.errors(page) == [NO_REVIEW_YET] * 2
    # Another player's game: said so, nothing offered.
    other = pages.open(f"/#/review/{long_id}", allow_errors=True)
    message = "#views .review-body .message"
    other.wait_for_selector(message)
    assert other.text_content(message) == "This game does not exist, or it is not yours."
    assert other.locator("[data-part=start-review]").count() == 0


# A chart drawn into the view: its picture's width against the view's, its rings and its axis.
CROWDED = """async ([values, marks]) => {
  const { lineChart } = await import('/static/views/chart.js');
  const text = { title: 'chart', table: 'table', label: 'move', value: 'value' };
  const chart = lineChart({ values, marks, format: String, text });
  const view = document.querySelector('#views .view');
  view.append(chart);
  await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
  const svg = chart.querySelector('svg');
  return {
    width: svg.getBoundingClientRect().width, view: view.clientWidth,
    drawn: +svg.getAttribute('viewBox').split(' ')[2],
    rings: [...svg.querySelectorAll('circle.mark')]
      .map((c) => [+c.getAttribute('cx'), +c.getAttribute('cy'), c.classList[1]]),
    ticks: [...svg.querySelectorAll('text.tick')].map((t) => t.textContent),
  };
}"""


def test_a_crowded_chart_merges_its_rings_takes_the_views_width_and_counts_in_round_steps(
    pages: Pages,
) -> None:
    page = pages.open("/#/stats")
    page.wait_for_selector("#views h2")
    # A long game's outlook with a mistake or blunder every other move (the reviews' worst case).
    values = [round(782 * (0.6 + 0.4 * math.sin(i / 9))) for i in range(400)]
    marks = [{"index": i, "kind": "blunder" if i % 6 == 1 else "mistake"} for i in range(1, 400, 2)]
    found = page.evaluate(CROWDED, [values, marks])
    assert found["width"] == found["view"] == found["drawn"]  # drawn at its own width: text keeps its size
    rings = found["rings"]
    assert 0 < len(rings) < len(marks)
    assert all(math.dist(a[:2], b[:2]) >= 2 * 3.5 for i, a in enumerate(rings) for b in rings[i + 1 :])
    assert {kind for *_, kind in rings} == {"blunder", "mistake"}
    assert found["ticks"] == ["0", "200", "400", "600", "800"]  # round numbers, not the largest value
