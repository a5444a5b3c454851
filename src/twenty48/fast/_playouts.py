"""The engine benchmark's random-play loop over the bitboard (not the public surface of
``twenty48.fast``)."""

from __future__ import annotations

import numpy as np
from numba import njit

from twenty48.fast.bitboard import (
    GOLDEN_GAMMA,
    draw,
    is_over,
    move,
    new_board,
    spawn,
)
from twenty48.spawns import STARTING_TILES

_U1 = np.uint64(1)
_STARTING_TILES = np.uint64(STARTING_TILES)


@njit("UniTuple(int64, 2)(uint64, int64)", cache=True)
def random_play(seed: np.uint64, attempts: int) -> tuple[np.int64, np.int64]:
    """The engine benchmark's loop: ``attempts`` uniformly random directions, a spawn after each
    legal one, a new game whenever one is over. Returns (legal moves, games finished)."""
    rng = seed ^ np.uint64(0xD1B54A32D192ED03)
    game_seed = seed
    b = new_board(game_seed)
    index = _STARTING_TILES
    legal = np.int64(0)
    games = np.int64(0)
    for _ in range(attempts):
        rng += GOLDEN_GAMMA
        d = np.int64(draw(rng, np.uint64(0)) & np.uint64(3))
        moved = move(b, d)
        if moved == b:
            if is_over(b):
                games += 1
                game_seed += _U1
                b = new_board(game_seed)
                index = _STARTING_TILES
            continue
        b = spawn(moved, game_seed, index)
        index += _U1
        legal += 1
    return legal, games
