"""The browser page's budgets: its size, how soon it is playable, how soon a key press animates.

Starts the real server (`2048 serve`) on a fresh database on loopback and drives Debian's Chromium
(headless, through Playwright) against it. Prints one JSON line:

- page_bytes: the page's own files (html, css, js under twenty48/web/static), uncompressed;
  target <= 60 KB (61,440 bytes).
- first_board_ms_p50 / _p95: navigation start to the first playable board (the page's
  "twenty48:ready" mark: state loaded, board drawn, input bound), each load in a fresh browser
  context (new player, empty cache); target < 300 ms.
- key_to_animation_ms_p50 / _p95: a key press (the event's timestamp) to the first animation frame
  of its slide, for legal moves pressed at a human pace; target p95 < 30 ms. key_to_dom_ms_p95 is
  the part up to the sliding tiles being put on the page (request, answer, DOM update).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from playwright.sync_api import Browser, Page, sync_playwright

from twenty48.rules import Board, Direction

STATIC = Path(__file__).resolve().parents[1] / "src" / "twenty48" / "web" / "static"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
KEYS = {d: "Arrow" + d.value.capitalize() for d in Direction}

# Runs before the page's own scripts: remembers each key press's timestamp, and when the sliding
# tiles of the answer appear, the time then and at the next animation frame.
PROBE = """
window.probe = {key: 0, dom: [], frame: []};
addEventListener('keydown', (event) => { window.probe.key = event.timeStamp; }, true);
addEventListener('DOMContentLoaded', () => {
  new MutationObserver(() => {
    const fx = document.querySelector('#fx');
    if (!fx.children.length || !window.probe.key) return;
    const key = window.probe.key;
    window.probe.key = 0;
    window.probe.dom.push(performance.now() - key);
    requestAnimationFrame(() => window.probe.frame.push(performance.now() - key));
  }).observe(document.querySelector('#fx'), {childList: true});
});
"""


def page_bytes() -> tuple[int, int]:
    files = [p for p in STATIC.iterdir() if p.suffix in (".html", ".css", ".js")]
    return sum(p.stat().st_size for p in files), len(files)


def start_server(db: Path) -> tuple[subprocess.Popen[str], str]:
    process = subprocess.Popen(
        [sys.executable, "-m", "twenty48", "serve", "--port", "0", "--db", str(db), "--no-browser"],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert process.stdout is not None
    url = process.stdout.readline().split(" at ", 1)[1].split(" ", 1)[0]
    time.sleep(2.0)  # the server warms its solver up in the background; not part of what is measured
    return process, url


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[round(fraction * (len(ordered) - 1))]


def first_board_times(browser: Browser, url: str, loads: int) -> list[float]:
    times = []
    for _ in range(loads):
        context = browser.new_context(viewport={"width": 1280, "height": 800})
        page = context.new_page()
        page.goto(url)
        page.wait_for_selector("body[data-ready]")
        times.append(page.evaluate("performance.getEntriesByName('twenty48:ready')[0].startTime"))
        context.close()
    return times


def legal_key(page: Page) -> str | None:
    values = page.eval_on_selector_all("#board > *", "cells => cells.map(c => +c.dataset.value)")
    moves = Board.from_rows([values[i : i + 4] for i in range(0, 16, 4)]).legal_moves()
    return KEYS[moves[0]] if moves else None


def key_latencies(browser: Browser, url: str, presses: int, pause_ms: int) -> tuple[list[float], list[float]]:
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    context.add_init_script(PROBE)
    page = context.new_page()
    page.goto(url)
    page.wait_for_selector("body[data-ready]")
    done = 0
    while done < presses:
        key = legal_key(page)
        if key is None:  # game over: the overlay's Try again starts the next one
            page.click("#again")
            page.wait_for_function("() => document.querySelector('#moves').textContent === '0'")
            continue
        page.keyboard.press(key)
        done += 1
        page.wait_for_function("n => window.probe.frame.length === n", arg=done)
        page.wait_for_timeout(pause_ms)  # the slide and the pop finish, as between a person's presses
    probe = page.evaluate("window.probe")
    context.close()
    return probe["dom"], probe["frame"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--loads", type=int, default=20, help="page loads to time")
    parser.add_argument("--presses", type=int, default=200, help="key presses to time")
    parser.add_argument("--pause-ms", type=int, default=150, help="pause between key presses")
    args = parser.parse_args()
    size, files = page_bytes()
    with tempfile.TemporaryDirectory() as directory:
        process, url = start_server(Path(directory) / "bench.sqlite3")
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(
                    executable_path="/usr/bin/chromium", headless=True, args=CHROMIUM_ARGS
                )
                first_board_times(browser, url, 2)  # browser start-up work, not the page's
                boards = first_board_times(browser, url, args.loads)
                dom, frames = key_latencies(browser, url, args.presses, args.pause_ms)
                browser.close()
        finally:
            process.terminate()
            process.wait(10)
    print(
        json.dumps(
            {
                "page_bytes": size,
                "page_files": files,
                "first_board_ms_p50": round(statistics.median(boards), 1),
                "first_board_ms_p95": round(percentile(boards, 0.95), 1),
                "key_to_animation_ms_p50": round(statistics.median(frames), 1),
                "key_to_animation_ms_p95": round(percentile(frames, 0.95), 1),
                "key_to_dom_ms_p95": round(percentile(dom, 0.95), 1),
                "loads": len(boards),
                "presses": len(frames),
            }
        )
    )


if __name__ == "__main__":
    main()
