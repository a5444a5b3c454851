"""The game review in a real browser, against the real server (its review process included): opened
from the history, run with its progress shown, the chance chart with its turning point named, the
largest falls of the chance with the rest folded, its blunder picked from the list opens the replay
viewer at that position with the played and the better move drawn; a review stored before chances
is offered again; English, Japanese and Chinese, both themes, a phone."""

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
    page.wait_for_selector("#views .view[data-state=done] .mistakes", timeout=60_000)


def random_game(seed: int, moves: int) -> Game:
    rng = random.Random(seed)
    game = Game.new(seed)
    while game.moves < moves and not game.over:
        game.move(rng.choice(game.board.legal_moves()))
    return game


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
    assert page.text_content("[data-part=start-chance] dt") == "Chance of 128 at the start"
    assert page.text_content("[data-part=start-chance] dd") == "83 %"
    # One story: the move, the better one, and what became of the chance.
    turn = page.text_content("[data-part=turning-point]") or ""
    assert turn.startswith("Turning point: move 1: ← Left, better ")
    assert turn.endswith(" — your chance of reaching 128 fell from 83 % to 0 %")
    # The chance chart: the turning point named above it, its blunder ringed, the table behind it.
    assert page.text_content("figure.line figcaption") == "Chance of reaching 128 over the game (%)"
    assert page.text_content("figure.line .flag-label") == "move 1"
    assert page.locator("figure.line circle.mark.blunder").count() == 1
    assert page.locator("figure.line tbody td").all_text_contents() == ["83", "0"]
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=ARTIFACTS / f"review-{scheme}.png", full_page=True)
    # The fall leads the list; the one move graded below good is folded beneath.
    assert page.text_content("details.below-good summary") == "The 1 move graded below good"
    assert page.get_attribute("details.below-good", "open") is None
    item = page.locator(".fall-list li[data-grade=blunder] a")
    assert item.count() == 1
    text = item.text_content() or ""
    assert text.startswith("move 1: ← Left, better ") and text.endswith("fell from 83 % to 0 %")
    assert page.text_content(".fall-list li .grade.blunder") == "blunder"
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
    page.wait_for_selector("#views .view[data-state=done] .fall-list")
    assert pages.errors(page) == [NO_REVIEW_YET]


def test_progress_cancel_and_japanese_on_a_phone(pages: Pages, live_server: LiveServer) -> None:
    page = pages.open("/?lang=ja", viewport=PHONE, allow_errors=True)
    game_id = live_server.store.add_game(player_id(page, live_server), random_game(3, 60)).id
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


@pytest.mark.parametrize(("lang", "scheme"), [("en", "light"), ("zh", "dark")])
def test_the_chance_chart_names_its_turning_point_and_folds_the_moves_below_good(
    pages: Pages, live_server: LiveServer, lang: str, scheme: str
) -> None:
    page = pages.open(f"/?lang={lang}", color_scheme=scheme, allow_errors=True)
    game_id = live_server.store.add_game(player_id(page, live_server), random_game(5, 80)).id
    page.goto(f"/?lang={lang}#/review/{game_id}")
    reviewed(page)
    review = page.request.get(f"/api/games/{game_id}/review").json()
    chances = [review["start_chance"], *(m["chance"] for m in review["moves"])]
    turn = review["turning_point"]["n"]
    # The chart's points are the chances; the flag stands on the turning point's.
    assert page.locator("figure.line tbody td").all_text_contents() == [str(round(c)) for c in chances]
    centre = "c => [+c.getAttribute('cx'), +c.getAttribute('cy')]"
    flag = page.eval_on_selector("figure.line .flag-point", centre)
    points = page.eval_on_selector("figure.line polyline", "p => p.getAttribute('points').split(' ')")
    assert flag == [float(v) for v in points[turn].split(",")]
    label = {"en": f"move {turn}", "zh": f"第 {turn} 步"}[lang]
    assert page.text_content("figure.line .flag-label") == label
    # The falls, largest first; then every move graded below good, folded, in the order played.
    falls = sorted(
        ((chances[m["n"] - 1] - m["chance"], m["n"]) for m in review["moves"]),
        key=lambda f: (-f[0], f[1]),
    )
    listed = page.eval_on_selector_all(".fall-list li a", "links => links.map(a => +a.dataset.move)")
    assert listed == [n for fall, n in falls if fall >= 1][:5] and listed[0] == turn
    below = [m["n"] for m in review["moves"] if m["grade"] in ("inaccuracy", "mistake", "blunder")]
    assert len(below) > 1
    summary = page.locator("details.below-good summary")
    n = len(below)
    expected = {"en": f"All {n} moves graded below good", "zh": f"评为“好”以下的全部 {n} 步"}[lang]
    assert summary.text_content() == expected
    assert page.locator(".mistake-list li").first.is_hidden()
    summary.click()
    links = page.locator(".mistake-list li a")
    assert [int(n or 0) for n in links.evaluate_all("links => links.map(a => a.dataset.move)")] == below
    page.screenshot(path=ARTIFACTS / f"review-chance-{lang}-{scheme}.png", full_page=True)
    links.nth(1).click()
    page.wait_for_function(f"() => document.querySelector('#views .view')?.dataset.move === '{below[1] - 1}'")
    assert pages.errors(page) == [NO_REVIEW_YET]


def test_a_review_stored_before_chances_is_offered_again(pages: Pages, live_server: LiveServer) -> None:
    page = pages.open(allow_errors=True)
    store = live_server.store
    player = player_id(page, live_server)
    game = random_game(6, 30)
    game_id = store.add_game(player, game).id
    # What a review looked like before chances, made at its setting.
    old_setting = {"nodes": 100000, "outlook_depth": 3, "solver": 1}
    asked = store.request_review(player, game_id, old_setting)
    assert asked.record is not None
    store.start_review(game_id, asked.record.job)
    old = {"accuracy": 50.0, "grades": {}, "turning_point": None, "moves": [], "start_outlook": 100.0}
    store.finish_review(game_id, asked.record.job, old | {"covers": 30, "setting": old_setting})
    page.goto(f"/#/review/{game_id}")
    page.wait_for_selector("#views .view[data-state=done] [data-part=start-review]")
    assert "without chances" in (page.text_content("#views .review-body .message") or "")
    reviewed(page)
    assert page.locator("figure.line tbody tr").count() == 31
    assert pages.errors(page) == []
