"""Compiled kernels behind the environments on boards of every size but the 4x4 (``size=(R, C)``).

The 4x4 plays on the bitboard (``twenty48.env.kernels``); every other size plays here, on
``twenty48.fast.grid`` (a board is a flat array of its R*C tile exponents, exact for every tile the
board can hold, so nothing is ever left to ``twenty48.rules``). A game is a record of ``STATE``:
``kernels.STATE``'s fields (its ``board`` unused) and the board's ``cells``. The bookkeeping of a
step is the 4x4's own (``kernels.settle``), and so are Merge 2048's spawns
(``kernels.staged_exponent``). The settings record carries the board's ``rows`` and ``cols``.

The kernels take the same arguments as the bitboard's where the environments call them alike (a
single-env step: the record and the settings as uint64 words; a vector step: the records, the
actions, the settings and the outputs), so a step costs one trip into compiled code on every size.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from twenty48 import fast
from twenty48.env import kernels
from twenty48.env.kernels import ILLEGAL, LEGAL, SETTINGS, reward_of, settle, staged_exponent
from twenty48.fast import grid
from twenty48.fast.bitboard import draw
from twenty48.rules import MAX_SIDE, Board
from twenty48.spawns import STARTING_TILES

#: Bytes a record keeps for its board: the largest board's cells, rounded up to whole uint64 words
#: (the single env hands its record to the kernel as words).
CELL_BYTES = (MAX_SIDE * MAX_SIDE + 7) // 8 * 8
#: One game: ``kernels.STATE``'s fields, then the board's exponents, row-major, in ``cells``.
STATE = np.dtype(
    [(name, kernels.STATE.fields[name][0]) for name in kernels.STATE.names]
    + [("cells", np.uint8, (CELL_BYTES,))],
    align=True,
)

_U32 = np.uint64(32)


class Outputs(NamedTuple):
    """``kernels.Outputs`` for boards of R x C."""

    exps: np.ndarray  # (N, R, C) uint8 exponents
    rewards: np.ndarray
    terminated: np.ndarray
    truncated: np.ndarray
    illegal: np.ndarray
    masks: np.ndarray
    max_tiles: np.ndarray

    @classmethod
    def empty(cls, n: int, rows: int, cols: int) -> Outputs:
        shape = kernels.Outputs.empty(0)
        return cls(
            np.empty((n, rows, cols), dtype=np.uint8),
            *(np.empty((n, *array.shape[1:]), dtype=array.dtype) for array in shape[1:]),
        )


@njit(cache=True)
def _board(s: np.void, settings: np.ndarray) -> np.ndarray:
    """The board of record ``s``: its first R*C cells."""
    return s.cells[: settings[0].rows * settings[0].cols]


@njit(cache=True)
def spawn_tile(b: np.ndarray, seed: np.uint64, index: np.uint64, staged: bool) -> None:
    """Place spawn ``index`` of game ``seed`` on ``b`` as ``Game`` does: classic odds, or with
    ``staged`` Merge 2048's, which follow the largest tile of ``b``."""
    h = draw(np.uint64(seed), np.uint64(index))
    if staged:
        grid.place_exponent(b, h, staged_exponent(np.int64(grid.max_exponent(b)), h >> _U32))
    else:
        grid.place(b, h)


@njit(cache=True)
def restart(state: np.ndarray, i: int, seed: np.uint64, settings: np.ndarray) -> None:
    """Start ``Game.new(seed, size=...)`` (of Merge 2048 with staged spawns) in game ``i``."""
    s = state[i]
    s.cells[:] = 0
    b = _board(s, settings)
    for index in range(STARTING_TILES):
        spawn_tile(b, seed, np.uint64(index), settings[0].staged_spawns)
    s.seed = seed
    s.board = 0
    s.score = 0
    s.moves = 0
    s.steps = 0
    s.illegal_streak = 0
    s.exact = False
    s.done = False


@njit(cache=True)
def step_board(
    state: np.ndarray, i: int, action: int, settings: np.ndarray
) -> tuple[int, float, bool, bool, int]:
    """Play ``action`` on the board of game ``i`` and settle the step: (outcome, reward, terminated,
    truncated, legal mask). The board moves in place: an illegal move leaves it as it was."""
    options = settings[0]
    rows, cols = options.rows, options.cols
    s = state[i]
    b = _board(s, settings)
    points, legal = grid.move(b, rows, cols, action, b)
    if legal:
        spawn_tile(b, s.seed, np.uint64(STARTING_TILES + s.moves), options.staged_spawns)
    mask = grid.legal_mask(b, rows, cols)
    reward, terminated, truncated = settle(
        state, i, legal, points, mask, np.int64(grid.max_exponent(b)), settings
    )
    return (LEGAL if legal else ILLEGAL), reward, terminated, truncated, mask


@njit(cache=True)
def write_exponents(b: np.ndarray, out: np.ndarray) -> np.int64:
    """The board's exponents into the (R, C) array ``out``; returns the largest."""
    rows, cols = out.shape
    best = np.int64(0)
    for r in range(rows):
        for c in range(cols):
            e = b[r * cols + c]
            out[r, c] = e
            best = max(best, np.int64(e))
    return best


@njit(cache=True)
def write_onehot(b: np.ndarray, out: np.ndarray) -> np.int64:
    """The board as one-hot planes into ``out`` (planes, R, C; a channel-last array's channel-first
    view too): plane k marks the cells holding 2**k, plane 0 the empty ones. Returns the largest
    exponent."""
    rows, cols = out.shape[1], out.shape[2]
    out[:] = 0
    best = np.int64(0)
    for r in range(rows):
        for c in range(cols):
            e = b[r * cols + c]
            out[e, r, c] = 1
            best = max(best, np.int64(e))
    return best


