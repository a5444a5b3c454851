"""The expectimax kernel, compiled with numba and run without the GIL.

``chance_value(b, depth, ...)`` is the expected evaluation of a board ``b`` that a move
has just produced (a tile is about to spawn), searched ``depth`` rounds deep: a round is
every spawn (each empty cell, 2 with probability 0.9 and 4 with 0.1) followed by the best
move; after the last round the board is scored by the heuristic table. A position with
no legal move scores ``lost``. The caller plays the root move, so a
root move searched with ``depth = D`` is exactly nneonneo/2048-ai's ``depth_limit = D``.

Two prunings keep it fast, both as in nneonneo/2048-ai and both optional so the tests
can compare the kernel with a plain expectimax:

* a branch whose probability of being reached falls below ``threshold`` is scored by the
  heuristic at once (``threshold = 0`` disables this);
* a transposition table remembers the value of (board, rounds left) within one search.
  Entries carry the search's ``stamp``, so starting a new search needs no clearing.

Inside the tree a move that would merge two 32768 tiles (a 65536, which 4 bits cannot
hold) is not explored; the caller handles such a move exactly when it is the root move.

``control`` steers a search from outside: ``control[NODES]`` counts the chance nodes
expanded; reaching ``control[LIMIT]`` sets ``control[STOP]``, and so does a watchdog thread
when time is up. Once it is set, the kernel unwinds at once with meaningless values that
the caller discards.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from twenty48.fast.bitboard import (
    DOWN,
    LEFT,
    ROW_LEFT,
    ROW_RIGHT,
    UP,
    count_empty,
    empty_mask,
    map_rows,
    move_overflows,
    transpose,
)

STOP = 0
NODES = 1
LIMIT = 2

#: Transposition-table entry: one cache line holds two and a half of them.
ENTRY = np.dtype(
    [("key", np.uint64), ("value", np.float64), ("stamp", np.uint32), ("depth", np.int32)], align=True
)


def new_control(limit: int | None = None) -> np.ndarray:
    """A fresh control block: not stopped, no node counted, at most ``limit`` nodes (or no limit)."""
    control = np.zeros(3, dtype=np.int64)
    control[LIMIT] = np.iinfo(np.int64).max if limit is None else limit
    return control


_ROW = np.uint64(0xFFFF)
_ONES = np.uint64(0x1111111111111111)
_U1 = np.uint64(1)
_U2 = np.uint64(2)
_U3 = np.uint64(3)
_U16 = np.uint64(16)
_U32 = np.uint64(32)
_U48 = np.uint64(48)
_HASH_MUL = np.uint64(0x9E3779B97F4A7C15)
_DEPTH_MIX = np.uint64(0xD6E8FEB86659FD93)


@njit(cache=True, nogil=True)
def _score(b: np.uint64, t: np.uint64, table: np.ndarray) -> float:
    """The heuristic from a board's rows (``b``) and its columns (``t``, the transposed board)."""
    return (
        table[b & _ROW]
        + table[(b >> _U16) & _ROW]
        + table[(b >> _U32) & _ROW]
        + table[(b >> _U48) & _ROW]
        + table[t & _ROW]
        + table[(t >> _U16) & _ROW]
        + table[(t >> _U32) & _ROW]
        + table[(t >> _U48) & _ROW]
    )


@njit(cache=True, nogil=True)
def evaluate(b: np.uint64, table: np.ndarray) -> float:
    """The heuristic value of a board: its four rows plus its four columns."""
    b = np.uint64(b)
    return _score(b, transpose(b), table)


@njit(cache=True, nogil=True)
def _has_32768(b: np.uint64) -> bool:
    return (b & (b >> _U1) & (b >> _U2) & (b >> _U3) & _ONES) != 0


@njit(cache=True, nogil=True)
def chance_value(
    b: np.uint64,
    depth: int,
    cprob: float,
    threshold: float,
    table: np.ndarray,
    lost: float,
    tt: np.ndarray,
    stamp: int,
    control: np.ndarray,
) -> float:
    """Expected value of the after-move board ``b`` with ``depth`` rounds to search."""
    b = np.uint64(b)
    if depth <= 0 or cprob < threshold:
        return evaluate(b, table)
    if control[STOP] or control[NODES] >= control[LIMIT]:
        control[STOP] = 1
        return 0.0
    control[NODES] += 1
    use_tt = tt.shape[0] > 0
    slot = 0
    if use_tt:
        mixed = (b ^ (np.uint64(depth) * _DEPTH_MIX)) * _HASH_MUL
        slot = np.int64(mixed >> np.uint64(32)) & (tt.shape[0] - 1)
        entry = tt[slot]
        if entry.stamp == stamp and entry.key == b and entry.depth == depth:
            return entry.value
    empties = count_empty(b)
    if empties == 0:
        return evaluate(b, table)
    cprob /= empties
    big = _has_32768(b)
    free = empty_mask(b)
    total = 0.0
    for i in range(16):
        shift = np.uint64(4 * i)
        if not (free >> shift) & _U1:
            continue
        for exponent, p in ((_U1, 0.9), (_U2, 0.1)):
            spawned = b | (exponent << shift)
            spawned_t = transpose(spawned)
            child_p = cprob * p
            leaf = depth == 1 or child_p < threshold
            best = -np.inf
            for d in range(4):
                # Each child is computed in both orientations for one transpose: rows slide
                # left/right on the board, columns slide up/down as rows of the transposed board.
                if d == UP:
                    moved_t = map_rows(spawned_t, ROW_LEFT)
                    if moved_t == spawned_t:
                        continue
                    moved = transpose(moved_t)
                elif d == DOWN:
                    moved_t = map_rows(spawned_t, ROW_RIGHT)
                    if moved_t == spawned_t:
                        continue
                    moved = transpose(moved_t)
                else:
                    moved = map_rows(spawned, ROW_LEFT if d == LEFT else ROW_RIGHT)
                    if moved == spawned:
                        continue
                    moved_t = transpose(moved)
                if big and move_overflows(spawned, d):
                    continue
                if leaf:
                    value = _score(moved, moved_t, table)
                else:
                    value = chance_value(
                        moved, depth - 1, child_p, threshold, table, lost, tt, stamp, control
                    )
                if value > best:
                    best = value
            if best == -np.inf:
                best = lost
            total += p * best
    value = total / empties
    if use_tt:
        tt[slot].key = b
        tt[slot].value = value
        tt[slot].stamp = stamp
        tt[slot].depth = depth
    return value
