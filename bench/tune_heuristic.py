"""Tune the solver's heuristic weights by a small evolutionary search over fixed seeds.

Each generation perturbs the best weights found so far (multiplying each weight, the loss
value included, by a random factor up to ``2 ** scale`` either way and nudging the two
powers by up to ``scale / 2``) and plays the same seeded games with every candidate; the best
mean score becomes the next incumbent. The winner is then checked against the starting
weights on fresh seeds, since the best of many noisy candidates flatters itself. Prints one
JSON line: every candidate's weights and scores, and that check.

While searching, games run in one compiled loop (the kernel's root search, then the bitboard
engine's move and the game's seeded spawn) to spare the Python round trip of each move; it
plays exactly the moves ``play_game`` plays (checked at start-up). Validation uses
``play_game`` itself.

    python bench/tune_heuristic.py --depth 3 --games 200 --seed 1000 --scale 0.5 \
        --generations 3 --candidates 5 --validate-games 100
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import random
import statistics
import sys
import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np
from numba import njit

from twenty48 import fast
from twenty48.ai import search
from twenty48.ai.heuristic import DEFAULT, Heuristic
from twenty48.ai.play import play_game
from twenty48.ai.solver import PROBABILITY_THRESHOLD

POWERS = ("monotonicity_power", "sum_power")
WEIGHTS = ("loss", "empty_weight", "merge_weight", "monotonicity_weight", "sum_weight")


def perturb(base: Heuristic, rng: random.Random, scale: float) -> Heuristic:
    changes: dict[str, float] = {}
    for name in WEIGHTS:
        changes[name] = round(getattr(base, name) * 2 ** rng.uniform(-scale, scale), 1)
    for name in POWERS:
        changes[name] = round(max(1.0, getattr(base, name) + rng.uniform(-scale, scale) / 2), 2)
    return dataclasses.replace(base, **changes)


@njit(cache=True, nogil=True)
def _game(
    seed: np.uint64, depth: int, table: np.ndarray, lost: float, tt: np.ndarray, control: np.ndarray
) -> tuple[int, int]:
    """Score and moves of game ``seed`` played by the solver at a fixed depth (until a move
    would merge two 32768 tiles, which no low-depth game gets near)."""
    b = fast.new_board(seed)
    index = np.uint64(2)
    score = 0
    moves = 0
    stamp = 0
    while True:
        stamp += 1
        best_d = -1
        best_v = -np.inf
        for d in range(4):
            moved = fast.move(b, d)
            if moved == b:
                continue
            if fast.move_overflows(b, d):
                return score, moves
            v = search.chance_value(moved, depth, 1.0, PROBABILITY_THRESHOLD, table, lost, tt, stamp, control)
            if v > best_v:
                best_d, best_v = d, v
        if best_d < 0:
            return score, moves
        score += fast.move_score(b, best_d)
        b = fast.spawn(fast.move(b, best_d), seed, index)
        index += np.uint64(1)
        moves += 1


def compiled_score(heuristic: Heuristic, seed: int, depth: int) -> int:
    tt = np.zeros(1 << 18, dtype=search.ENTRY)
    return int(_game(np.uint64(seed), depth, heuristic.table(), heuristic.loss, tt, search.new_control())[0])


def mean_score(pool: ThreadPoolExecutor, heuristic: Heuristic, seeds: range, depth: int) -> float:
    return statistics.fmean(pool.map(lambda s: compiled_score(heuristic, s, depth), seeds))


def validation_score(pool: ThreadPoolExecutor, heuristic: Heuristic, seeds: range, depth: int) -> float:
    return statistics.fmean(pool.map(lambda s: play_game(s, depth=depth, heuristic=heuristic).score, seeds))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--generations", type=int, default=4)
    parser.add_argument("--candidates", type=int, default=8, help="new candidates per generation")
    parser.add_argument("--games", type=int, default=300, help="games per candidate while searching")
    parser.add_argument("--depth", type=int, default=2, help="search depth while searching")
    parser.add_argument("--validate-games", type=int, default=60)
    parser.add_argument("--validate-depth", type=int, default=3)
    parser.add_argument("--scale", type=float, default=1.0, help="weights change by up to 2**scale")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=2, help="threads (the kernel runs without the GIL)")
    args = parser.parse_args()

    for seed in range(3):
        assert compiled_score(DEFAULT, seed, 1) == play_game(seed, depth=1).score
    rng = random.Random(args.seed)
    seeds = range(args.seed, args.seed + args.games)
    started = time.perf_counter()
    history = []
    with ThreadPoolExecutor(args.jobs) as pool:
        best, best_score = DEFAULT, mean_score(pool, DEFAULT, seeds, args.depth)
        history.append({"generation": 0, "weights": dataclasses.asdict(best), "avg_score": best_score})
        for generation in range(1, args.generations + 1):
            incumbent = best
            for _ in range(args.candidates):
                candidate = perturb(incumbent, rng, args.scale)
                mean = mean_score(pool, candidate, seeds, args.depth)
                print(generation, round(mean), dataclasses.asdict(candidate), file=sys.stderr, flush=True)
                history.append(
                    {"generation": generation, "weights": dataclasses.asdict(candidate), "avg_score": mean}
                )
                if mean > best_score:
                    best, best_score = candidate, mean
        fresh = range(args.seed + 100_000, args.seed + 100_000 + args.validate_games)
        validation = {
            "depth": args.validate_depth,
            "games": args.validate_games,
            "start_avg_score": validation_score(pool, DEFAULT, fresh, args.validate_depth),
            "tuned_avg_score": validation_score(pool, best, fresh, args.validate_depth),
        }
    print(
        json.dumps(
            {
                "start": dataclasses.asdict(DEFAULT),
                "search_depth": args.depth,
                "search_games": args.games,
                "best": dataclasses.asdict(best),
                "best_avg_score": best_score,
                "validation": validation,
                "seconds": round(time.perf_counter() - started),
                "history": history,
            }
        )
    )


if __name__ == "__main__":
    main()
