"""How good each legal move is, in a unit a player can read: the one formula behind the hint's
"standing" (page, terminal, ``2048 hint``) and the game review's grades.

The solver's values are expected heuristic values, not scores: they are often negative, and their
scale grows by two orders of magnitude over a game (about ±8,000 in the opening, around -80,000 with
a 512 tile, -300,000 to -1,700,000 with an 8192), so a raw difference means nothing by itself. What a
slip costs is therefore measured against the size of the position's own values:

    loss(m)   = (best - value(m)) / max(|best|, OPENING_SCALE)
    points(m) = round(100 / (1 + loss(m) / HALF_LOSS))

``best`` is the highest value among the moves that do not lose at once. ``OPENING_SCALE`` is the
floor of that scale: near the start the values cross zero (the empty-cell and merge bonuses cancel
the tile penalties), and |best| would then make a few hundred points look huge. It is what an empty
board's empty cells are worth under the default weights (8 lines x 4 cells x 270 on the 4x4; every
cell of a board of another size counts in its row and its column alike: ``opening_scale``), the
scale an opening board's values actually have; from the first 64-ish tiles on, |best| exceeds it
and the measure is exactly invariant to the scale of the values. ``HALF_LOSS``: a move 5 % of that scale
worse than the best scores 50.

A move after which every spawn leaves no legal move (it ends the game at once) scores 0 and is a
blunder whatever its value, unless every legal move does so. Spawns are the classic 2 and 4: the
solver assumes them too.

Grades, from the points: ``best`` for the top value (ties share it, up to ``TIE``), then
``good`` >= 70 (within about 2 % of the scale), ``inaccuracy`` >= 35 (about 9 %), ``mistake`` >= 10
(48 %), ``blunder`` below. In the values seen over solver games a move the solver rates close
(0.1-1 % apart) scores 90-99; a move that breaks the corner scores under 10.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum

from twenty48.rules import Board, BoardSize, Direction

#: The value of an empty cell in each of its two lines under the default weights.
_EMPTY_CELL = 270.0
#: The smallest scale a slip is measured against on the 4x4 (see the module docstring).
OPENING_SCALE = 8 * 4 * _EMPTY_CELL


def opening_scale(size: BoardSize) -> float:
    """The smallest scale a slip is measured against on a board of ``size``: what its empty cells are
    worth, each in its row and its column (``OPENING_SCALE`` on the 4x4)."""
    return 2 * size.cells * _EMPTY_CELL


#: The loss, as a fraction of the scale, at which a move scores 50 points.
HALF_LOSS = 0.05
#: Losses up to this are ties with the best: mirror-image moves have equal values but for the
#: order in which floating point sums them (a difference in the 16th digit).
TIE = 1e-9


class Grade(StrEnum):
    BEST = "best"
    GOOD = "good"
    INACCURACY = "inaccuracy"
    MISTAKE = "mistake"
    BLUNDER = "blunder"


#: The lowest points of each grade below ``best`` (which is the top value, not a threshold).
GRADE_FLOORS: tuple[tuple[int, Grade], ...] = (
    (70, Grade.GOOD),
    (35, Grade.INACCURACY),
    (10, Grade.MISTAKE),
    (0, Grade.BLUNDER),
)


@dataclass(frozen=True, slots=True)
class Standing:
    """One legal move's standing: 0-100 points (100 for the best), its grade, and the loss behind
    them (0 for the best; a fraction of the position's scale; infinite for a move that ends the game)."""

    points: int
    grade: Grade
    loss: float


def loses_at_once(board: Board, direction: Direction) -> bool:
    """Whether ``direction`` is legal on ``board`` and every 2 or 4 spawned after it ends the game."""
    after = board.move(direction)
    if not after.changed:
        return False
    empty = after.board.empty_cells()
    # With two empty cells or more, one spawn always leaves a gap to move into.
    return len(empty) == 1 and all(after.board.with_tile(empty[0], v).is_over() for v in (2, 4))


def points_for(loss: float) -> int:
    """The 0-100 points of a move that is ``loss`` (>= 0, a fraction of the scale) worse than the best."""
    return round(100 / (1 + loss / HALF_LOSS))


def grade_for(points: int) -> Grade:
    """The grade of a move that is not the best, from its points."""
    return next(grade for floor, grade in GRADE_FLOORS if points >= floor)


def standings(board: Board, values: Mapping[Direction, float]) -> dict[Direction, Standing]:
    """Each move of ``values`` (the solver's value of every legal move of ``board``, as
    ``twenty48.ai.rank_moves`` gives them) with its standing, in the order given."""
    if not values:
        return {}
    ending = {d for d in values if loses_at_once(board, d)}
    alive = [v for d, v in values.items() if d not in ending] or list(values.values())
    best = max(alive)
    scale = max(abs(best), opening_scale(board.size))
    out = {}
    for direction, value in values.items():
        if direction in ending and len(ending) < len(values):
            out[direction] = Standing(0, Grade.BLUNDER, float("inf"))
            continue
        loss = max(0.0, best - value) / scale
        if loss <= TIE:
            out[direction] = Standing(100, Grade.BEST, 0.0)
            continue
        points = points_for(loss)
        out[direction] = Standing(points, grade_for(points), loss)
    return out
