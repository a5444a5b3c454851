"""Game flow in a real browser: win banner, keep going, game over, the solver's hint and auto-play,
and what happens when the server cannot be reached or another tab plays the same game."""

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
    ready,
    server_state,
    settled,
    wait_held,
    wait_until,
)
from playwright.sync_api import Response, Route
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

pytestmark = pytest.mark.browser

NEAR_WIN = [[1024, 1024, 0, 0], [2, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 4]]
# Left makes 2048 and fills the last empty cell; nothing can move afterwards, whatever spawns.
WIN_AND_OVER = [[1024, 1024, 8, 16], [4, 32, 64, 128], [8, 4, 8, 4], [4, 8, 4, 8]]
# Left merges the two 8s; the spawn fills the last cell and no move remains (seed 1).
NEAR_OVER = [[2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4], [4, 2, 8, 8]]
# Only left and right are legal, and either ends the game whatever spawns.
LAST_MOVE = [[2, 4, 2, 4], [4, 2, 4, 2], [16, 4, 2, 8], [64, 8, 8, 128]]
NO_VALUE = "\u2013"  # the dash a chip shows for an illegal move


def test_win_banner_then_keep_going_is_saved_at_once(pages: Pages, live_server: LiveServer) -> None:
    page = pages.open()
    game = prepare(page, live_server, NEAR_WIN)
    page.keyboard.press("ArrowLeft")
    page.wait_for_selector("#win", state="visible")
    assert page.text_content("#live") == "You win!"
    assert page.evaluate("document.activeElement.id") == "keep-going"
    page.keyboard.press("ArrowDown")  # the banner holds the board until the player chooses
    page.wait_for_timeout(200)
    assert server_state(page)["moves"] == 1
    page.reload()  # the banner is part of the saved game
    ready(page)
    assert page.is_visible("#win")
    page.click("#keep-going")
    wait_until(lambda: server_state(page)["keep_playing"])
    assert page.is_hidden("#win")
    game.move("left")
    game.keep_going()
    page.keyboard.press("ArrowDown")
    game.move("down")
    settled(page, game.moves)
    assert board(page) == flat(game.board.rows)
    page.reload()
    ready(page)
    assert page.is_hidden("#win")


def test_keys_pressed_before_the_banner_wait_behind_it(pages: Pages, live_server: LiveServer) -> None:
    page = pages.open()
    game = prepare(page, live_server, NEAR_WIN)
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowDown")  # during the winning slide: kept, in order, for after the banner
    page.wait_for_selector("#win", state="visible")
    page.wait_for_timeout(200)
    assert server_state(page)["moves"] == 1
    page.click("#keep-going")
    game.move("left")
    game.keep_going()
    game.move("down")
    settled(page, game.moves)
    assert board(page) == flat(game.board.rows) == flat(server_state(page)["board"])


def test_a_winning_last_move_shows_the_win_then_game_over(pages: Pages, live_server: LiveServer) -> None:
    page = pages.open()
    prepare(page, live_server, WIN_AND_OVER)
    page.keyboard.press("ArrowLeft")
    page.wait_for_selector("#win", state="visible")
    assert page.is_hidden("#over")
    page.click("#keep-going")
    page.wait_for_selector("#over", state="visible")
    assert page.text_content("#final") == "Final score: 2,048"  # the page's one way with numbers
    assert page.is_disabled("#undo") and page.is_disabled("#hint")
    page.click("#again")
    page.wait_for_selector("#over", state="hidden")
    wait_until(lambda: server_state(page)["moves"] == 0 and not server_state(page)["over"])
    settled(page, 0)


def test_game_over_overlay_and_try_again(pages: Pages, live_server: LiveServer) -> None:
    page = pages.open()
    game = prepare(page, live_server, NEAR_OVER, seed=1)
    best_before = numbers(page)["best"]
    page.keyboard.press("ArrowLeft")
    game.move("left")
    assert game.over
    page.wait_for_selector("#over", state="visible")
    assert page.text_content("#final") == f"Final score: {game.score:,}"
    assert page.text_content("#live") == f"Game over. Final score {game.score:,}"
    assert page.is_disabled("#undo")
    assert board(page) == flat(game.board.rows)
    assert numbers(page)["best"] == max(best_before, game.score)
    page.keyboard.press("ArrowUp")  # nothing more to play; nothing is sent
    page.keyboard.press("u")
    page.reload()
    ready(page)
    assert page.is_visible("#over")
    page.keyboard.press("n")  # over: no question asked
    page.wait_for_selector("#over", state="hidden")
    assert not page.is_visible("#confirm")
    wait_until(lambda: not server_state(page)["over"])


