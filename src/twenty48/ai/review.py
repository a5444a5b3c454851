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

Every position, from the start to the last move, gets its *chance* (``twenty48.ai.chance``): the
solver's chance, in percent, of reaching the game's *target*, the next power of two above the
largest tile the game reached, when it plays on from there (at the chance setting, estimated from
seeded continuations, so it is the same on any machine too). A move's ``chance`` is that of the
position after it and its spawn; 0 once the game is over. The *turning point* is the move after
which the chance fell furthest (by at least ``TURNING_POINT_DROP`` points), the first such move on
a tie; None when it never fell that far.

The positions are visited from the last back to the first, so each position's continuations can
end where those of the positions after it already went (``Chances``).
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from twenty48.actions import Action, TileMove
from twenty48.ai.chance import CHANCE_SETTING, ChanceCancelledError, Chances, target_tile
from twenty48.ai.pace import Pace
from twenty48.ai.solver import SOLVER_VERSION, analyse
from twenty48.ai.standing import Grade, standings
from twenty48.game import Game
from twenty48.rules import Board, Direction

#: Chance nodes per position at the review setting. ``bench/review.py`` measures what it costs
#: (grading a 5,000-move game takes about 12 s on two cores) and how often its best move agrees
#: with the default setting's.
REVIEW_NODES = 100_000
#: The smallest fall of the chance (percentage points) that makes a turning point.
TURNING_POINT_DROP = 1.0

#: What a stored review names to tell whether it is still current.
REVIEW_SETTING: dict[str, Any] = {
    "nodes": REVIEW_NODES,
    "solver": SOLVER_VERSION,
    "chance": CHANCE_SETTING,
}

GRADES = tuple(grade.value for grade in Grade)


class ReviewCancelledError(Exception):
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
    #: The chance of the position after the move (and its spawn).
    chance: float

    def to_json(self) -> dict[str, Any]:
        return {
            "n": self.n,
            "played": self.played,
            "best": self.best,
            "loss": self.loss,
            "grade": None if self.grade is None else self.grade.value,
            "chance": self.chance,
        }


def grade_move(board: Board, played: Direction, pace: Pace | None = None) -> tuple[str, int, Grade]:
    """The best move, the points given up and the grade of ``played`` on ``board``."""
    values = analyse(board, nodes=REVIEW_NODES, pace=pace).values
    graded = standings(board, values)
    mine = graded[played]
    top = (d for d, s in graded.items() if s.grade is Grade.BEST)
    best = played if mine.grade is Grade.BEST else next(top)
    return best.value, 100 - mine.points, mine.grade


def review_game(
    game: Game,
    progress: Callable[[int, int], None] | None = None,
    cancelled: Callable[[], bool] | None = None,
    pace: Pace | None = None,
) -> dict[str, Any]:
    """The review of ``game``'s current line as one JSON object (the shape is in docs/solver.md).

    ``progress(done, total)`` is called after each move is reviewed (last move first);
    ``cancelled()`` is asked before each one (and between its grade and its chance, and before the
    review is returned), and a True answer raises ``ReviewCancelledError``. ``pace`` brakes the searches
    from another thread (``twenty48.ai.Pace``) without changing the review; stopping it ends the
    review at once, with ``ReviewCancelledError`` once ``cancelled()`` says so (what a stopped search
    found is never used)."""
    line = game.actions
    boards = positions(game)
    total = len(line)
    chances = Chances(target_tile(max(b.max_tile for b in boards)), total)
    moves: list[MoveReview] = []
    try:
        for n in range(total, 0, -1):
            _check(cancelled)
            action = line[n - 1]
            if isinstance(action, TileMove):
                best, loss, grade = None, None, None
            else:
                best, loss, grade = grade_move(boards[n - 1], action, pace)
                _check(cancelled)  # a search stopped meanwhile answered garbage
            moves.append(MoveReview(n, _text(action), best, loss, grade, chances.chance(boards[n], n, pace)))
            if progress is not None:
                progress(total - n + 1, total)
        start_chance = chances.chance(boards[0], 0, pace)
    except ChanceCancelledError:
        raise ReviewCancelledError from None
    _check(cancelled)
    moves.reverse()
    return summarise(moves, start_chance, chances.target)


def _check(cancelled: Callable[[], bool] | None) -> None:
    if cancelled is not None and cancelled():
        raise ReviewCancelledError


def positions(game: Game) -> list[Board]:
    """The boards of ``game``'s current line: the start, then the position after each move."""
    position = Game.replay(game.seed, (), game.variant, game.start, game.size)
    boards = [position.board]
    for action in game.actions:
        position.play(action)
        boards.append(position.board)
    return boards


def summarise(moves: list[MoveReview], start_chance: float, target: int) -> dict[str, Any]:
    """The review's JSON object from its moves."""
    graded = [(m.grade, m.loss) for m in moves if m.grade is not None and m.loss is not None]
    counts = dict.fromkeys(GRADES, 0)
    for grade, _ in graded:
        counts[grade.value] += 1
    accuracy = round(sum(100 - loss for _, loss in graded) / len(graded), 1) if graded else None
    return {
        "accuracy": accuracy,
        "grades": counts,
        "target": target,
        "start_chance": start_chance,
        "turning_point": turning_point(moves, start_chance),
        "moves": [m.to_json() for m in moves],
        "covers": len(moves),
        "setting": copy.deepcopy(REVIEW_SETTING),
    }


def turning_point(moves: list[MoveReview], start_chance: float) -> dict[str, Any] | None:
    """The move after which the chance fell furthest; the first such move on a tie."""
    found, fall_at, before = None, 0.0, start_chance
    for m in moves:
        fall = before - m.chance
        if fall >= TURNING_POINT_DROP and fall > fall_at:
            found, fall_at = m, fall
        before = m.chance
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
