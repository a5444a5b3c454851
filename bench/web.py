"""Game server under load: concurrent players making random legal moves over keep-alive connections.

Starts the real server (`2048 serve`, durability on: WAL, one transaction per move, every answer
sent only after its commit is fsynced, one fsync per batch of concurrent moves) on a fresh database
on loopback, then drives it in two modes, each on a fresh server:

- paced: 200 clients, each sending a move every 200 ms (a fast human);
- flat-out: 50 clients, each sending its next move as soon as the previous one is answered;
- paced-hints: paced, while 10 more clients each ask for 5-second hints on a crowded board, one
  after another (refused ones wait their Retry-After): moves must stay fast while the solver is busy.
- paced-review: paced, while one more client keeps one game review running all along (a
  2,500-move game; when its review is done the same game is stored again and reviewed anew): moves
  must stay fast while the background review process takes every core it can at nice 19.

``--http`` picks uvicorn's HTTP protocol: ``guarded`` (the server's own: httptools with a cap on
request heads), ``httptools`` (no cap) or ``h11`` (uvicorn's pure-Python parser, which has one):
what the cap costs. Prints one JSON line per mode: mode, http, clients, moves, moves_per_s, p50_ms,
p99_ms, errors, server_cpu_ms_per_move (the user + system CPU time of the server's processes, its
workers and their children included, from the start of the measured window until every measured
move was answered, divided by those moves: steadier than wall-clock figures on a shared machine;
read from Linux's /proc), server_setup_cpu_s (what they used before that window: the start, each
process's solver load, the players' first games and the warm-up second; paid once per process,
not per move, so a figure per move that held it would grow with the processes and shrink with the
duration), for paced-hints the hints answered and refused, and for
paced-review the reviews finished and the positions graded (a review cut off by the end counted
to where it was). Latency
runs from the moment a move was due (paced) or sent (flat-out) to the end of its answer, so a slow
server cannot hide behind a client that fell behind schedule; p99_from_send_ms leaves out the load
generator's own lateness (they differ when the machine is short of CPU). An error is any answer but 200 or a
broken connection. The client is a minimal HTTP/1.1 speaker on asyncio streams so that the load
generator, which shares the machine's cores with the server, costs as little as possible.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import secrets
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

import uvloop

from twenty48.game import Game
from twenty48.rules import Board
from twenty48.store import StoreError, open_store, parse_location
from twenty48.web.guard import COOKIE_NAME

sys.path.insert(0, str(Path(__file__).parent))
from postgres_cluster import Postgres
from process_cpu import tree_cpu_s

WARM_UP_S = 1.0
#: uvicorn's ``http`` setting for each ``--http`` choice.
PROTOCOLS = {
    "guarded": "twenty48.web.protocol:GuardedHttpToolsProtocol",
    "httptools": "httptools",
    "h11": "h11",
}
#: A position on which a hint uses most of its budget (an open board is searched to the end at once).
CROWDED = Board.from_rows([[2, 8, 2, 4], [16, 32, 64, 128], [4, 2, 8, 2], [0, 0, 2, 4]])
HINT_CLIENTS = 10
HINT_MS = 5000
#: Moves of the game the paced-review client keeps under review.
REVIEW_MOVES = 2500


class Connection:
    """One keep-alive HTTP/1.1 connection that carries the player's cookie."""

    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port
        self.cookie = ""

    async def open(self) -> None:
        self.reader, self.writer = await asyncio.open_connection(self.host, self.port)

    async def call(self, method: str, path: str, payload: dict | None = None) -> tuple[int, dict]:
        status, _, answer = await self.call_with_headers(method, path, payload)
        return status, answer

    async def call_with_headers(
        self, method: str, path: str, payload: dict | None = None
    ) -> tuple[int, dict[str, str], dict]:
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
        headers: dict[str, str] = {}
        for line in lines[1:]:
            name, _, value = line.partition(":")
            headers[name.lower()] = value.strip()
        if "set-cookie" in headers:
            self.cookie = headers["set-cookie"].split(";", 1)[0]
        length = int(headers.get("content-length", 0))
        return status, headers, json.loads(await self.reader.readexactly(length)) if length else {}

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
    #: The server's CPU seconds before the measured window, and in it (``tree_cpu_s``).
    cpu_before_s: float = 0.0
    cpu_during_s: float = 0.0


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


