"""The compiled engine for boards of any size: a board is a flat uint8 array of tile exponents.

The 4x4 has its bitboard (``twenty48.fast.bitboard``); every size from 2x2 to 6x6 (4x4 included,
for the tests that hold the two engines equal) plays here. Cell ``i`` of a board of ``rows`` x
``cols`` is ``cols * row + column``, as in ``rules``, and holds the exponent of its tile: 0 for an
empty cell, k for 2**k. The largest tile of a 6x6 board, 2**37, needs 6 bits, so a byte holds
every tile of every size exactly and nothing ever overflows (two of a board's largest tile, which no
game holds, would make a tile the board cannot: ``rules`` refuses to merge them, and callers never
hand this engine such a board).

A move walks each line from the edge the tiles move toward: line ``k`` of direction ``d`` starts
at ``line_start(rows, cols, d, k)`` and steps ``line_step(cols, d)`` cells at a time; it has
``line_length(rows, cols, d)`` cells, and a direction has ``line_count(rows, cols, d)`` lines. The
kernels take ``rows`` and ``cols`` as arguments, so one compiled function serves every size.

Direction codes follow ``Direction``'s order: 0 up, 1 down, 2 left, 3 right. Spawns are
``spawns.spawn_choice``'s, drawn with the bitboard's SplitMix64 ``draw``: a game of any size
replays exactly as ``Game`` plays it.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from twenty48.fast.bitboard import DOWN, LEFT, RIGHT, UP, draw
from twenty48.spawns import STARTING_TILES

__all__ = [
    "DOWN",
    "LEFT",
    "RIGHT",
    "UP",
    "count_empty",
    "is_over",
    "legal_mask",
    "line_count",
    "line_length",
    "line_start",
    "line_step",
    "max_exponent",
    "move",
    "new_board",
    "place",
    "place_exponent",
    "slide_line",
    "spawn",
]

_LOW32 = np.uint64(0xFFFFFFFF)
_U10 = np.uint64(10)
_U32 = np.uint64(32)


@njit(cache=True, nogil=True, inline="always")
def line_count(rows: int, cols: int, d: int) -> int:
    """Lines a move toward ``d`` slides: the columns for up and down, the rows for left and right."""
    return cols if d < LEFT else rows


@njit(cache=True, nogil=True, inline="always")
def line_length(rows: int, cols: int, d: int) -> int:
    return rows if d < LEFT else cols


@njit(cache=True, nogil=True, inline="always")
def line_start(rows: int, cols: int, d: int, k: int) -> int:
    """The cell at the leading edge of line ``k`` of a move toward ``d``."""
    if d == UP:
        return k
    if d == DOWN:
        return (rows - 1) * cols + k
    if d == LEFT:
        return k * cols
    return k * cols + cols - 1


@njit(cache=True, nogil=True, inline="always")
def line_step(cols: int, d: int) -> int:
    """How far apart, in cells, the cells of a line of a move toward ``d`` lie, from the leading edge."""
    if d == UP:
        return cols
    if d == DOWN:
        return -cols
    if d == LEFT:
        return 1
    return -1


@njit(cache=True, nogil=True, inline="always")
def slide_line(b: np.ndarray, start: int, step: int, length: int, out: np.ndarray) -> tuple[np.int64, bool]:
    """Slide and merge one line of ``b`` (``length`` cells from ``start``, ``step`` apart, from the
    edge moved toward) into the same cells of ``out``, which may be ``b`` itself: (points scored,
    whether the line changed). ``rules.slide_line``: a tile fuses with the last one placed when they
    are equal and that one has not merged yet this move."""
    score = np.int64(0)
    changed = False
    placed = 0
    # The exponent of the last tile placed while it may still merge; 0 once it has.
    last = 0
    for j in range(length):
        e = b[start + j * step]
        if e == 0:
            continue
        if e == last:
            out[start + (placed - 1) * step] = e + 1
            score += np.int64(1) << (e + 1)
            last = 0
            # A merge always moves a tile: the second one leaves its cell.
            changed = True
        else:
            cell = start + placed * step
            if b[cell] != e:
                changed = True
            out[cell] = e
            placed += 1
            last = e
    for j in range(placed, length):
        cell = start + j * step
        if b[cell] != 0:
            changed = True
        out[cell] = 0
    return score, changed


@njit(cache=True, nogil=True)
def move(b: np.ndarray, rows: int, cols: int, d: int, out: np.ndarray) -> tuple[np.int64, bool]:
    """Slide every tile of ``b`` toward ``d`` and merge into ``out`` (which may be ``b`` itself):
    (points scored, whether the board changed)."""
    length = line_length(rows, cols, d)
    step = line_step(cols, d)
    score = np.int64(0)
    changed = False
    for k in range(line_count(rows, cols, d)):
        points, moved = slide_line(b, line_start(rows, cols, d, k), step, length, out)
        score += points
        changed |= moved
    return score, changed


@njit(cache=True, nogil=True)
def legal_mask(b: np.ndarray, rows: int, cols: int) -> int:
    """Bit ``d`` is set when direction ``d`` is legal: some tile has a gap or an equal tile next to it
    on the side it would move toward. Stops looking once all four are found (most boards in play)."""
    left = right = up = down = False
    for r in range(rows):
        row = r * cols
        for c in range(cols - 1):
            x = b[row + c]
            y = b[row + c + 1]
            pair = x != 0 and x == y
            left |= pair or (x == 0 and y != 0)
            right |= pair or (y == 0 and x != 0)
        if left and right:
            break
    for r in range(rows - 1):
        row = r * cols
        for c in range(cols):
            x = b[row + c]
            y = b[row + cols + c]
            pair = x != 0 and x == y
            up |= pair or (x == 0 and y != 0)
            down |= pair or (y == 0 and x != 0)
        if up and down:
            break
    return (up << UP) | (down << DOWN) | (left << LEFT) | (right << RIGHT)


@njit(cache=True, nogil=True)
def is_over(b: np.ndarray, rows: int, cols: int) -> bool:
    """``Board.is_over``: full, and no legal move (the empty board, which no game reaches, has no
    legal move either but is not over)."""
    return count_empty(b) == 0 and legal_mask(b, rows, cols) == 0


@njit(cache=True, nogil=True)
def count_empty(b: np.ndarray) -> int:
    n = 0
    for i in range(b.shape[0]):
        if b[i] == 0:
            n += 1
    return n


@njit(cache=True, nogil=True)
def max_exponent(b: np.ndarray) -> int:
    best = 0
    for i in range(b.shape[0]):
        if b[i] > best:
            best = b[i]
    return best


@njit(cache=True, nogil=True)
def place_exponent(b: np.ndarray, h: np.uint64, exponent: int) -> int:
    """Put a tile of ``2**exponent`` on the empty cell that the low 32 bits of ``h`` pick, as
    ``spawns.split_draw`` does, and return its cell. The board must have an empty cell."""
    k = ((h & _LOW32) * np.uint64(count_empty(b))) >> _U32
    for i in range(b.shape[0]):
        if b[i] == 0:
            if k == 0:
                b[i] = exponent
                return i
            k -= np.uint64(1)
    return -1


@njit(cache=True, nogil=True)
def place(b: np.ndarray, h: np.uint64) -> int:
    """Place the tile that random number ``h`` picks, exactly as ``spawns.spawn_choice`` does (its
    high 32 bits pick a 4 one time in ten, else a 2), and return its cell."""
    return place_exponent(b, h, 2 if (((h >> _U32) * _U10) >> _U32) == 0 else 1)


@njit(cache=True, nogil=True)
def spawn(b: np.ndarray, seed: np.uint64, index: np.uint64) -> int:
    """Place spawn ``index`` of the game ``seed`` on ``b`` (the ``Game``'s spawn); returns its cell."""
    return place(b, draw(np.uint64(seed), np.uint64(index)))


@njit(cache=True, nogil=True)
def new_board(seed: np.uint64, out: np.ndarray) -> None:
    """Write the starting position of ``Game.new(seed, size=...)`` into ``out`` (its R*C cells)."""
    out[:] = 0
    for index in range(STARTING_TILES):
        spawn(out, seed, np.uint64(index))
