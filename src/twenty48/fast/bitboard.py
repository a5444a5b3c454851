"""Compiled bitboard kernels: a board is one uint64, 4 bits per cell.

Cell ``i`` (row-major, as in ``rules``) lives in bits ``4*i .. 4*i+3`` and
holds the tile's exponent (0 = empty, k = 2**k), so row ``r`` is the 16 bits
at ``16*r`` with its leftmost cell lowest. Exponents go up to 15 (32768):
a move that would merge two 32768 tiles is reported by ``move_overflows`` and
callers must not trust ``move`` for it (``twenty48.fast`` documents how they
fall back to ``rules``).

Direction codes follow ``Direction``'s order: 0 up, 1 down, 2 left, 3 right.
Every integer stays ``np.uint64``: mixing in signed integers makes numba fall
back to floating point. The public kernels carry explicit signatures, so a
board that comes back to Python as a plain ``int`` (or a seed above 2**63)
converts to uint64 on the way in instead of compiling a signed variant.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from twenty48.fast.tables import build_tables
from twenty48.spawns import STARTING_TILES

UP, DOWN, LEFT, RIGHT = 0, 1, 2, 3

_T = build_tables()
ROW_LEFT = _T["left"]
ROW_RIGHT = _T["right"]
COL_UP = _T["up"]
COL_DOWN = _T["down"]
ROW_SCORE = _T["score"]
ROW_OVERFLOW = _T["overflow"]
ROW_LEGAL = _T["legal"]

_ROW_MASK = np.uint64(0xFFFF)
_NIBBLE = np.uint64(0xF)
_ONES = np.uint64(0x1111111111111111)
_LOW32 = np.uint64(0xFFFFFFFF)
#: SplitMix64's increment (also stepping the random-play loops' direction streams).
GOLDEN_GAMMA = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_U1 = np.uint64(1)
_U4 = np.uint64(4)
_U10 = np.uint64(10)
_U16 = np.uint64(16)
_U32 = np.uint64(32)
_U48 = np.uint64(48)
_STARTING_TILES = np.uint64(STARTING_TILES)


@njit("uint64(uint64)", cache=True)
def transpose(b: np.uint64) -> np.uint64:
    """Swap rows and columns (cell 4r+c <-> 4c+r) with three masked shuffles per step."""
    a1 = b & np.uint64(0xF0F00F0FF0F00F0F)
    a2 = b & np.uint64(0x0000F0F00000F0F0)
    a3 = b & np.uint64(0x0F0F00000F0F0000)
    a = a1 | (a2 << np.uint64(12)) | (a3 >> np.uint64(12))
    b1 = a & np.uint64(0xFF00FF0000FF00FF)
    b2 = a & np.uint64(0x00FF00FF00000000)
    b3 = a & np.uint64(0x00000000FF00FF00)
    return b1 | (b2 >> np.uint64(24)) | (b3 << np.uint64(24))


@njit(cache=True)
def map_rows(b: np.uint64, table: np.ndarray) -> np.uint64:
    """Apply a 65536-entry row table to the four 16-bit rows of ``b``."""
    return (
        np.uint64(table[b & _ROW_MASK])
        | (np.uint64(table[(b >> _U16) & _ROW_MASK]) << _U16)
        | (np.uint64(table[(b >> _U32) & _ROW_MASK]) << _U32)
        | (np.uint64(table[(b >> _U48) & _ROW_MASK]) << _U48)
    )


@njit(cache=True)
def _cols(b: np.uint64, table: np.ndarray) -> np.uint64:
    t = transpose(b)
    return (
        table[t & _ROW_MASK]
        | (table[(t >> _U16) & _ROW_MASK] << _U4)
        | (table[(t >> _U32) & _ROW_MASK] << np.uint64(8))
        | (table[(t >> _U48) & _ROW_MASK] << np.uint64(12))
    )


@njit("uint64(uint64, int64)", cache=True)
def move(b: np.uint64, d: int) -> np.uint64:
    """The board after sliding toward ``d`` (no spawn); equal to ``b`` when the move is illegal."""
    if d == UP:
        return _cols(b, COL_UP)
    if d == DOWN:
        return _cols(b, COL_DOWN)
    if d == LEFT:
        return map_rows(b, ROW_LEFT)
    return map_rows(b, ROW_RIGHT)


@njit(cache=True)
def _line_sum(b: np.uint64, table: np.ndarray) -> np.int64:
    return (
        np.int64(table[b & _ROW_MASK])
        + np.int64(table[(b >> _U16) & _ROW_MASK])
        + np.int64(table[(b >> _U32) & _ROW_MASK])
        + np.int64(table[(b >> _U48) & _ROW_MASK])
    )


@njit("int64(uint64, int64)", cache=True)
def move_score(b: np.uint64, d: int) -> np.int64:
    """Points the move toward ``d`` scores (the same for both directions along an axis)."""
    if d in (UP, DOWN):
        return _line_sum(transpose(b), ROW_SCORE)
    return _line_sum(b, ROW_SCORE)


@njit("boolean(uint64, int64)", cache=True)
def move_overflows(b: np.uint64, d: int) -> bool:
    """Whether the move toward ``d`` merges two 32768 tiles, which 4 bits cannot hold."""
    lines = transpose(b) if d in (UP, DOWN) else b
    return _line_sum(lines, ROW_OVERFLOW) > 0


@njit(cache=True)
def _line_or(b: np.uint64, table: np.ndarray) -> np.int64:
    return (
        np.int64(table[b & _ROW_MASK])
        | np.int64(table[(b >> _U16) & _ROW_MASK])
        | np.int64(table[(b >> _U32) & _ROW_MASK])
        | np.int64(table[(b >> _U48) & _ROW_MASK])
    )


@njit("Tuple((uint64, int64, boolean))(uint64, int64)", cache=True)
def play(b: np.uint64, d: int) -> tuple[np.uint64, np.int64, bool]:
    """``(move(b, d), move_score(b, d), move_overflows(b, d))`` at the cost of one move: a move
    that changes nothing scores nothing and merges no 32768s, and the other two read the lines
    the move already transposed."""
    if d in (UP, DOWN):
        lines = transpose(b)
        table = COL_UP if d == UP else COL_DOWN
        moved = (
            table[lines & _ROW_MASK]
            | (table[(lines >> _U16) & _ROW_MASK] << _U4)
            | (table[(lines >> _U32) & _ROW_MASK] << np.uint64(8))
            | (table[(lines >> _U48) & _ROW_MASK] << np.uint64(12))
        )
    else:
        lines = b
        moved = map_rows(b, ROW_LEFT if d == LEFT else ROW_RIGHT)
    if moved == b:
        return moved, np.int64(0), False
    return moved, _line_sum(lines, ROW_SCORE), _line_sum(lines, ROW_OVERFLOW) > 0


@njit("int64(uint64)", cache=True)
def legal_mask(b: np.uint64) -> int:
    """Bit ``d`` is set when direction ``d`` is legal: some row changes moved left (right), some
    column moved up (down), read from one table per line instead of four whole moves."""
    vertical = _line_or(transpose(b), ROW_LEGAL)
    horizontal = _line_or(b, ROW_LEGAL)
    return vertical | (horizontal << 2)


@njit("uint64(uint64)", cache=True)
def empty_mask(b: np.uint64) -> np.uint64:
    """One bit (the nibble's lowest) for every empty cell."""
    x = b | ((b >> np.uint64(2)) & np.uint64(0x3333333333333333))
    x = x | (x >> _U1)
    return ~x & _ONES


@njit("int64(uint64)", cache=True)
def count_empty(b: np.uint64) -> np.int64:
    x = empty_mask(b)
    if x == _ONES:
        return np.int64(16)
    # The 16 flag bits sit 4 apart; multiplying by 0x111... sums them into the top nibble
    # (no partial sum below it reaches 16, so nothing carries).
    return np.int64((x * _ONES) >> np.uint64(60))


@njit("int64(uint64)", cache=True)
def max_exponent(b: np.uint64) -> np.int64:
    best = np.int64(0)
    for i in range(16):
        e = np.int64((b >> np.uint64(4 * i)) & _NIBBLE)
        if e > best:
            best = e
    return best


@njit("boolean(uint64)", cache=True)
def is_over(b: np.uint64) -> bool:
    return legal_mask(b) == 0


@njit("uint64(uint64, uint64)", cache=True)
def draw(seed: np.uint64, index: np.uint64) -> np.uint64:
    """``spawns.draw``: output ``index`` of SplitMix64 seeded with ``seed``."""
    z = seed + (index + _U1) * GOLDEN_GAMMA
    z = (z ^ (z >> np.uint64(30))) * _MIX1
    z = (z ^ (z >> np.uint64(27))) * _MIX2
    return z ^ (z >> np.uint64(31))


@njit("uint64(uint64, uint64, uint64)", cache=True)
def place_exponent(b: np.uint64, h: np.uint64, exponent: np.uint64) -> np.uint64:
    """Put a tile of ``2**exponent`` on the empty cell that the low 32 bits of ``h`` pick, as
    ``spawns.split_draw`` does (the high 32 bits are the value's, see ``place``). The board must
    have an empty cell."""
    empty = empty_mask(b)
    n = np.uint64(count_empty(b))
    k = ((h & _LOW32) * n) >> _U32
    for i in range(16):
        shift = np.uint64(4 * i)
        if (empty >> shift) & _U1:
            if k == 0:
                return b | (exponent << shift)
            k -= _U1
    return b


@njit("uint64(uint64, uint64)", cache=True)
def place(b: np.uint64, h: np.uint64) -> np.uint64:
    """Place the tile that random number ``h`` picks, exactly as ``spawns.spawn_choice`` does.
    The board must have an empty cell."""
    exponent = np.uint64(2) if (((h >> _U32) * _U10) >> _U32) == 0 else _U1
    return place_exponent(b, h, exponent)


@njit("uint64(uint64, uint64, uint64)", cache=True)
def spawn(b: np.uint64, seed: np.uint64, index: np.uint64) -> np.uint64:
    """The board with spawn ``index`` of the game ``seed`` placed (the ``Game``'s spawn)."""
    return place(b, draw(seed, index))


@njit("uint64(uint64)", cache=True)
def new_board(seed: np.uint64) -> np.uint64:
    """The starting position of ``Game.new(seed)``: spawns 0 to ``STARTING_TILES - 1``."""
    b = np.uint64(0)
    for index in range(STARTING_TILES):
        b = spawn(b, seed, np.uint64(index))
    return b
