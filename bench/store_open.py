"""Opening a large database: what ``PRAGMA quick_check`` at open costs.

Builds a database of about ``--mb`` megabytes (real games stored through ``Store``, then their move
logs lengthened with direct inserts so that building takes seconds, not hours), drops it from the
page cache where the OS allows (``posix_fadvise``), and times ``Store.open`` cold and warm, and
``PRAGMA quick_check`` alone. Prints one JSON line: size_mb, open_cold_ms, open_warm_ms,
quick_check_ms (warm), quick_check_cpu_ms.
"""

from __future__ import annotations

import argparse
import json
import os
import sqlite3
import tempfile
import time
from pathlib import Path

from twenty48.store import Store


def build(path: Path, megabytes: int) -> None:
    with Store.open(path) as store:
        player = store.local_player()
        games = [store.new_game(player.id, seed).id for seed in range(1000)]
    db = sqlite3.connect(path)
    target = megabytes * 1024 * 1024
    ply = 0
    while path.stat().st_size < target:
        rows = [(game, ply + i, "left", None) for game in games for i in range(200)]
        with db:
            db.executemany("INSERT INTO game_moves (game_id, ply, direction, cell) VALUES (?, ?, ?, ?)", rows)
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        ply += 200
    db.close()


def drop_cache(path: Path) -> bool:
    if not hasattr(os, "posix_fadvise"):
        return False
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
        os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
    finally:
        os.close(fd)
    return True


def timed_open(path: Path) -> float:
    started = time.perf_counter()
    Store.open(path).close()
    return (time.perf_counter() - started) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--mb", type=int, default=100, help="database size in MB (default %(default)s)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as directory:
        path = Path(directory) / "big.sqlite3"
        build(path, args.mb)
        dropped = drop_cache(path)
        cold = timed_open(path)
        warm = min(timed_open(path) for _ in range(3))
        db = sqlite3.connect(path)
        wall, cpu = time.perf_counter(), time.process_time()
        assert db.execute("PRAGMA quick_check").fetchone()[0] == "ok"
        wall, cpu = (time.perf_counter() - wall) * 1000, (time.process_time() - cpu) * 1000
        db.close()
        print(
            json.dumps(
                {
                    "size_mb": round(path.stat().st_size / 1024 / 1024, 1),
                    "open_cold_ms": round(cold, 1),
                    "cache_dropped": dropped,
                    "open_warm_ms": round(warm, 1),
                    "quick_check_ms": round(wall, 1),
                    "quick_check_cpu_ms": round(cpu, 1),
                }
            )
        )


if __name__ == "__main__":
    main()
