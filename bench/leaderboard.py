"""Leaderboards at scale: 10,000 players and 100,000 games, the board queries' p95.

Builds a fresh database (a temporary SQLite file, or ``--db`` a file or PostgreSQL URL; a URL's
schema must be empty) through the store's own migrations, then fills it in bulk with plain rows
(the boards read only the games' columns, never their states): ``--players`` players, 80 % of them
named and 5 % of those hidden, ``--games`` games spread evenly over them, 90 % classic, 70 %
ranked, 90 % of those over; up to 3 games of each player are daily challenges of the last 10 days
(so a day's board holds about 3,000 games). Each player's best game per variant goes into the
all-time board as the store keeps it. Then it times, on the open store, each ``--repeat`` times
with a random named player asking (so ``me`` is computed too):

- ``all_time``: the first page (20) of the classic all-time board;
- ``all_time_deep``: a page at offset 5,000;
- ``daily``: the first page of a day's board;
- ``public``: whether a game's replay is public.

Prints one JSON line: p50 and p95 of wall-clock time, ``cpu_p50`` of the process's CPU time.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import random
import sqlite3
import tempfile
import time
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from timing import timed
from twenty48.store import Store, open_store, parse_location

DAYS = 10
TODAY = datetime(2026, 12, 1, tzinfo=UTC)


class Raw:
    """Plain statements on the database, in the SQL both backends share (as migrations run them)."""

    def __init__(self, location: str | Path) -> None:
        if isinstance(location, Path):
            self.db: Any = sqlite3.connect(location, isolation_level=None)
            self.close = self.db.close
        else:
            import psycopg

            from twenty48.store.backends.postgres_dialect import PostgresSQL

            conn = psycopg.connect(location, autocommit=True)
            self.db = PostgresSQL(conn)
            self.close = conn.close

    def execute(self, sql: str, params: Sequence[Any] = ()) -> Any:
        return self.db.execute(sql, params)

    def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        self.db.executemany(sql, rows)


def fill(raw: Raw, players: int, games: int, rng: random.Random) -> None:
    now = TODAY.isoformat(timespec="milliseconds")
    raw.execute("BEGIN")
    raw.executemany(
        "INSERT INTO players (id, key, created_at, name, name_key, hidden) VALUES (?, ?, ?, ?, ?, ?)",
        [
            (p, f"bench:{p}", now, *((f"Player{p}", f"player{p}") if named else (None, None)), hidden)
            for p in range(1, players + 1)
            for named, hidden in [(rng.random() < 0.8, rng.random() < 0.05)]
        ],
    )
    rows = []
    per_player = games // players
    for game_id in range(1, games + 1):
        player = (game_id - 1) // per_player % players + 1
        nth = (game_id - 1) % per_player
        daily_day = rng.sample(range(DAYS), 3) if nth == 0 else daily_day  # noqa: F821 - set at nth 0
        daily = (TODAY - timedelta(days=daily_day[nth])).date().isoformat() if nth < 3 else None
        variant = "classic" if daily or rng.random() < 0.9 else "merge"
        ranked = daily is not None or rng.random() < 0.7
        over = rng.random() < 0.9
        score = int(rng.lognormvariate(9, 0.8))
        finished = TODAY - timedelta(seconds=rng.randrange(DAYS * 86400))
        finished_at = finished.isoformat(timespec="milliseconds") if over else None
        rows.append(
            (game_id, player, 1, score, score // 12 + 10, 2 ** max(3, int(math.log2(score + 1)) - 3), over,
             "{}", now, now, variant, ranked, finished_at, daily)
        )  # fmt: skip
    raw.executemany(
        "INSERT INTO games (id, player_id, revision, score, moves, max_tile, won, over, state, "
        "created_at, updated_at, variant, ranked, finished_at, daily) "
        "VALUES (?, ?, ?, ?, ?, ?, FALSE, ?, ?, ?, ?, ?, ?, ?, ?)",
        rows,
    )
    # The all-time board as the store keeps it: each player's best finished ranked game per variant.
    raw.execute(
        """INSERT INTO board_bests (variant, player_id, game_id, score, finished_at, shown)
           SELECT variant, player_id, id, score, finished_at, shown FROM (
               SELECT g.variant, g.player_id, g.id, g.score, g.finished_at,
                      p.name IS NOT NULL AND NOT p.hidden AS shown, row_number() OVER (
                   PARTITION BY g.variant, g.player_id ORDER BY g.score DESC, g.finished_at, g.id
               ) AS nth
               FROM games g JOIN players p ON p.id = g.player_id
               WHERE g.ranked AND g.finished_at IS NOT NULL
           ) AS ranked_games
           WHERE nth = 1"""
    )
    raw.execute("COMMIT")
    raw.execute("ANALYZE")


def measure(store: Store, players: int, games: int, repeat: int, rng: random.Random) -> dict[str, Any]:
    askers = iter([rng.randrange(1, players + 1) for _ in range(4 * (repeat + 1))])
    day = (TODAY - timedelta(days=1)).date().isoformat()
    today = TODAY.date().isoformat()
    public = iter([rng.randrange(1, games + 1) for _ in range(repeat + 1)])

    def is_public() -> None:
        with contextlib.suppress(LookupError):
            store.public_owner(next(public), today)

    figures = {
        "all_time": timed(lambda: store.leaderboard("all-time", player_id=next(askers)), repeat),
        "all_time_deep": timed(
            lambda: store.leaderboard("all-time", offset=5000, player_id=next(askers)), repeat
        ),
        "daily": timed(lambda: store.leaderboard("daily", date=day, player_id=next(askers)), repeat),
        "public": timed(is_public, repeat),
    }
    entries = len(store.leaderboard("all-time", limit=100, offset=0).entries)
    return {
        "board_entries_page": entries,
        **figures,
        "p95_max_ms": max(f["p95_ms"] for f in figures.values()),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=10_000)
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--db", default=None, help="an SQLite file or an empty PostgreSQL schema's URL")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory() as scratch:
        location = parse_location(args.db) if args.db else Path(scratch) / "boards.sqlite3"
        started = time.perf_counter()
        open_store(location).close()  # creates and migrates it
        raw = Raw(location)
        try:
            fill(raw, args.players, args.games, rng)
        finally:
            raw.close()
        build_s = time.perf_counter() - started
        with open_store(location) as store:
            figures = measure(store, args.players, args.games, args.repeat, rng)
    backend = "sqlite" if isinstance(location, Path) else "postgresql"
    print(
        json.dumps(
            {
                "backend": backend,
                "players": args.players,
                "games": args.games,
                "build_s": round(build_s, 1),
                **figures,
            }
        )
    )


if __name__ == "__main__":
    main()
