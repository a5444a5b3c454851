"""The 65536-entry row tables behind the bitboard engine.

A row is 16 bits: four 4-bit tile exponents (0 = empty, k = tile 2**k), the
leftmost cell in the lowest nibble. Each table answers one question for every
possible row, so a whole-board move is four lookups. The tables are computed
by a compiled line function that ``tests/test_fast.py`` proves equal to
``rules.slide_line`` on every row.
"""

from __future__ import annotations

import numpy as np
from numba import njit

ROWS = 1 << 16
#: The largest exponent a bitboard's 4-bit cell holds (2**15 = 32768); a merge of two 32768
#: tiles overflows it. The rules' largest tile is larger (``rules.MAX_TILE``, 2**17).
BITBOARD_MAX_EXPONENT = 15


@njit(cache=True)
def _slide_left(row: int) -> tuple[int, int, bool]:
    """(new row, points gained, whether two 32768 tiles met) for one row moved toward nibble 0."""
    out = np.zeros(4, dtype=np.int64)
    n = 0
    last_merged = False
    score = 0
    overflow = False
    for i in range(4):
        e = (row >> (4 * i)) & 0xF
        if e == 0:
            continue
        if n > 0 and out[n - 1] == e and not last_merged:
            if e == BITBOARD_MAX_EXPONENT:
                overflow = True
            out[n - 1] = e + 1
            score += 1 << (e + 1)
            last_merged = True
        else:
            out[n] = e
            n += 1
            last_merged = False
    result = 0
    for i in range(4):
        result |= (out[i] & 0xF) << (4 * i)
    return result, score, overflow


def _unpack_col(row: np.ndarray) -> np.ndarray:
    """Spread a row's four nibbles down column 0 of a board (nibble i -> row i)."""
    r = row.astype(np.uint64)
    mask = np.uint64(0xF)
    return (
        (r & mask)
        | ((r >> np.uint64(4)) & mask) << np.uint64(16)
        | ((r >> np.uint64(8)) & mask) << np.uint64(32)
        | ((r >> np.uint64(12)) & mask) << np.uint64(48)
    )


@njit(cache=True)
def _build(left: np.ndarray, score: np.ndarray, overflow: np.ndarray) -> None:
    for row in range(ROWS):
        result, points, over = _slide_left(row)
        left[row] = result
        score[row] = points
        overflow[row] = over


def build_tables() -> dict[str, np.ndarray]:
    left = np.zeros(ROWS, dtype=np.uint16)
    score = np.zeros(ROWS, dtype=np.uint32)
    overflow = np.zeros(ROWS, dtype=np.bool_)
    _build(left, score, overflow)
    rows = np.arange(ROWS, dtype=np.int64)
    reverse = ((rows >> 12) & 0xF) | ((rows >> 4) & 0xF0) | ((rows << 4) & 0xF00) | ((rows << 12) & 0xF000)
    # Moving right is moving the mirrored row left, mirrored back.
    right = reverse[left[reverse].astype(np.int64)].astype(np.uint16)
    return {
        "left": left,
        "right": right,
        "up": _unpack_col(left),
        "down": _unpack_col(right),
        # Runs of equal tiles merge pairwise whichever end they slide to, so a row scores
        # (and overflows) the same moved left or right.
        "score": score,
        "overflow": overflow,
        # Bit 0: the row changes moved left; bit 1: moved right.
        "legal": ((left != rows) | ((right != rows) << 1)).astype(np.uint8),
    }
