"""The solver's reach rates on every board size smaller than 16 cells, which choose their win tiles.

A board of fewer than 16 cells cannot be won with 2048 as the 4x4 is (a 2x4 holds 512 at most): its
win tile is the largest tile the solver at its default setting reaches in at least 90 % of its games
there (``twenty48.rules.SMALL_WIN_TILES``), as 2048 is a tile the solver reaches in every game of the
4x4 and most players reach only with practice. This plays ``--games`` games a size (seeds 0 on, the
default setting, ``2048 bench --size``) and prints one JSON line: for each size its games, mean score
and moves, the reach rate of every tile from a quarter of its win tile up with its Wilson 95 % interval,
the tile this rule chooses from these games and the one ``SMALL_WIN_TILES`` holds, and the load average.

    python bench/size_reach.py                          # 100 games a size
    python bench/size_reach.py --games 40 --sizes 3x5   # one size
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys

from twenty48.rules import SMALL_WIN_TILES, BoardSize

#: The share of the solver's games that must reach a tile for it to be the size's win tile.
THRESHOLD = 0.9


def measured(size: str, games: int) -> dict[str, object]:
    done = subprocess.run(
        [sys.executable, "-m", "twenty48", "bench", "--size", size, "--games", str(games), "--json"],
        capture_output=True,
        text=True,
        check=True,
    )
    summary = json.loads(done.stdout)
    reach = {int(tile): figures for tile, figures in summary["reach"].items()}
    chosen = max(tile for tile, figures in reach.items() if figures["rate"] >= THRESHOLD)
    return {
        "games": summary["games"],
        "avg_score": summary["avg_score"],
        "avg_moves": summary["avg_moves"],
        "reach": {str(tile): figures for tile, figures in sorted(reach.items())},
        "chosen": chosen,
        "win_tile": BoardSize.parse(size).win_tile,
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=100)
    every = [f"{short}x{long}" for short, long in SMALL_WIN_TILES]
    parser.add_argument("--sizes", nargs="+", default=every, help="RxC sizes under 16 cells (default: all)")
    args = parser.parse_args()
    figures = {size: measured(size, args.games) for size in args.sizes}
    print(json.dumps({"sizes": figures, "threshold": THRESHOLD, "load": os.getloadavg()}))


if __name__ == "__main__":
    main()
