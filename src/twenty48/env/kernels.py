"""Compiled kernels behind the environments: one call per single-env step, one per vector step.

The moves, merges and spawns are ``twenty48.fast``'s (themselves proven equal to ``rules``); this
module only strings them together with the environment's bookkeeping so that a step costs one trip
into compiled code. The rules of a step are written once: ``settle`` does the bookkeeping of one
board (steps, moves, score, reward, termination, truncation, done) for every path, and
``step_board`` plays one board on the bitboard for both environments. Boards the 4-bit cell cannot
hold, and moves that would merge two 32768 tiles, are reported back as ``RULES`` and the caller
plays them with ``twenty48.env.exact``, which settles them with the same ``settle``.

Each game is one record of ``STATE`` (the single env holds an array of one), so a kernel takes the
state array and an index instead of a column per field; the options the bookkeeping depends on are
one record of ``SETTINGS``. The single env calls its kernel with both arrays viewed as plain
uint64 words (``words``): numba types a structured-array argument in Python on every call, which
would cost more than the step itself.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from twenty48.fast import bitboard as bb
from twenty48.spawns import STARTING_TILES
from twenty48.variants import FIRST_STAGE_TILE, MAX_STAGE

#: Outcome codes of ``step_board``.
LEGAL, ILLEGAL, RULES = 0, 1, 2
#: Reward modes (``twenty48.env.config``).
REWARD_SCORE, REWARD_LOG, REWARD_ZERO = 0, 1, 2
#: Spawn index whose SplitMix64 output seeds the next episode. Spawn indices stay far below it (a
#: 4x4 game cannot last 2**32 moves), so the chain never reuses a number a spawn drew.
CHAIN_INDEX = 1 << 32
#: A 53-bit seed survives JSON and JavaScript numbers, like ``spawns.random_seed``.
CHAIN_SHIFT = 11

#: One game. The next spawn index is ``STARTING_TILES + moves``.
STATE = np.dtype(
    [
        ("board", np.uint64),  # the bitboard; 0 while ``exact`` is set
        ("seed", np.uint64),  # the game seed of the episode
        ("score", np.int64),
        ("moves", np.int64),  # legal moves since reset
        ("steps", np.int64),  # steps since reset, illegal ones included (truncation counts them)
        ("illegal_streak", np.int64),  # illegal actions in a row, up to the last step
        ("exact", np.bool_),  # the board holds a tile above 32768; the environment keeps it as a Board
        ("done", np.bool_),  # the episode ended at the last step
    ],
    align=True,
)

_U4 = np.uint64(4)
_NIBBLE = np.uint64(0xF)
_CHAIN_INDEX = np.uint64(CHAIN_INDEX)
_CHAIN_SHIFT = np.uint64(CHAIN_SHIFT)
_U32 = np.uint64(32)
_FIRST_STAGE_EXPONENT = FIRST_STAGE_TILE.bit_length() - 1


#: The options a step's bookkeeping depends on (``EnvConfig.step_settings`` makes the record).
SETTINGS = np.dtype(
    [
        ("reward_mode", np.int64),  # REWARD_SCORE, REWARD_LOG or REWARD_ZERO
        ("illegal_reward", np.float64),
        ("max_steps", np.int64),  # steps after which an episode is truncated; 0 for no limit
        ("max_illegal_streak", np.int64),  # illegal actions in a row that truncate it; 0 for no limit
        ("end_exponent", np.int64),  # a tile of 2**end_exponent ends the episode; 0 for none
        ("rows", np.int64),  # the board's size (twenty48.env.grids plays the sizes other than 4x4)
        ("cols", np.int64),
        ("terminate_on_illegal", np.bool_),
        ("staged_spawns", np.bool_),  # Merge 2048's spawns (twenty48.variants), else classic ones
    ],
    align=True,
)


class Outputs(NamedTuple):
    """What a vector step returns for every board, filled in place by the kernels."""

    exps: np.ndarray  # (N, 4, 4) uint8 exponents
    rewards: np.ndarray  # float64
    terminated: np.ndarray  # bool
    truncated: np.ndarray  # bool
    illegal: np.ndarray  # bool
    masks: np.ndarray  # (N, 4) int8, 1 = legal
    max_tiles: np.ndarray  # int64

    @classmethod
    def empty(cls, n: int) -> Outputs:
        return cls(
            np.empty((n, 4, 4), dtype=np.uint8),
            np.empty(n, dtype=np.float64),
            np.empty(n, dtype=np.bool_),
            np.empty(n, dtype=np.bool_),
            np.empty(n, dtype=np.bool_),
            np.empty((n, 4), dtype=np.int8),
            np.empty(n, dtype=np.int64),
        )


@njit(cache=True)
def next_seed(seed: np.uint64) -> np.uint64:
    """The seed of the episode that follows one played with ``seed`` (when reset gets no seed)."""
    return bb.draw(np.uint64(seed), _CHAIN_INDEX) >> _CHAIN_SHIFT


@njit(cache=True)
def staged_exponent(max_exponent: np.int64, hi: np.uint64) -> np.uint64:
    """The exponent of a Merge 2048 spawn on a board whose largest tile is ``2**max_exponent``,
    from the draw's high 32 bits ``hi``: ``Variant.spawn``'s stage and weights (2 and 4 below 256,
    one value more per stage, each a third as likely as the next smaller one)."""
    stage = (
        0
        if max_exponent < _FIRST_STAGE_EXPONENT
        else min(MAX_STAGE, max_exponent - _FIRST_STAGE_EXPONENT + 1)
    )
    count = stage + 2
    total = np.uint64((3**count - 1) // 2)
    j = (hi * total) >> _U32
    # Largest value first: the value of exponent e weighs 3**(count - e).
    for exponent in range(count, 0, -1):
        weight = np.uint64(3 ** (count - exponent))
        if j < weight:
            return np.uint64(exponent)
        j -= weight
    return np.uint64(1)


@njit(cache=True)
def spawn_tile(b: np.uint64, seed: np.uint64, index: np.uint64, staged: bool) -> np.uint64:
    """``b`` with spawn ``index`` of game ``seed`` placed, as ``Game`` places it: classic odds, or
    with ``staged`` Merge 2048's, which follow the largest tile of ``b`` (the board it lands on)."""
    if not staged:
        return bb.spawn(b, seed, index)
    h = bb.draw(seed, index)
    return bb.place_exponent(b, h, staged_exponent(bb.max_exponent(b), h >> _U32))


