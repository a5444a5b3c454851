"""Tune the solver's heuristic weights by a small evolutionary search over fixed seeds.

Each generation perturbs the best weights found so far (multiplying each weight by a random
factor up to 2 either way, nudging the two powers by up to 0.5) and plays the same seeded
games at a low, fast depth with every candidate; the best mean score becomes the next
incumbent. The last step replays the starting weights and the winner at a deeper setting on
fresh seeds, because a low-depth score is only a proxy. Prints one JSON line: every candidate's
weights and scores, and the validation of the winner against the start.

    python bench/tune_heuristic.py --generations 4 --candidates 8 --games 150 --jobs 2
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import multiprocessing
import random
import statistics
import time

from twenty48.ai.heuristic import DEFAULT, Heuristic
from twenty48.ai.play import play_game

POWERS = ("monotonicity_power", "sum_power")
WEIGHTS = ("loss", "empty_weight", "merge_weight", "monotonicity_weight", "sum_weight")


def perturb(base: Heuristic, rng: random.Random) -> Heuristic:
    changes: dict[str, float] = {}
    for name in WEIGHTS:
        changes[name] = round(getattr(base, name) * 2 ** rng.uniform(-1, 1), 1)
    for name in POWERS:
        changes[name] = round(max(1.0, getattr(base, name) + rng.uniform(-0.5, 0.5)), 2)
    return dataclasses.replace(base, **changes)


def score(task: tuple[Heuristic, int, int]) -> int:
    heuristic, seed, depth = task
    return play_game(seed, depth=depth, heuristic=heuristic).score


def evaluate(pool, heuristic: Heuristic, seeds: range, depth: int) -> float:
    return statistics.fmean(pool.map(score, [(heuristic, s, depth) for s in seeds]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--generations", type=int, default=4)
    parser.add_argument("--candidates", type=int, default=8, help="new candidates per generation")
    parser.add_argument("--games", type=int, default=150, help="games per candidate while searching")
    parser.add_argument("--depth", type=int, default=2, help="search depth while searching")
    parser.add_argument("--validate-games", type=int, default=50)
    parser.add_argument("--validate-depth", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()

    rng = random.Random(args.seed)
    seeds = range(args.seed, args.seed + args.games)
    started = time.perf_counter()
    history = []
    with multiprocessing.get_context("spawn").Pool(args.jobs) as pool:
        best, best_score = DEFAULT, evaluate(pool, DEFAULT, seeds, args.depth)
        history.append({"generation": 0, "weights": dataclasses.asdict(best), "avg_score": best_score})
        for generation in range(1, args.generations + 1):
            incumbent = best
            for _ in range(args.candidates):
                candidate = perturb(incumbent, rng)
                mean = evaluate(pool, candidate, seeds, args.depth)
                history.append(
                    {"generation": generation, "weights": dataclasses.asdict(candidate), "avg_score": mean}
                )
                if mean > best_score:
                    best, best_score = candidate, mean
        fresh = range(args.seed + 100_000, args.seed + 100_000 + args.validate_games)
        validation = {
            "depth": args.validate_depth,
            "games": args.validate_games,
            "start_avg_score": evaluate(pool, DEFAULT, fresh, args.validate_depth),
            "tuned_avg_score": evaluate(pool, best, fresh, args.validate_depth),
        }
    print(
        json.dumps(
            {
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
