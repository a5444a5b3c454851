"""The page as an app in real Chromium: installable (the manifest, its icons, the theme's colour), its
service worker, a reload without a network, moves made offline, and a second release taking over."""

from __future__ import annotations

import io
import shutil
from pathlib import Path

import pytest
from pagetools import (
    ARTIFACTS,
    OPEN,
    LiveServer,
    Pages,
    board,
    flat,
    player_id,
    prepare,
    ready,
    serving,
    settled,
    wait_until,
)
from PIL import Image
from playwright.sync_api import Page

from twenty48.game import Game
from twenty48.palette import PAGE, PAGE_DARK, rgb
from twenty48.store import Store
from twenty48.web import create_app
from twenty48.web.app import STATIC
from twenty48.web.manifest import TEXTS
from twenty48.web.release import release_id

pytestmark = pytest.mark.browser

OWN_CACHES = "caches.keys().then((names) => names.filter((name) => name.startsWith('twenty48-')))"
KEPT = """async () => {
  const cache = await caches.open((await caches.keys()).find((name) => name.startsWith('twenty48-')));
  return (await cache.keys()).map((request) => new URL(request.url).pathname);
}"""
LAST_SEEN = "n => JSON.parse(localStorage.getItem('twenty48.last'))?.moves === n"


def controlled(page: Page) -> None:
    """Wait until the service worker controls ``page`` (it does once its files are kept)."""
    page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=20000)


def notice(page: Page, text: str) -> None:
    page.wait_for_function("text => document.querySelector('#notice').textContent === text", arg=text)


def css_rgb(colour: str) -> str:
    return "rgb({}, {}, {})".format(*rgb(colour))


@pytest.mark.parametrize(
    ("locale", "scheme", "colour"), [("ja-JP", "light", PAGE), ("zh-CN", "dark", PAGE_DARK)]
)
def test_the_page_is_installable_in_its_language_and_theme(
    pages: Pages, live_server: LiveServer, locale: str, scheme: str, colour: str
) -> None:
    page = pages.open(locale=locale, color_scheme=scheme)
    lang = locale[:2]
    page.wait_for_selector("link[rel=manifest]", state="attached")
    assert page.get_attribute("link[rel=manifest]", "href") == f"/manifest.webmanifest?lang={lang}"
    assert page.get_attribute("meta[name=theme-color]", "content") == css_rgb(colour)
    cdp = page.context.new_cdp_session(page)
    manifest = cdp.send("Page.getAppManifest")
    assert manifest["errors"] == []
    parsed = manifest["manifest"]
    assert (parsed["name"], parsed["description"]) == TEXTS[lang]
    assert (
        parsed["display"] == "kStandalone" and parsed["startUrl"] == parsed["scope"] == live_server.url + "/"
    )
    # Chromium's own installability check: all met, but for the test's incognito-like context.
    errors = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
    assert [error["errorId"] for error in errors] == ["in-incognito"]
    icons = [
        *parsed["icons"],
        {"url": live_server.url + page.get_attribute("link[rel=apple-touch-icon]", "href")},
    ]
    sizes = []
    for icon in icons:
        answer = page.request.get(icon["url"])
        assert answer.ok
        sizes.append(Image.open(io.BytesIO(answer.body())).size)
    assert sizes == [(192, 192), (512, 512), (512, 512), (180, 180)]
    # The bar follows a theme the player picks.
    page.click("#open-settings")
    other = "light" if scheme == "dark" else "dark"
    page.select_option("[data-setting=theme]", other)
    expected = css_rgb(PAGE if other == "light" else PAGE_DARK)
    page.wait_for_function(
        "c => document.querySelector('meta[name=theme-color]').content === c", arg=expected
    )


def test_the_service_worker_controls_the_page_after_one_load(pages: Pages) -> None:
    page = pages.open()
    controlled(page)
    assert page.evaluate(OWN_CACHES) == [f"twenty48-{release_id(STATIC)}"]
    kept = page.evaluate(KEPT)
    assert "/" in kept and "/static/app.js" in kept and "/static/strings/play.ja.js" in kept
    assert "/static/strings/lastseen.en.js" in kept  # the stand-in board's words, shown offline
    assert not [path for path in kept if not path.startswith("/static/") and path != "/"]
    # Chromium sends the API's requests past the worker altogether (its static routes).
    page.reload()
    ready(page)
    routed = page.evaluate(
        "performance.getEntriesByType('resource')"
        ".filter((e) => new URL(e.name).pathname.startsWith('/api/')).map((e) => e.workerMatchedSourceType)"
    )
    assert routed and set(routed) == {"network"}
    # A view loaded on demand is kept once used.
    page.click("#history")
    page.wait_for_selector("#views:not([hidden])")
    wait_until(lambda: "/static/views/views.js" in page.evaluate(KEPT))


