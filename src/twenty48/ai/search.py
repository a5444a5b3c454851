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
from numba.cpython.unsafe.numbers import trailing_zeros

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
_U4 = np.uint64(4)
_NIBBLE = np.uint64(0xF)
_COLUMN = np.uint64(0x000F000F000F000F)
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
def _lines_with(s: float, v0: float, v1: float, v2: float, v3: float, k: np.uint64, x: float) -> float:
    """``s + v0 + v1 + v2 + v3`` with ``v[k]`` replaced by ``x``, added in that order, without a
    branch (which line a spawn changes is different from one spawn to the next)."""
    return s + (x if k == 0 else v0) + (x if k == 1 else v1) + (x if k == 2 else v2) + (x if k == 3 else v3)


@njit(cache=True, nogil=True)
def _first_lines_with(v0: float, v1: float, v2: float, v3: float, k: np.uint64, x: float) -> float:
    """``v0 + v1 + v2 + v3`` with ``v[k]`` replaced by ``x``, added in that order, without a branch."""
    return (x if k == 0 else v0) + (x if k == 1 else v1) + (x if k == 2 else v2) + (x if k == 3 else v3)


@njit(cache=True, nogil=True)
def _rows(b: np.uint64, table: np.ndarray) -> float:
    """The first half of ``_score``: the four rows of ``b``, added in order."""
    return table[b & _ROW] + table[(b >> _U16) & _ROW] + table[(b >> _U32) & _ROW] + table[(b >> _U48) & _ROW]


@njit(cache=True, nogil=True)
def _plus_rows(s: float, b: np.uint64, table: np.ndarray) -> float:
    """``s`` plus the four rows of ``b``, added in order: the second half of ``_score``."""
    return (
        s
        + table[b & _ROW]
        + table[(b >> _U16) & _ROW]
        + table[(b >> _U32) & _ROW]
        + table[(b >> _U48) & _ROW]
    )


@njit(cache=True, nogil=True)
def _spread(line: np.uint64) -> np.uint64:
    """A 16-bit line as column 0 of a board: nibble ``j`` to cell ``4 * j``, for ``transpose``'s
    part in one line."""
    return (
        (line & _NIBBLE)
        | ((line & np.uint64(0xF0)) << np.uint64(12))
        | ((line & np.uint64(0xF00)) << np.uint64(24))
        | ((line & np.uint64(0xF000)) << np.uint64(36))
    )


@njit(cache=True, nogil=True)
def _leaf_lines(b: np.uint64, table: np.ndarray) -> tuple[float, float, float, float]:
    return table[b & _ROW], table[(b >> _U16) & _ROW], table[(b >> _U32) & _ROW], table[(b >> _U48) & _ROW]


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
    bt = transpose(b)
    # A spawn changes one row and one column, so every move of a spawned board is this board moved
    # the same way with one line slid anew: four row lookups become one. The lines a spawn leaves
    # alone keep their heuristic values as well; a leaf reads only the new ones and adds them all up
    # in ``_score``'s order (rows, then columns), so every value is the same to the last bit.
    left = map_rows(b, ROW_LEFT)
    right = map_rows(b, ROW_RIGHT)
    up_t = map_rows(bt, ROW_LEFT)
    down_t = map_rows(bt, ROW_RIGHT)
    # The same four boards in the other orientation; a spawn changes one column of each.
    left_t = transpose(left)
    right_t = transpose(right)
    up = transpose(up_t)
    down = transpose(down_t)
    # Children that are leaves (all of them one round from the end): the value of each line of
    # the board moved each way, rows for left and right, columns for up and down.
    some_leaves = depth == 1 or cprob * 0.1 < threshold
    l0 = l1 = l2 = l3 = r0 = r1 = r2 = r3 = u0 = u1 = u2 = u3 = d0 = d1 = d2 = d3 = 0.0
    if some_leaves:
        l0, l1, l2, l3 = _leaf_lines(left, table)
        r0, r1, r2, r3 = _leaf_lines(right, table)
        u0, u1, u2, u3 = _leaf_lines(up_t, table)
        d0, d1, d2, d3 = _leaf_lines(down_t, table)
    total = 0.0
    free = empty_mask(b)
    while free:
        # Empty cells in ascending order, as the sum below must add them.
        shift = np.uint64(trailing_zeros(free))
        free &= free - _U1
        row_index = shift >> _U4
        col_index = (shift >> _U2) & _U3
        row_shift = row_index << _U4
        col_shift = col_index << _U4
        keep_row = ~(_ROW << row_shift)
        keep_col = ~(_ROW << col_shift)
        # Column ``c`` of a board, as cells ``4 * j + c``: where a moved row ``r`` lands transposed.
        keep_col_t = ~(_COLUMN << (row_index << _U2))
        keep_row_t = ~(_COLUMN << (col_index << _U2))
        shift_t = (col_index << _U4) | (row_index << _U2)
        for exponent, p in ((_U1, 0.9), (_U2, 0.1)):
            spawned = b | (exponent << shift)
            spawned_t = bt | (exponent << shift_t)
            row = (spawned >> row_shift) & _ROW
            col = (spawned_t >> col_shift) & _ROW
            child_p = cprob * p
            # Up and down slide the columns, which are the rows of the transposed board.
            line_up = np.uint64(ROW_LEFT[col])
            line_down = np.uint64(ROW_RIGHT[col])
            line_left = np.uint64(ROW_LEFT[row])
            line_right = np.uint64(ROW_RIGHT[row])
            moved_up_t = (up_t & keep_col) | (line_up << col_shift)
            moved_down_t = (down_t & keep_col) | (line_down << col_shift)
            moved_left = (left & keep_row) | (line_left << row_shift)
            moved_right = (right & keep_row) | (line_right << row_shift)
            moved_up = (up & keep_row_t) | (_spread(line_up) << (col_index << _U2))
            moved_down = (down & keep_row_t) | (_spread(line_down) << (col_index << _U2))
            moved_left_t = (left_t & keep_col_t) | (_spread(line_left) << (row_index << _U2))
            moved_right_t = (right_t & keep_col_t) | (_spread(line_right) << (row_index << _U2))
            best = -np.inf
            if (depth == 1 or child_p < threshold) and not big:
                # Scoring all four moves and dropping the illegal ones costs less than the
                # mispredicted branches that would skip them.
                value = _lines_with(_rows(moved_up, table), u0, u1, u2, u3, col_index, table[line_up])
                best = value if moved_up_t != spawned_t else best
                value = _lines_with(_rows(moved_down, table), d0, d1, d2, d3, col_index, table[line_down])
                best = value if moved_down_t != spawned_t and value > best else best
                value = _plus_rows(
                    _first_lines_with(l0, l1, l2, l3, row_index, table[line_left]), moved_left_t, table
                )
                best = value if moved_left != spawned and value > best else best
                value = _plus_rows(
                    _first_lines_with(r0, r1, r2, r3, row_index, table[line_right]), moved_right_t, table
                )
                best = value if moved_right != spawned and value > best else best
            else:
                for d in range(4):
                    if d == UP:
                        moved, moved_t = moved_up, moved_up_t
                    elif d == DOWN:
                        moved, moved_t = moved_down, moved_down_t
                    elif d == LEFT:
                        moved, moved_t = moved_left, moved_left_t
                    else:
                        moved, moved_t = moved_right, moved_right_t
                    if moved == spawned:
                        continue
                    if big and move_overflows(spawned, d):
                        continue
                    if depth == 1 or child_p < threshold:
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
