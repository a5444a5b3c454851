"""Hostile clients against one server process: slow requests, a crowd of connections, a loop of new
players, a rotating X-Forwarded-For.

Starts the real server (`2048 serve` on a fresh SQLite database, loopback, its default settings
unless given after ``--``) and measures:

- ``silent_s``, ``half_head_s``, ``half_body_s``: how long (median and longest, in seconds, from
  the connect) the server held ``--connections`` connections at once that sent nothing, half a
  request head, or a head announcing ``Content-Length: 4000`` and one byte of body (each kind in
  turn); and the answers they got;
- ``crowd``: with ``--crowd`` silent connections open (twice ``--max-connections``' default), the
  answer to one whole request, the connections the process held meanwhile (its open sockets, from
  /proc), and how long it took to let them go once closed;
- ``reopening``: for ``--reopen-s`` seconds, ``--crowd`` silent connections each opened again as
  soon as the server closes it, while another client sends whole requests one after another: the
  connections opened again, and the requests' answers (None: closed without one) and seconds;
- ``new_players``: cookieless ``POST /api/games`` in a loop for ``--loop-s`` seconds: answers by
  status and the players stored;
- ``claims``: 30 wrong transfer codes, each with another ``X-Forwarded-For``: answers by status.

Prints one JSON line.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

HOST = "127.0.0.1"
HALF_HEAD = b"GET /api/best HTTP/1.1\r\nHost: 127.0.0.1\r\n"
WHOLE = b"GET /api/best HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
HALF_BODY = (
    b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
    b"Content-Length: 4000\r\n\r\n{"
)


async def held(port: int, sent: bytes, give_up_s: float) -> tuple[float, int | None]:
    """Seconds until the server closed a connection that sent ``sent`` (``give_up_s`` if it never
    did), and the status it answered (None: none)."""
    started = time.monotonic()
    reader, writer = await asyncio.open_connection(HOST, port)
    if sent:
        writer.write(sent)
    try:
        answer = await asyncio.wait_for(reader.read(), give_up_s)
    except TimeoutError:
        answer = b""
    lived = time.monotonic() - started
    writer.close()
    return lived, int(answer.split(b" ", 2)[1]) if answer else None


def asked(port: int) -> tuple[float, int | None]:
    """``held`` for a whole request sent from a plain socket, on a thread of its own: the crowd's
    event loop would delay sending it after the connect."""
    started = time.monotonic()
    answer = b""
    with socket.create_connection((HOST, port), timeout=30) as sock:
        sock.sendall(WHOLE)
        with contextlib.suppress(ConnectionResetError):
            while data := sock.recv(65536):
                answer += data
    return time.monotonic() - started, int(answer.split(b" ", 2)[1]) if answer else None


async def request(port: int, text: bytes) -> int:
    reader, writer = await asyncio.open_connection(HOST, port)
    writer.write(text)
    answer = await reader.read()
    writer.close()
    return int(answer.split(b" ", 2)[1])


def summary(results: list[tuple[float, int | None]]) -> dict[str, object]:
    lived = [s for s, _ in results]
    return {
        "median": round(statistics.median(lived), 2),
        "max": round(max(lived), 2),
        "answers": dict(Counter(str(status) for _, status in results)),
    }


def sockets_of(pid: int) -> int:
    count = 0
    for fd in os.listdir(f"/proc/{pid}/fd"):
        with contextlib.suppress(FileNotFoundError):  # closed since the listing
            count += os.readlink(f"/proc/{pid}/fd/{fd}").startswith("socket:")
    return count


async def crowd(port: int, pid: int, count: int) -> dict[str, object]:
    opened = [await asyncio.open_connection(HOST, port) for _ in range(count)]
    await asyncio.sleep(0.5)
    most = sockets_of(pid)
    status = await request(port, WHOLE)
    for _, writer in opened:
        writer.close()
    closed = time.monotonic()
    while sockets_of(pid) > 10 and time.monotonic() < closed + 30:  # let the server see them go
        await asyncio.sleep(0.1)
    return {
        "opened": count,
        "answer": status,
        "server_sockets": most,
        "released_s": round(time.monotonic() - closed, 2),
    }


async def reopening(port: int, count: int, seconds: float) -> dict[str, object]:
    # One client kept 600 connections waiting this way, and every other request was answered 503.
    until = time.monotonic() + seconds
    reopened = 0

    async def hold() -> None:
        nonlocal reopened
        while time.monotonic() < until:
            reader, writer = await asyncio.open_connection(HOST, port)
            with contextlib.suppress(TimeoutError, ConnectionResetError):
                await asyncio.wait_for(reader.read(), until - time.monotonic())
            writer.close()
            reopened += 1

    holders = [asyncio.create_task(hold()) for _ in range(count)]
    results: list[tuple[float, int | None]] = []
    while time.monotonic() < until:
        results.append(await asyncio.to_thread(asked, port))
    await asyncio.gather(*holders)
    return {"connections": count, "reopened": reopened - count, "requests": summary(results)}


async def new_players(port: int, seconds: float) -> dict[str, int]:
    text = b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
    statuses: Counter[str] = Counter()
    until = time.monotonic() + seconds
    while time.monotonic() < until:
        statuses[str(await request(port, text))] += 1
    return dict(statuses)


async def claims(port: int) -> dict[str, int]:
    body = b'{"code": "nothing"}'
    statuses: Counter[str] = Counter()
    for n in range(30):
        head = (
            f"POST /api/me/claim HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            f"X-Forwarded-For: 198.51.100.{n}\r\nContent-Length: {len(body)}\r\nConnection: close\r\n\r\n"
        )
        statuses[str(await request(port, head.encode() + body))] += 1
    return dict(statuses)


async def measure(port: int, pid: int, args: argparse.Namespace, db: Path) -> dict[str, object]:
    figures: dict[str, object] = {}
    for kind, sent in {"silent_s": b"", "half_head_s": HALF_HEAD, "half_body_s": HALF_BODY}.items():
        figures[kind] = summary(
            await asyncio.gather(*(held(port, sent, args.give_up_s) for _ in range(args.connections)))
        )
    figures["crowd"] = await crowd(port, pid, args.crowd)
    figures["reopening"] = await reopening(port, args.crowd, args.reopen_s)
    figures["new_players"] = await new_players(port, args.loop_s)
    with sqlite3.connect(db) as check:
        figures["players_stored"] = check.execute("SELECT count(*) FROM players").fetchone()[0]
    figures["claims"] = await claims(port)
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--connections", type=int, default=300, help="slow connections of each kind")
    parser.add_argument("--crowd", type=int, default=1024, help="silent connections opened at once")
    parser.add_argument("--reopen-s", type=float, default=5.0, help="seconds of the crowd opened again")
    parser.add_argument("--loop-s", type=float, default=15.0, help="seconds of the new-player loop")
    parser.add_argument("--give-up-s", type=float, default=60.0, help="the longest a slow connection is kept")
    parser.add_argument("serve", nargs="*", help="further `2048 serve` arguments (after --)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "slow.sqlite3"
        command = [sys.executable, "-m", "twenty48", "serve", "--no-browser", "--port", "0", "--db", str(db)]
        server = subprocess.Popen([*command, *args.serve], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        try:
            assert server.stdout is not None
            line = server.stdout.readline().decode()
            port = int(line.split(" at ", 1)[1].split("/", 3)[2].rsplit(":", 1)[1])
            started = time.monotonic()
            figures = asyncio.run(measure(port, server.pid, args, db))
            figures["wall_s"] = round(time.monotonic() - started, 1)
            figures["load_average"] = os.getloadavg()[0]
        finally:
            server.terminate()
            with contextlib.suppress(subprocess.TimeoutExpired):
                server.wait(10)
    print(json.dumps({"serve": args.serve, **figures}))


if __name__ == "__main__":
    main()
