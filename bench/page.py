"""The browser page's budgets: its size, how soon it is playable, how soon a key press animates.

Starts the real server (`2048 serve`) on a fresh database on loopback and drives Debian's Chromium
(headless, through Playwright) against it. Prints one JSON line:

- first_board_bytes: what the first board needs, as the browser fetched it before the page was
  playable: the html and the css and js under /static/ (uncompressed, fonts not counted), for an
  English player; target <= 60 KB (61,440 bytes). first_board_files: how many files that is.
  first_board_bytes_by_lang: the same for a player whose browser asks for each language (ja and zh
  add their strings' module); the target holds for each.
- font_bytes: the fonts fetched for the first board (Clear Sans, woff2), reported apart, as the
  original's fonts are.
- later_bytes: the page's other html, css and js, fetched only when first used (the languages other
  than the player's, the solver's hint and auto-play, views added later).
- first_board_ms_p50 / _p95: navigation start to the first playable board (the page's
  "twenty48:ready" mark: state loaded, board drawn, input bound), each load in a fresh browser
  context (new player, empty cache); target < 300 ms.
- key_to_animation_ms_p50 / _p95: a key press (the event's timestamp) to the first animation frame
  of its slide, for legal moves pressed at a human pace; target p95 < 20 ms. key_to_dom_ms_p95 is
  the part up to the sliding tiles being put on the page (request, answer, DOM update).
- key_to_animation_6x6_ms_p50 / _p95: the same on a 6x6 board (36 cells, up to 30 sliding tiles),
  and key_to_animation_6x6_over_4x4_ms: its p50 less the 4x4's, measured in the same run; target
  within 5 ms.
- split_ms: where each press's time went, p50 and p95 of each part (from the move request's
  Resource Timing entry): "input" key press to the request leaving the page's code, "send" the
  browser handing it to the socket, "server" request sent to the answer's first byte (the route,
  the store's commit and fsync, loopback), "receive" the answer's bytes, "answer" the answer in to
  the sliding tiles on the page (the browser's tasks, JSON, the page's code), "frame" tiles on the
  page to the first animation frame. The parts of one press add up to its key_to_animation.
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
from typing import Any
from urllib.parse import urljoin

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
window.probe = {key: 0, dom: [], frame: [], split: []};
addEventListener('keydown', (event) => { window.probe.key = event.timeStamp; }, true);
addEventListener('DOMContentLoaded', () => {
  new MutationObserver(() => {
    const fx = document.querySelector('#fx');
    if (!fx.children.length || !window.probe.key) return;
    const key = window.probe.key;
    const dom = performance.now();
    window.probe.key = 0;
    window.probe.dom.push(dom - key);
    requestAnimationFrame(() => {
      const frame = performance.now();
      window.probe.frame.push(frame - key);
      // A slide started from the forecast comes before its answer: there is no round trip to split.
      const move = performance.getEntriesByType('resource')
        .filter((e) => e.name.endsWith('/move') && e.startTime >= key).pop();
      if (!move || move.responseEnd > dom) return;
      window.probe.split.push({
        input: move.startTime - key, send: move.requestStart - move.startTime,
        server: move.responseStart - move.requestStart, receive: move.responseEnd - move.responseStart,
        answer: dom - move.responseEnd, frame: frame - dom,
      });
    });
  }).observe(document.querySelector('#fx'), {childList: true});
});
"""


# Every file of the page the browser fetched before the first board was playable, with its size.
FIRST_FILES = """() => {
  const ready = performance.getEntriesByName('twenty48:ready')[0].startTime;
  const page = performance.getEntriesByType('navigation')[0];
  const own = performance.getEntriesByType('resource')
    .filter((e) => new URL(e.name).pathname.startsWith('/static/') && e.responseEnd <= ready);
  return [['/', page.decodedBodySize], ...own.map((e) => [new URL(e.name).pathname, e.decodedBodySize])];
}"""


# `2048 serve` with the page's files from another directory (argv[1]).
SERVE_STATIC = """import sys
from pathlib import Path
import twenty48.web.app
twenty48.web.app.STATIC = Path(sys.argv.pop(1))
from twenty48.cli import main
sys.exit(main(sys.argv[1:]))
"""


def code_bytes(fetched: list[tuple[str, int]]) -> dict[str, int]:
    """The html, css and js: not the fonts, nor the tab's icon, which the browser may or may not have
    fetched by the time the board is playable (it made the count differ by 251 bytes between runs)."""
    return {path: size for path, size in fetched if path == "/" or path.endswith((".html", ".css", ".js"))}


def page_figures(
    fetched: list[tuple[str, int]], by_lang: dict[str, list[tuple[str, int]]], static: Path
) -> dict[str, Any]:
    """Bytes for the first board (an English player's, and each language's), its fonts, and the
    page's code that waits for first use."""
    fonts = [size for path, size in fetched if path.endswith(".woff2")]
    code = code_bytes(fetched)
    files = [p for p in static.rglob("*") if p.suffix in (".html", ".css", ".js")]
    fetched_later = [p for p in files if "/static/" + p.relative_to(static).as_posix() not in code]
    later = [p for p in fetched_later if p.name != "index.html"]
    return {
        "first_board_bytes": sum(code.values()),
        "first_board_files": len(code),
        "first_board_bytes_by_lang": {lang: sum(code_bytes(f).values()) for lang, f in by_lang.items()},
        "font_bytes": sum(fonts),
        "later_bytes": sum(p.stat().st_size for p in later),
    }


