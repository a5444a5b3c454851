"""The fast engine: 64-bit bitboards and numba-compiled kernels for the solver and RL.

``twenty48.rules`` is the specification; this package is the same rules at
tens of millions of moves per second, proven equal to ``rules`` by
differential tests. Its limit is the 4-bit cell: exponents up to
``BITBOARD_MAX_EXPONENT`` = 15 (32768). Two consequences for callers, who must
never return a wrong answer:

* ``to_bitboard`` raises ``ValueError`` for a board holding 65536 or 131072;
  such boards are handled with ``rules`` directly.
* ``move_overflows(b, d)`` is true when the move would merge two 32768 tiles;
  for that move ``move``/``move_score`` are not the rules' answer, and callers
  apply ``rules`` instead (the environment does; the solver treats it as a
  board it has to evaluate through ``rules``).

The bitboard is the 4x4's. Boards of every size (2x2 to 6x6) play on the
engine of ``twenty48.fast.grid``: a flat uint8 array of exponents per board,
exact for every tile a board of its size can hold (``to_grid``, ``from_grid``).

This module's names are the engine's public surface. Kernels that build on the
engine's internals (row tables, ``transpose``, the SplitMix64 ``draw``) import
them from ``twenty48.fast.bitboard``; the benchmark's random-play loops live in
the private ``twenty48.fast._playouts``.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from twenty48.compiling import announced
from twenty48.fast.tables import BITBOARD_MAX_EXPONENT
from twenty48.rules import CELLS, DEFAULT_SIZE, Board, BoardSize

# The public kernels carry signatures, so numba compiles them as the module loads.
with announced("the bitboard engine"):
    from twenty48.fast.bitboard import (
        DOWN,
        LEFT,
        RIGHT,
        UP,
        count_empty,
        is_over,
        legal_mask,
        max_exponent,
        move,
        move_overflows,
        move_score,
        new_board,
        play,
        spawn,
    )

__all__ = [
    "BITBOARD_MAX_EXPONENT",
    "DOWN",
    "LEFT",
    "RIGHT",
    "UP",
    "count_empty",
    "exponents",
    "from_bitboard",
    "from_grid",
    "is_over",
    "legal_mask",
    "max_exponent",
    "move",
    "move_overflows",
    "move_score",
    "new_board",
    "pack",
    "play",
    "representable",
    "spawn",
    "to_bitboard",
    "to_grid",
]


def representable(board: Board) -> bool:
    """Whether the bitboard holds ``board``: a 4x4 board whose every tile fits a 4-bit exponent (no
    tile above 32768). Boards of other sizes play on ``twenty48.fast.grid``."""
    return board.size == DEFAULT_SIZE and board.max_tile <= 1 << BITBOARD_MAX_EXPONENT


def exponents(board: Board) -> list[int]:
    """The tile exponents, row-major: 0 for an empty cell, k for a tile 2**k."""
    return [value.bit_length() - 1 if value else 0 for value in board.cells]


def pack(exponents: Iterable[int]) -> np.uint64:
    """16 exponents, each below 16, into a bitboard (cell i in bits 4i..4i+3)."""
    packed = 0
    for i, e in enumerate(exponents):
        packed |= e << (4 * i)
    return np.uint64(packed)


def to_bitboard(board: Board) -> np.uint64:
    """Pack a 4x4 board; ValueError for another size or a tile above 32768."""
    if board.size != DEFAULT_SIZE:
        raise ValueError(f"a bitboard holds a 4x4 board, this one is {board.size}")
    if not representable(board):
        raise ValueError(
            f"a bitboard holds tiles up to {1 << BITBOARD_MAX_EXPONENT}, this board has {board.max_tile}"
        )
    return pack(exponents(board))


def from_bitboard(b: int | np.uint64) -> Board:
    packed = int(b)
    exponents = ((packed >> (4 * i)) & 0xF for i in range(CELLS))
    return Board(tuple(1 << e if e else 0 for e in exponents))


def to_grid(board: Board) -> np.ndarray:
    """The board as ``twenty48.fast.grid`` plays it: its R*C exponents, row-major, as uint8."""
    return np.array(exponents(board), dtype=np.uint8)


def from_grid(grid: np.ndarray, size: BoardSize) -> Board:
    """The ``Board`` of ``size`` whose exponents ``grid`` holds (any shape of R*C values, row-major)."""
    return Board.from_cells([1 << int(e) if e else 0 for e in np.ravel(grid)], size)
