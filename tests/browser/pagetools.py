"""Helpers shared by the browser tests: reading the page, waiting for it, preparing positions."""

from __future__ import annotations

import asyncio
import socket
import threading
import time
from collections.abc import Awaitable, Callable, Iterator, MutableMapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from fnmatch import fnmatchcase
from pathlib import Path
from typing import Any

import uvicorn
from playwright.sync_api import Browser, BrowserContext, Page

from twenty48.game import Game
from twenty48.rules import Board
from twenty48.store import Store
from twenty48.web.guard import COOKIE_NAME

#: Screenshots and other things a person may want to look at after a run (git-ignored).
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 375, "height": 667}


Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]
App = Callable[[Scope, Receive, Send], Awaitable[None]]

#: For a page whose requests a test refuses or answers with routes: a service worker taking over the
#: page meanwhile can keep its requests from the routes (Playwright's docs: block workers where
#: routes intercept). The worker has tests of its own.
NO_WORKER = {"service_workers": "block"}
#: The longest a request is held when its test forgets it (the test has failed by then).
HOLD_LIMIT_S = 120


class Held:
    """A request held at the server: ``continue_()`` lets the app answer it."""

    def __init__(self) -> None:
        self._go = threading.Event()

    def continue_(self) -> None:
        self._go.set()

    async def wait(self) -> None:
        await asyncio.to_thread(self._go.wait, HOLD_LIMIT_S)


class Gate:
    """The test server's front (ASGI): holds the first request of one page that a test names until
    the test lets it go on, as a slow server would. Held at the server rather than by Playwright's
    routing, which twice in one CI run never saw a move request the page sent."""

    def __init__(self, app: App) -> None:
        self.app = app
        self._holds: list[tuple[bytes, Callable[[str], bool], list[Held]]] = []

    def hold(self, cookie: bytes, matches: Callable[[str], bool]) -> list[Held]:
        held: list[Held] = []
        self._holds.append((cookie, matches, held))
        return held

    def release_all(self) -> None:
        for _, _, held in self._holds:
            for request in held:
                request.continue_()
        self._holds.clear()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and self._holds:
            query = scope["query_string"].decode()
            url = scope["path"] + (f"?{query}" if query else "")
            cookies = b";".join(value for name, value in scope["headers"] if name == b"cookie")
            for cookie, matches, held in self._holds:
                if not held and cookie in cookies and matches(url):
                    request = Held()
                    held.append(request)
                    await request.wait()
                    break
        await self.app(scope, receive, send)


@contextmanager
def serving(app: App, port: int = 0) -> Iterator[str]:
    """Serve ``app`` on loopback (``port``, or a free one) in a background thread; yields its URL. The
    same port can serve another app afterwards (a second release of the page)."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", port))
    sock.listen(128)
    config = uvicorn.Config(app, log_level="warning", access_log=False)
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("the test server did not start")
        time.sleep(0.01)
    try:
        yield f"http://127.0.0.1:{sock.getsockname()[1]}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        sock.close()


@dataclass
class LiveServer:
    url: str
    store: Store
    gate: Gate | None = None


@dataclass
class Pages:
    """Opens pages of the game in fresh contexts and checks, when the test ends, that none of them
    logged a console error or threw (unless the test expects network errors)."""

    browser: Browser
    server: LiveServer
    opened: list[tuple[BrowserContext, list[str], bool]] = field(default_factory=list)

    def context(self, *, allow_errors: bool = False, **options: Any) -> BrowserContext:
        options.setdefault("viewport", DESKTOP)
        context = self.browser.new_context(base_url=self.server.url, **options)
        errors: list[str] = []
        context.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        context.on("weberror", lambda e: errors.append(str(e.error)))
        self.opened.append((context, errors, allow_errors))
        return context

    def open(self, path: str = "/", *, allow_errors: bool = False, **options: Any) -> Page:
        page = self.context(allow_errors=allow_errors, **options).new_page()
        page.goto(path)
        ready(page)
        return page

    def errors(self, page: Page) -> list[str]:
        """What the console and uncaught exceptions reported in ``page``'s context so far."""
        return next(errors for context, errors, _ in self.opened if context is page.context)

    def close(self) -> list[str]:
        problems = [error for _, errors, allowed in self.opened if not allowed for error in errors]
        for context, _, _ in self.opened:
            context.close()
        return problems


def ready(page: Page) -> None:
    page.wait_for_selector("body[data-ready]")


def board(page: Page) -> list[int]:
    """The 16 values the page shows (its contract: #board's cells carry data-value)."""
    values: list[int] = page.eval_on_selector_all("#board > *", "cells => cells.map(c => +c.dataset.value)")
    return values


def numbers(page: Page) -> dict[str, int]:
    """The header's numbers, as written in English ("3,476")."""
    texts = {name: page.text_content(f"#{name}") or "" for name in ("score", "best", "moves")}
    return {name: int(text.replace(",", "")) for name, text in texts.items()}


def server_state(page: Page) -> dict[str, Any]:
    """The page's player's current game, asked over HTTP with the page's own cookie."""
    response = page.request.get("/api/game")
    assert response.ok
    state: dict[str, Any] = response.json()
    return state