def start_server(db: Path, static: Path) -> tuple[subprocess.Popen[str], str]:
    run = ["-m", "twenty48"] if static == STATIC else ["-c", SERVE_STATIC, str(static)]
    process = subprocess.Popen(
        [sys.executable, *run, "serve", "--port", "0", "--db", str(db), "--no-browser"],
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


def first_board_times(
    browser: Browser, url: str, loads: int, locale: str = "en-US"
) -> tuple[list[float], list[tuple[str, int]]]:
    """Navigation start to the first playable board, per load; and what the last load fetched for it."""
    times = []
    fetched: list[tuple[str, int]] = []
    for _ in range(loads):
        context = browser.new_context(viewport={"width": 1280, "height": 800}, locale=locale)
        page = context.new_page()
        page.goto(url)
        page.wait_for_selector("body[data-ready]")
        times.append(page.evaluate("performance.getEntriesByName('twenty48:ready')[0].startTime"))
        fetched = [(path, size) for path, size in page.evaluate(FIRST_FILES)]
        context.close()
    return times, fetched


def legal_key(page: Page, url: str) -> str | None:
    rows = page.request.get(urljoin(url, "/api/game")).json()["board"]
    moves = Board.from_rows(rows).legal_moves()
    return KEYS[moves[0]] if moves else None


def key_latencies(
    browser: Browser, url: str, presses: int, pause_ms: int, size: str = "4x4"
) -> tuple[list[float], list[float], list[dict[str, float]]]:
    """Key presses on a game of `size` ("RxC"); each one's times, as the probe took them."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    context.add_init_script(PROBE)
    page = context.new_page()
    page.goto(url)
    page.wait_for_selector("body[data-ready]")
    if size != "4x4":
        assert page.request.post(urljoin(url, "/api/games"), data={"size": size}).ok
        page.reload()
        page.wait_for_selector("body[data-ready]")
    done = 0
    while done < presses:
        key = legal_key(page, url)
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
    return probe["dom"], probe["frame"], probe["split"]


def split_figures(split: list[dict[str, float]]) -> dict[str, list[float]]:
    """Each part of the presses' time: [p50, p95] in ms."""
    if not split:
        return {}
    return {
        part: [round(statistics.median(v), 1), round(percentile(v, 0.95), 1)]
        for part in split[0]
        for v in [[press[part] for press in split]]
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--loads", type=int, default=20, help="page loads to time")
    parser.add_argument("--presses", type=int, default=200, help="key presses to time")
    parser.add_argument("--pause-ms", type=int, default=150, help="pause between key presses")
    parser.add_argument("--static", type=Path, default=STATIC, help="serve the page's files from here")
    args = parser.parse_args()
    static = args.static.resolve()
    if not (static / "index.html").is_file():
        parser.error(f"--static: no index.html in {static}")
    with tempfile.TemporaryDirectory() as directory:
        process, url = start_server(Path(directory) / "bench.sqlite3", static)
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(
                    executable_path="/usr/bin/chromium", headless=True, args=CHROMIUM_ARGS
                )
                first_board_times(browser, url, 2)  # browser start-up work, not the page's
                boards, fetched = first_board_times(browser, url, args.loads)
                by_lang = {"en": fetched}
                for locale in ("ja-JP", "zh-CN"):
                    by_lang[locale[:2]] = first_board_times(browser, url, 1, locale)[1]
                dom, frames, split = key_latencies(browser, url, args.presses, args.pause_ms)
                frames_6x6 = key_latencies(browser, url, args.presses, args.pause_ms, "6x6")[1]
                browser.close()
        finally:
            process.terminate()
            process.wait(10)
    print(
        json.dumps(
            {
                **page_figures(fetched, by_lang, static),
                "first_board_ms_p50": round(statistics.median(boards), 1),
                "first_board_ms_p95": round(percentile(boards, 0.95), 1),
                "key_to_animation_ms_p50": round(statistics.median(frames), 1),
                "key_to_animation_ms_p95": round(percentile(frames, 0.95), 1),
                "key_to_dom_ms_p95": round(percentile(dom, 0.95), 1),
                "key_to_animation_6x6_ms_p50": round(statistics.median(frames_6x6), 1),
                "key_to_animation_6x6_ms_p95": round(percentile(frames_6x6, 0.95), 1),
                "key_to_animation_6x6_over_4x4_ms": round(
                    statistics.median(frames_6x6) - statistics.median(frames), 1
                ),
                "split_ms": split_figures(split),
                "ahead_presses": len(frames) - len(split),
                "loads": len(boards),
                "presses": len(frames),
            }
        )
    )


if __name__ == "__main__":
    main()
