"""Settings, languages and sound in a real browser.

Sound is observed through the real Web Audio API: an init script records each oscillator the page
starts (its waveform and the frequency it was set to) without changing what the page does."""

from __future__ import annotations

import itertools
import json

import pytest
from pagetools import LiveServer, Pages, board, current_game, flat, prepare, ready, settled
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser

MELODY = [196, 246.94, 293.66, 369.99]  # the loop's notes without its rests

RECORD_AUDIO = """
window.audioLog = {contexts: 0, notes: []};
const Context = window.AudioContext;
window.AudioContext = class extends Context {
  constructor(...args) { super(...args); window.audioLog.contexts++; }
};
const setValue = AudioParam.prototype.setValueAtTime;
AudioParam.prototype.setValueAtTime = function (value, time) {
  this.firstValue ??= value;
  return setValue.call(this, value, time);
};
const start = OscillatorNode.prototype.start;
OscillatorNode.prototype.start = function (...args) {
  window.audioLog.notes.push({type: this.type, f: this.frequency.firstValue, t: performance.now()});
  return start.apply(this, args);
};
"""
HIDE_TAB = """
window.tabHidden = false;
Object.defineProperty(document, 'hidden', {configurable: true, get: () => window.tabHidden});
"""
QUIET = [[2, 0, 0, 0], [0, 4, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]]  # moves without merges


def sound_page(
    pages: Pages, live_server: LiveServer, *, settings: dict | None = None, clock: bool = False
) -> Page:
    """A page whose sounds are recorded; with ``clock``, its timers run on a clock the test controls."""
    context = pages.context()
    context.add_init_script(RECORD_AUDIO + HIDE_TAB)
    if clock:
        context.clock.install()
    page = context.new_page()
    page.goto("/")
    ready(page)
    if settings is not None:
        page.evaluate("s => localStorage.setItem('twenty48.settings', JSON.stringify(s))", settings)
    prepare(page, live_server, QUIET)
    return page


def notes(page: Page, kind: str, since: float = 0) -> list[dict]:
    found: list[dict] = page.evaluate(
        "([kind, since]) => audioLog.notes.filter(n => n.type === kind && n.t >= since)", [kind, since]
    )
    return found


def heard(page: Page, kind: str) -> None:
    """Wait until the page has started a ``kind`` oscillator."""
    page.wait_for_function("(kind) => audioLog.notes.some((n) => n.type === kind)", arg=kind, polling=20)


def stand_still(page: Page) -> None:
    """Stop the page's clock (a moment ahead: it runs until then): from there its timers fire only
    as the test runs the clock on."""
    page.clock.pause_at(page.evaluate("Date.now() + 200") / 1000)  # Python's clock speaks seconds


def now(page: Page) -> float:
    moment: float = page.evaluate("performance.now()")
    return moment


def test_music_starts_on_the_first_gesture_and_plays_the_loop(pages: Pages, live_server: LiveServer) -> None:
    page = sound_page(pages, live_server, settings={"music": True}, clock=True)  # off on a fresh profile
    # The page's clock stands still; the test moves it, so the loop's steps are exact however busy
    # the machine is.
    stand_still(page)
    page.clock.run_for(400)
    assert page.evaluate("audioLog.contexts") == 0  # no sound before the player does something
    page.keyboard.press("ArrowRight")
    heard(page, "triangle")
    page.clock.run_for(2300)
    assert page.evaluate("audioLog.contexts") == 1
    music = notes(page, "triangle")
    assert [n["f"] for n in music[:5]] == MELODY + MELODY[:1]
    # One step every 330 ms, rests included: 196 and 246.94 are two steps apart.
    gaps = [b["t"] - a["t"] for a, b in itertools.pairwise(music[:5])]
    assert gaps == [660, 330, 660, 330], gaps
    heard(page, "sine")
    assert [n["f"] for n in notes(page, "sine")][:1] == [240]  # the move's sound


def test_music_pauses_in_a_hidden_tab_and_stops_at_game_over(pages: Pages, live_server: LiveServer) -> None:
    page = sound_page(pages, live_server, settings={"music": True}, clock=True)  # off on a fresh profile
    stand_still(page)
    page.keyboard.press("ArrowRight")
    heard(page, "triangle")
    page.clock.run_for(400)
    page.evaluate("window.tabHidden = true; document.dispatchEvent(new Event('visibilitychange'))")
    hidden = now(page)
    page.clock.run_for(800)
    assert notes(page, "triangle", since=hidden) == []
    page.evaluate("window.tabHidden = false; document.dispatchEvent(new Event('visibilitychange'))")
    page.clock.run_for(800)
    assert notes(page, "triangle", since=hidden)
    page.clock.resume()  # the page loads and animates the last move in its own time
    prepare(page, live_server, [[2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4], [4, 2, 8, 8]], seed=1)
    last_move = now(page)
    page.keyboard.press("ArrowLeft")
    page.wait_for_selector("#over", state="visible")
    over = now(page)
    stand_still(page)
    # The game-over tune was started at once (on a busy machine "over" is seen a while after it); after
    # it, the music stays silent.
    assert [n["f"] for n in notes(page, "triangle", since=last_move)][-4:] == [392, 329.63, 261.63, 196]
    page.clock.run_for(900)
    assert notes(page, "triangle", since=over) == []


