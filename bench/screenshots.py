"""Screenshots of the page in every state, at phone and desktop sizes, light and dark: for a person to
look at (the tests check what can be checked: tests/browser/test_page_polish.py, test_page_look.py).

Starts the real server (`2048 serve`) on a fresh database on loopback and drives Debian's Chromium
(headless, through Playwright) against it. Each page is a new player; its positions are written into
the database beside the server, as the terminal game would. Per size and scheme: the first board, a
mid-game, a hint, the win and game-over banners, the new-game dialog, the settings, and the largest
numbers the header holds. Writes PNG files (``polish-SIZE-SCHEME-N-STATE.png``) and prints one JSON
line: the directory and how many were taken.
"""

from __future__ import annotations

import argparse
import json
import tempfile
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Route, sync_playwright

from page import CHROMIUM_ARGS, STATIC, start_server
from twenty48.game import Game
from twenty48.rules import Board
from twenty48.store import Store

SIZES = {
    "360x640": {"width": 360, "height": 640},
    "375x667": {"width": 375, "height": 667},
    "390x844": {"width": 390, "height": 844},
    "1280x800": {"width": 1280, "height": 800},
}
#: The largest score a game can reach, and a long game's move count.
TOP_SCORE, MANY_MOVES = 3_932_100, 100_000
MIDGAME = [[2, 4, 8, 16], [0, 2, 32, 64], [0, 0, 128, 256], [0, 0, 512, 2048]]
NEAR_WIN = [[1024, 1024, 4, 0], [2, 8, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]]
NEAR_OVER = [[2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4], [4, 2, 8, 8]]
OPEN = [[2, 0, 0, 2], [0, 4, 0, 0], [0, 0, 0, 0], [8, 0, 0, 8]]
#: True once nothing on the page moves any more (banners faded in, tiles settled).
STILL = "() => document.getAnimations().every((a) => a.playState !== 'running')"


class Tour:
    """One page (a new player) at one size and scheme, shooting each state into ``out``."""

    def __init__(self, browser: Browser, url: str, db: Path, out: Path, size: str, scheme: str) -> None:
        phone = size != "1280x800"
        context = browser.new_context(
            base_url=url, viewport=SIZES[size], color_scheme=scheme, has_touch=phone, is_mobile=phone
        )
        self.page = context.new_page()
        self.page.goto("/")
        self.page.wait_for_selector("body[data-ready]")
        self.db, self.out, self.tag = db, out, f"{size}-{scheme}"
        self.taken: list[Path] = []

    def shoot(self, state: str) -> None:
        self.page.wait_for_function(STILL)
        path = self.out / f"polish-{self.tag}-{len(self.taken) + 1}-{state}.png"
        self.page.screenshot(path=path)
        self.taken.append(path)

    def prepare(self, rows: list[list[int]], **game: Any) -> None:
        """Make ``rows`` the page's current game (straight into the database), and reload."""
        token = next(c["value"] for c in self.page.context.cookies() if c["name"] == "twenty48_player")
        with Store.open(self.db) as store:
            store.add_game(store.web_player(token).id, Game.from_board(Board.from_rows(rows), **game))
        self.page.reload()
        self.page.wait_for_selector("body[data-ready]")
        self.page.wait_for_load_state("networkidle")

    def big_numbers(self) -> None:
        """The page's loads answered with the largest score and best it can show, 6-digit moves."""

        def handle(route: Route) -> None:
            state = route.fetch().json()
            state.update(score=TOP_SCORE, best=TOP_SCORE, moves=MANY_MOVES)
            route.fulfill(json=state)

        self.page.route("**/api/game", handle)
        self.page.reload()
        self.page.wait_for_selector("body[data-ready]")

    def every_state(self) -> list[Path]:
        page = self.page
        self.shoot("start")
        self.prepare(MIDGAME, seed=1, score=23_456)
        self.shoot("play")
        self.prepare(NEAR_WIN, seed=1, score=20_000)
        page.click("#hint")
        page.wait_for_selector("#hints", state="visible", timeout=30_000)
        self.shoot("hint")
        page.keyboard.press("ArrowLeft")
        page.wait_for_selector("#win", state="visible")
        self.shoot("win")
        self.prepare(NEAR_OVER, seed=1)
        page.keyboard.press("ArrowLeft")
        page.wait_for_selector("#over", state="visible")
        self.shoot("over")
        self.prepare(OPEN, seed=1)
        page.keyboard.press("ArrowLeft")
        page.wait_for_function("() => document.querySelector('#moves').textContent === '1'")
        page.click("#new")
        page.wait_for_selector("#confirm[open]")
        self.shoot("new-game")
        page.keyboard.press("Escape")
        page.click("#open-settings")
        page.wait_for_selector("#settings[open]")
        self.shoot("settings")
        page.click("#close-settings")
        self.big_numbers()
        self.shoot("big-numbers")
        page.context.close()
        return self.taken


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--out", type=Path, default=Path("test-artifacts"), help="where the PNGs go")
    parser.add_argument("--size", choices=list(SIZES), action="append", help="only these sizes")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    taken: list[Path] = []
    with tempfile.TemporaryDirectory() as directory:
        db = Path(directory) / "screenshots.sqlite3"
        process, url = start_server(db, STATIC)
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(
                    executable_path="/usr/bin/chromium", headless=True, args=CHROMIUM_ARGS
                )
                for size in args.size or list(SIZES):
                    for scheme in ("light", "dark"):
                        taken += Tour(browser, url, db, args.out, size, scheme).every_state()
                browser.close()
        finally:
            process.terminate()
            process.wait(10)
    print(json.dumps({"directory": str(args.out.resolve()), "screenshots": len(taken)}))


if __name__ == "__main__":
    main()