@njit(cache=True)
def restart(state: np.ndarray, i: int, seed: np.uint64, staged: bool) -> None:
    """Start ``Game.new(seed)`` (of Merge 2048 with ``staged``) in game ``i``."""
    s = state[i]
    s.seed = seed
    b = np.uint64(0)
    for index in range(STARTING_TILES):
        b = spawn_tile(b, seed, np.uint64(index), staged)
    s.board = b
    s.score = 0
    s.moves = 0
    s.steps = 0
    s.illegal_streak = 0
    s.exact = False
    s.done = False


@njit(cache=True)
def reward_of(points: np.int64, mode: int) -> float:
    """The reward of a legal move that scored ``points``."""
    if mode == REWARD_SCORE:
        return float(points)
    if mode == REWARD_LOG:
        return np.log2(1.0 + points)
    return 0.0


@njit(cache=True)
def settle(
    state: np.ndarray,
    i: int,
    legal: bool,
    points: np.int64,
    legal_mask: int,
    max_exponent: np.int64,
    settings: np.ndarray,
) -> tuple[float, bool, bool]:
    """The bookkeeping of a step of game ``i`` once its move is played (``legal``: the board
    changed, scoring ``points``; ``legal_mask``: the moves legal now; ``max_exponent``: its largest
    tile's): (reward, terminated, truncated). Every step counts toward the step limit, illegal ones
    included; a legal one ends a run of illegal ones."""
    options = settings[0]
    s = state[i]
    s.steps += 1
    if legal:
        s.moves += 1
        s.score += points
        s.illegal_streak = 0
        reward = reward_of(points, options.reward_mode)
    else:
        s.illegal_streak += 1
        reward = options.illegal_reward
    terminated = (
        legal_mask == 0
        or (not legal and options.terminate_on_illegal)
        or (options.end_exponent > 0 and max_exponent >= options.end_exponent)
    )
    truncated = (options.max_steps > 0 and s.steps >= options.max_steps) or (
        options.max_illegal_streak > 0 and s.illegal_streak >= options.max_illegal_streak
    )
    s.done = terminated or truncated
    return reward, terminated, truncated


