"""The static evaluation the search scores its leaves with, precomputed for every row.

A board's value is the sum of a per-line value (``grid_search.line_value``, for a line of any
length) over its rows and its columns. On the 4x4 the whole evaluation is one table of 65536
entries (every 16-bit row of four 4-bit tile exponents) and eight lookups per leaf; boards of other
sizes compute their lines' values as the search needs them. A line is worth more when it has empty
cells and equal neighbours ready to merge, and less when it is not monotonic or holds big tiles
(which pushes the search to keep few, ordered big tiles).

The features and weights are nneonneo/2048-ai's; its per-line bonus of 200000 appears here
as the value of a lost position, -8 * 200000 (only the difference matters).
``bench/tune_heuristic.py`` searched for better weights and found none that held up: weights
tuned at depth 2 played depth 2 a third better but depth 3 worse, and a local search at
depth 3 stayed within the noise of these (docs/solver.md, "Heuristic")."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numba import njit

from twenty48.ai import grid_search

ROWS = 1 << 16


@dataclass(frozen=True, slots=True)
class Heuristic:
    """The weights of the per-line evaluation.

    Each of the eight lines contributes ``empty_weight * empty + merge_weight * merges
    - monotonicity_weight * min(increase, decrease) - sum_weight * sum(rank ** sum_power)``,
    where ``rank`` is a tile's exponent, ``merges`` counts tiles in runs of equal neighbours
    (gaps ignored) and ``increase``/``decrease`` add up ``rank ** monotonicity_power``
    steps against each direction of the line. A lost position (no legal move) is worth
    ``loss``; only its distance to the live values matters, and it sets how much risk of
    losing the search accepts for a better board.
    """

    loss: float = -1_600_000.0
    empty_weight: float = 270.0
    merge_weight: float = 700.0
    monotonicity_power: float = 4.0
    monotonicity_weight: float = 47.0
    sum_power: float = 3.5
    sum_weight: float = 11.0

    def table(self) -> np.ndarray:
        """The value of every row of the 4x4, indexed by its 16 bits (leftmost cell in the low nibble)."""
        out = np.empty(ROWS, dtype=np.float64)
        _fill(out, self.grid_weights())
        return out

    def line_value(self, ranks: Sequence[int]) -> float:
        """One line's value from its tile exponents (0 = empty), in line order; a line of any length."""
        line = np.array(ranks, dtype=np.uint8)
        return float(grid_search.line_value(line, 0, 1, len(line), self.grid_weights()))

    def grid_weights(self) -> np.ndarray:
        """The weights as ``grid_search.line_value`` reads them: the four weights, then ``rank **
        sum_power`` and ``rank ** monotonicity_power`` for every exponent."""
        out = np.zeros(grid_search.WEIGHTS, dtype=np.float64)
        out[grid_search.EMPTY_W] = self.empty_weight
        out[grid_search.MERGE_W] = self.merge_weight
        out[grid_search.MONOTONICITY_W] = self.monotonicity_weight
        out[grid_search.SUM_W] = self.sum_weight
        _powers(self.sum_power, out[grid_search.SUM_POWERS : grid_search.SUM_POWERS + grid_search.RANKS])
        _powers(
            self.monotonicity_power,
            out[grid_search.MONOTONICITY_POWERS : grid_search.MONOTONICITY_POWERS + grid_search.RANKS],
        )
        return out


#: The weights the solver uses unless told otherwise.
DEFAULT = Heuristic()


@njit(cache=True)
def _fill(out: np.ndarray, w: np.ndarray) -> None:
    line = np.zeros(4, dtype=np.uint8)
    for row in range(ROWS):
        for i in range(4):
            line[i] = (row >> (4 * i)) & 0xF
        out[row] = grid_search.line_value(line, 0, 1, 4, w)


@njit(cache=True)
def _powers(power: float, out: np.ndarray) -> None:
    # The rank is 0 for an empty cell, whose power no line adds to its sum.
    for rank in range(out.shape[0]):
        out[rank] = float(rank) ** power
