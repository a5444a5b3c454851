"""The expectimax kernel for boards of every size but the 4x4, over ``twenty48.fast.grid``.

It is ``search.chance_value`` on a board of ``rows`` x ``cols`` exponents (a flat uint8 array): a
round is every spawn (each empty cell, 2 with probability 0.9 and 4 with 0.1) followed by the best
move; after the last round, or once a branch is less likely than ``threshold``, the board is scored
by the heuristic; a position with no legal move scores ``lost``. The same transposition table
(keyed by the board's ``key``, exact for boards of up to 10 cells and a 64-bit hash above), the same
control block (node count, limit, stop, pace) and the same bookkeeping as the 4x4's, so every
setting of the solver (depth, time, nodes, the default, a pace) works alike on every size.

The heuristic is the 4x4's, for lines of any length: a board's value is the sum of its rows' values,
then its columns', each line worth ``empty_weight * empty + merge_weight * merges -
monotonicity_weight * min(increase, decrease) - sum_weight * sum(rank ** sum_power)``
(``heuristic.Heuristic``). ``line_value`` is that formula once: the 4x4's row table is built from it.

Nearly all the work is in the last round, where every child is a leaf: ``_last_round`` moves the
node's board once each way, and a spawn then changes only the line through its cell, so each child
slides that one line and reads anew only the values of the lines it changed, adding every line's
value in ``evaluate``'s order: the values are the same to the last bit.

A search writes its boards in ``boards`` (``BOARDS_PER_PLY`` rows of cells per ply: the spawned
board, a moved one, and the node's board moved each way) and its line values in ``lines``, so it
allocates nothing; each root move gets its own (``new_work``).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from twenty48.ai.search import _enter, _leave
from twenty48.fast.grid import (
    LEFT,
    UP,
    count_empty,
    line_count,
    line_length,
    line_start,
    line_step,
    move,
    slide_line,
)

#: Where the scalar weights sit in a weights array (``Heuristic.grid_weights``), and from where the
#: two tables of powers of every exponent (``rank ** sum_power``, ``rank ** monotonicity_power``).
EMPTY_W, MERGE_W, MONOTONICITY_W, SUM_W = 0, 1, 2, 3
SUM_POWERS = 4
#: Exponents the power tables cover: a 6x6 board's tiles reach 2**37.
RANKS = 64
MONOTONICITY_POWERS = SUM_POWERS + RANKS
WEIGHTS = MONOTONICITY_POWERS + RANKS
#: Plies a search may go down (``budget.MAX_DEPTH`` rounds and the root's).
MAX_PLIES = 24
#: Boards a ply writes: the spawned board, a moved one, and the node's board moved each way.
BOARDS_PER_PLY = 6
_SPAWNED, _MOVED, _MOVED_EACH_WAY = 0, 1, 2
#: ``lines[ply, d]`` of the last round: the values of the rows, then of the columns, of the node's
#: board moved toward ``d``, then which of its lines the move changed (1.0) or not (0.0).
_ROW_VALUES, _COLUMN_VALUES, _LINE_CHANGED = 0, 1, 2
_LONGEST_LINE = 6

_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)


def new_work(cells: int) -> tuple[np.ndarray, np.ndarray]:
    """A search's scratch: ``boards`` and ``lines`` for every ply."""
    boards = np.zeros((BOARDS_PER_PLY * MAX_PLIES, cells), dtype=np.uint8)
    lines = np.zeros((MAX_PLIES, 4, 3, _LONGEST_LINE), dtype=np.float64)
    return boards, lines


@njit(cache=True, nogil=True, inline="always")
def _mix(z: np.uint64) -> np.uint64:
    # SplitMix64's finaliser: a bijection of 64 bits, so the key of a board of up to 10 cells is exact.
    z = (z ^ (z >> np.uint64(30))) * _MIX1
    z = (z ^ (z >> np.uint64(27))) * _MIX2
    return z ^ (z >> np.uint64(31))


