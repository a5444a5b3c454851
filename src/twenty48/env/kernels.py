"""Compiled kernels behind the environments: one call per single-env step, one per vector step.

The moves, merges and spawns are ``twenty48.fast``'s (themselves proven equal to ``rules``); this
module only strings them together with the environment's bookkeeping (reward, termination,
observation, info) so that a step costs one trip into compiled code. Boards the 4-bit cell cannot
hold, and moves that would merge two 32768 tiles, are reported back as ``RULES`` and the caller
applies ``twenty48.rules`` instead (see ``twenty48.env.exact``).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from twenty48.fast import bitboard as bb

#: Outcome codes of ``advance``.
LEGAL, ILLEGAL, RULES = 0, 1, 2
#: Reward modes (``twenty48.env.config``).
REWARD_SCORE, REWARD_LOG, REWARD_ZERO = 0, 1, 2
#: Autoreset modes of the vector kernel.
AUTORESET_NEXT_STEP, AUTORESET_SAME_STEP, AUTORESET_DISABLED = 0, 1, 2
#: Spawn index whose SplitMix64 output seeds the next episode. Spawn indices stay far below it (a
#: 4x4 game cannot last 2**32 moves), so the chain never reuses a number a spawn drew.
CHAIN_INDEX = 1 << 32
#: A 53-bit seed survives JSON and JavaScript numbers, like ``spawns.random_seed``.
CHAIN_SHIFT = 11

_U1 = np.uint64(1)
_U4 = np.uint64(4)
_NIBBLE = np.uint64(0xF)
_CHAIN_INDEX = np.uint64(CHAIN_INDEX)
_CHAIN_SHIFT = np.uint64(CHAIN_SHIFT)
#: Bitboard slots of the single environment's state array.
BOARD, SEED, SPAWN_INDEX = 0, 1, 2


@njit(cache=True)
def next_seed(seed: np.uint64) -> np.uint64:
    """The seed of the episode that follows one played with ``seed`` (when reset gets no seed)."""
    return bb.draw(np.uint64(seed), _CHAIN_INDEX) >> _CHAIN_SHIFT


@njit(cache=True)
def advance(state: np.ndarray, action: int) -> tuple[int, np.int64]:
    """Play ``action`` on ``state`` = [board, seed, next spawn index] in place: (outcome, points)."""
    b = state[BOARD]
    if bb.move_overflows(b, action):
        return RULES, np.int64(0)
    moved = bb.move(b, action)
    if moved == b:
        return ILLEGAL, np.int64(0)
    points = bb.move_score(b, action)
    state[BOARD] = bb.spawn(moved, state[SEED], state[SPAWN_INDEX])
    state[SPAWN_INDEX] += _U1
    return LEGAL, points


@njit(cache=True)
def write_exponents(b: np.uint64, out: np.ndarray) -> None:
    """Unpack a bitboard into a (4, 4) array of exponents."""
    b = np.uint64(b)
    for i in range(16):
        out[i >> 2, i & 3] = (b >> (_U4 * np.uint64(i))) & _NIBBLE


@njit(cache=True)
def write_onehot(b: np.uint64, out: np.ndarray) -> None:
    """Unpack a bitboard into an (18, 4, 4) one-hot array: plane k marks the cells holding 2**k
    (plane 0 the empty cells)."""
    b = np.uint64(b)
    out[:] = 0
    for i in range(16):
        out[(b >> (_U4 * np.uint64(i))) & _NIBBLE, i >> 2, i & 3] = 1


@njit(cache=True)
def step_exponents(state: np.ndarray, action: int, obs: np.ndarray) -> tuple[int, np.int64, int, np.int64]:
    """One single-env step writing an exponent observation: (outcome, points, legal mask, max
    exponent). Nothing is written for ``RULES``."""
    outcome, points = advance(state, action)
    if outcome == RULES:
        return outcome, points, 0, np.int64(0)
    b = state[BOARD]
    write_exponents(b, obs)
    return outcome, points, bb.legal_mask(b), bb.max_exponent(b)


@njit(cache=True)
def step_onehot(state: np.ndarray, action: int, obs: np.ndarray) -> tuple[int, np.int64, int, np.int64]:
    """``step_exponents`` with a one-hot observation."""
    outcome, points = advance(state, action)
    if outcome == RULES:
        return outcome, points, 0, np.int64(0)
    b = state[BOARD]
    write_onehot(b, obs)
    return outcome, points, bb.legal_mask(b), bb.max_exponent(b)


@njit(cache=True)
def describe(b: np.uint64) -> tuple[int, np.int64]:
    """(legal mask, max exponent) of a bitboard."""
    b = np.uint64(b)
    return bb.legal_mask(b), bb.max_exponent(b)


@njit(cache=True)
def reward_of(points: np.int64, mode: int) -> float:
    if mode == REWARD_SCORE:
        return float(points)
    if mode == REWARD_LOG:
        return np.log2(1.0 + points)
    return 0.0


@njit(cache=True)
def _observe(i: int, b: np.uint64, exps: np.ndarray, masks: np.ndarray, max_tiles: np.ndarray) -> None:
    write_exponents(b, exps[i])
    legal = bb.legal_mask(b)
    for d in range(4):
        masks[i, d] = (legal >> d) & 1
    e = bb.max_exponent(b)
    max_tiles[i] = (1 << e) if e else 0


@njit(cache=True)
def vector_observe(
    boards: np.ndarray,
    skip: np.ndarray,
    exps: np.ndarray,
    masks: np.ndarray,
    max_tiles: np.ndarray,
) -> None:
    """Write observation, legal moves and max tile of every board not marked in ``skip`` (boards
    living in ``twenty48.rules`` form are skipped by passing the ``rules`` flags)."""
    for i in range(boards.shape[0]):
        if not skip[i]:
            _observe(i, boards[i], exps, masks, max_tiles)


@njit(cache=True)
def vector_new_games(
    which: np.ndarray,
    new_seeds: np.ndarray,
    boards: np.ndarray,
    seeds: np.ndarray,
    moves: np.ndarray,
    scores: np.ndarray,
    steps: np.ndarray,
    rules: np.ndarray,
) -> None:
    """Start ``Game.new(new_seeds[k])`` on board ``which[k]``."""
    for k in range(which.shape[0]):
        i = which[k]
        seeds[i] = new_seeds[k]
        boards[i] = bb.new_board(seeds[i])
        moves[i] = 0
        scores[i] = 0
        steps[i] = 0
        rules[i] = False


@njit(cache=True)
def vector_step(
    actions: np.ndarray,
    boards: np.ndarray,
    seeds: np.ndarray,
    moves: np.ndarray,
    scores: np.ndarray,
    steps: np.ndarray,
    rules: np.ndarray,
    done: np.ndarray,
    exps: np.ndarray,
    rewards: np.ndarray,
    terminated: np.ndarray,
    truncated: np.ndarray,
    illegal: np.ndarray,
    masks: np.ndarray,
    max_tiles: np.ndarray,
    deferred: np.ndarray,
    reward_mode: int,
    illegal_reward: float,
    terminate_on_illegal: bool,
    max_steps: int,
    autoreset_next_step: bool,
) -> int:
    """Step every board once; returns how many boards were left to the caller (``deferred``).

    ``done`` marks the boards whose episode ended at their last step; with next-step autoreset
    such a board starts its next game instead of moving (reward 0, not terminated, not
    truncated). A board in ``rules`` (it holds a tile above 32768) or whose move merges two 32768
    tiles is marked in ``deferred`` and its outputs are left to the caller, who plays it with
    ``twenty48.rules``. ``max_steps`` <= 0 means no time limit.
    """
    left = 0
    for i in range(boards.shape[0]):
        deferred[i] = False
        if autoreset_next_step and done[i]:
            done[i] = False
            seeds[i] = next_seed(seeds[i])
            boards[i] = bb.new_board(seeds[i])
            moves[i] = 0
            scores[i] = 0
            steps[i] = 0
            rules[i] = False
            rewards[i] = 0.0
            terminated[i] = False
            truncated[i] = False
            illegal[i] = False
            _observe(i, boards[i], exps, masks, max_tiles)
            continue
        a = actions[i]
        b = boards[i]
        if rules[i] or bb.move_overflows(b, a):
            deferred[i] = True
            left += 1
            continue
        steps[i] += 1
        moved = bb.move(b, a)
        if moved == b:
            illegal[i] = True
            rewards[i] = illegal_reward
        else:
            illegal[i] = False
            points = bb.move_score(b, a)
            b = bb.spawn(moved, seeds[i], np.uint64(2 + moves[i]))
            boards[i] = b
            moves[i] += 1
            scores[i] += points
            rewards[i] = reward_of(points, reward_mode)
        _observe(i, b, exps, masks, max_tiles)
        over = masks[i, 0] + masks[i, 1] + masks[i, 2] + masks[i, 3] == 0
        terminated[i] = over or (illegal[i] and terminate_on_illegal)
        truncated[i] = max_steps > 0 and steps[i] >= max_steps
        done[i] = terminated[i] or truncated[i]
    return left


@njit(cache=True)
def onehot_from_exponents(exps: np.ndarray, out: np.ndarray) -> None:
    """(N, 4, 4) exponents -> (N, 18, 4, 4) one-hot planes."""
    out[:] = 0
    for i in range(exps.shape[0]):
        for r in range(4):
            for c in range(4):
                out[i, exps[i, r, c], r, c] = 1