@dataclass
class Hints:
    answered: int = 0
    refused: int = 0


async def ask_hints(port: int, db: Path | str, end: float, hints: Hints) -> None:
    """One client asking for long hints on a crowded board until ``end``."""
    connection = Connection("127.0.0.1", port)
    await connection.open()
    await connection.call("GET", "/api/game")  # receives the player cookie
    token = connection.cookie.split("=", 1)[1]
    with open_store(db) as store:  # the server's database, opened beside it
        game = store.add_game(store.web_player(token).id, Game.from_board(CROWDED, seed=1)).id
    while time.perf_counter() < end:
        try:
            status, headers, _ = await connection.call_with_headers(
                "POST", f"/api/games/{game}/hint?time_ms={HINT_MS}"
            )
        except (OSError, asyncio.IncompleteReadError):
            # The server closed the connection while it sat idle past uvicorn's keep-alive timeout
            # (5 s) through a long Retry-After: ask again on a new one.
            await connection.open()
            continue
        if status == 200:
            hints.answered += 1
        else:
            hints.refused += 1
            await asyncio.sleep(
                min(float(headers.get("retry-after", 1)), max(0.0, end - time.perf_counter()))
            )
    connection.close()


@dataclass
class Reviews:
    finished: int = 0
    positions: int = 0


def review_game_to_store() -> Game:
    """A solver game of ``REVIEW_MOVES`` moves (depth 1: quick to play, long to review)."""
    from twenty48.ai import best_move

    game = Game.new(3)
    while not game.over and game.moves < REVIEW_MOVES:
        game.move(best_move(game, depth=1))
    return game


#: Copies of the game stored for the paced-review client, before the server starts: storing them
#: beside a running server would fill its write-ahead log just before the measured window.
REVIEW_COPIES = 4


def prepare_reviews(db: Path | str, game: Game) -> tuple[str, list[int]]:
    """A player (its cookie token) with ``REVIEW_COPIES`` stored copies of ``game``."""
    token = secrets.token_urlsafe(32)
    with open_store(db) as store:
        player = store.web_player(token).id
        return token, [store.add_game(player, game).id for _ in range(REVIEW_COPIES)]


async def keep_reviewing(port: int, token: str, games: list[int], end: float, reviews: Reviews) -> None:
    """One client keeping one review running until ``end``, a fresh copy of the game each time."""
    connection = Connection("127.0.0.1", port)
    connection.cookie = f"{COOKIE_NAME}={token}"
    await connection.open()
    game_id = 0
    for game_id in games:
        if time.perf_counter() >= end:
            break
        status, _ = await connection.call("POST", f"/api/games/{game_id}/review")
        assert status == 202, status
        while time.perf_counter() < end:
            await asyncio.sleep(0.5)
            _, answer = await connection.call("GET", f"/api/games/{game_id}/review")
            if answer["state"] != "running" and answer["state"] != "queued":
                reviews.finished += answer["state"] == "done"
                reviews.positions += answer["done"]
                break
        else:
            _, answer = await connection.call("DELETE", f"/api/games/{game_id}/review")
            reviews.positions += answer["done"]
    connection.close()


