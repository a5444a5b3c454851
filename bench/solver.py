"""Solver strength and speed: whole games exactly as ``2048 bench --json`` plays them.

Prints the bench command's one JSON line, with 100 games from seed 0 unless told otherwise.
Every ``2048 bench`` option applies:

    python bench/solver.py --depth 3                  # the depth-3 figure: 100 games
    python bench/solver.py --games 10 --seed 1000     # the adaptive default setting
    python bench/solver.py --time-ms 50 --jobs 2
"""

from __future__ import annotations

import sys

from twenty48.cli import main

DEFAULTS = {"--games": "100", "--seed": "0"}


def arguments(argv: list[str]) -> list[str]:
    args = list(argv)
    for option, value in DEFAULTS.items():
        if option not in args:
            args += [option, value]
    return args


if __name__ == "__main__":
    sys.exit(main(["bench", "--json", *arguments(sys.argv[1:])]))
