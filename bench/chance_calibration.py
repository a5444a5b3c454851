"""Does the review's chance mean what it says? Its chance of a position against the rate observed over
many more independent continuations from the same position.

Games of several levels, each played to its end from fixed seeds (``LEVELS``): the fixed-priority
player (the first legal of down, left, right, up), and the solver at depth 1 making a uniformly
random legal move instead with probability 0.3, 0.1 and 0.03. Every position of every game gets its
chance exactly as the review computes it (``twenty48.ai.chance.Chances`` at the chance setting, last
position first). Positions are then picked per game and per tenth of the chance (``--per-bin`` of
each, evenly spread over the game), so that every decile is represented, and each picked position
is played on by ``--reference`` more continuations on streams of their own, with a cap five times
the chance setting's (``REFERENCE_CAP``: no solver game at depth 1 seen has lived a quarter of it),
so that the cap's own effect is measured too.

Per decile of the review's chance: the positions, their mean chance and the mean observed rate and
the gap between them, in percentage points; ``mean_gap`` averages the gaps over the deciles (target:
within 5 points). ``turning_points`` gives, per level, how many moves before each game's end its
turning point came. Counts, not times: the figures are the same on any machine. Prints one JSON line.

    python bench/chance_calibration.py [--per-bin 3] [--reference 640]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import time
from typing import Any

from twenty48.ai import best_move
from twenty48.ai.chance import CHANCE_SETTING, CONTINUATIONS, Chances, chances_of, target_tile
from twenty48.ai.review import MoveReview, positions, turning_point
from twenty48.game import Game
from twenty48.rules import Board, Direction

#: Level name -> seeds of its games. ``None``: the fixed-priority player; a number: the chance of a
#: random move instead of the solver's at depth 1.
LEVELS: dict[str, tuple[float | None, tuple[int, ...]]] = {
    "priority": (None, (0, 1, 2)),
    "depth1_random_0.3": (0.3, (0, 1, 2)),
    "depth1_random_0.1": (0.1, (0, 1, 2)),
    "depth1_random_0.03": (0.03, (0, 1)),
}
PRIORITY = (Direction.DOWN, Direction.LEFT, Direction.RIGHT, Direction.UP)
REFERENCE_CAP = 5 * CHANCE_SETTING["cap"]
#: The reference streams: families of ``CONTINUATIONS`` streams from this seed on, none of them the
#: review's.
REFERENCE_SEED = 1 << 32


def play(level: float | None, seed: int) -> Game:
    game = Game.new(seed)
    rng = random.Random(seed)
    while not game.over:
        if level is None:
            direction = next(d for d in PRIORITY if game.board.can_move(d))
        elif rng.random() < level:
            direction = rng.choice(game.board.legal_moves())
        else:
            direction = best_move(game, depth=1)
        game.move(direction)
    return game


def decile(chance: float) -> int:
    return min(9, int(chance // 10))


def picked(chances: list[float], boards: list[Board], per_bin: int) -> list[int]:
    """Up to ``per_bin`` positions of each decile, evenly spread, leaving out the game's end."""
    chosen = []
    for d in range(10):
        found = [n for n, c in enumerate(chances) if decile(c) == d and not boards[n].is_over()]
        step = max(1, len(found) // per_bin)
        chosen += found[step // 2 :: step][:per_bin]
    return sorted(chosen)


def reference_rates(boards: list[Board], chosen: list[int], target: int, reference: int) -> dict[int, float]:
    """The observed rate (0-100) at each chosen position over ``reference`` continuations."""
    reached = dict.fromkeys(chosen, 0)
    for family in range(reference // CONTINUATIONS):
        seed = REFERENCE_SEED + family * CONTINUATIONS
        chances = Chances(target, len(boards) - 1, CONTINUATIONS, REFERENCE_CAP, seed)
        for n in reversed(chosen):
            reached[n] += chances.reached(boards[n], n)
    return {n: 100 * count / reference for n, count in reached.items()}


def turning_point_from_end(chances: list[float]) -> int | None:
    """How many moves before the game's end its turning point came (None: it has none)."""
    moves = [MoveReview(n, "", None, None, None, c) for n, c in enumerate(chances[1:], start=1)]
    turn = turning_point(moves, chances[0])
    return None if turn is None else len(moves) - turn["n"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--per-bin", type=int, default=3, help="positions per game and decile")
    parser.add_argument("--reference", type=int, default=10 * CONTINUATIONS, help="reference continuations")
    args = parser.parse_args()
    if args.reference % CONTINUATIONS:
        parser.error(f"--reference must be a multiple of {CONTINUATIONS}")
    started = time.perf_counter()
    rows: list[tuple[float, float]] = []
    games: dict[str, list[dict[str, Any]]] = {}
    for name, (level, seeds) in LEVELS.items():
        for seed in seeds:
            game = play(level, seed)
            boards = positions(game)
            target = target_tile(max(b.max_tile for b in boards))
            chances = chances_of(boards, target)
            chosen = picked(chances, boards, args.per_bin)
            rates = reference_rates(boards, chosen, target, args.reference)
            rows += [(chances[n], rates[n]) for n in chosen]
            games.setdefault(name, []).append(
                {
                    "seed": seed,
                    "moves": game.moves,
                    "target": target,
                    "start_chance": chances[0],
                    "positions": len(chosen),
                    "turning_point_from_end": turning_point_from_end(chances),
                }
            )
    deciles = []
    for d in range(10):
        inside = [(c, r) for c, r in rows if decile(c) == d]
        if not inside:
            deciles.append({"decile": f"{10 * d}-{10 * d + 10}", "positions": 0})
            continue
        chance = sum(c for c, _ in inside) / len(inside)
        rate = sum(r for _, r in inside) / len(inside)
        deciles.append(
            {
                "decile": f"{10 * d}-{10 * d + 10}",
                "positions": len(inside),
                "chance": round(chance, 2),
                "rate": round(rate, 2),
                "gap": round(rate - chance, 2),
            }
        )
    gaps = [abs(d["gap"]) for d in deciles if d["positions"]]
    result = {
        "positions": len(rows),
        "setting": CHANCE_SETTING,
        "reference_continuations": args.reference,
        "reference_cap": REFERENCE_CAP,
        "deciles": deciles,
        "mean_gap": round(sum(gaps) / len(gaps), 2),
        "max_gap": round(max(gaps), 2),
        "target_gap": 5.0,
        "games": games,
        "seconds": round(time.perf_counter() - started, 1),
        "loadavg": os.getloadavg()[0],
    }
    print(json.dumps(result), flush=True)


if __name__ == "__main__":
    main()
