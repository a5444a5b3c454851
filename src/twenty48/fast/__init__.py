"""The fast engine: 64-bit bitboards and numba-compiled kernels for the solver and RL.

``twenty48.rules`` is the specification; this package is the same rules at
tens of millions of moves per second, proven equal to ``rules`` by
differential tests. Its limit is the 4-bit cell: exponents up to 15 (32768).
Two consequences for callers, who must never return a wrong answer:

* ``to_bitboard`` raises ``ValueError`` for a board holding 65536 or 131072;
  such boards are handled with ``rules`` directly.
* ``move_overflows(b, d)`` is true when the move would merge two 32768 tiles;
  for that move ``move``/``move_score`` are not the rules' answer, and callers
  apply ``rules`` instead (the environment does; the solver treats it as a
  board it has to evaluate through ``rules``).
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from twenty48.fast.bitboard import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    count_empty,
    draw,
    empty_mask,
    is_over,
    legal_mask,
    max_exponent,
    move,
    move_overflows,
    move_score,
    new_board,
    place,
    random_play,
    random_playout,
    spawn,
    transpose,
)
from twenty48.fast.tables import MAX_EXPONENT
from twenty48.rules import CELLS, Board

__all__ = [
    "DOWN",
    "LEFT",
    "MAX_EXPONENT",
    "RIGHT",
    "UP",
    "count_empty",
    "draw",
    "empty_mask",
    "exponents",
    "from_bitboard",
    "is_over",
    "legal_mask",
    "max_exponent",
    "move",
    "move_overflows",
    "move_score",
    "new_board",
    "pack",
    "place",
    "random_play",
    "random_playout",
    "representable",
    "spawn",
    "to_bitboard",
    "transpose",
]


def representable(board: Board) -> bool:
    """Whether every tile fits a 4-bit exponent (no tile above 32768)."""
    return board.max_tile <= 1 << MAX_EXPONENT


def exponents(board: Board) -> list[int]:
    """The 16 tile exponents, row-major: 0 for an empty cell, k for a tile 2**k."""
    return [value.bit_length() - 1 if value else 0 for value in board.cells]


def pack(exponents: Iterable[int]) -> np.uint64:
    """16 exponents, each below 16, into a bitboard (cell i in bits 4i..4i+3)."""
    packed = 0
    for i, e in enumerate(exponents):
        packed |= e << (4 * i)
    return np.uint64(packed)


def to_bitboard(board: Board) -> np.uint64:
    """Pack a board; ValueError if it holds a tile above 32768."""
    if not representable(board):
        raise ValueError(f"a bitboard holds tiles up to {1 << MAX_EXPONENT}, this board has {board.max_tile}")
    return pack(exponents(board))


def from_bitboard(b: int | np.uint64) -> Board:
    packed = int(b)
    exponents = ((packed >> (4 * i)) & 0xF for i in range(CELLS))
    return Board(tuple(1 << e if e else 0 for e in exponents))
