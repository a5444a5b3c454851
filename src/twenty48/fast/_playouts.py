"""Random-play loops over the bitboard, for the engine's benchmarks and tests (not the public
surface of ``twenty48.fast``)."""

from __future__ import annotations

import numpy as np
from numba import njit

from twenty48.fast.bitboard import (
    GOLDEN_GAMMA,
    draw,
    is_over,
    legal_mask,
    move,
    move_overflows,
    move_score,
    new_board,
    spawn,
)
from twenty48.spawns import STARTING_TILES

_U1 = np.uint64(1)
_STARTING_TILES = np.uint64(STARTING_TILES)


@njit("Tuple((uint64, int64, int64))(uint64, uint64, uint64)", cache=True)
def random_playout(b: np.uint64, seed: np.uint64, index: np.uint64) -> tuple[np.uint64, np.int64, np.int64]:
    """Play uniformly random directions until the game is over (or a 32768 pair would merge).

    Spawns continue the game's sequence from spawn ``index``; the directions come from a
    separate SplitMix64 stream. Returns (final board, points scored, legal moves made).
    """
    score = np.int64(0)
    moves = np.int64(0)
    state = seed ^ np.uint64(0xD1B54A32D192ED03)
    while True:
        mask = legal_mask(b)
        if mask == 0:
            break
        state += GOLDEN_GAMMA
        d = np.int64(draw(state, np.uint64(0)) & np.uint64(3))
        while not (mask >> d) & 1:
            d = (d + 1) & 3
        if move_overflows(b, d):
            break
        score += move_score(b, d)
        b = spawn(move(b, d), seed, index)
        index += _U1
        moves += 1
    return b, score, moves


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
