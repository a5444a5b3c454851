"""Game server under load: concurrent players making random legal moves over keep-alive connections.

Starts the real server (`2048 serve`, durability on: WAL, one transaction per move, every answer
sent only after its commit is fsynced, one fsync per batch of concurrent moves) on a fresh database
on loopback, then drives it in two modes, each on a fresh server:

- paced: 200 clients, each sending a move every 200 ms (a fast human);
- flat-out: 50 clients, each sending its next move as soon as the previous one is answered.

Prints one JSON line per mode: mode, clients, moves, moves_per_s, p50_ms, p99_ms, errors. Latency
runs from the moment a move was due (paced) or sent (flat-out) to the end of its answer, so a slow
server cannot hide behind a client that fell behind schedule; p99_from_send_ms leaves out the load
generator's own lateness (they differ when the machine is short of CPU). An error is any answer but 200 or a
broken connection. The client is a minimal HTTP/1.1 speaker on asyncio streams so that the load
generator, which shares the machine's cores with the server, costs as little as possible.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import uvloop

from twenty48.rules import Board

WARM_UP_S = 1.0


class Connection:
    """One keep-alive HTTP/1.1 connection that carries the player's cookie."""

    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port
        self.cookie = ""

    async def open(self) -> None:
        self.reader, self.writer = await asyncio.open_connection(self.host, self.port)

    async def call(self, method: str, path: str, payload: dict | None = None) -> tuple[int, dict]:
        body = json.dumps(payload).encode() if payload is not None else b""
        head = f"{method} {path} HTTP/1.1\r\nHost: {self.host}:{self.port}\r\n"
        if self.cookie:
            head += f"Cookie: {self.cookie}\r\n"
        if payload is not None:
            head += f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n"
        self.writer.write(head.encode() + b"\r\n" + body)
        raw = await self.reader.readuntil(b"\r\n\r\n")
        lines = raw.decode("latin-1").split("\r\n")
        status = int(lines[0].split(" ", 2)[1])
        length = 0
        for line in lines[1:]:
            name, _, value = line.partition(":")
            name = name.lower()
            if name == "content-length":
                length = int(value)
            elif name == "set-cookie":
                self.cookie = value.strip().split(";", 1)[0]
        return status, json.loads(await self.reader.readexactly(length)) if length else {}

    def close(self) -> None:
        self.writer.close()


@dataclass
class Tally:
    #: Seconds from due to answered, for every answered move (errors included).
    latencies: list[float] = field(default_factory=list)
    #: Seconds from sent to answered: without the load generator's own lateness.
    round_trips: list[float] = field(default_factory=list)
    moves: int = 0
    errors: int = 0


class Player:
    def __init__(self, connection: Connection, seed: int) -> None:
        self.connection = connection
        self.rng = random.Random(seed)
        self.state: dict = {}

    async def start(self) -> None:
        await self.connection.open()
        await self.connection.call("GET", "/api/game")  # receives the player cookie
        _, self.state = await self.connection.call("POST", "/api/games")

    async def move(self, tally: Tally | None, due: float) -> None:
        state = self.state
        direction = self.rng.choice(Board.from_rows(state["board"]).legal_moves()).value
        body = {"direction": direction, "revision": state["revision"]}
        sent = time.perf_counter()
        try:
            status, answer = await self.connection.call("POST", f"/api/games/{state['id']}/move", body)
        except (OSError, asyncio.IncompleteReadError, ValueError):
            if tally is not None:
                tally.errors += 1
            await self.connection.open()
            _, self.state = await self.connection.call("GET", "/api/game")
            return
        if tally is not None:
            answered = time.perf_counter()
            tally.latencies.append(answered - due)
            tally.round_trips.append(answered - sent)
            if status == 200:
                tally.moves += 1
            else:
                tally.errors += 1
        if status == 200:
            self.state = answer["state"]
        else:
            _, self.state = await self.connection.call("GET", "/api/game")
        if self.state["over"]:
            _, self.state = await self.connection.call("POST", "/api/games")


async def drive(port: int, clients: int, period: float | None, duration: float) -> tuple[Tally, float]:
    players = [Player(Connection("127.0.0.1", port), seed) for seed in range(clients)]
    await asyncio.gather(*(p.start() for p in players))
    tally = Tally()
    begin = time.perf_counter() + WARM_UP_S
    end = begin + duration

    async def paced(index: int, player: Player) -> None:
        assert period is not None
        due = time.perf_counter() + period * index / clients  # spread the clients over one period
        while due < end:
            await asyncio.sleep(max(0.0, due - time.perf_counter()))
            await player.move(tally if due >= begin else None, due)
            due += period
            while due < time.perf_counter() - period:  # fell a whole period behind: skip, not burst
                due += period

    async def flat_out(player: Player) -> None:
        while (now := time.perf_counter()) < end:
            await player.move(tally if now >= begin else None, now)

    await asyncio.gather(*(paced(i, p) if period is not None else flat_out(p) for i, p in enumerate(players)))
    for player in players:
        player.connection.close()
    return tally, duration


def start_server(db: Path) -> tuple[subprocess.Popen[str], int]:
    process = subprocess.Popen(
        [sys.executable, "-m", "twenty48", "serve", "--port", "0", "--db", str(db), "--no-browser"],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert process.stdout is not None
    line = process.stdout.readline()
    url = line.split(" at ", 1)[1].split(" ", 1)[0]
    port = int(url.rstrip("/").rsplit(":", 1)[1])
    asyncio.run(_warm(port))
    return process, port


async def _warm(port: int) -> None:
    """One hint waits for the server's background solver load (a compile after the solver changed),
    which would otherwise compete with the measured moves."""
    connection = Connection("127.0.0.1", port)
    await connection.open()
    _, state = await connection.call("GET", "/api/game")
    status, _ = await connection.call("GET", f"/api/games/{state['id']}/hint?time_ms=10")
    assert status == 200, status
    connection.close()


def run_mode(mode: str, clients: int, period: float | None, duration: float) -> dict:
    with tempfile.TemporaryDirectory() as directory:
        process, port = start_server(Path(directory) / "bench.sqlite3")
        try:
            with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
                tally, seconds = runner.run(drive(port, clients, period, duration))
        finally:
            process.terminate()
            process.wait(10)
    latencies = sorted(tally.latencies)
    round_trips = sorted(tally.round_trips)
    return {
        "mode": mode,
        "clients": clients,
        "moves": tally.moves,
        "moves_per_s": round(tally.moves / seconds, 1),
        "p50_ms": round(statistics.median(latencies) * 1000, 2),
        "p99_ms": round(_p99(latencies) * 1000, 2),
        "errors": tally.errors,
        "p99_from_send_ms": round(_p99(round_trips) * 1000, 2),
        "duration_s": seconds,
        "durability": "WAL, one transaction per move, fsync (group commit) before each answer",
    }


def _p99(ordered: list[float]) -> float:
    return ordered[int(0.99 * (len(ordered) - 1))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--mode", choices=["paced", "flat-out", "both"], default="both")
    parser.add_argument("--duration", type=float, default=10.0, help="measured seconds per mode")
    args = parser.parse_args()
    if args.mode in ("paced", "both"):
        print(json.dumps(run_mode("paced", 200, 0.2, args.duration)), flush=True)
    if args.mode in ("flat-out", "both"):
        print(json.dumps(run_mode("flat-out", 50, None, args.duration)), flush=True)


if __name__ == "__main__":
    main()
