"""The slide starts on the key press, from the forecast the server sent with the state on screen;
the answer adds the spawn and the score, and an answer that disagrees wins (real Chromium)."""

from __future__ import annotations

import pytest
from pagetools import (
    NO_WORKER,
    OPEN,
    LiveServer,
    Pages,
    board,
    current_game,
    expect_game,
    flat,
    hold_first,
    numbers,
    prepare,
    server_state,
    settled,
    still,
    wait_held,
)
from playwright.sync_api import Page, Route

pytestmark = pytest.mark.browser


# Counts the sliding copies the page puts up, so that a test can tell one slide from a restarted one.
COUNT_GHOSTS = """() => { window.ghosts = 0;
  new MutationObserver((records) => { for (const r of records) window.ghosts += r.addedNodes.length; })
    .observe(document.querySelector('#fx'), {childList: true}); }"""
SLIDING = """() => document.querySelector('#board').classList.contains('sliding')
  && document.querySelectorAll('#fx .ghost').length > 0"""
# Each sliding copy's animation, as [from cell, to cell] read from its keyframes' translate(x, y)
# (in percent of a tile's width: 14.12 + 114.12 per column or row), and whether it has started.
SLIDES = """() => [...document.querySelectorAll('#fx .ghost')].map((ghost) => {
  const [animation] = ghost.getAnimations();
  const cell = (frame) => {
    const [x, y] = frame.transform.match(/-?[0-9.]+/g).map(Number);
    return Math.round((y - 14.12) / 114.12) * 4 + Math.round((x - 14.12) / 114.12);
  };
  const [from, to] = animation.effect.getKeyframes();
  return [cell(from), cell(to), animation.playState !== 'idle'];
})"""

# The notice is up from a refusal until 2 s after the retry is answered: a loaded machine can let
# all of that pass before Playwright looks. The page records what it showed as the notice came up.
WATCH_NOTICE = f"""() => {{ window.noticed = null;
  const notice = document.querySelector('#notice');
  new MutationObserver(() => {{
    if (notice.hidden || window.noticed !== null) return;
    const board = [...document.querySelectorAll('#board > *')].map((cell) => +cell.dataset.value);
    window.noticed = {{text: notice.textContent, board, sliding: ({SLIDING})()}};
  }}).observe(notice, {{attributes: true, childList: true, characterData: true, subtree: true}}); }}"""


def slides_shown(page: Page) -> list[list[int]]:
    found = page.evaluate(SLIDES)
    assert all(started for _, _, started in found)
    return sorted([src, dst] for src, dst, _ in found)


def test_a_key_press_slides_before_the_answer_arrives(pages: Pages, live_server: LiveServer) -> None:
    page = pages.open(**NO_WORKER)
    game = prepare(page, live_server, OPEN)
    forecast = server_state(page)["forecast"]["left"]["slides"]
    page.evaluate(COUNT_GHOSTS)
    held = hold_first(page, live_server, "**/move")
    page.keyboard.press("ArrowLeft")
    wait_held(page, held)
    # The answer is held back, and the tiles already slide, each by the forecast's slide.
    page.wait_for_function(SLIDING, polling="raf")
    assert slides_shown(page) == forecast and len(forecast) == 5  # one per tile
    assert board(page) == flat(OPEN) and numbers(page)["moves"] == 0  # nothing of the answer yet
    # A second key while the first is unanswered waits in the queue as before: no slide of its own yet.
    page.keyboard.press("ArrowRight")
    page.wait_for_timeout(50)
    assert page.evaluate("window.ghosts") == 5
    held[0].continue_()
    game.move("left")
    tiles = sum(1 for v in game.board.cells if v)  # what the second move slides
    game.move("right")
    expect_game(page, game)
    # The first slide ran on when its answer came (not started again); the second slid on its answer.
    assert page.evaluate("window.ghosts") == 5 + tiles


def test_the_answer_adds_the_spawn_and_the_score(pages: Pages, live_server: LiveServer) -> None:
    page = pages.open(**NO_WORKER)
    game = prepare(page, live_server, OPEN)
    held = hold_first(page, live_server, "**/move")
    page.keyboard.press("ArrowLeft")
    wait_held(page, held)
    page.wait_for_function(SLIDING, polling="raf")
    still(page, "#fx")  # the slide is over: the tiles wait at the forecast's end
    assert page.is_visible("#fx .ghost") and numbers(page)["score"] == 0
    turn = game.move("left")
    held[0].continue_()
    page.wait_for_function("() => document.querySelector('#moves').textContent === '1'")
    settled(page, 1)
    assert board(page) == flat(game.board.rows)
    assert numbers(page)["score"] == game.score == turn.score == 20
    spawn = turn.spawn
    assert spawn is not None and board(page)[spawn[0]] == spawn[1]


def test_an_answer_that_disagrees_snaps_to_the_servers_board(pages: Pages, live_server: LiveServer) -> None:
    page = pages.open(allow_errors=True, **NO_WORKER)  # the browser logs the refused move's 409
    prepare(page, live_server, OPEN)
    state = server_state(page)
    # Another tab moves first: the page's forecast is for a board the server no longer has.
    other = page.request.post(
        f"/api/games/{state['id']}/move", data={"direction": "down", "revision": state["revision"]}
    )
    assert other.ok
    held = hold_first(page, live_server, "**/move")
    page.keyboard.press("ArrowLeft")
    wait_held(page, held)
    page.wait_for_function(SLIDING, polling="raf")
    assert slides_shown(page) == state["forecast"]["left"]["slides"]
    held[0].continue_()
    page.wait_for_selector("#notice", state="visible")
    assert "another tab" in (page.text_content("#notice") or "")
    game = current_game(page, live_server)
    assert game.moves == 1  # the other tab's move only: the forecast slide was not applied
    expect_game(page, game)
    assert board(page) == flat(other.json()["state"]["board"])


def test_an_unreachable_server_slides_the_move_back_until_it_is_sent(
    pages: Pages, live_server: LiveServer
) -> None:
    page = pages.open(allow_errors=True, **NO_WORKER)  # the browser logs the refused connection
    game = prepare(page, live_server, OPEN)
    refused: list[str] = []

    def refuse_once(route: Route) -> None:
        if refused:
            route.continue_()
        else:
            refused.append(route.request.url)
            route.abort("connectionrefused")

    page.route("**/move", refuse_once)
    page.evaluate(WATCH_NOTICE)
    page.keyboard.press("ArrowLeft")
    # Offline: the slide started ahead gives way to the board the server last sent...
    noticed = page.wait_for_function("() => window.noticed").json_value()
    assert noticed["text"].startswith("Can't reach the server")
    assert noticed["board"] == flat(OPEN) and not noticed["sliding"]
    # ...and the move, retried, slides on its answer.
    game.move("left")
    settled(page, game.moves, timeout=10000)
    assert board(page) == flat(game.board.rows) == flat(server_state(page)["board"])
    assert len(refused) == 1
