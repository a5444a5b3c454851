"""Fitting a board with 65536 or 131072 tiles onto the 4-bit bitboard the search runs on.

Which moves are legal and how tiles slide depend only on which cells are empty and which
tiles are equal, never on the values themselves. So relabelling the tile exponents in an
order-preserving, one-to-one way gives a board the search can play on with the same legal
moves, the same slides and the same merges (up to the labels of merged tiles). The small
tiles keep their exact exponents, because spawned 2s and 4s must meet them as equals; only
the top of the range is squeezed down into gaps, as little as possible.

A playable board holds at most 15 distinct tiles (16 would fill it with no pair to merge),
so this nearly always fits. If it does not (more than 13 distinct tiles of 8 or more, near
the largest sum a game can ever reach), the biggest tiles are all clamped to 32768: the
root's legal moves still come from the rules, only the search's values get coarser.
"""

from __future__ import annotations

import numpy as np

from twenty48 import fast
from twenty48.fast import BITBOARD_MAX_EXPONENT
from twenty48.rules import Board

#: Exponents of the tiles that spawn (2 and 4); they must keep their labels.
_SPAWNED = 2


def squeeze(board: Board) -> np.uint64:
    """The bitboard of ``board`` with its tile exponents relabelled to fit in 4 bits."""
    exponents = fast.exponents(board)
    present = sorted({e for e in exponents if e}, reverse=True)
    label: dict[int, int] = {}
    ceiling = BITBOARD_MAX_EXPONENT
    for e in present:
        label[e] = min(e, ceiling)
        ceiling = label[e] - 1
    if any(label[e] != e for e in present if e <= _SPAWNED) or any(
        label[e] <= _SPAWNED for e in present if e > _SPAWNED
    ):
        label = {e: min(e, BITBOARD_MAX_EXPONENT) for e in present}
    return fast.pack(label[e] if e else 0 for e in exponents)
