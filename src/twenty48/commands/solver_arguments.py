"""The solver's setting on the command line, which ``hint`` and ``bench`` share: a fixed depth, a
time budget or a node budget, each bounded; none means the solver's adaptive default."""

from __future__ import annotations

import argparse

from twenty48.commands.numbers import bounded_int

#: The accepted ranges of the solver settings. Depth 12 already takes minutes a move on a crowded
#: board (each depth multiplies the work); beyond these a run would not end in any useful time.
MAX_DEPTH = 12
MAX_NODES = 1_000_000_000
MAX_TIME_MS = 60_000


def add_setting_arguments(parser: argparse.ArgumentParser) -> None:
    """``--depth``, ``--time-ms`` or ``--nodes``; none means the solver's adaptive default."""
    setting = parser.add_mutually_exclusive_group()
    setting.add_argument(
        "--depth",
        type=bounded_int(1, MAX_DEPTH),
        help=f"fixed search depth, 1-{MAX_DEPTH} (default: adaptive to the position)",
    )
    setting.add_argument(
        "--time-ms",
        type=bounded_int(1, MAX_TIME_MS),
        help=f"time budget per move in milliseconds, 1-{MAX_TIME_MS:,} (iterative deepening)",
    )
    setting.add_argument(
        "--nodes",
        type=bounded_int(1, MAX_NODES),
        help=f"chance nodes per move, 1-{MAX_NODES:,} (iterative deepening; the same answer on any machine)",
    )


def solver_time_limit(args: argparse.Namespace) -> float | None:
    """``--time-ms`` in seconds, the unit the solver takes; None without a time budget."""
    return args.time_ms / 1000 if args.time_ms else None
