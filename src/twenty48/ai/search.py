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

Nearly all the work is in the last round, where every child is a leaf: ``_last_round`` builds the
children from the node's board moved once each way and reads the heuristic only for the lines a spawn
changed (``twenty48.ai.lines``), and deeper nodes prefetch their children's table entries. The tree and
the arithmetic are those of the plain search, so the values are the same to the last bit.

Inside the tree a move that would merge two 32768 tiles (a 65536, which 4 bits cannot
hold) is not explored; the caller handles such a move exactly when it is the root move.

``control`` steers a search from outside: ``control[NODES]`` counts the chance nodes
expanded; reaching ``control[LIMIT]`` sets ``control[STOP]``, and so does a watchdog thread
when time is up. Once it is set, the kernel unwinds at once with meaningless values that
the caller discards. A search may also be paced: with ``control[EVERY]`` set, it sleeps
``control[PAUSE]`` microseconds (when positive, set by another thread at any time) after each
``control[EVERY]`` nodes, so that it can leave the CPU to a busy server without stopping. The
hot path tests one threshold, ``control[CHECK]``: the nearer of the limit and the next pause.
Pausing changes when the nodes are expanded, never which: the values and counts stay the same.
"""

from __future__ import annotations

import sys

import numpy as np
from numba import njit, types
from numba.cpython.unsafe.numbers import trailing_zeros

from twenty48.ai.lines import line_values, plus_lines_with, plus_rows, rows, split_lines, spread
from twenty48.ai.prefetch import prefetch
from twenty48.fast.bitboard import (
    DOWN,
    LEFT,
    ROW_LEFT,
    ROW_RIGHT,
    UP,
    count_empty,
    empty_mask,
    map_rows,
    move,
    move_overflows,
    transpose,
)

STOP = 0
NODES = 1
LIMIT = 2
#: The node count at which the kernel next looks at the limit and the pace (see ``limit``).
CHECK = 3
#: Nodes between two pauses (0: never pause) and the microseconds each pause lasts (0: none now).
EVERY = 4
PAUSE = 5

#: Transposition-table entry: one cache line holds two and a half of them.
ENTRY = np.dtype(
    [("key", np.uint64), ("value", np.float64), ("stamp", np.uint32), ("depth", np.int32)], align=True
)


_NO_LIMIT = int(np.iinfo(np.int64).max)


def new_control(limit: int | None = None, every: int = 0) -> np.ndarray:
    """A fresh control block: not stopped, no node counted, at most ``limit`` nodes (or no limit),
    paced every ``every`` nodes (0: never)."""
    most = _NO_LIMIT if limit is None else limit
    return np.array((0, 0, most, 0, every, 0), dtype=np.int64)


def limit(control: np.ndarray, nodes: int) -> None:
    """Let the search go on until ``control[NODES]`` reaches ``nodes``."""
    control[LIMIT] = nodes
    control[CHECK] = 0  # the next node looks at the new limit and sets the next check


if sys.platform == "win32":
    _sleep_ms = types.ExternalFunction("Sleep", types.void(types.uint32))

    @njit(cache=True, nogil=True, _nrt=False)
    def _sleep(microseconds: int) -> None:
        _sleep_ms(np.uint32(max(1, microseconds // 1000)))

else:
    # libc's, called without the GIL; resolved by name when the kernel loads, so numba's cache holds.
    _usleep = types.ExternalFunction("usleep", types.int32(types.uint32))

    @njit(cache=True, nogil=True, _nrt=False)
    def _sleep(microseconds: int) -> None:
        _usleep(np.uint32(microseconds))


@njit(cache=True, nogil=True, _nrt=False)
def _checkpoint(control: np.ndarray) -> bool:
    """``_enter``'s rare case (``control[CHECK]`` reached or a stop asked): True to stop; otherwise
    pause if asked to and set the next check."""
    if control[STOP] or control[NODES] >= control[LIMIT]:
        control[STOP] = 1
        return True
    if control[EVERY] == 0:
        control[CHECK] = control[LIMIT]
        return False
    if control[PAUSE] > 0:
        _sleep(control[PAUSE])
    control[CHECK] = min(control[LIMIT], control[NODES] + control[EVERY])
    return False


_ROW = np.uint64(0xFFFF)
_ONES = np.uint64(0x1111111111111111)
_U1 = np.uint64(1)
_U2 = np.uint64(2)
_U3 = np.uint64(3)
_U4 = np.uint64(4)
_COLUMN = np.uint64(0x000F000F000F000F)
_U16 = np.uint64(16)
_U32 = np.uint64(32)
_U48 = np.uint64(48)
_HASH_MUL = np.uint64(0x9E3779B97F4A7C15)
_DEPTH_MIX = np.uint64(0xD6E8FEB86659FD93)


@njit(cache=True, nogil=True, _nrt=False)
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


@njit(cache=True, nogil=True, _nrt=False)
def evaluate(b: np.uint64, table: np.ndarray) -> float:
    """The heuristic value of a board: its four rows plus its four columns."""
    b = np.uint64(b)
    return _score(b, transpose(b), table)


@njit(cache=True, nogil=True, _nrt=False)
def _has_32768(b: np.uint64) -> bool:
    return (b & (b >> _U1) & (b >> _U2) & (b >> _U3) & _ONES) != 0


@njit(cache=True, nogil=True, _nrt=False, inline="always")
def _slot(b: np.uint64, depth: int, size: int) -> int:
    """Where (board, rounds left) lives in a table of ``size`` entries, a power of two."""
    mixed = (b ^ (np.uint64(depth) * _DEPTH_MIX)) * _HASH_MUL
    return np.int64(mixed >> np.uint64(32)) & (size - 1)


@njit(cache=True, nogil=True, _nrt=False)
def _prefetch_children(b: np.uint64, depth: int, cprob: float, threshold: float, tt: np.ndarray) -> None:
    """Start loading the table entries of every chance node below ``b`` (``depth`` rounds left):
    a random entry in a large table is a cache miss, and the children's misses then overlap each
    other and the work on the first children instead of coming one after another."""
    if tt.shape[0] == 0:
        return
    base = tt.ctypes.data
    free = empty_mask(b)
    while free:
        shift = np.uint64(trailing_zeros(free))
        free &= free - _U1
        for exponent, p in ((_U1, 0.9), (_U2, 0.1)):
            if cprob * p < threshold:
                continue
            spawned = b | (exponent << shift)
            for d in range(4):
                moved = move(spawned, d)
                if moved != spawned:
                    prefetch(base + np.uintp(_slot(moved, depth - 1, tt.shape[0]) * tt.itemsize))


@njit(cache=True, nogil=True, _nrt=False, inline="always")
def _enter(
    b: np.uint64, depth: int, tt: np.ndarray, stamp: int, control: np.ndarray
) -> tuple[bool, float, int]:
    """A chance node's bookkeeping: count it, or stop the search once it may not go on; then look it
    up. ``(done, value, slot)``: ``done`` with its value when stopped or found in the table."""
    if (control[STOP] or control[NODES] >= control[CHECK]) and _checkpoint(control):
        return True, 0.0, 0
    control[NODES] += 1
    if tt.shape[0] == 0:
        return False, 0.0, 0
    slot = _slot(b, depth, tt.shape[0])
    entry = tt[slot]
    if entry.stamp == stamp and entry.key == b and entry.depth == depth:
        return True, entry.value, slot
    return False, 0.0, slot


@njit(cache=True, nogil=True, _nrt=False, inline="always")
def _leave(b: np.uint64, depth: int, value: float, tt: np.ndarray, stamp: int, slot: int) -> float:
    if tt.shape[0] > 0:
        tt[slot].key = b
        tt[slot].value = value
        tt[slot].stamp = stamp
        tt[slot].depth = depth
    return value


@njit(cache=True, nogil=True, _nrt=False)
def _last_round(
    b: np.uint64, table: np.ndarray, lost: float, tt: np.ndarray, stamp: int, control: np.ndarray
) -> float:
    """``chance_value`` with one round left: every child is a leaf, whatever its probability.

    A spawn changes one row and one column, so each move of a spawned board is this board moved the
    same way with one line slid anew (one row lookup instead of four), and the lines a spawn leaves
    alone keep their heuristic values: a leaf reads only its new lines' values and adds them all up
    in ``_score``'s order (rows, then columns), so every value is the same to the last bit."""
    done, value, slot = _enter(b, 1, tt, stamp, control)
    if done:
        return value
    empties = count_empty(b)
    if empties == 0:
        # Not stored: a full board is no work to score again.
        return evaluate(b, table)
    if _has_32768(b):
        # Rare enough to take the plain path, which leaves out moves that would make a 65536.
        return _leave(b, 1, _plain_last_round(b, empties, table, lost), tt, stamp, slot)
    bt = transpose(b)
    left = map_rows(b, ROW_LEFT)
    right = map_rows(b, ROW_RIGHT)
    up_t = map_rows(bt, ROW_LEFT)
    down_t = map_rows(bt, ROW_RIGHT)
    left_t = transpose(left)
    right_t = transpose(right)
    up = transpose(up_t)
    down = transpose(down_t)
    # The line values of each moved board: rows for left and right, columns for up and down.
    lv = line_values(left, table)
    rv = line_values(right, table)
    uv = line_values(up_t, table)
    dv = line_values(down_t, table)
    total = 0.0
    free = empty_mask(b)
    while free:
        # The empty cells in ascending order, the order their values are added up in.
        shift = np.uint64(trailing_zeros(free))
        free &= free - _U1
        r = shift >> _U4
        c = (shift >> _U2) & _U3
        row_shift = r << _U4
        col_shift = c << _U4
        keep_row = ~(_ROW << row_shift)
        keep_col = ~(_ROW << col_shift)
        # Row r of a board is its column r transposed, spread over cells 4 * j + r.
        keep_row_t = ~(_COLUMN << (r << _U2))
        keep_col_t = ~(_COLUMN << (c << _U2))
        shift_t = (c << _U4) | (r << _U2)
        lp, la, lb, lc = split_lines(lv, r)
        rp, ra, rb, rc = split_lines(rv, r)
        for exponent, p in ((_U1, 0.9), (_U2, 0.1)):
            spawned = b | (exponent << shift)
            spawned_t = bt | (exponent << shift_t)
            row = (spawned >> row_shift) & _ROW
            col = (spawned_t >> col_shift) & _ROW
            # Up and down slide the columns, which are the rows of the transposed board.
            line = np.uint64(ROW_LEFT[col])
            moved_t = (up_t & keep_col) | (line << col_shift)
            value = plus_lines_with(
                rows((up & keep_col_t) | (spread(line) << (c << _U2)), table), uv, c, table[line]
            )
            # Scoring all four moves and dropping the illegal ones costs less than the mispredicted
            # branches that would skip them.
            best = value if moved_t != spawned_t else -np.inf
            line = np.uint64(ROW_RIGHT[col])
            moved_t = (down_t & keep_col) | (line << col_shift)
            value = plus_lines_with(
                rows((down & keep_col_t) | (spread(line) << (c << _U2)), table), dv, c, table[line]
            )
            best = value if moved_t != spawned_t and value > best else best
            line = np.uint64(ROW_LEFT[row])
            moved = (left & keep_row) | (line << row_shift)
            value = plus_rows(
                lp + table[line] + la + lb + lc, (left_t & keep_row_t) | (spread(line) << (r << _U2)), table
            )
            best = value if moved != spawned and value > best else best
            line = np.uint64(ROW_RIGHT[row])
            moved = (right & keep_row) | (line << row_shift)
            value = plus_rows(
                rp + table[line] + ra + rb + rc, (right_t & keep_row_t) | (spread(line) << (r << _U2)), table
            )
            best = value if moved != spawned and value > best else best
            total += p * (lost if best == -np.inf else best)
    return _leave(b, 1, total / empties, tt, stamp, slot)