def offline_with_last_board(pages: Pages, live_server: LiveServer) -> tuple[Page, Game]:
    """A page whose last board seen is ``OPEN`` after a move, reloaded with the network gone."""
    page = pages.open(allow_errors=True)  # the browser logs the requests it cannot send
    game = prepare(page, live_server, OPEN)
    controlled(page)
    page.keyboard.press("ArrowLeft")
    game.move("left")
    settled(page, game.moves)
    page.wait_for_function(LAST_SEEN, arg=game.moves)
    page.context.set_offline(True)
    page.reload()
    ready(page)
    return page, game


def stored(page: Page, server: LiveServer) -> Game:
    """The page's player's current game as the server holds it (asked without the page's network)."""
    player = player_id(page, server)
    return server.store.load_game(player, server.store.current_game(player).id)


def test_a_reload_without_a_network_shows_the_last_board_not_as_current(
    pages: Pages, live_server: LiveServer
) -> None:
    page, game = offline_with_last_board(pages, live_server)
    assert board(page) == flat(game.board.rows)
    assert page.text_content("#moves") == str(game.moves)
    notice(page, "Can't reach the server; retrying… (0 waiting)")
    assert page.get_attribute("#frame", "class") == "frame stale"
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=ARTIFACTS / "offline-last-seen.png")
    assert (
        page.is_visible(".last-seen")
        and page.text_content(".last-seen") == "Last seen here: may not be current"
    )
    # The API is not answered from a cache: without a network a request fails, it never gets an old state.
    outcome = "fetch('/api/game', {cache: 'no-store'}).then((r) => `answered ${r.status}`, () => 'failed')"
    assert page.evaluate(outcome) == "failed"
    assert page.evaluate("fetch('/api/best').then(() => 'answered', () => 'failed')") == "failed"
    page.context.set_offline(False)
    notice(page, "Connected again.")
    page.wait_for_selector(".last-seen", state="detached")
    assert page.get_attribute("#frame", "class") == "frame"


def test_moves_made_offline_are_applied_once_in_order_when_back_online(
    pages: Pages, live_server: LiveServer
) -> None:
    page, game = offline_with_last_board(pages, live_server)
    for waiting, (key, direction) in enumerate(
        [("ArrowDown", "down"), ("ArrowRight", "right"), ("ArrowUp", "up")], 1
    ):
        page.keyboard.press(key)
        game.move(direction)
        notice(page, f"Can't reach the server; retrying… ({waiting} waiting)")
    assert stored(page, live_server).moves == 1  # nothing sent yet
    page.context.set_offline(False)
    settled(page, game.moves, timeout=15000)
    server = stored(page, live_server)
    assert server.actions == game.actions and server.board == game.board
    assert board(page) == flat(game.board.rows)
    page.wait_for_selector(".last-seen", state="detached")


def test_moves_made_on_a_board_that_moved_on_elsewhere_are_not_applied(
    pages: Pages, live_server: LiveServer
) -> None:
    page, game = offline_with_last_board(pages, live_server)
    page.keyboard.press("ArrowDown")  # meant for the board shown here
    notice(page, "Can't reach the server; retrying… (1 waiting)")
    player = player_id(page, live_server)
    live_server.store.move(player, live_server.store.current_game(player).id, "right")
    game.move("right")  # another device's move
    page.context.set_offline(False)
    notice(page, "This game changed in another tab; showing it as it is now.")
    settled(page, game.moves)
    assert board(page) == flat(game.board.rows)
    assert stored(page, live_server).actions == game.actions


def test_a_second_release_takes_over_without_losing_the_game(pages: Pages, tmp_path: Path) -> None:
    second = tmp_path / "static"
    shutil.copytree(STATIC, second)
    html = (second / "index.html").read_text()
    (second / "index.html").write_text(html.replace("<title>2048</title>", "<title>2048 second</title>"))
    with Store.open(tmp_path / "web.sqlite3") as store:
        with serving(create_app(store)) as url:
            server = LiveServer(url, store)
            own = Pages(pages.browser, server)
            page = own.open(allow_errors=True)  # the browser logs the requests the restart refuses
            game = prepare(page, server, OPEN)
            controlled(page)
            assert page.evaluate(OWN_CACHES) == [f"twenty48-{release_id(STATIC)}"]
            for key, direction in [("ArrowLeft", "left"), ("ArrowRight", "right")]:
                page.keyboard.press(key)
                game.move(direction)
            settled(page, game.moves)
        try:
            with serving(create_app(store, static=second), int(url.rsplit(":", 1)[1])):
                # The game in progress goes on across the update.
                direction = game.board.legal_moves()[0]
                page.keyboard.press("Arrow" + direction.value.capitalize())
                game.move(direction)
                settled(page, game.moves, timeout=15000)
                page.reload()  # still the first release's page; the second's files are fetched meanwhile
                ready(page)
                assert page.title() == "2048"
                wait_until(
                    lambda: page.evaluate(OWN_CACHES) == [f"twenty48-{release_id(second)}"], timeout=20
                )
                page.reload()
                ready(page)
                assert page.title() == "2048 second"
                settled(page, game.moves)
                assert board(page) == flat(game.board.rows) == flat(stored(page, server).board.rows)
        finally:
            own.close()
