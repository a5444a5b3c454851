"""What a player can do on the board: a whole-board move (a ``Direction``) or, in "Merge 2048", a
single-tile move (``TileMove``), and their text forms ``"left"`` and ``"left@5"`` used in logs, saved
games, the API and the command line."""

from __future__ import annotations

from typing import NamedTuple

from twenty48.checks import is_int, plain_digits
from twenty48.rules import CELLS, Direction


class TileMove(NamedTuple):
    """A single-tile move of the "Merge 2048" variant, logged as ``"left@5"``."""

    direction: Direction
    cell: int

    def __str__(self) -> str:
        return f"{self.direction.value}@{self.cell}"


Action = Direction | TileMove


def make_action(direction: Direction | str, cell: int | None = None) -> Action:
    """A whole-board move, or with ``cell`` (0-15) a single-tile move from that cell."""
    direction = Direction(direction)
    if cell is None:
        return direction
    if not is_int(cell) or not 0 <= cell < CELLS:
        raise ValueError(f"cell must be an integer 0-{CELLS - 1}, got {cell!r}")
    return TileMove(direction, cell)


def parse_action(action: Action | str) -> Action:
    """``Direction``, ``TileMove``, ``"left"`` or ``"left@5"`` (cell 0-15) -> an action."""
    if isinstance(action, (Direction, TileMove)):
        return action
    if not isinstance(action, str):
        raise ValueError(f"an action is a direction such as 'left' or 'left@5', got {action!r}")
    name, at, cell_text = action.partition("@")
    direction = Direction(name)
    if not at:
        return direction
    digits = plain_digits(cell_text)
    if digits is None or len(digits) > 2 or not 0 <= int(digits) < CELLS:
        raise ValueError(f"{action[:40]!r}: the cell after '@' must be 0-{CELLS - 1}")
    return TileMove(direction, int(digits))