def test_hint_shows_each_moves_value_and_the_best_direction(pages: Pages, live_server: LiveServer) -> None:
    page = pages.open()
    prepare(page, live_server, [[2, 2, 0, 0], [4, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]])
    page.click("#hint")
    page.wait_for_selector("#hints", state="visible", timeout=20000)
    answer = page.request.post(f"/api/games/{server_state(page)['id']}/hint").json()
    legal = {m["direction"] for m in answer["moves"]}
    chips = {d: page.text_content(f"#hints .chip[data-dir={d}]") for d in ("up", "down", "left", "right")}
    arrows = {"up": "↑", "down": "↓", "left": "←", "right": "→"}
    for direction, text in chips.items():
        assert text is not None and text.startswith(arrows[direction])
        assert (text.split(" ", 1)[1] != NO_VALUE) == (direction in legal)
    best = page.get_attribute("#hints .chip.best", "data-dir")
    assert best in legal
    assert page.text_content("#hints .arrow") == arrows[best]
    assert page.text_content("#live") == f"Hint: {best.capitalize()}"
    page.keyboard.press("ArrowLeft")  # the hint was for the old position
    page.wait_for_selector("#hints", state="hidden")


def test_a_hint_for_the_last_game_is_not_drawn_on_a_new_one(pages: Pages, live_server: LiveServer) -> None:
    page = pages.open()
    # Unplayed, so the new game replaces it where it stands: only the revision tells them apart.
    prepare(page, live_server, OPEN)
    held = hold_first(page, live_server, lambda url: "/hint" in url)  # answered when released
    page.click("#hint")
    wait_held(page, held)
    old = server_state(page)
    page.keyboard.press("n")  # nothing played yet: no question
    wait_until(lambda: server_state(page)["revision"] != old["revision"])
    wait_until(lambda: board(page) == flat(server_state(page)["board"]))
    with page.expect_response(lambda r: "/hint" in r.url):
        held[0].continue_()
    page.wait_for_timeout(200)  # time for the page to act on the answer
    assert page.is_hidden("#hints")


def test_auto_play_moves_and_stops_on_a_key_and_on_the_toggle(pages: Pages, live_server: LiveServer) -> None:
    page = pages.open()
    page.evaluate("localStorage.setItem('twenty48.settings', JSON.stringify({speed: 'fast'}))")
    page.reload()
    ready(page)
    page.click("#auto")
    # The first game is ranked: auto-play would unrank it, so the page asks first.
    page.click("#ask-yes")
    page.wait_for_selector("#auto[aria-pressed=true]", timeout=2000)  # the solver's module may still load
    assert page.get_attribute("#auto", "aria-pressed") == "true"
    assert page.text_content("#auto") == "Stop"
    wait_until(lambda: numbers(page)["moves"] >= 4, timeout=20)
    page.keyboard.press("Shift")  # any key stops it, and does nothing else
    assert page.get_attribute("#auto", "aria-pressed") == "false"
    page.wait_for_timeout(300)
    stopped = server_state(page)["moves"]
    page.wait_for_timeout(400)
    assert server_state(page)["moves"] == stopped
    page.click("#auto")
    wait_until(lambda: server_state(page)["moves"] >= stopped + 2, timeout=20)
    page.click("#auto")
    page.wait_for_timeout(300)
    stopped = server_state(page)["moves"]
    page.wait_for_timeout(400)
    assert server_state(page)["moves"] == stopped
    assert page.text_content("#auto") == "Auto-play"


def test_auto_play_goes_on_after_adopting_another_tabs_move(pages: Pages, live_server: LiveServer) -> None:
    page = pages.open()
    prepare(page, live_server, OPEN)
    # The first hint only: its answer is for a position the tab then leaves.
    held = hold_first(page, live_server, lambda url: "/hint" in url)
    page.click("#auto")
    wait_held(page, held)
    state = server_state(page)
    other = {"direction": "left", "revision": state["revision"]}
    assert page.request.post(f"/api/games/{state['id']}/move", data=other).ok
    page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")  # the tab comes back: adopts it
    wait_until(lambda: board(page) == flat(server_state(page)["board"]))
    held[0].continue_()
    page.wait_for_function("() => +document.querySelector('#moves').textContent >= 3", timeout=20000)
    assert page.get_attribute("#auto", "aria-pressed") == "true"


def test_auto_play_stops_at_game_over(pages: Pages, live_server: LiveServer) -> None:
    page = pages.open()
    prepare(page, live_server, LAST_MOVE)
    page.click("#auto")
    page.wait_for_selector("#over", state="visible", timeout=20000)
    assert page.get_attribute("#auto", "aria-pressed") == "false"