def test_switches_for_music_effects_and_all_sound(pages: Pages, live_server: LiveServer) -> None:
    page = sound_page(pages, live_server, settings={"music": False}, clock=True)
    game = current_game(page, live_server)
    page.keyboard.press("ArrowRight")
    game.move("right")
    settled(page, game.moves)
    page.keyboard.press("ArrowRight")
    assert not game.move("right").changed  # a refused move has its own sound
    heard(page, "square")
    stand_still(page)
    page.clock.run_for(800)
    assert notes(page, "triangle") == []  # music off
    assert len(notes(page, "sine")) == 1 and len(notes(page, "square")) == 1  # effects on
    page.clock.resume()
    page.click("#open-settings")
    page.click("[data-setting=effects]")  # off
    page.keyboard.press("Escape")
    page.keyboard.press("ArrowLeft")
    game.move("left")
    settled(page, game.moves)
    stand_still(page)
    page.clock.run_for(200)
    assert len(notes(page, "sine")) == 1 and len(notes(page, "square")) == 1
    page.clock.resume()
    page.click("#open-settings")
    page.click("[data-setting=music]")  # back on
    page.keyboard.press("Escape")
    heard(page, "triangle")
    stand_still(page)
    page.click("#sound")  # mute everything
    assert page.get_attribute("#sound", "aria-pressed") == "false"
    muted = now(page)
    page.clock.run_for(800)
    assert notes(page, "triangle", since=muted) == []


def test_settings_persist(pages: Pages) -> None:
    page = pages.open()
    page.click("#open-settings")
    page.click("[data-setting=music]")
    page.fill("[data-setting=volume]", "30")
    page.select_option("[data-setting=theme]", "dark")
    page.select_option("[data-setting=speed]", "fast")
    page.click("#close-settings")
    page.click("#sound")
    page.click("[data-lang=zh]")
    page.reload()
    ready(page)
    saved = json.loads(page.evaluate("localStorage.getItem('twenty48.settings')"))
    assert saved == {
        "music": True,  # music starts off: the click turned it on
        "contrast": "",
        "effects": True,
        "muted": True,
        "volume": 30,
        "theme": "dark",
        "lang": "zh",
        "speed": "fast",
    }
    page.click("#open-settings")
    assert page.is_checked("[data-setting=music]") and page.is_checked("[data-setting=effects]")
    assert page.input_value("[data-setting=volume]") == "30"
    assert page.input_value("[data-setting=theme]") == "dark"
    assert page.input_value("[data-setting=speed]") == "fast"
    assert page.get_attribute("#sound", "aria-pressed") == "false"
    assert page.get_attribute("html", "data-theme") == "dark"
    assert page.get_attribute("html", "lang") == "zh"


def test_broken_storage_never_breaks_play(pages: Pages, live_server: LiveServer) -> None:
    context = pages.context()
    context.add_init_script(
        """for (const name of ['getItem', 'setItem']) {
             Storage.prototype[name] = () => { throw new DOMException('denied', 'SecurityError'); };
           }"""
    )
    page = context.new_page()
    page.goto("/")
    ready(page)
    game = prepare(page, live_server, QUIET)
    page.click("#open-settings")
    page.select_option("[data-setting=theme]", "dark")  # still applies, for this page
    page.click("#close-settings")
    assert page.get_attribute("html", "data-theme") == "dark"
    page.keyboard.press("ArrowRight")
    game.move("right")
    settled(page, game.moves)
    assert board(page) == flat(game.board.rows)


def test_language_from_the_browser_the_address_and_the_switch(pages: Pages, live_server: LiveServer) -> None:
    page = pages.open(locale="ja-JP")
    prepare(page, live_server, QUIET)
    assert page.get_attribute("html", "lang") == "ja"
    assert page.text_content("#undo") == "戻す"
    labels = page.eval_on_selector_all("#board > *", "cells => cells.map(c => c.getAttribute('aria-label'))")
    assert labels[0] == "2のタイル" and labels[1] == "空きマス"
    page.goto("/?lang=zh")
    ready(page)
    assert page.text_content("#new") == "新游戏"
    assert page.get_attribute("#board > :nth-child(6)", "aria-label") == "4 方块"
    page.click("[data-lang=en]")
    expect(page.locator("#new")).to_have_text("New game")  # English is fetched as the others are
    assert page.get_attribute("#board > :nth-child(1)", "aria-label") == "2 tile"
    assert "lang=" not in page.url  # the choice replaces the forced language
    page.reload()
    ready(page)
    assert page.get_attribute("html", "lang") == "en"  # remembered over the browser's Japanese
    page.goto("/?lang=ja")
    ready(page)
    assert page.text_content("#hint") == "ヒント"
    page.keyboard.press("ArrowRight")
    page.wait_for_function("() => document.querySelector('#moves').textContent === '1'")
    page.goto("/?lang=xx")  # not a language of the page: the remembered one
    ready(page)
    assert page.get_attribute("html", "lang") == "en"