def flat(rows: Any) -> list[int]:
    return [value for row in rows for value in row]


def settled(page: Page, moves: int, timeout: float = 5000) -> None:
    """Wait until the page shows ``moves`` moves and no animation is running."""
    page.wait_for_function(
        """moves => document.querySelector('#moves').textContent === moves.toLocaleString('en')
            && !document.querySelector('#fx').children.length
            && !document.querySelector('#board').classList.contains('sliding')""",
        arg=moves,
        timeout=timeout,
    )


def still(page: Page, selector: str = "body") -> None:
    """Wait until nothing in ``selector`` moves any more: its animations (a slide, a tile popping
    in, a banner fading in) have finished."""
    page.wait_for_function(
        "(sel) => document.querySelector(sel).getAnimations({subtree: true})"
        ".every((a) => a.playState !== 'running')",
        arg=selector,
    )


#: A position where every direction is legal and a few merges wait.
OPEN = [[2, 0, 0, 2], [0, 4, 0, 0], [0, 0, 0, 0], [8, 0, 0, 8]]


def expect_game(page: Page, game: Game) -> None:
    """Once the page settles at ``game``'s move count, page and server both show ``game``."""
    settled(page, game.moves)
    assert board(page) == flat(game.board.rows)
    state = server_state(page)
    assert flat(state["board"]) == flat(game.board.rows)
    assert numbers(page) == {"score": game.score, "best": state["best"], "moves": game.moves}


def player_id(page: Page, server: LiveServer) -> int:
    token = next(c["value"] for c in page.context.cookies() if c["name"] == COOKIE_NAME)
    return server.store.web_player(token).id


def prepare(
    page: Page,
    server: LiveServer,
    rows: list[list[int]],
    *,
    seed: int = 1,
    score: int = 0,
    won: bool = False,
    variant: str = "classic",
) -> Game:
    """Make ``rows`` the page's current game (straight into the store), reload, and return an
    independent copy of the stored game to predict the server's answers with."""
    game = Game(seed=seed, board=Board.from_rows(rows), score=score, won=won, variant=variant)
    record = server.store.add_game(player_id(page, server), game)
    page.reload()
    ready(page)
    # What the page fetches once its board is up (the solver's module, the hint's and the daily
    # entry's styles) is done before a test holds or counts requests.
    page.wait_for_load_state("networkidle")
    return server.store.load_game(player_id(page, server), record.id)


#: A position one move (left) from the end.
NEAR_OVER = [[2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4], [4, 2, 8, 8]]


def game_over(page: Page, server: LiveServer) -> Game:
    """Make the page's game end (its last move, left, played by key); returns the game as it ended."""
    game = prepare(page, server, NEAR_OVER, seed=1)
    page.keyboard.press("ArrowLeft")
    page.wait_for_selector("#over", state="visible")
    game.move("left")
    return game


def current_game(page: Page, server: LiveServer) -> Game:
    """An independent copy of the page's player's current game, as stored."""
    state = server_state(page)
    return server.store.load_game(player_id(page, server), state["id"])


def touch(page: Page, points: list[list[tuple[float, float]]]) -> None:
    """Drive real touch input (the browser's own touch pipeline): ``points`` is a list of frames,
    each the positions of the fingers down in that frame."""
    cdp = page.context.new_cdp_session(page)
    previous = 0
    for frame in points:
        kind = "touchStart" if len(frame) > previous else "touchMove"
        cdp.send(
            "Input.dispatchTouchEvent",
            {"type": kind, "touchPoints": [{"x": x, "y": y, "id": i} for i, (x, y) in enumerate(frame)]},
        )
        previous = len(frame)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    cdp.detach()


def swipe_frames(x: float, y: float, dx: float, dy: float) -> list[list[tuple[float, float]]]:
    return [[(x + dx * k / 6, y + dy * k / 6)] for k in range(7)]


def wait_until(check: Callable[[], bool], timeout: float = 5.0) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError("timed out waiting for a condition")
        time.sleep(0.02)


def hold_first(page: Page, server: LiveServer, pattern: str | Callable[[str], bool]) -> list[Held]:
    """Hold at the server the first request of ``page`` (by its player's cookie) whose path and
    query match ``pattern`` (a glob, or a test), until the test releases it
    (``held[0].continue_()``); later ones pass."""
    assert server.gate is not None, "this server has no gate"
    token = next(c["value"] for c in page.context.cookies() if c["name"] == COOKIE_NAME)
    matches = pattern if callable(pattern) else lambda url: fnmatchcase(url, pattern)
    return server.gate.hold(f"{COOKIE_NAME}={token}".encode(), matches)


def wait_held(page: Page, held: list[Held], timeout: float = 15.0) -> None:
    """Wait until a held request has reached the server. Fails (never hangs) when none comes,
    saying what the page fetched meanwhile."""
    deadline = time.monotonic() + timeout
    while not held:
        if time.monotonic() > deadline:
            fetched = page.evaluate("performance.getEntriesByType('resource').slice(-5).map((e) => e.name)")
            raise AssertionError(f"the page sent no request to hold; its last fetches: {fetched}")
        page.wait_for_timeout(10)