@njit(cache=True)
def step_board(
    state: np.ndarray, i: int, action: int, settings: np.ndarray
) -> tuple[int, float, bool, bool, int]:
    """Play ``action`` on the bitboard of game ``i`` and settle the step: (outcome, reward,
    terminated, truncated, legal mask). ``RULES`` (the board is exact, or the move merges two
    32768 tiles) changes nothing: the caller plays it with ``twenty48.env.exact``."""
    s = state[i]
    if s.exact:
        return RULES, 0.0, False, False, 0
    b = s.board
    moved, points, overflows = bb.play(b, action)
    if overflows:
        return RULES, 0.0, False, False, 0
    legal = moved != b
    if legal:
        b = spawn_tile(moved, s.seed, np.uint64(STARTING_TILES + s.moves), settings[0].staged_spawns)
        s.board = b
    mask = bb.legal_mask(b)
    reward, terminated, truncated = settle(state, i, legal, points, mask, bb.max_exponent(b), settings)
    return (LEGAL if legal else ILLEGAL), reward, terminated, truncated, mask


@njit(cache=True)
def write_exponents(b: np.uint64, out: np.ndarray) -> np.int64:
    """Unpack a bitboard into a (4, 4) array of exponents; returns the largest."""
    b = np.uint64(b)
    best = np.int64(0)
    for i in range(16):
        e = (b >> (_U4 * np.uint64(i))) & _NIBBLE
        out[i >> 2, i & 3] = e
        best = max(best, np.int64(e))
    return best


@njit(cache=True)
def write_onehot(b: np.uint64, out: np.ndarray) -> np.int64:
    """Unpack a bitboard into an (18, 4, 4) one-hot array: plane k marks the cells holding 2**k
    (plane 0 the empty cells). Returns the largest exponent."""
    b = np.uint64(b)
    out[:] = 0
    best = np.int64(0)
    for i in range(16):
        e = (b >> (_U4 * np.uint64(i))) & _NIBBLE
        out[e, i >> 2, i & 3] = 1
        best = max(best, np.int64(e))
    return best


#: What a single-env step returns: (outcome, reward, terminated, truncated, legal mask, max exponent,
#: score, moves, seed); the last three are the game's counters for ``info``, returned rather than
#: read back from the record because a Python read of a record field costs more than the step.
SingleStep = tuple[int, float, bool, bool, int, np.int64, np.int64, np.int64, np.uint64]


@njit(cache=True)
def step_exponents(words: np.ndarray, action: int, setting_words: np.ndarray, obs: np.ndarray) -> SingleStep:
    """One single-env step writing an exponent observation; ``words`` and ``setting_words`` are
    the ``STATE`` record and the ``SETTINGS`` record as uint64 words. Nothing is written for
    ``RULES``."""
    state = words.view(STATE)
    outcome, reward, terminated, truncated, mask = step_board(state, 0, action, setting_words.view(SETTINGS))
    s = state[0]
    e = np.int64(0) if outcome == RULES else write_exponents(s.board, obs)
    return outcome, reward, terminated, truncated, mask, e, s.score, s.moves, s.seed


@njit(cache=True)
def step_onehot(words: np.ndarray, action: int, setting_words: np.ndarray, obs: np.ndarray) -> SingleStep:
    """``step_exponents`` with a one-hot observation (``obs`` may be a channel-last array's
    channel-first view)."""
    state = words.view(STATE)
    outcome, reward, terminated, truncated, mask = step_board(state, 0, action, setting_words.view(SETTINGS))
    s = state[0]
    e = np.int64(0) if outcome == RULES else write_onehot(s.board, obs)
    return outcome, reward, terminated, truncated, mask, e, s.score, s.moves, s.seed


@njit(cache=True)
def describe(b: np.uint64) -> tuple[int, np.int64]:
    """(legal mask, max exponent) of a bitboard."""
    b = np.uint64(b)
    return bb.legal_mask(b), bb.max_exponent(b)


@njit(cache=True)
def _observe(i: int, b: np.uint64, legal: int, out: Outputs) -> None:
    e = write_exponents(b, out.exps[i])
    for d in range(4):
        out.masks[i, d] = (legal >> d) & 1
    out.max_tiles[i] = (1 << e) if e else 0


