"""Input in a real browser: keys, swipes (touch and mouse), on-screen buttons, bursts and held keys.

Expected boards come from the engine itself: a copy of the stored game plays the same directions,
so every assertion says "the page sent exactly these moves, in this order, once each"."""

from __future__ import annotations

import pytest
from pagetools import (
    OPEN,
    PHONE,
    LiveServer,
    Pages,
    board,
    current_game,
    expect_game,
    flat,
    numbers,
    prepare,
    ready,
    server_state,
    settled,
    swipe_frames,
    touch,
    wait_until,
)

pytestmark = pytest.mark.browser


@pytest.mark.parametrize(
    ("keys", "directions"),
    [
        (["ArrowLeft", "ArrowUp", "ArrowRight", "ArrowDown"], ["left", "up", "right", "down"]),
        (["a", "w", "d", "s"], ["left", "up", "right", "down"]),
        (["h", "k", "l", "j"], ["left", "up", "right", "down"]),
    ],
    ids=["arrows", "wasd", "hjkl"],
)
def test_keys_move(pages: Pages, live_server: LiveServer, keys: list[str], directions: list[str]) -> None:
    page = pages.open()
    game = prepare(page, live_server, OPEN)
    for key, direction in zip(keys, directions, strict=True):
        page.keyboard.press(key)
        game.move(direction)
        expect_game(page, game)


def test_modified_keys_belong_to_the_browser_and_ctrl_z_undoes(pages: Pages, live_server: LiveServer) -> None:
    page = pages.open()
    game = prepare(page, live_server, OPEN)
    modified = ["Control+ArrowLeft", "Alt+ArrowLeft", "Shift+ArrowLeft", "Shift+A", "Alt+h", "Meta+ArrowLeft"]
    for key in modified:
        page.keyboard.press(key)
    page.keyboard.press("ArrowLeft")
    game.move("left")
    expect_game(page, game)  # the modified presses moved nothing
    page.keyboard.press("ArrowDown")
    game.move("down")
    expect_game(page, game)
    page.keyboard.press("Control+z")
    game.undo()
    expect_game(page, game)
    page.keyboard.press("u")
    game.undo()
    expect_game(page, game)
    assert page.is_disabled("#undo")


def test_touch_swipes(pages: Pages, live_server: LiveServer) -> None:
    page = pages.open(viewport=PHONE, has_touch=True, is_mobile=True)
    game = prepare(page, live_server, OPEN)
    box = page.locator("#frame").bounding_box()
    assert box is not None
    cx, cy = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    touch(page, swipe_frames(cx, cy, -80, 10))  # mostly leftward
    game.move("left")
    expect_game(page, game)
    touch(page, swipe_frames(cx, cy, 30, 30))  # a tie goes to the vertical axis
    game.move("down")
    expect_game(page, game)
    touch(page, swipe_frames(cx, cy, 20, -24))  # under 25 px on both axes: a tap
    touch(page, [[(cx, cy)], [(cx, cy), (cx + 40, cy)], [(cx, cy - 90), (cx + 40, cy - 90)]])  # two fingers
    page.wait_for_timeout(200)
    expect_game(page, game)
    touch(page, swipe_frames(cx, cy, 0, -120))
    game.move("up")
    expect_game(page, game)
    # A swipe on the board never scrolls the page, pulls to refresh or navigates back.
    assert page.evaluate("window.scrollY") == 0
    style = "e => (s => [s.touchAction, s.overscrollBehavior])(getComputedStyle(e))"
    assert page.eval_on_selector("#frame", style) == ["none", "contain"]


def test_mouse_drags_are_swipes(pages: Pages, live_server: LiveServer) -> None:
    page = pages.open()
    game = prepare(page, live_server, OPEN)
    box = page.locator("#frame").bounding_box()
    assert box is not None
    cx, cy = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    for dx, dy, direction in [(-100, 0, "left"), (0, 60, "down"), (18, -20, None), (70, -20, "right")]:
        page.mouse.move(cx, cy)
        page.mouse.down()
        page.mouse.move(cx + dx, cy + dy, steps=4)
        page.mouse.up()
        if direction:
            game.move(direction)
        expect_game(page, game)


def test_on_screen_buttons(pages: Pages, live_server: LiveServer) -> None:
    page = pages.open(viewport=PHONE)
    game = prepare(page, live_server, OPEN)
    assert page.is_disabled("#undo")
    for direction in ["left", "up", "right", "down"]:
        page.click(f".pad [data-dir={direction}]")
        game.move(direction)
        expect_game(page, game)
    page.click("#undo")
    game.undo()
    expect_game(page, game)