async def drive(
    port: int,
    cpu: Callable[[], float],
    clients: int,
    period: float | None,
    duration: float,
    db: Path | str | None = None,
    review: tuple[str, list[int]] | None = None,
) -> tuple[Tally, float, Hints, Reviews]:
    players = [Player(Connection("127.0.0.1", port), seed) for seed in range(clients)]
    await asyncio.gather(*(p.start() for p in players))
    tally = Tally()
    hints = Hints()
    reviews = Reviews()
    begin = time.perf_counter() + WARM_UP_S
    end = begin + duration

    async def window_opens() -> None:
        await asyncio.sleep(begin - time.perf_counter())
        tally.cpu_before_s = cpu()

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

    hinting = []
    if db is not None and review is None:
        hinting = [ask_hints(port, db, end, hints) for _ in range(HINT_CLIENTS)]
    elif review is not None:
        hinting = [keep_reviewing(port, *review, end, reviews)]
    await asyncio.gather(
        window_opens(),
        *(paced(i, p) if period is not None else flat_out(p) for i, p in enumerate(players)),
        *hinting,
    )
    # Every measured move is answered: the window closes.
    tally.cpu_during_s = cpu() - tally.cpu_before_s
    for player in players:
        player.connection.close()
    return tally, duration, hints, reviews


#: `2048 serve` with ``serve.HTTP_PROTOCOL`` set from the first argument.
LAUNCH = (
    "import sys; from twenty48.commands import serve; serve.HTTP_PROTOCOL = sys.argv[1]; "
    "from twenty48.cli import main; sys.exit(main(sys.argv[2:]))"
)


