"""Where a move's time goes on PostgreSQL, part by part, beside SQLite's: one JSON line.

Plays ``--moves`` moves of random legal directions through ``Store.move`` on a throwaway PostgreSQL
cluster of its own (or ``--db URL``, whose server must load ``pg_stat_statements``) and on an SQLite
file, as the server's store thread plays them: one after another, each store opened with group commit
as the server opens it and flushed after every ``--batch`` moves (default 1: a batch of one, the
dearest case; under load the server's batches are longer). Each game is a new ranked one played to its end, as
a player's. Measured per move:

- ``statements``: what the server executed (``pg_stat_statements`` calls, its own bookkeeping
  left out) and ``transactions`` (``pg_stat_database``: commits and rollbacks);
- ``round_trips``: the times the client waited for the server: each Flush message in libpq's trace
  (psycopg asking for an answer it needs) and each ``Pipeline.sync`` (the answers so far, waited
  for). A guessed move (``Store.guessing``, as the server's store thread plays each move of a game
  it wrote last) waits for nothing: the server answers it unasked, at the Sync that ends it;
- ``guessed``: the share of moves guessed, and how many guesses were wrong (none can be, in one
  process alone; the server would make such a move again);
- ``client_cpu_ms``: this process's CPU (user + system), without a profiler;
- ``parts_ms``: that CPU split by where it is spent, from a second run under ``cProfile`` with a CPU
  clock (each function's own time, the profiler's overhead shared out in proportion): the pool
  (``psycopg_pool``), psycopg's adaptation of parameters and building of rows (its dumpers,
  loaders and row makers), the rest of psycopg (the protocol, the cursors), the store's own code
  (``twenty48``), and the standard library it calls (JSON, dates, locks);
- ``postgres_cpu_ms``: the CPU of every process of the cluster (``/proc``), when the cluster is
  the throwaway one; and ``postgres_exec_ms``, the statements' own planning and execution time
  (``pg_stat_statements``), either way;
- ``driver_us``: what psycopg costs the client apart from any statement's work, on a table of its
  own in the same pipeline mode: a statement sent without waiting (``statement``), and one waited
  for (``round_trip``: its answer read, beyond the sending), in microseconds of CPU. A move's
  difference from SQLite is mostly these two, times its statements and its round trips.

The machine is shared: the CPU figures are steadier than wall-clock ones, and the ratios of one run
are what to compare.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import os
import pstats
import random
import sys
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

import psycopg

from twenty48.store import GameFinishedError, Store, open_store
from twenty48.store.database import Guess

sys.path.insert(0, str(Path(__file__).parent))
from postgres_cluster import Postgres
from process_cpu import tree_cpu_s

#: Moves before the measured ones: the cache, psycopg's prepared statements, the pool are warm.
WARM_UP = 200


def play(store: Store, moves: int, seed: int, batch: int) -> Counter[str]:
    """``moves`` legal moves, as the web's players make them: a new ranked game when one ends; the
    store flushed after every ``batch`` of moves, as the server's store thread flushes its batches.
    Returns how many moves were guessed, and how many guesses were wrong."""
    rng = random.Random(seed)
    player = store.web_player(f"bench-{seed}").id
    record = store.new_game(player, ranked=True)
    guesses: list[Guess] = []
    counts: Counter[str] = Counter()
    for played in range(1, moves + 1):
        legal = record.board.legal_moves()
        if not legal:
            record = store.new_game(player, ranked=True)
            legal = record.board.legal_moves()
        try:
            # Guessed where the store can, as the server's store thread plays every move.
            with store.guessing() as guess:
                record = store.move(player, record.id, rng.choice(legal), revision=record.revision).game
        except GameFinishedError:
            record = store.new_game(player, ranked=True)
        guesses.append(guess)
        if played % batch == 0 or played == moves:
            store.flush()  # a guess is known to be wrong only then
            counts.update(guessed=sum(g.used for g in guesses), wrong=sum(g.failed for g in guesses))
            guesses.clear()
    return counts


def cpu_ms(call: Callable[[], object]) -> float:
    started = time.process_time()
    call()
    return (time.process_time() - started) * 1000


#: Where a function's own CPU time goes, by the file it is in (first match wins).
PARTS = (
    ("pool", ("psycopg_pool",)),
    ("psycopg_adaptation_and_rows", ("psycopg/adapt", "psycopg/types", "psycopg/rows", "_transformer")),
    ("psycopg_protocol", ("psycopg",)),
    ("ours", ("twenty48",)),
)


def _part(filename: str, function: str) -> str:
    if filename == "~":
        # A builtin: psycopg's C code names its own (dump_sequence, load_rows, ...).
        if any(word in function for word in ("dump", "load", "Transformer", "row")):
            return "psycopg_adaptation_and_rows"
        if "psycopg" in function or "PGconn" in function or "wait" in function:
            return "psycopg_protocol"
        return "stdlib"
    for name, marks in PARTS:
        if any(mark in filename for mark in marks):
            return name
    return "stdlib"


def parts(call: Callable[[], object], total_ms: float, moves: int) -> dict[str, float]:
    """``total_ms`` (measured without a profiler) shared out as ``call``'s profile under a CPU clock
    shares its own time."""
    profile = cProfile.Profile(time.process_time)
    profile.runcall(call)
    found: dict[str, float] = defaultdict(float)
    for (filename, _, function), (_, _, own, _, _) in pstats.Stats(profile).stats.items():  # type: ignore[attr-defined]
        found[_part(filename, function)] += own
    whole = sum(found.values()) or 1.0
    return {name: round(total_ms * seconds / whole / moves, 4) for name, seconds in sorted(found.items())}


@contextmanager
def traced_round_trips() -> Iterator[Callable[[], tuple[int, int]]]:
    """Every psycopg connection made meanwhile writes libpq's trace of its messages; the callable
    reads (round trips, statements sent) from the traces so far."""
    directory = Path(tempfile.mkdtemp(prefix="b48trace-"))
    traced: list[tuple[psycopg.Connection[Any], Path]] = []
    streams: list[IO[str]] = []
    # The classmethod's function: the connection made is of the class asked for (the pool's own).
    connect = psycopg.Connection.connect.__func__  # type: ignore[attr-defined]

    def start(conn: psycopg.Connection[Any], path: Path) -> None:
        # libpq writes through a stream of its own on this file's descriptor: kept open.
        streams.append(path.open("a"))
        conn.pgconn.trace(streams[-1].fileno())
        conn.pgconn.set_trace_flags(psycopg.pq.Trace.SUPPRESS_TIMESTAMPS | psycopg.pq.Trace.REGRESS_MODE)

    def connect_traced(
        cls: type[psycopg.Connection[Any]], *args: Any, **kwargs: Any
    ) -> psycopg.Connection[Any]:
        conn = connect(cls, *args, **kwargs)
        traced.append((conn, directory / f"{len(traced)}.trace"))
        start(*traced[-1])
        return conn

    synced = [0]
    sync = psycopg.Pipeline.sync

    def sync_counted(pipeline: psycopg.Pipeline) -> None:
        synced[0] += 1
        sync(pipeline)

    def count() -> tuple[int, int]:
        trips, statements = synced[0], 0
        for conn, path in traced:
            if not conn.closed:
                conn.pgconn.untrace()  # flushes libpq's stream
            for line in path.read_text().splitlines():
                direction, _, message = [*line.split("\t"), "", ""][:3]
                if direction == "F":
                    statements += message.split(" ")[0] in ("Execute", "Query")
                    trips += message.split(" ")[0] == "Flush"
            if not conn.closed:
                start(conn, path)
        return trips, statements

    psycopg.Connection.connect = classmethod(connect_traced)  # type: ignore[method-assign,assignment]
    psycopg.Pipeline.sync = sync_counted  # type: ignore[method-assign]
    try:
        yield count
    finally:
        psycopg.Connection.connect = classmethod(connect)  # type: ignore[method-assign]
        psycopg.Pipeline.sync = sync  # type: ignore[method-assign]
        for stream in streams:
            stream.close()


def server_counts(url: str, store: Store) -> tuple[int, float, int]:
    """(statements, their planning and execution ms, transactions) the server has counted so far,
    the reading ones left out."""
    # A session reports its counts when it goes idle (at a Sync), once a second at most (else up
    # to ten seconds later): one more write of the store's and its flush, past that second, report
    # them all (that write's transactions among them: a few, of thousands of moves).
    time.sleep(1.1)
    store.local_player(f"bench-counts-{time.monotonic_ns()}")  # a new one: a write
    store.flush()
    with psycopg.connect(url, autocommit=True) as conn:
        calls, exec_ms = conn.execute(
            "SELECT coalesce(sum(calls), 0), coalesce(sum(total_exec_time + total_plan_time), 0) "
            "FROM pg_stat_statements WHERE query NOT LIKE '%pg_stat_%'"
        ).fetchone()
        conn.execute("SELECT pg_stat_clear_snapshot()")
        (transactions,) = conn.execute(
            "SELECT xact_commit + xact_rollback FROM pg_stat_database WHERE datname = current_database()"
        ).fetchone()
    # This connection's own transactions: the two statements above.
    return int(calls), float(exec_ms), int(transactions) - 2


def cluster_cpu_ms(data: Path | None) -> float:
    """CPU of every process of the throwaway cluster so far (0 for a server elsewhere)."""
    if data is None:
        return 0.0
    return tree_cpu_s(int((data / "postmaster.pid").read_text().split()[0])) * 1000


def driver_costs(url: str, repeat: int = 4000) -> dict[str, float]:
    """psycopg's own CPU for a pipelined statement sent without waiting, and for a round trip
    beyond that, in microseconds: the best of three runs each."""
    with psycopg.connect(url, autocommit=True) as conn, conn.pipeline() as pipeline:
        conn.execute("CREATE TEMPORARY TABLE driver_cost (a BIGINT, b TEXT)")
        cursor = psycopg.RawCursor(conn)

        def sent() -> None:
            for i in range(repeat):
                cursor.execute("INSERT INTO driver_cost VALUES ($1, $2)", (i, "left"))
                if i % 16 == 15:
                    pipeline.sync()
            pipeline.sync()

        def waited() -> None:
            for i in range(repeat):
                cursor.execute("SELECT a FROM driver_cost WHERE a = $1 LIMIT 1", (i,))
                cursor.fetchone()

        # Once each before measuring: psycopg prepares a statement from its fifth run on.
        sent()
        waited()
        statement = min(cpu_ms(sent) for _ in range(3)) * 1000 / repeat
        answered = min(cpu_ms(waited) for _ in range(3)) * 1000 / repeat
    return {"statement": round(statement, 1), "round_trip": round(answered - statement, 1)}


def measure_postgres(postgres: Postgres, moves: int, batch: int) -> dict[str, object]:
    url = postgres.fresh()
    with psycopg.connect(postgres.url, autocommit=True) as conn:
        conn.execute("CREATE EXTENSION IF NOT EXISTS pg_stat_statements")
    with open_store(url, group_commit=True) as store:
        play(store, WARM_UP, 1, batch)
        calls, exec_ms, transactions = server_counts(postgres.url, store)
        server = cluster_cpu_ms(postgres.data)
        client = cpu_ms(lambda: play(store, moves, 2, batch))
        server = cluster_cpu_ms(postgres.data) - server
        calls2, exec_ms2, transactions2 = server_counts(postgres.url, store)
        split = parts(lambda: play(store, moves, 3, batch), client, moves)
    with traced_round_trips() as count, open_store(url, group_commit=True) as store:
        play(store, WARM_UP, 4, batch)
        trips, sent = count()
        guessed = play(store, moves, 5, batch)
        trips2, sent2 = count()
    driver = driver_costs(url)
    postgres.drop(url)
    return {
        "statements_per_move": round((calls2 - calls) / moves, 2),
        "statements_sent_per_move": round((sent2 - sent) / moves, 2),
        "round_trips_per_move": round((trips2 - trips) / moves, 2),
        "guessed": {"share": round(guessed["guessed"] / moves, 3), "wrong": guessed["wrong"]},
        "transactions_per_move": round((transactions2 - transactions) / moves, 2),
        "client_cpu_ms_per_move": round(client / moves, 4),
        "parts_ms_per_move": split,
        "postgres_cpu_ms_per_move": round(server / moves, 4) if postgres.data else None,
        "postgres_exec_ms_per_move": round((exec_ms2 - exec_ms) / moves, 4),
        "driver_us": driver,
    }


def measure_sqlite(moves: int, batch: int) -> dict[str, object]:
    with (
        tempfile.TemporaryDirectory() as directory,
        Store.open(Path(directory) / "bench.sqlite3", group_commit=True) as store,
    ):
        play(store, WARM_UP, 1, batch)
        client = cpu_ms(lambda: play(store, moves, 2, batch))
        split = parts(lambda: play(store, moves, 3, batch), client, moves)
    return {"client_cpu_ms_per_move": round(client / moves, 4), "parts_ms_per_move": split}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument(
        "--moves", type=int, default=2000, help="measured moves per run (default %(default)s)"
    )
    parser.add_argument(
        "--db",
        default="throwaway",
        metavar="URL",
        help="a postgresql:// URL whose role may create schemas and whose server loads "
        "pg_stat_statements, or 'throwaway' (default) for a cluster of its own",
    )
    parser.add_argument(
        "--batch", type=int, default=1, help="moves per flush, as in one batch of the server (default 1)"
    )
    args = parser.parse_args()
    sqlite = measure_sqlite(args.moves, args.batch)
    with Postgres.open(args.db, statistics=True) as postgres:
        postgresql = measure_postgres(postgres, args.moves, args.batch)
    ratio = postgresql["client_cpu_ms_per_move"] / sqlite["client_cpu_ms_per_move"]  # type: ignore[operator]
    print(
        json.dumps(
            {
                "moves": args.moves,
                "batch": args.batch,
                "sqlite": sqlite,
                "postgresql": postgresql,
                "client_cpu_ratio": round(ratio, 2),
                "loadavg": os.getloadavg()[0],
            }
        ),
        flush=True,
    )


if __name__ == "__main__":
    main()