def test_fifty_keys_in_a_second_apply_each_legal_move_once(pages: Pages, live_server: LiveServer) -> None:
    page = pages.open()
    game = prepare(page, live_server, [[2, 0, 0, 0], [0, 0, 0, 0], [0, 0, 2, 0], [0, 0, 0, 0]], seed=77)
    # Count what the page showed: every change of the move counter is one legal move drawn.
    page.evaluate(
        """() => { window.shown = 0;
           new MutationObserver(() => window.shown++).observe(document.querySelector('#moves'),
             {childList: true, characterData: true, subtree: true}); }"""
    )
    keys = ["ArrowLeft", "ArrowUp", "ArrowRight", "ArrowDown", "ArrowLeft"] * 10
    directions = {"ArrowLeft": "left", "ArrowUp": "up", "ArrowRight": "right", "ArrowDown": "down"}
    # Keys come faster than the server answers; how fast this machine sends them is not the test.
    for key in keys:
        page.keyboard.press(key)
        page.wait_for_timeout(10)
    for key in keys:
        game.move(directions[key])
    assert 10 < game.moves <= 50
    settled(page, game.moves, timeout=15000)
    expect_game(page, game)
    assert server_state(page)["moves"] == game.moves == page.evaluate("window.shown")


def test_a_held_key_does_not_pile_up(pages: Pages, live_server: LiveServer) -> None:
    page = pages.open()
    prepare(page, live_server, [[2, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 2]])
    sent: list[str] = []
    page.on("request", lambda r: sent.append(r.url) if r.url.endswith("/move") else None)
    page.keyboard.down("ArrowLeft")
    for _ in range(40):  # auto-repeat, faster than any keyboard sends it
        page.keyboard.down("ArrowLeft")
    page.keyboard.up("ArrowLeft")
    page.wait_for_timeout(400)
    during = len(sent)
    assert 1 <= during < 40
    page.wait_for_timeout(400)
    assert len(sent) == during  # nothing was left queued behind the key


def test_reload_resumes_the_same_game_without_replaying_points(pages: Pages, live_server: LiveServer) -> None:
    page = pages.open()
    game = prepare(page, live_server, OPEN)
    for key, direction in [("ArrowLeft", "left"), ("ArrowDown", "down"), ("ArrowLeft", "left")]:
        page.keyboard.press(key)
        game.move(direction)
    expect_game(page, game)
    before = numbers(page)
    page.reload()
    ready(page)
    assert board(page) == flat(game.board.rows)
    assert numbers(page) == before
    page.wait_for_timeout(300)
    assert page.locator("#gain .plus").count() == 0


def test_a_score_gain_floats_over_the_score(pages: Pages, live_server: LiveServer) -> None:
    page = pages.open()
    prepare(page, live_server, OPEN)
    page.keyboard.press("ArrowLeft")
    page.wait_for_selector("#gain .plus")
    assert page.text_content("#gain .plus") == "+20"
    page.wait_for_selector("#gain .plus", state="detached")


def test_new_game_asks_first_when_a_game_is_in_progress(pages: Pages, live_server: LiveServer) -> None:
    page = pages.open()
    prepare(page, live_server, OPEN)
    fresh = server_state(page)
    page.keyboard.press("n")  # nothing played yet: nothing to lose, no question
    # (and nothing kept: the unplayed game is replaced where it stands, under its next revision)
    wait_until(lambda: server_state(page)["revision"] != fresh["revision"])
    assert not page.is_visible("#confirm")
    started = server_state(page)
    game = current_game(page, live_server)
    for key, direction in [("ArrowLeft", "left"), ("ArrowRight", "right"), ("ArrowUp", "up")]:
        page.keyboard.press(key)
        game.move(direction)
    assert game.moves > 0
    expect_game(page, game)
    page.keyboard.press("n")
    assert page.is_visible("#confirm")
    # The mode choice is styled by newgame.css, which comes with the dialog: a plain fieldset, no frame.
    assert page.eval_on_selector("#confirm .modes", "e => getComputedStyle(e).borderTopWidth") == "0px"
    playing = server_state(page)
    page.keyboard.press("ArrowDown")  # the question holds the game still
    page.keyboard.press("Escape")
    assert not page.is_visible("#confirm")
    page.wait_for_timeout(200)
    assert server_state(page) == playing
    page.click("#new")
    page.click("#confirm-yes")
    wait_until(lambda: server_state(page)["id"] != started["id"])
    settled(page, 0)
    assert sum(1 for v in board(page) if v) == 2
