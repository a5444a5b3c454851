"""Playing a board with ``twenty48.rules`` when the bitboard cannot: tiles of 65536 and 131072, and
moves that merge two 32768 tiles. Slow and rare; exact for every tile. Both environments fall back
to ``step``, which settles the step with the kernels' own bookkeeping (``kernels.settle``)."""

from __future__ import annotations

import numpy as np

from twenty48 import fast, spawns
from twenty48.env import kernels
from twenty48.rules import Board, Direction
from twenty48.variants import CLASSIC, MERGE, Variant


def step(
    state: np.ndarray, i: int, board: Board, action: int, settings: np.ndarray
) -> tuple[Board, bool, float, bool, bool, int]:
    """Step game ``i`` of ``state``, whose board is ``board``, with ``twenty48.rules``: (new board,
    whether the move was legal, reward, terminated, truncated, legal mask of the new board).
    The record's board and ``exact`` flag follow the new board; the caller keeps it when exact."""
    game = state[i : i + 1]
    seed, moves = int(game["seed"][0]), int(game["moves"][0])
    variant = MERGE if settings[0]["staged_spawns"] else CLASSIC
    new, points, legal = play(board, action, seed, spawns.STARTING_TILES + moves, variant)
    bits = pack(new)
    game["exact"] = bits is None
    game["board"] = 0 if bits is None else bits
    mask = legal_mask(new)
    exponent = new.max_tile.bit_length() - 1
    reward, terminated, truncated = kernels.settle(state, i, legal, points, mask, exponent, settings)
    return new, legal, reward, terminated, truncated, mask


def prepare(state: np.ndarray, which: np.ndarray, board: Board, score: int) -> bool:
    """Put a prepared ``board`` with ``score`` in the games ``which`` (just restarted); returns
    whether it is exact (then the caller keeps the Board, the records only carry the flag)."""
    bits = pack(board)
    state["board"][which] = 0 if bits is None else bits
    state["exact"][which] = bits is None
    state["score"][which] = score
    return bits is None


def play(board: Board, action: int, seed: int, index: int, variant: Variant) -> tuple[Board, int, bool]:
    """Move, and after a legal move place spawn ``index`` of game ``seed``, exactly as ``Game.move``
    does in ``variant``: (new board, points, whether the move was legal)."""
    result = board.move(Direction.from_index(action))
    if not result.changed:
        return board, 0, False
    cell, value = variant.spawn(seed, index, result.board)
    return result.board.with_tile(cell, value), result.score, True


def exponents(board: Board) -> np.ndarray:
    """The (R, C) uint8 exponent grid: 0 for an empty cell, k for a tile 2**k."""
    return fast.to_grid(board).reshape(board.size.rows, board.size.cols)


def legal_mask(board: Board) -> int:
    """Bit ``d`` set when direction index ``d`` is legal."""
    mask = 0
    for direction in board.legal_moves():
        mask |= 1 << direction.index
    return mask


def pack(board: Board) -> np.uint64 | None:
    """The bitboard of ``board``, or None when it holds a tile above 32768."""
    return fast.to_bitboard(board) if fast.representable(board) else None


def afterstate(board: Board, action: int) -> tuple[np.ndarray, int, bool]:
    """``board`` after the move toward ``action``, before its spawn, as exponents; the points the
    move scores, and whether it is legal (an illegal move's afterstate is ``board`` itself)."""
    result = board.move(Direction.from_index(action))
    return exponents(result.board), result.score, result.changed