@njit(cache=True, nogil=True, _nrt=False)
def _plain_last_round(b: np.uint64, empties: int, table: np.ndarray, lost: float) -> float:
    """The last round spawn by spawn and move by move, leaving out moves that would make a 65536."""
    total = 0.0
    free = empty_mask(b)
    while free:
        shift = np.uint64(trailing_zeros(free))
        free &= free - _U1
        for exponent, p in ((_U1, 0.9), (_U2, 0.1)):
            spawned = b | (exponent << shift)
            best = -np.inf
            for d in range(4):
                moved = move(spawned, d)
                if moved != spawned and not move_overflows(spawned, d):
                    best = max(best, evaluate(moved, table))
            total += p * (lost if best == -np.inf else best)
    return total / empties


@njit(cache=True, nogil=True, _nrt=False)
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
    if depth == 1:
        return _last_round(b, table, lost, tt, stamp, control)
    done, value, slot = _enter(b, depth, tt, stamp, control)
    if done:
        return value
    empties = count_empty(b)
    if empties == 0:
        return evaluate(b, table)
    cprob /= empties
    _prefetch_children(b, depth, cprob, threshold, tt)
    big = _has_32768(b)
    free = empty_mask(b)
    total = 0.0
    while free:
        # The empty cells in ascending order, the order their values are added up in.
        shift = np.uint64(trailing_zeros(free))
        free &= free - _U1
        for exponent, p in ((_U1, 0.9), (_U2, 0.1)):
            spawned = b | (exponent << shift)
            spawned_t = transpose(spawned)
            child_p = cprob * p
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
                if child_p < threshold:
                    value = _score(moved, moved_t, table)
                elif depth == 2:
                    value = _last_round(moved, table, lost, tt, stamp, control)
                else:
                    value = chance_value(
                        moved, depth - 1, child_p, threshold, table, lost, tt, stamp, control
                    )
                if value > best:
                    best = value
            total += p * (lost if best == -np.inf else best)
    return _leave(b, depth, total / empties, tt, stamp, slot)
