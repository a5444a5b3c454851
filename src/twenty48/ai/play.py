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
#: The standard normal quantile of a two-sided 95 % interval.
Z95 = statistics.NormalDist().inv_cdf(0.975)


def reach_tiles(size: BoardSize) -> tuple[int, ...]:
    """The tiles whose reach rate is reported on a board of ``size``: the 4x4's from 2048 to 65536;
    on other sizes from a quarter of the win tile up, six of them at most, none above the largest
    tile the board holds."""
    if size == DEFAULT_SIZE:
        return REACH_TILES
    tiles = ((size.win_tile // 4) << k for k in range(6))
    return tuple(t for t in tiles if t <= size.max_tile)


@dataclass(frozen=True, slots=True)
class PlayedGame:
    """One whole game the solver played: how it ended and how long its searches took."""

    seed: int
    score: int
    moves: int
    max_tile: int
    #: Seconds the whole game took (searching and playing).
    seconds: float
    #: The game's median and 99th-percentile milliseconds a move's search took: a game's own
    #: figures, so that a results file can hold them in a few bytes (a game has up to ~30,000 moves).
    ms_per_move_p50: float
    ms_per_move_p99: float


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
    seconds = time.perf_counter() - start
    move_ms.sort()
    return PlayedGame(
        seed=seed,
        score=game.score,
        moves=game.moves,
        max_tile=game.board.max_tile,
        seconds=seconds,
        ms_per_move_p50=round(_percentile(move_ms, 0.50), 3),
        ms_per_move_p99=round(_percentile(move_ms, 0.99), 3),
    )


def _percentile(sorted_values: Sequence[float], fraction: float) -> float:
    """Nearest-rank percentile of an ascending sequence."""
    if not sorted_values:
        return 0.0
    rank = max(1, math.ceil(fraction * len(sorted_values)))
    return sorted_values[rank - 1]


def wilson_interval(successes: int, trials: int) -> tuple[float, float]:
    """The 95 % Wilson score interval of a rate of ``successes`` in ``trials``: unlike the normal
    approximation it stays within 0-1 and is honest at 0 or all of a few games ((0, 1) for none)."""
    if not trials:
        return 0.0, 1.0
    rate = successes / trials
    z2 = Z95 * Z95
    centre = (rate + z2 / (2 * trials)) / (1 + z2 / trials)
    half = Z95 * math.sqrt(rate * (1 - rate) / trials + z2 / (4 * trials * trials)) / (1 + z2 / trials)
    # At none or all of the games a bound is exactly 0 or 1; the subtraction leaves a residue.
    low = 0.0 if successes == 0 else centre - half
    high = 1.0 if successes == trials else centre + half
    return low, high


def summarize(games: Sequence[PlayedGame], size: BoardSize = DEFAULT_SIZE) -> dict[str, Any]:
    """The benchmark's figures over finished games on boards of ``size`` (all zero when there are
    none). Each tile's reach (``reach_tiles``) carries the games that reached it and its 95 %
    interval; the move times are the median game's (its own median and 99th percentile)."""
    n = len(games)
    scores = [r.score for r in games]
    moves = sum(r.moves for r in games)
    seconds = sum(r.seconds for r in games)
    tiles = Counter(r.max_tile for r in games)
    reach = {}
    for tile in reach_tiles(size):
        reached = sum(r.max_tile >= tile for r in games)
        low, high = wilson_interval(reached, n)
        reach[str(tile)] = {
            "rate": reached / n if n else 0.0,
            "low": round(low, 4),
            "high": round(high, 4),
            "games": reached,
        }
    return {
        "size": str(size),
        "games": n,
        "avg_score": round(statistics.fmean(scores), 1) if n else 0.0,
        "median_score": statistics.median(scores) if n else 0,
        "min_score": min(scores, default=0),
        "max_score": max(scores, default=0),
        "reach": reach,
        "max_tile": {str(t): tiles[t] for t in sorted(tiles)},
        "moves": moves,
        "avg_moves": round(moves / n, 1) if n else 0.0,
        "moves_per_s": round(moves / seconds, 1) if seconds else 0.0,
        "ms_per_move_p50": statistics.median(r.ms_per_move_p50 for r in games) if n else 0.0,
        "ms_per_move_p99": statistics.median(r.ms_per_move_p99 for r in games) if n else 0.0,
        "game_seconds": round(seconds, 1),
    }
