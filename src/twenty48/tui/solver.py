"""The solver behind hints and auto-play: how hard it thinks, and the answer a worker thread sends back.

The solver runs in a worker thread on an immutable ``Board`` and its answer names that board, so the
screen can use the answer only while the board on screen is still that one: a late answer can never
play a move in the wrong position.
"""

from __future__ import annotations

from dataclasses import dataclass

from textual.message import Message

from twenty48.rules import Board, Direction


@dataclass(frozen=True, slots=True)
class SolverSettings:
    """How hard the solver thinks: per hint, per auto-played move, and the pause between auto moves.

    ``depth`` fixes the search depth (tests use it for reproducible answers); None lets the solver
    choose its depth within the time budget."""

    hint_seconds: float = 0.5
    auto_seconds: float = 0.1
    auto_pause: float = 0.05
    depth: int | None = None

    def __post_init__(self) -> None:
        for name in ("hint_seconds", "auto_seconds", "auto_pause"):
            if not getattr(self, name) > 0:
                raise ValueError(f"{name} must be a positive number of seconds")


class SolverAnswer(Message):
    """The solver's ranking of ``board``'s legal moves (best first), or why it failed. ``position``
    names the position on screen it was asked for (see ``GameScreen``), so a late answer is known."""

    def __init__(
        self, board: Board, position: int, ranking: dict[Direction, float] | None, error: str | None
    ) -> None:
        super().__init__()
        self.board = board
        self.position = position
        self.ranking = ranking
        self.error = error


def solve(board: Board, position: int, seconds: float, depth: int | None) -> SolverAnswer:
    """Rank ``board``'s moves within ``seconds`` (at ``depth`` when given), for ``position``. Meant
    for a worker thread; it never raises, since the UI must survive any solver failure and say what
    it was."""
    try:
        # Imported here, in the worker: importing the solver compiles it on the first run.
        from twenty48.ai import rank_moves

        ranking = rank_moves(board, depth=depth, time_limit=seconds)
    except Exception as exc:
        return SolverAnswer(board, position, None, f"{type(exc).__name__}: {exc}")
    return SolverAnswer(board, position, ranking, None)
