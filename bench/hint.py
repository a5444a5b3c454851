"""Hint latency: how long ``rank_moves`` takes at the default setting on mid-game positions.

The positions come from 12 seeded games played by the solver at depth 2: every 50th position
whose largest tile is 512 to 4096, leaving out the last 50 moves of each game (the end throes
are not typical). Compile time is excluded (one warm-up call). A search spreads its root moves
over ``threads`` cores. Prints one JSON line.
"""

from __future__ import annotations

import json
import statistics
import time

from timing import percentile
from twenty48.ai import analyse, best_move, pools, warm_up
from twenty48.game import Game
from twenty48.rules import Board

GAMES = 12
EVERY = 50


def positions() -> list[Board]:
    found = []
    for seed in range(GAMES):
        game = Game.new(seed)
        boards = []
        while not game.over:
            boards.append(game.board)
            game.move(best_move(game, depth=2))
        found += [b for b in boards[:-50:EVERY] if 512 <= b.max_tile <= 4096]
    return found


def main() -> None:
    boards = positions()
    warm_up()
    ms, depths = [], []
    for board in boards:
        started = time.perf_counter()
        analysis = analyse(board)
        ms.append((time.perf_counter() - started) * 1000)
        depths.append(analysis.depth)
    print(
        json.dumps(
            {
                "positions": len(boards),
                "ms_p50": round(percentile(ms, 0.50), 1),
                "ms_p95": round(percentile(ms, 0.95), 1),
                "ms_max": round(max(ms), 1),
                "ms_mean": round(statistics.fmean(ms), 1),
                "mean_depth": round(statistics.fmean(depths), 2),
                "threads": pools.THREADS,
            }
        )
    )


if __name__ == "__main__":
    main()