def test_moves_made_while_the_server_is_unreachable_are_sent_when_it_is_back(
    pages: Pages, live_server: LiveServer
) -> None:
    page = pages.open(allow_errors=True, **NO_WORKER)  # the browser logs the refused connections
    game = prepare(page, live_server, [[2, 0, 0, 2], [0, 4, 0, 0], [0, 0, 0, 0], [8, 0, 0, 8]])
    refused = []

    def refuse(route: Route) -> None:
        refused.append(route.request.url)
        route.abort("connectionrefused")

    page.route("**/api/**", refuse)
    # A move that slipped past interception would look like a lost key: first see the page's own
    # fetches refused, then count each key as it is pressed.
    probe = "fetch('/api/game', {cache: 'no-store'}).then(() => 'reached', () => 'refused')"
    wait_until(lambda: page.evaluate(probe) == "refused")
    refused.clear()
    keys = [("ArrowLeft", "left"), ("ArrowDown", "down"), ("ArrowRight", "right")]
    for waiting, (key, direction) in enumerate(keys, start=1):
        page.keyboard.press(key)
        game.move(direction)
        retrying = f"Can't reach the server; retrying… ({waiting} waiting)"
        try:
            # Polled on a timer, not on animation frames, so only the page's own timers are involved.
            page.wait_for_function(
                "text => document.querySelector('#notice').textContent === text", arg=retrying, polling=100
            )
        except PlaywrightTimeoutError:
            moves = server_state(page)["moves"]
            pytest.fail(
                f"after {key}: the notice says {page.text_content('#notice')!r} after {len(refused)} refused"
                f" requests, and the server has {moves} moves"
            )
    assert board(page) == flat(server_state(page)["board"])  # nothing was applied yet
    page.unroute("**/api/**")
    settled(page, game.moves, timeout=15000)
    assert board(page) == flat(game.board.rows) == flat(server_state(page)["board"])
    page.wait_for_function("() => document.querySelector('#notice').textContent === 'Connected again.'")
    page.wait_for_selector("#notice", state="hidden")


def test_a_server_error_is_reported_and_retried(pages: Pages, live_server: LiveServer) -> None:
    page = pages.open(allow_errors=True, **NO_WORKER)
    game = prepare(page, live_server, [[2, 0, 0, 2], [0, 4, 0, 0], [0, 0, 0, 0], [8, 0, 0, 8]])
    failures = []

    def flaky(route: Route) -> None:  # the first two answers are a failing server's
        if len(failures) < 2:
            failures.append(route.request.url)
            route.fulfill(status=503, json={"error": "store_unavailable", "detail": "database is locked"})
        else:
            route.continue_()

    page.route("**/move", flaky)
    page.keyboard.press("ArrowLeft")
    game.move("left")
    settled(page, game.moves, timeout=10000)
    assert len(failures) == 2
    assert board(page) == flat(game.board.rows)
    assert page.text_content("#notice") == "Connected again."


def test_a_move_from_another_tab_is_never_overwritten(pages: Pages, live_server: LiveServer) -> None:
    context = pages.context(allow_errors=True)  # the stale move's 409 is logged by the browser
    first = context.new_page()
    first.goto("/")
    ready(first)
    prepare(first, live_server, [[2, 0, 0, 2], [0, 4, 0, 0], [0, 0, 0, 0], [8, 0, 0, 8]])
    second = context.new_page()
    second.goto("/")
    ready(second)
    game = current_game(first, live_server)
    second.keyboard.press("ArrowLeft")
    game.move("left")
    settled(second, 1)
    first.keyboard.press("ArrowDown")  # aimed at the board before the other tab's move: refused
    first.wait_for_selector("#notice", state="visible")
    assert "another tab" in (first.text_content("#notice") or "")
    settled(first, 1)
    assert board(first) == board(second) == flat(game.board.rows) == flat(server_state(first)["board"])
    first.keyboard.press("ArrowDown")  # now on the board it shows
    game.move("down")
    settled(first, game.moves)
    assert board(first) == flat(game.board.rows)


def test_an_undo_the_server_rejects_keeps_the_page_on_its_game(pages: Pages, live_server: LiveServer) -> None:
    page = pages.open(allow_errors=True)  # the browser logs the 409
    # Left and up change nothing: queued behind them, undo finds nothing to take back.
    game = prepare(page, live_server, [[2, 0, 0, 0], [4, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]])
    # The first move only, so that the keys after it are queued.
    held = hold_first(page, live_server, "**/move")
    undos: list[Response] = []
    page.on("response", lambda r: undos.append(r) if r.url.endswith("/undo") else None)
    page.keyboard.press("ArrowLeft")
    wait_held(page, held)
    for key in ["ArrowUp", "u", "ArrowRight"]:
        page.keyboard.press(key)
    held[0].continue_()
    game.move("left")
    game.move("up")
    game.move("right")
    expect_game(page, game)  # the refusal dropped nothing queued after it
    assert [(r.status, r.json()["error"]) for r in undos] == [(409, "rejected")]
    assert page.is_hidden("#notice") and page.is_enabled("#undo")


def test_a_game_replaced_in_another_tab_shows_at_the_next_key(pages: Pages, live_server: LiveServer) -> None:
    page = pages.open(allow_errors=True)  # the refused move's 409 is logged by the browser
    prepare(page, live_server, OPEN)
    newer = page.request.post("/api/games", data={"variant": "classic"})
    assert newer.ok
    page.keyboard.press("ArrowLeft")  # aimed at the game the other tab replaced: refused
    page.wait_for_selector("#notice", state="visible")
    assert "another tab" in (page.text_content("#notice") or "")
    game = current_game(page, live_server)
    assert game.moves == 0 and server_state(page)["id"] == newer.json()["id"]
    expect_game(page, game)
    direction = game.board.legal_moves()[0]
    page.click(f".pad [data-dir={direction.value}]")  # now on the game it shows
    game.move(direction)
    expect_game(page, game)
