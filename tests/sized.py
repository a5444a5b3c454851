"""Boards of every size for the tests: a hypothesis strategy and a bulk generator."""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st

from twenty48.rules import MAX_SIDE, MIN_SIDE, Board, BoardSize

#: Every size a board may have, 2x2 to 6x6.
ALL_SIZES = tuple(
    BoardSize(r, c) for r in range(MIN_SIDE, MAX_SIDE + 1) for c in range(MIN_SIDE, MAX_SIDE + 1)
)


ANY_SIZE = st.sampled_from(ALL_SIZES)


@st.composite
def sized_boards(draw: st.DrawFn, sizes: st.SearchStrategy[BoardSize] = ANY_SIZE) -> Board:
    """A board of any size: many empty cells and small equal tiles, a few large ones, at most one of
    the size's largest tile (no game holds two)."""
    size = draw(sizes)
    top = size.max_tile.bit_length() - 1
    exponent = st.one_of(st.just(0), st.integers(1, 3), st.integers(1, top - 1))
    cells = [1 << e if e else 0 for e in draw(st.lists(exponent, min_size=size.cells, max_size=size.cells))]
    largest = draw(st.integers(-1, size.cells - 1))
    if largest >= 0:
        cells[largest] = size.max_tile
    return Board.from_cells(cells, size)


def random_grids(size: BoardSize, n: int, seed: int) -> np.ndarray:
    """``n`` boards of ``size`` as exponent rows: about a third empty cells, half the tiles small so
    that neighbours often match, the rest up to one below the largest, and the largest tile (only
    once) on about one board in ten."""
    rng = np.random.default_rng(seed)
    top = size.max_tile.bit_length() - 1
    grids = rng.integers(1, top, size=(n, size.cells))
    small = rng.random((n, size.cells)) < 0.5
    grids[small] = rng.integers(1, 4, size=small.sum())
    grids[rng.random((n, size.cells)) < 0.35] = 0
    with_top = np.flatnonzero(rng.random(n) < 0.1)
    grids[with_top, rng.integers(0, size.cells, size=with_top.size)] = top
    return grids.astype(np.uint8)