@njit(cache=True)
def describe(state: np.ndarray, i: int, settings: np.ndarray) -> tuple[int, np.int64]:
    """(legal mask, max exponent) of game ``i``'s board."""
    b = _board(state[i], settings)
    return grid.legal_mask(b, settings[0].rows, settings[0].cols), np.int64(grid.max_exponent(b))


@njit(cache=True)
def step_exponents(
    words: np.ndarray, action: int, setting_words: np.ndarray, obs: np.ndarray
) -> kernels.SingleStep:
    """``kernels.step_exponents`` on a board of another size: ``words`` is the game's ``STATE``
    record as uint64 words."""
    state = words.view(STATE)
    settings = setting_words.view(SETTINGS)
    outcome, reward, terminated, truncated, mask = step_board(state, 0, action, settings)
    s = state[0]
    e = write_exponents(_board(s, settings), obs)
    return outcome, reward, terminated, truncated, mask, e, s.score, s.moves, s.seed


@njit(cache=True)
def step_onehot(
    words: np.ndarray, action: int, setting_words: np.ndarray, obs: np.ndarray
) -> kernels.SingleStep:
    """``step_exponents`` with a one-hot observation (``obs`` may be a channel-last array's
    channel-first view)."""
    state = words.view(STATE)
    settings = setting_words.view(SETTINGS)
    outcome, reward, terminated, truncated, mask = step_board(state, 0, action, settings)
    s = state[0]
    e = write_onehot(_board(s, settings), obs)
    return outcome, reward, terminated, truncated, mask, e, s.score, s.moves, s.seed


@njit(cache=True)
def _observe(state: np.ndarray, i: int, legal: int, settings: np.ndarray, out: Outputs) -> None:
    e = write_exponents(_board(state[i], settings), out.exps[i])
    for d in range(4):
        out.masks[i, d] = (legal >> d) & 1
    out.max_tiles[i] = (np.int64(1) << e) if e else 0


@njit(cache=True)
def vector_observe(state: np.ndarray, which: np.ndarray, settings: np.ndarray, out: Outputs) -> None:
    """Write observation, legal moves and max tile of the games ``which``."""
    options = settings[0]
    for k in range(which.shape[0]):
        i = which[k]
        _observe(
            state, i, grid.legal_mask(_board(state[i], settings), options.rows, options.cols), settings, out
        )


@njit(cache=True)
def vector_new_games(state: np.ndarray, which: np.ndarray, seeds: np.ndarray, settings: np.ndarray) -> None:
    """Start ``Game.new(seeds[k], size=...)`` in game ``which[k]``."""
    for k in range(which.shape[0]):
        restart(state, which[k], np.uint64(seeds[k]), settings)


@njit(cache=True, nogil=True)
def vector_step(
    state: np.ndarray, actions: np.ndarray, settings: np.ndarray, autoreset_next_step: bool, out: Outputs
) -> None:
    """``kernels.vector_step`` on boards of another size: every game steps here (none is left to
    the caller). It runs without the GIL, so that slices of the games step on several cores at
    once (``twenty48.env.vector``)."""
    options = settings[0]
    for i in range(state.shape[0]):
        s = state[i]
        if autoreset_next_step and s.done:
            restart(state, i, kernels.next_seed(s.seed), settings)
            out.rewards[i] = 0.0
            out.terminated[i] = False
            out.truncated[i] = False
            out.illegal[i] = False
            _observe(
                state, i, grid.legal_mask(_board(s, settings), options.rows, options.cols), settings, out
            )
            continue
        outcome, reward, terminated, truncated, mask = step_board(state, i, actions[i], settings)
        out.rewards[i] = reward
        out.terminated[i] = terminated
        out.truncated[i] = truncated
        out.illegal[i] = outcome == ILLEGAL
        _observe(state, i, mask, settings, out)


@njit(cache=True)
def onehot_from_exponents(exps: np.ndarray, out: np.ndarray) -> None:
    """(N, R, C) exponents -> (N, planes, R, C) one-hot planes."""
    out[:] = 0
    for i in range(exps.shape[0]):
        for r in range(exps.shape[1]):
            for c in range(exps.shape[2]):
                out[i, exps[i, r, c], r, c] = 1


@njit(cache=True)
def afterstates(
    state: np.ndarray, i: int, settings: np.ndarray, exps: np.ndarray, rewards: np.ndarray, legal: np.ndarray
) -> None:
    """The four afterstates of game ``i`` (``kernels.afterstates_of``): for direction ``d``, the board
    after the move and before its spawn in ``exps[d]`` (R, C), the step's reward in ``rewards[d]``
    and whether the move is legal in ``legal[d]``."""
    options = settings[0]
    b = _board(state[i], settings)
    moved = np.empty_like(b)
    for d in range(4):
        points, changed = grid.move(b, options.rows, options.cols, d, moved)
        legal[d] = changed
        rewards[d] = reward_of(points, options.reward_mode) if changed else options.illegal_reward
        write_exponents(moved, exps[d])


@njit(cache=True)
def vector_afterstates(
    state: np.ndarray, settings: np.ndarray, exps: np.ndarray, rewards: np.ndarray, legal: np.ndarray
) -> None:
    """``afterstates`` of every game."""
    for i in range(state.shape[0]):
        afterstates(state, i, settings, exps[i], rewards[i], legal[i])


def prepare(state: np.ndarray, which: np.ndarray, board: Board, score: int) -> None:
    """Put a prepared ``board`` with ``score`` in the games ``which`` (just restarted)."""
    state["cells"][which, : board.size.cells] = fast.to_grid(board)
    state["score"][which] = score