def start_server(
    db: Path | str, http: str = "guarded", workers: int = 1, review: bool = False
) -> tuple[subprocess.Popen[str], int]:
    process = subprocess.Popen(
        [
            sys.executable,
            "-c",
            LAUNCH,
            PROTOCOLS[http],
            "serve",
            "--port",
            "0",
            "--db",
            str(db),
            "--no-browser",
            "--workers",
            str(workers),
            # Every simulated player is a new one, all from loopback.
            "--new-players-per-hour",
            "1000000",
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert process.stdout is not None
    line = process.stdout.readline()
    url = line.split(" at ", 1)[1].split(" ", 1)[0]
    port = int(url.rstrip("/").rsplit(":", 1)[1])
    # Every worker loads its solver: warm as many as there are, so none compiles while measured.
    for _ in range(workers):
        asyncio.run(_warm(port))
    if review:
        asyncio.run(_warm_review(port, db))
    return process, port


async def _warm_review(port: int, db: Path | str) -> None:
    """One short review starts the server's review process (imports, compiled kernels), which
    would otherwise compete with the measured moves."""
    connection = Connection("127.0.0.1", port)
    await connection.open()
    await connection.call("GET", "/api/game")
    token = connection.cookie.split("=", 1)[1]
    game = Game.new(1)
    game.move(game.board.legal_moves()[0])
    with open_store(db) as store:
        game_id = store.add_game(store.web_player(token).id, game).id
    status, _ = await connection.call("POST", f"/api/games/{game_id}/review")
    assert status == 202, status
    while (await connection.call("GET", f"/api/games/{game_id}/review"))[1]["state"] != "done":
        await asyncio.sleep(0.1)
    connection.close()


async def _warm(port: int) -> None:
    """One hint waits for the server's background solver load (a compile after the solver changed),
    which would otherwise compete with the measured moves."""
    connection = Connection("127.0.0.1", port)
    await connection.open()
    _, state = await connection.call("GET", "/api/game")
    status, _ = await connection.call("POST", f"/api/games/{state['id']}/hint?time_ms=10")
    assert status == 200, status
    connection.close()


def run_mode(
    mode: str,
    clients: int,
    period: float | None,
    duration: float,
    http: str = "guarded",
    hints: bool = False,
    postgres: Postgres | None = None,
    workers: int = 1,
    review: bool = False,
) -> dict:
    with tempfile.TemporaryDirectory() as directory:
        db: Path | str = Path(directory) / "bench.sqlite3" if postgres is None else postgres.fresh()
        reviewer = prepare_reviews(db, review_game_to_store()) if review else None
        process, port = start_server(db, http, workers, review)
        try:
            with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
                # The server's processes only: PostgreSQL's own CPU is not in it.
                cpu = partial(tree_cpu_s, process.pid)
                tally, seconds, hinted, reviewed = runner.run(
                    drive(port, cpu, clients, period, duration, db if hints else None, reviewer)
                )
        finally:
            process.terminate()
            process.wait()
            if postgres is not None:
                postgres.drop(str(db))
    latencies = sorted(tally.latencies)
    round_trips = sorted(tally.round_trips)
    extra: dict = {"hints_answered": hinted.answered, "hints_refused": hinted.refused} if hints else {}
    if review:
        extra = {"reviews_finished": reviewed.finished, "review_positions": reviewed.positions}
    return {
        "mode": mode,
        "db": "sqlite" if postgres is None else "postgresql",
        "workers": workers,
        "http": http,
        "clients": clients,
        "moves": tally.moves,
        "moves_per_s": round(tally.moves / seconds, 1),
        "p50_ms": round(statistics.median(latencies) * 1000, 2),
        "p99_ms": round(_p99(latencies) * 1000, 2),
        "errors": tally.errors,
        "p99_from_send_ms": round(_p99(round_trips) * 1000, 2),
        "server_cpu_ms_per_move": round(tally.cpu_during_s * 1000 / max(1, tally.moves), 3),
        "server_setup_cpu_s": round(tally.cpu_before_s, 2),
        **extra,
        "loadavg": os.getloadavg()[0],
        "duration_s": seconds,
        "durability": "WAL, one transaction per move, fsync (group commit) before each answer"
        if postgres is None
        else "one transaction per move at synchronous_commit=off, one synchronous commit (WAL flushed, "
        "group commit) before each answer",
    }


def _p99(ordered: list[float]) -> float:
    return ordered[int(0.99 * (len(ordered) - 1))]


def _postgres_url(text: str) -> str:
    """``--db``: 'throwaway' or a PostgreSQL URL, read as every command's ``--db`` reads one."""
    if text == "throwaway":
        return text
    try:
        found = parse_location(text)
    except StoreError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    if not isinstance(found, str):
        raise argparse.ArgumentTypeError(
            "SQLite runs in every run already: give a postgresql:// URL or 'throwaway'"
        )
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    modes = ["paced", "flat-out", "paced-hints", "paced-review", "both", "all"]
    parser.add_argument("--mode", choices=modes, default="both")
    parser.add_argument("--duration", type=float, default=10.0, help="measured seconds per mode")
    parser.add_argument(
        "--http", choices=sorted(PROTOCOLS), default="guarded", help="uvicorn's HTTP protocol"
    )
    parser.add_argument(
        "--db",
        type=_postgres_url,
        default=None,
        metavar="URL",
        help="also run on PostgreSQL: a postgresql:// URL whose role may create schemas (each run "
        "gets a fresh one), or 'throwaway' for a cluster of its own from the PostgreSQL binaries; "
        "SQLite runs beside it in the same run",
    )
    parser.add_argument(
        "--workers",
        default="1",
        help="comma-separated server process counts for the PostgreSQL runs (default %(default)s)",
    )
    args = parser.parse_args()
    if not Path("/proc/self/stat").exists():
        parser.error("the server's CPU time is read from /proc: this benchmark runs on Linux")
    counts = [int(n) for n in args.workers.split(",")]
    modes = []
    if args.mode in ("paced", "both", "all"):
        modes.append(("paced", 200, 0.2, False))
    if args.mode in ("flat-out", "both", "all"):
        modes.append(("flat-out", 50, None, False))
    if args.mode in ("paced-hints", "all"):
        modes.append(("paced-hints", 200, 0.2, True))
    if args.mode in ("paced-review", "all"):
        modes.append(("paced-review", 200, 0.2, False))
    with contextlib.ExitStack() as stack:
        postgres = None
        if args.db is not None:
            postgres = stack.enter_context(Postgres.open(args.db))
        for mode, clients, period, hints in modes:
            review = mode == "paced-review"
            result = run_mode(mode, clients, period, args.duration, args.http, hints, review=review)
            print(json.dumps(result), flush=True)
            for workers in counts if postgres is not None else []:
                result = run_mode(
                    mode, clients, period, args.duration, args.http, hints, postgres, workers, review
                )
                print(json.dumps(result), flush=True)


if __name__ == "__main__":
    main()
