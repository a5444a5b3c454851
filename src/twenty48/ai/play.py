"""Whole games played by the solver, and the statistics ``2048 bench`` reports over them.

Games go through ``Game``, exactly as a person's would (seeded spawns, keep going after
the win tile until no move is left), so game ``seed`` of a size always replays to the same result.
"""

from __future__ import annotations

import math
import statistics
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from twenty48.ai.heuristic import Heuristic
from twenty48.ai.solver import analyse
from twenty48.game import Game
from twenty48.rules import DEFAULT_SIZE, BoardSize

#: Tiles whose reach rate is reported on the 4x4.
REACH_TILES = (2048, 4096, 8192, 16384, 32768, 65536)
#: The z of a two-sided 95 % interval, for the reach rates' Wilson intervals.
Z95 = 1.959964


def reach_tiles(size: BoardSize) -> tuple[int, ...]:
    """The tiles whose reach rate is reported on a board of ``size``: the 4x4's from 2048 to 65536;
    on other sizes from a quarter of the win tile up, six of them at most, none above the largest
    tile the board holds."""
    if size == DEFAULT_SIZE:
        return REACH_TILES
    tiles = ((size.win_tile // 4) << k for k in range(6))
    return tuple(t for t in tiles if t <= size.max_tile)


def wilson(successes: int, n: int) -> tuple[float, float]:
    """The 95 % Wilson score interval of a rate of ``successes`` in ``n`` trials."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    centre = (p + Z95**2 / (2 * n)) / (1 + Z95**2 / n)
    half = Z95 * math.sqrt(p * (1 - p) / n + Z95**2 / (4 * n * n)) / (1 + Z95**2 / n)
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass(frozen=True, slots=True)
class PlayedGame:
    """One whole game the solver played: how it ended and how long its searches took."""

    seed: int
    size: BoardSize
    score: int
    moves: int
    max_tile: int
    #: Seconds the whole game took (searching and playing).
    seconds: float
    #: Milliseconds each move's search took, in order.
    move_ms: tuple[float, ...]


def play_game(
    seed: int,
    depth: int | None = None,
    time_limit: float | None = None,
    heuristic: Heuristic | None = None,
    max_moves: int | None = None,
    nodes: int | None = None,
    size: BoardSize = DEFAULT_SIZE,
) -> PlayedGame:
    """Play ``Game.new(seed, size=size)`` with the solver's best move at every turn until the game is
    over (or ``max_moves`` moves are made). ``heuristic`` replaces the default weights, for tuning."""
    game = Game.new(seed, size=size)
    move_ms = []
    start = time.perf_counter()
    while not game.over and (max_moves is None or game.moves < max_moves):
        began = time.perf_counter()
        direction = analyse(game, depth=depth, time_limit=time_limit, nodes=nodes, heuristic=heuristic).best
        move_ms.append((time.perf_counter() - began) * 1000)
        if direction is None or not game.move(direction).changed:
            raise RuntimeError(f"the solver chose an illegal move {direction} in game {seed}: {game!r}")
        if game.won and not game.keep_playing:
            game.keep_going()
    return PlayedGame(
        seed=seed,
        size=game.size,
        score=game.score,
        moves=game.moves,
        max_tile=game.board.max_tile,
        seconds=time.perf_counter() - start,
        move_ms=tuple(move_ms),
    )


def _percentile(sorted_values: Sequence[float], fraction: float) -> float:
    """Nearest-rank percentile of an ascending sequence."""
    if not sorted_values:
        return 0.0
    rank = max(1, math.ceil(fraction * len(sorted_values)))
    return sorted_values[rank - 1]


def summarize(games: Sequence[PlayedGame], size: BoardSize = DEFAULT_SIZE) -> dict[str, Any]:
    """The benchmark's figures over finished games of ``size`` (all zero when there are none), with
    each reach rate's 95 % interval."""
    n = len(games)
    reached = {t: sum(r.max_tile >= t for r in games) for t in reach_tiles(size)}
    scores = [r.score for r in games]
    moves = sum(r.moves for r in games)
    seconds = sum(r.seconds for r in games)
    move_ms = sorted(ms for r in games for ms in r.move_ms)
    tiles = Counter(r.max_tile for r in games)
    return {
        "size": str(size),
        "games": n,
        "avg_score": round(statistics.fmean(scores), 1) if n else 0.0,
        "median_score": statistics.median(scores) if n else 0,
        "min_score": min(scores, default=0),
        "max_score": max(scores, default=0),
        "reach": {str(t): count / n if n else 0.0 for t, count in reached.items()},
        "reach_95": {str(t): [round(x, 3) for x in wilson(count, n)] for t, count in reached.items()},
        "max_tile": {str(t): tiles[t] for t in sorted(tiles)},
        "moves": moves,
        "avg_moves": round(moves / n, 1) if n else 0.0,
        "moves_per_s": round(moves / seconds, 1) if seconds else 0.0,
        "ms_per_move_p50": round(_percentile(move_ms, 0.50), 3),
        "ms_per_move_p99": round(_percentile(move_ms, 0.99), 3),
        "game_seconds": round(seconds, 1),
    }