@njit(cache=True)
def vector_observe(state: np.ndarray, which: np.ndarray, out: Outputs) -> None:
    """Write observation, legal moves and max tile of the games ``which`` that live on the
    bitboard (the caller observes the exact ones)."""
    for k in range(which.shape[0]):
        i = which[k]
        s = state[i]
        if not s.exact:
            _observe(i, s.board, bb.legal_mask(s.board), out)


@njit(cache=True)
def vector_new_games(state: np.ndarray, which: np.ndarray, seeds: np.ndarray, settings: np.ndarray) -> None:
    """Start ``Game.new(seeds[k])`` in game ``which[k]``."""
    staged = settings[0].staged_spawns
    for k in range(which.shape[0]):
        restart(state, which[k], np.uint64(seeds[k]), staged)


@njit(cache=True)
def vector_step(
    state: np.ndarray,
    actions: np.ndarray,
    settings: np.ndarray,
    autoreset_next_step: bool,
    out: Outputs,
    deferred: np.ndarray,
) -> int:
    """Step every game once; returns how many were left to the caller, whose indices are the
    first entries of ``deferred``.

    With next-step autoreset a game whose episode ended at its last step (``done``) starts its
    next game instead of moving (reward 0, not terminated, not truncated). A game ``step_board``
    answers ``RULES`` for has its outputs left to the caller, who plays it with ``twenty48.rules``.
    """
    left = 0
    for i in range(state.shape[0]):
        s = state[i]
        if autoreset_next_step and s.done:
            restart(state, i, next_seed(s.seed), settings[0].staged_spawns)
            out.rewards[i] = 0.0
            out.terminated[i] = False
            out.truncated[i] = False
            out.illegal[i] = False
            _observe(i, s.board, bb.legal_mask(s.board), out)
            continue
        outcome, reward, terminated, truncated, mask = step_board(state, i, actions[i], settings)
        if outcome == RULES:
            deferred[left] = i
            left += 1
            continue
        out.rewards[i] = reward
        out.terminated[i] = terminated
        out.truncated[i] = truncated
        out.illegal[i] = outcome == ILLEGAL
        _observe(i, s.board, mask, out)
    return left


@njit(cache=True)
def onehot_from_exponents(exps: np.ndarray, out: np.ndarray) -> None:
    """(N, 4, 4) exponents -> (N, 18, 4, 4) one-hot planes."""
    out[:] = 0
    for i in range(exps.shape[0]):
        for r in range(4):
            for c in range(4):
                out[i, exps[i, r, c], r, c] = 1


@njit(cache=True)
def afterstates_of(
    b: np.uint64,
    reward_mode: int,
    illegal_reward: float,
    exps: np.ndarray,
    rewards: np.ndarray,
    legal: np.ndarray,
) -> int:
    """The four afterstates of bitboard ``b``: for direction ``d``, the board after the move and
    before its spawn, as exponents in ``exps[d]`` (an illegal move's is ``b`` itself), the step's
    reward in ``rewards[d]`` and whether the move is legal in ``legal[d]``. Returns the mask of the
    directions left to the caller (a merge of two 32768 tiles), whose outputs are not written."""
    deferred = 0
    for d in range(4):
        moved, points, overflows = bb.play(b, d)
        if overflows:
            deferred |= 1 << d
            continue
        changed = moved != b
        legal[d] = changed
        rewards[d] = reward_of(points, reward_mode) if changed else illegal_reward
        write_exponents(moved, exps[d])
    return deferred


@njit(cache=True)
def vector_afterstates(
    state: np.ndarray, settings: np.ndarray, exps: np.ndarray, rewards: np.ndarray, legal: np.ndarray
) -> np.ndarray:
    """``afterstates_of`` for every game on the bitboard; returns each game's mask of directions
    left to the caller (all four for an exact board)."""
    options = settings[0]
    deferred = np.empty(state.shape[0], dtype=np.int64)
    for i in range(state.shape[0]):
        s = state[i]
        if s.exact:
            deferred[i] = 0b1111
        else:
            deferred[i] = afterstates_of(
                s.board, options.reward_mode, options.illegal_reward, exps[i], rewards[i], legal[i]
            )
    return deferred
