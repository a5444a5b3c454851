"""An import of many games, and another player's moves meanwhile (issue 29: a 2 MiB file of 16,123
one-move games froze the server for over 25 minutes).

Starts the real server (`2048 serve`, as ``bench/web.py`` does) on a fresh database. One player
makes paced moves (one every ``--period-ms`` after the last answer) for ``--baseline-s`` alone,
then on while a visitor without a cookie posts one history file of ``--games`` one-move games of
distinct seeds (default: as many as fit in the 2 MiB body limit) and until it is answered. Prints
one JSON line: the games and bytes of the file, the import's answer (status, error or games
imported) and seconds from the first byte sent to the answer, and the other player's move latency
(p50, p99, count) alone and during the import. Latency runs from a move sent to its answer.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import tempfile
import time
from pathlib import Path

import uvloop

from timing import percentile
from twenty48.game import Game
from twenty48.store import transfer
from twenty48.web.guard import MAX_IMPORT_BODY
from web import Connection, Player, Tally, start_server


def history(games: int | None) -> tuple[bytes, int]:
    """A history file of one-move games, seeds 0, 1, ...: ``games`` of them, or as many as fit in
    the import's body limit."""
    entries: list[bytes] = []
    size = len(json.dumps(transfer.export_history([])))
    while games is None or len(entries) < games:
        game = Game.new(len(entries))
        game.play(game.board.legal_moves()[0])
        entry = json.dumps(transfer.export_game(game, finished=True), separators=(",", ":")).encode()
        if games is None and size + len(entry) + 1 > MAX_IMPORT_BODY:
            break
        entries.append(entry)
        size += len(entry) + 1
    head = f'{{"format":"{transfer.HISTORY_FORMAT}","games":['.encode()
    return head + b",".join(entries) + b"]}", len(entries)


async def post_import(port: int, body: bytes) -> tuple[int, dict, float]:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    head = f"POST /api/import HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n"
    head += f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n"
    started = time.perf_counter()
    writer.write(head.encode() + body)
    answer = await reader.read()
    seconds = time.perf_counter() - started
    writer.close()
    status = int(answer.split(b" ", 2)[1])
    return status, json.loads(answer.split(b"\r\n\r\n", 1)[1]), seconds


async def moves(player: Player, tally: Tally, period: float, until: asyncio.Future | float) -> None:
    while not (until.done() if isinstance(until, asyncio.Future) else time.perf_counter() > until):
        await player.move(tally, time.perf_counter())
        await asyncio.sleep(period)


async def measure(port: int, body: bytes, period: float, baseline_s: float) -> dict:
    player = Player(Connection("127.0.0.1", port), seed=1)
    await player.start()
    alone, during = Tally(), Tally()
    await moves(player, alone, period, time.perf_counter() + baseline_s)
    importing = asyncio.ensure_future(post_import(port, body))
    await moves(player, during, period, importing)
    status, answer, seconds = await importing
    return {
        "status": status,
        "answer": answer.get("error") or f"imported {len(answer['imported'])}, skipped {answer['skipped']}",
        "detail": answer.get("detail"),
        "seconds": round(seconds, 2),
        "alone": _latency(alone),
        "during": _latency(during),
    }


def _latency(tally: Tally) -> dict:
    trips = tally.round_trips
    return {
        "moves": tally.moves,
        "errors": tally.errors,
        "p50_ms": round(statistics.median(trips) * 1000, 2) if trips else None,
        "p99_ms": round(percentile(trips, 0.99) * 1000, 2) if trips else None,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=None, help="default: as many as fit in 2 MiB")
    parser.add_argument("--period-ms", type=float, default=20.0)
    parser.add_argument("--baseline-s", type=float, default=3.0)
    args = parser.parse_args()
    body, games = history(args.games)
    with tempfile.TemporaryDirectory() as directory:
        process, port = start_server(Path(directory) / "bench.sqlite3")
        try:
            with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
                result = runner.run(measure(port, body, args.period_ms / 1000, args.baseline_s))
        finally:
            process.terminate()
            process.wait()
    print(json.dumps({"games": games, "bytes": len(body), **result, "loadavg": os.getloadavg()[0]}))


if __name__ == "__main__":
    main()