@njit(cache=True, nogil=True)
def key(b: np.ndarray) -> np.uint64:
    """The transposition table's key of a board: its exponents, 6 bits each (every exponent of every
    size fits), ten cells to a word, the words mixed one into the next."""
    k = np.uint64(0)
    word = np.uint64(0)
    for i in range(b.shape[0]):
        word = (word << np.uint64(6)) | np.uint64(b[i])
        if i % 10 == 9:
            k = _mix(k ^ word)
            word = np.uint64(0)
    if b.shape[0] % 10:
        k = _mix(k ^ word)
    return k


@njit(cache=True, nogil=True)
def line_value(b: np.ndarray, start: int, step: int, length: int, w: np.ndarray) -> float:
    """The heuristic value of one line: its ``length`` cells from ``start``, ``step`` apart, with the
    weights and the powers of every exponent read from ``w`` (``Heuristic.grid_weights``)."""
    empty = 0
    merges = 0
    run = 0
    previous = 0
    total = 0.0
    for j in range(length):
        rank = b[start + j * step]
        if rank == 0:
            empty += 1
            continue
        total += w[SUM_POWERS + rank]
        if rank == previous:
            run += 1
        elif run > 0:
            merges += 1 + run
            run = 0
        previous = rank
    if run > 0:
        merges += 1 + run
    increase = 0.0
    decrease = 0.0
    for j in range(1, length):
        before = b[start + (j - 1) * step]
        after = b[start + j * step]
        x = w[MONOTONICITY_POWERS + before]
        y = w[MONOTONICITY_POWERS + after]
        if before > after:
            decrease += x - y
        else:
            increase += y - x
    return (
        w[EMPTY_W] * empty
        + w[MERGE_W] * merges
        - w[MONOTONICITY_W] * min(increase, decrease)
        - w[SUM_W] * total
    )


@njit(cache=True, nogil=True)
def evaluate(b: np.ndarray, rows: int, cols: int, w: np.ndarray) -> float:
    """The heuristic value of a board: its rows from the top, then its columns from the left, each
    read from its first cell (left, top), as the 4x4's evaluation adds them."""
    total = 0.0
    for d in (LEFT, UP):
        length = line_length(rows, cols, d)
        step = line_step(cols, d)
        for k in range(line_count(rows, cols, d)):
            total += line_value(b, line_start(rows, cols, d, k), step, length, w)
    return total


