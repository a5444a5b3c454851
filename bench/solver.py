"""Solver strength and speed: whole games exactly as ``2048 bench --json`` plays them.

Prints the bench command's one JSON line, with 100 games from seed 0 unless told otherwise, and
``cores``: how many cores the run was pinned to (all the process may use unless ``--cores N`` pins
it to the first N of them, which the solver's threads and ``--jobs`` processes then share), and
``moves_per_wall_s``: the whole run's moves per second of wall time. ``moves_per_s`` is the pace of
one game (moves over the summed game times), so with ``--jobs J`` the run plays about J times that.
Every ``2048 bench`` option applies:

    python bench/solver.py --depth 3                  # the depth-3 figure: 100 games
    python bench/solver.py --depth 3 --cores 1 --games 4 --seed 1   # the per-core figure
    python bench/solver.py --games 10 --seed 1000     # the adaptive default setting
    python bench/solver.py --time-ms 50 --jobs 2
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import sys

DEFAULTS = {"--games": "100", "--seed": "0"}


def arguments(argv: list[str]) -> list[str]:
    args = list(argv)
    for option, value in DEFAULTS.items():
        if option not in args:
            args += [option, value]
    return args


def pin(argv: list[str]) -> tuple[list[str], int]:
    """Take ``--cores N`` out of ``argv`` and pin this process to the first N of its cores (before
    the solver is imported: it sizes its thread pool from the cores it may use)."""
    cores = sorted(os.sched_getaffinity(0))
    if "--cores" not in argv:
        return argv, len(cores)
    at = argv.index("--cores")
    try:
        count = int(argv[at + 1])
    except (IndexError, ValueError):
        sys.exit("bench/solver.py: --cores needs a whole number of cores")
    if not 1 <= count <= len(cores):
        sys.exit(f"bench/solver.py: --cores must be 1 to {len(cores)}, the cores this process may use")
    os.sched_setaffinity(0, cores[:count])
    return argv[:at] + argv[at + 2 :], count


def main(argv: list[str]) -> int:
    argv, cores = pin(argv)
    from twenty48.cli import main as cli

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        status = cli(["bench", "--json", *arguments(argv)])
    for line in out.getvalue().splitlines():
        if line.startswith("{"):
            summary = json.loads(line)
            wall = summary["wall_seconds"]
            per_wall = round(summary["moves"] / wall, 1) if wall else 0.0
            line = json.dumps(summary | {"cores": cores, "moves_per_wall_s": per_wall})
        print(line)
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
