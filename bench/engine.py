"""Engine throughput: random play with the bitboard engine and with rules.py.

Prints one JSON line: {"fast_moves_per_s", "reference_moves_per_s", ...}. A move is one attempted
direction (uniformly random); a tile spawns after each legal one and a new game starts when one is
over. Compile time is excluded (one warm-up call first).
"""

from __future__ import annotations

import json
import random
import time

from twenty48 import Direction, Game
from twenty48.fast._playouts import random_play

FAST_ATTEMPTS = 20_000_000
REFERENCE_ATTEMPTS = 200_000


def fast_rate() -> tuple[float, int, int]:
    random_play(1, 1000)  # compile or load from cache
    start = time.perf_counter()
    legal, games = random_play(1, FAST_ATTEMPTS)
    return FAST_ATTEMPTS / (time.perf_counter() - start), int(legal), int(games)


def reference_rate() -> float:
    rng = random.Random(1)
    directions = list(Direction)
    seed = 1
    game = Game.new(seed)
    start = time.perf_counter()
    for _ in range(REFERENCE_ATTEMPTS):
        game.move(directions[rng.randrange(4)])
        if game.over:
            seed += 1
            game = Game.new(seed)
    return REFERENCE_ATTEMPTS / (time.perf_counter() - start)


def main() -> None:
    fast_per_s, legal, games = fast_rate()
    print(
        json.dumps(
            {
                "fast_moves_per_s": round(fast_per_s),
                "reference_moves_per_s": round(reference_rate()),
                "fast_attempts": FAST_ATTEMPTS,
                "fast_legal_moves": legal,
                "fast_games_finished": games,
                "reference_attempts": REFERENCE_ATTEMPTS,
            }
        )
    )


if __name__ == "__main__":
    main()