@njit(cache=True, nogil=True)
def _last_round(
    b: np.ndarray,
    rows: int,
    cols: int,
    w: np.ndarray,
    lost: float,
    tt: np.ndarray,
    stamp: int,
    control: np.ndarray,
    boards: np.ndarray,
    lines: np.ndarray,
    ply: int,
) -> float:
    """``chance_value`` with one round left: every child is a leaf (see the module docstring)."""
    board_key = key(b)
    done, value, slot = _enter(board_key, 1, tt, stamp, control)
    if done:
        return value
    empties = count_empty(b)
    if empties == 0:
        return evaluate(b, rows, cols, w)
    base = BOARDS_PER_PLY * ply
    spawned = boards[base + _SPAWNED]
    moved = boards[base + _MOVED]
    known = lines[ply]
    for d in range(4):
        each = boards[base + _MOVED_EACH_WAY + d]
        length = line_length(rows, cols, d)
        step = line_step(cols, d)
        for k in range(line_count(rows, cols, d)):
            _, line_changed = slide_line(b, line_start(rows, cols, d, k), step, length, each)
            known[d, _LINE_CHANGED, k] = 1.0 if line_changed else 0.0
        for i in range(rows):
            known[d, _ROW_VALUES, i] = line_value(each, i * cols, 1, cols, w)
        for j in range(cols):
            known[d, _COLUMN_VALUES, j] = line_value(each, j, cols, rows, w)
    spawned[:] = b
    total = 0.0
    for cell in range(b.shape[0]):
        # The empty cells in ascending order, the order their values are added up in.
        if b[cell] != 0:
            continue
        r = cell // cols
        c = cell - r * cols
        for exponent, p in ((1, 0.9), (2, 0.1)):
            spawned[cell] = exponent
            best = -np.inf
            for d in range(4):
                each = boards[base + _MOVED_EACH_WAY + d]
                across = d >= LEFT
                k = r if across else c
                moved[:] = each
                _, line_changed = slide_line(
                    spawned,
                    line_start(rows, cols, d, k),
                    line_step(cols, d),
                    line_length(rows, cols, d),
                    moved,
                )
                if not line_changed:
                    # The move is legal only if it changes another line, as it changes that line of b.
                    others = 0.0
                    for m in range(line_count(rows, cols, d)):
                        if m != k:
                            others += known[d, _LINE_CHANGED, m]
                    if others == 0.0:
                        continue
                value = 0.0
                # Moving across, only row r is new, and a column is where row r changed it; moving up or
                # down, only column c is new, and a row is where column c changed it.
                for i in range(rows):
                    if (i == r) if across else (moved[i * cols + c] != each[i * cols + c]):
                        value += line_value(moved, i * cols, 1, cols, w)
                    else:
                        value += known[d, _ROW_VALUES, i]
                for j in range(cols):
                    if (moved[r * cols + j] != each[r * cols + j]) if across else (j == c):
                        value += line_value(moved, j, cols, rows, w)
                    else:
                        value += known[d, _COLUMN_VALUES, j]
                if value > best:
                    best = value
            total += p * (lost if best == -np.inf else best)
        spawned[cell] = 0
    return _leave(board_key, 1, total / empties, tt, stamp, slot)


@njit(cache=True, nogil=True)
def chance_value(
    b: np.ndarray,
    rows: int,
    cols: int,
    depth: int,
    cprob: float,
    threshold: float,
    w: np.ndarray,
    lost: float,
    tt: np.ndarray,
    stamp: int,
    control: np.ndarray,
    boards: np.ndarray,
    lines: np.ndarray,
    ply: int,
) -> float:
    """Expected value of the after-move board ``b`` with ``depth`` rounds to search; its children
    are written in the rows of ``boards`` and ``lines`` of ``ply`` and below. ``b`` is left as it was."""
    if depth <= 0 or cprob < threshold:
        return evaluate(b, rows, cols, w)
    if depth == 1:
        return _last_round(b, rows, cols, w, lost, tt, stamp, control, boards, lines, ply)
    board_key = key(b)
    done, value, slot = _enter(board_key, depth, tt, stamp, control)
    if done:
        return value
    empties = count_empty(b)
    if empties == 0:
        return evaluate(b, rows, cols, w)
    cprob /= empties
    base = BOARDS_PER_PLY * ply
    spawned = boards[base + _SPAWNED]
    moved = boards[base + _MOVED]
    spawned[:] = b
    total = 0.0
    for cell in range(b.shape[0]):
        # The empty cells in ascending order, the order their values are added up in.
        if b[cell] != 0:
            continue
        for exponent, p in ((1, 0.9), (2, 0.1)):
            spawned[cell] = exponent
            child_p = cprob * p
            best = -np.inf
            for d in range(4):
                _, changed = move(spawned, rows, cols, d, moved)
                if not changed:
                    continue
                if child_p < threshold:
                    value = evaluate(moved, rows, cols, w)
                else:
                    value = chance_value(
                        moved,
                        rows,
                        cols,
                        depth - 1,
                        child_p,
                        threshold,
                        w,
                        lost,
                        tt,
                        stamp,
                        control,
                        boards,
                        lines,
                        ply + 1,
                    )
                if value > best:
                    best = value
            total += p * (lost if best == -np.inf else best)
        spawned[cell] = 0
    return _leave(board_key, depth, total / empties, tt, stamp, slot)
