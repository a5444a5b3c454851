"""Seeded continuations: the solver at depth 1 playing positions on, compiled with numba.

A continuation plays a position on until the board holds the target tile (it *reached* it), no
move is left, or it has played its cap of moves. Each move is the solver's best at depth 1
(``policy``: ``best_move(board, depth=1)``, the same values from the same kernel, ties to the first
direction in ``Direction`` order); each spawn is classic (2 or 4, on a uniformly drawn empty cell)
and drawn from the continuation's own SplitMix64 *stream*: the spawn that follows the move at
*time* ``t`` is ``draw(stream, t)``, placed as a game places its spawns. Time counts the moves of
the game and then of the continuation: a continuation from the position after the game's ``n``-th
move plays its first move at time ``n``. Kernels run without the GIL, so streams spread over threads.

Two facts make continuations cheap:

* The sum of the tiles grows by exactly the spawned values, whatever the moves, so the sum at time
  ``t`` is known from the stream alone (``stream_sums``): a continuation whose spawns cannot bring
  the sum up to the target before its cap cannot reach it, and is not played.
* The future of a continuation depends only on its board, its time and its stream. Each stream
  remembers, for every time, the board its last continuation held then and how that one ended
  (``boards``, ``ends``); a continuation that meets such a board at the same time ends as that one
  did without playing on. Continuations of neighbouring positions of a game often merge this way.

A move that would merge two 32768 tiles (a 65536, which 4 bits cannot hold) ends a continuation:
it reaches a 65536 target and no other (``twenty48.ai.chance``).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from twenty48.ai.search import STOP, chance_value
from twenty48.fast.bitboard import draw, legal_mask, max_exponent, move, move_overflows, place

_U32 = np.uint64(32)
_U10 = np.uint64(10)
_NIBBLE = np.uint64(0xF)
_OVERFLOW_EXPONENT = 16
#: How ``ends`` records a continuation's end: the time ``t >= 0`` of the move that reached the
#: target; ``-1 - t`` when it stopped at time ``t`` without it (no move left, or a 65536 that is
#: not the target); ``_CUT - t`` when its cap ended it, alive, at time ``t``.
_CUT = np.int64(-(1 << 40))


@njit("int64(uint64)", cache=True, nogil=True)
def board_sum(b: np.uint64) -> np.int64:
    """The sum of the tiles of bitboard ``b``."""
    total = np.int64(0)
    for i in range(16):
        e = (b >> np.uint64(4 * i)) & _NIBBLE
        if e:
            total += np.int64(1) << np.int64(e)
    return total


@njit("void(uint64[:], int64[:, :])", cache=True, nogil=True)
def stream_sums(streams: np.ndarray, sums: np.ndarray) -> None:
    """``sums[k, t]``: the values of the spawns at times ``0 .. t - 1`` of stream ``streams[k]``
    (the value ``place`` gives: 4 when ``((hi * 10) >> 32) == 0``, else 2)."""
    for k in range(streams.shape[0]):
        total = np.int64(0)
        sums[k, 0] = 0
        for t in range(sums.shape[1] - 1):
            hi = draw(streams[k], np.uint64(t)) >> _U32
            total += 4 if ((hi * _U10) >> _U32) == 0 else 2
            sums[k, t + 1] = total
    return


@njit(cache=True, nogil=True, _nrt=False)
def policy(
    b: np.uint64, threshold: float, table: np.ndarray, lost: float, tt: np.ndarray, control: np.ndarray
) -> int:
    """The solver's move at depth 1 (-1 when none is legal): ``analyse(board, depth=1).best``."""
    best = -np.inf
    chosen = -1
    for d in range(4):
        moved = move(b, d)
        if moved == b:
            continue
        value = chance_value(moved, 1, 1.0, threshold, table, lost, tt, 1, control)
        if value > best:
            best = value
            chosen = d
    return chosen


@njit(cache=True, nogil=True, _nrt=False)
def _play_on(
    b: np.uint64,
    first: int,
    end: int,
    target_exponent: int,
    stream: np.uint64,
    boards: np.ndarray,
    ends: np.ndarray,
    threshold: float,
    table: np.ndarray,
    lost: float,
    tt: np.ndarray,
    control: np.ndarray,
) -> int:
    """One continuation from ``b`` at time ``first`` that may play until time ``end``: 1 when it
    reaches the target, 0 when not, -1 when ``control`` told it to stop. ``boards`` and ``ends`` are
    its stream's memory (see the module docstring), read and brought up to date."""
    t = first
    while True:
        if boards[t] == b:
            code = ends[t]
            if code >= 0:
                return _close(boards, ends, first, t, code, 1 if code < end else 0)
            if code > _CUT or _CUT - code >= end:
                return _close(boards, ends, first, t, code, 0)
            # It was cut before this one's cap: play on from here.
        if t == end:
            return _close(boards, ends, first, t, _CUT - t, 0)
        if control[STOP]:
            # Forget the boards this one held: how it would have ended is not known.
            boards[first:t] = 0
            return -1
        boards[t] = b
        mask = legal_mask(b)
        if mask == 0:
            return _close(boards, ends, first, t + 1, -1 - t, 0)
        if max_exponent(b) == 15:
            for d in range(4):
                if (mask >> d) & 1 and move_overflows(b, d):
                    if target_exponent == _OVERFLOW_EXPONENT:
                        return _close(boards, ends, first, t + 1, t, 1)
                    return _close(boards, ends, first, t + 1, -1 - t, 0)
        b = move(b, policy(b, threshold, table, lost, tt, control))
        if max_exponent(b) >= target_exponent:
            return _close(boards, ends, first, t + 1, t, 1)
        b = place(b, draw(stream, np.uint64(t)))
        t += 1


@njit(cache=True, nogil=True, _nrt=False, inline="always")
def _close(boards: np.ndarray, ends: np.ndarray, first: int, stop: int, code: np.int64, result: int) -> int:
    """Record how the continuation that held ``boards[first:stop]`` ended; ``result``."""
    for t in range(first, stop):
        ends[t] = code
    return result


@njit(cache=True, nogil=True, _nrt=False)
def count_reached(
    b: np.uint64,
    first: int,
    cap: int,
    target_exponent: int,
    streams: np.ndarray,
    sums: np.ndarray,
    boards: np.ndarray,
    ends: np.ndarray,
    threshold: float,
    table: np.ndarray,
    lost: float,
    tt: np.ndarray,
    control: np.ndarray,
) -> int:
    """How many of the continuations of position ``b`` at time ``first``, one per stream of
    ``streams`` (with their ``stream_sums`` and memories, row by row), reach the target within
    ``cap`` moves; -1 when ``control`` told them to stop."""
    if max_exponent(b) >= target_exponent:
        return streams.shape[0]
    end = first + cap
    need = (np.int64(1) << np.int64(target_exponent)) - board_sum(b)
    reached = 0
    for k in range(streams.shape[0]):
        # The target can form on the move at time end - 1 at the latest, with the sum it then has.
        if sums[k, end - 1] - sums[k, first] < need:
            continue
        result = _play_on(
            b,
            first,
            end,
            target_exponent,
            streams[k],
            boards[k],
            ends[k],
            threshold,
            table,
            lost,
            tt,
            control,
        )
        if result < 0:
            return -1
        reached += result
    return reached
