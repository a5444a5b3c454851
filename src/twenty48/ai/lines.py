"""Sums of the heuristic's line values for the search's leaves, in ``search._score``'s order.

A leaf's value is its four rows' values added in order, then its four columns'. A spawn and a move
change few of a board's lines, so the search keeps the values of the lines that stay and adds them
with the new ones in exactly that order: these helpers do it without branches, and the values are
the same to the last bit as a full ``_score``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

_ROW = np.uint64(0xFFFF)
_NIBBLE = np.uint64(0xF)
_U16 = np.uint64(16)
_U32 = np.uint64(32)
_U48 = np.uint64(48)


@njit(cache=True, nogil=True, _nrt=False, inline="always")
def spread(line: np.uint64) -> np.uint64:
    """A 16-bit line as column 0 of a board (nibble ``j`` to cell ``4 * j``): a moved line's place
    in the transposed board."""
    return (
        (line & _NIBBLE)
        | ((line & np.uint64(0xF0)) << np.uint64(12))
        | ((line & np.uint64(0xF00)) << np.uint64(24))
        | ((line & np.uint64(0xF000)) << np.uint64(36))
    )


@njit(cache=True, nogil=True, _nrt=False, inline="always")
def rows(b: np.uint64, table: np.ndarray) -> float:
    """The first half of ``_score``: the four rows of ``b``, added in order."""
    return table[b & _ROW] + table[(b >> _U16) & _ROW] + table[(b >> _U32) & _ROW] + table[(b >> _U48) & _ROW]


@njit(cache=True, nogil=True, _nrt=False, inline="always")
def plus_rows(s: float, b: np.uint64, table: np.ndarray) -> float:
    """``s`` plus the four rows of ``b``, added in order: the second half of ``_score``."""
    return (
        s
        + table[b & _ROW]
        + table[(b >> _U16) & _ROW]
        + table[(b >> _U32) & _ROW]
        + table[(b >> _U48) & _ROW]
    )


@njit(cache=True, nogil=True, _nrt=False, inline="always")
def plus_lines_with(s: float, v: tuple[float, float, float, float], k: np.uint64, x: float) -> float:
    """``s + v[0] + v[1] + v[2] + v[3]`` with ``v[k]`` replaced by ``x``, added in that order, with
    selects rather than branches (which line a spawn changes differs from one spawn to the next)."""
    return (
        s
        + (x if k == 0 else v[0])
        + (x if k == 1 else v[1])
        + (x if k == 2 else v[2])
        + (x if k == 3 else v[3])
    )


@njit(cache=True, nogil=True, _nrt=False, inline="always")
def split_lines(v: tuple[float, float, float, float], k: np.uint64) -> tuple[float, float, float, float]:
    """``(p, a, b, c)`` such that ``p + x + a + b + c``, added in that order, is exactly ``v[0] + v[1]
    + v[2] + v[3]`` with ``v[k]`` replaced by ``x``: ``p`` adds up the lines before ``k``, and -0.0,
    which adds nothing to any float, fills the places that have no line (0.0 would turn a -0.0 into
    0.0)."""
    # Selects, not branches: which line a spawn changes differs from one empty cell to the next.
    z = -0.0
    v0, v1, v2, v3 = v
    first = z if k == 0 else (v0 if k == 1 else (v0 + v1 if k == 2 else v0 + v1 + v2))
    a = v1 if k == 0 else (v2 if k == 1 else (v3 if k == 2 else z))
    b = v2 if k == 0 else (v3 if k == 1 else z)
    c = v3 if k == 0 else z
    return first, a, b, c


@njit(cache=True, nogil=True, _nrt=False, inline="always")
def line_values(b: np.uint64, table: np.ndarray) -> tuple[float, float, float, float]:
    return table[b & _ROW], table[(b >> _U16) & _ROW], table[(b >> _U32) & _ROW], table[(b >> _U48) & _ROW]
