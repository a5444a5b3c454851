"""Game review: the solver grades every move of a game's current line.

Each whole-board move is graded against the solver's ranking of the position it was played from,
searched at the *review setting* (``REVIEW_SETTING``): iterative deepening within ``REVIEW_NODES``
chance nodes, a count rather than a time, so a game gets the same review on any machine and with
any number of threads. The played move's standing comes from ``twenty48.ai.standing``, the one
formula the hint uses too: 0-100 points (100 for the best) and a grade. In the review a move's
``loss`` is the points it gave up, ``100 - points``: 0 for the best, 100 for a move after which
every spawn ends the game (whose standing loss is infinite), so it is always a finite number on
the same scale as the accuracy, the mean points of the graded moves.

A Merge 2048 single-tile move is listed ungraded (``grade``, ``best`` and ``loss`` None): the
solver ranks whole-board moves only.

The *outlook* of a position is the solver's chance, in percent, of still having a legal move after
the next ``OUTLOOK_DEPTH`` spawns when it plays on from there as well as it can (an expectimax
over the same kernel whose every leaf is worth 0 and every lost position -1). It is on one scale
for the whole game, 100 while the board is roomy, and 0 once the game is over. A position with
more than ``OUTLOOK_DEPTH`` empty cells cannot end within that horizon (each move and spawn fills
at most one cell), so it is 100 without a search. The *turning point* is the move after which the
outlook fell furthest (by at least ``TURNING_POINT_DROP``); for a game that ended, the move that
lost it. None when the outlook never fell that far.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from twenty48.actions import Action, TileMove
from twenty48.ai.heuristic import Heuristic
from twenty48.ai.solver import SOLVER_VERSION, analyse
from twenty48.ai.standing import Grade, standings
from twenty48.game import Game
from twenty48.rules import Board, Direction

#: Chance nodes per position at the review setting. ``bench/review.py`` measures what it costs
#: (a 5,000-move game in well under 30 s on two cores) and how often its best move agrees with
#: the default setting's.
REVIEW_NODES = 100_000
#: Spawns ahead the outlook looks.
OUTLOOK_DEPTH = 3
#: The smallest fall of the outlook (percentage points) that makes a turning point.
TURNING_POINT_DROP = 1.0
#: The evaluation behind the outlook: nothing but losing counts.
SURVIVAL = Heuristic(
    loss=-1.0,
    empty_weight=0.0,
    merge_weight=0.0,
    monotonicity_weight=0.0,
    sum_weight=0.0,
)

#: What a stored review names to tell whether it is still current.
REVIEW_SETTING: dict[str, Any] = {
    "nodes": REVIEW_NODES,
    "outlook_depth": OUTLOOK_DEPTH,
    "solver": SOLVER_VERSION,
}

GRADES = tuple(grade.value for grade in Grade)


class ReviewCancelled(Exception):
    """The review was asked to stop before it was done."""


@dataclass(frozen=True, slots=True)
class MoveReview:
    """One move of a reviewed game; ``n`` = 1 is the first move."""

    n: int
    played: str
    #: The solver's best move (equal to ``played`` when it was among the best); None when ungraded.
    best: str | None
    #: Points given up, ``100 - points``; None when ungraded.
    loss: int | None
    grade: Grade | None
    #: The outlook of the position after the move.
    outlook: float

    def to_json(self) -> dict[str, Any]:
        return {
            "n": self.n,
            "played": self.played,
            "best": self.best,
            "loss": self.loss,
            "grade": None if self.grade is None else self.grade.value,
            "outlook": self.outlook,
        }


def position_outlook(board: Board) -> float:
    """The outlook of ``board`` (0-100, see the module docstring), to one decimal."""
    if board.is_over():
        return 0.0
    if len(board.empty_cells()) > OUTLOOK_DEPTH:
        return 100.0
    analysis = analyse(board, depth=OUTLOOK_DEPTH, heuristic=SURVIVAL)
    survival = 1.0 + max(analysis.values.values())
    return round(100.0 * min(1.0, max(0.0, survival)), 1)


def grade_move(board: Board, played: Direction) -> tuple[str, int, Grade]:
    """The best move, the points given up and the grade of ``played`` on ``board``."""
    values = analyse(board, nodes=REVIEW_NODES).values
    graded = standings(board, values)
    mine = graded[played]
    top = (d for d, s in graded.items() if s.grade is Grade.BEST)
    best = played if mine.grade is Grade.BEST else next(top)
    return best.value, 100 - mine.points, mine.grade


def review_game(
    game: Game,
    progress: Callable[[int, int], None] | None = None,
    cancelled: Callable[[], bool] | None = None,
) -> dict[str, Any]:
    """The review of ``game``'s current line as one JSON object (the shape is in docs/solver.md).

    ``progress(done, total)`` is called after each move; ``cancelled()`` is asked before each one,
    and a True answer raises ``ReviewCancelled``."""
    line = game.actions
    position = Game.replay(game.seed, (), game.variant, game.start)
    start_outlook = position_outlook(position.board)
    moves: list[MoveReview] = []
    total = len(line)
    for n, action in enumerate(line, start=1):
        if cancelled is not None and cancelled():
            raise ReviewCancelled
        board = position.board
        if isinstance(action, TileMove):
            best, loss, grade = None, None, None
        else:
            best, loss, grade = grade_move(board, action)
        position.play(action)
        moves.append(MoveReview(n, _text(action), best, loss, grade, position_outlook(position.board)))
        if progress is not None:
            progress(n, total)
    return summarise(moves, start_outlook)


def summarise(moves: list[MoveReview], start_outlook: float) -> dict[str, Any]:
    """The review's JSON object from its moves."""
    graded = [(m.grade, m.loss) for m in moves if m.grade is not None and m.loss is not None]
    counts = dict.fromkeys(GRADES, 0)
    for grade, _ in graded:
        counts[grade.value] += 1
    accuracy = round(sum(100 - loss for _, loss in graded) / len(graded), 1) if graded else None
    return {
        "accuracy": accuracy,
        "grades": counts,
        "turning_point": turning_point(moves, start_outlook),
        "moves": [m.to_json() for m in moves],
        "start_outlook": start_outlook,
        "covers": len(moves),
        "setting": dict(REVIEW_SETTING),
    }


def turning_point(moves: list[MoveReview], start_outlook: float) -> dict[str, Any] | None:
    """The move after which the outlook fell furthest; the first such move on a tie."""
    found, fall_at, before = None, 0.0, start_outlook
    for m in moves:
        fall = before - m.outlook
        if fall >= TURNING_POINT_DROP and fall > fall_at:
            found, fall_at = m, fall
        before = m.outlook
    if found is None:
        return None
    return {
        "n": found.n,
        "played": found.played,
        "best": found.best,
        "loss": found.loss,
        "fall": round(fall_at, 1),
    }


def _text(action: Action) -> str:
    return str(action) if isinstance(action, TileMove) else Direction(action).value
