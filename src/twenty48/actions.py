"""What a player can do on the board: a whole-board move (a ``Direction``) or, in "Merge 2048", a
single-tile move (``TileMove``), and their text forms ``"left"`` and ``"left@5"`` used in logs, saved
games, the API and the command line. A single-tile move names a cell of the board, 0 to R*C - 1
row by row (0-15 on the 4x4), so parsing one takes the board's size."""

from __future__ import annotations

from typing import NamedTuple

from twenty48.checks import is_int, plain_digits
from twenty48.rules import DEFAULT_SIZE, BoardSize, Direction


class TileMove(NamedTuple):
    """A single-tile move of the "Merge 2048" variant, logged as ``"left@5"``."""

    direction: Direction
    cell: int

    def __str__(self) -> str:
        return f"{self.direction.value}@{self.cell}"


Action = Direction | TileMove


def make_action(
    direction: Direction | str, cell: int | None = None, size: BoardSize = DEFAULT_SIZE
) -> Action:
    """A whole-board move, or with ``cell`` (0 to R*C - 1 on a board of ``size``) a single-tile move
    from that cell."""
    direction = Direction(direction)
    if cell is None:
        return direction
    if not is_int(cell) or not 0 <= cell < size.cells:
        raise ValueError(f"cell must be an integer 0-{size.cells - 1}{_on(size)}, got {cell!r}")
    return TileMove(direction, int(cell))


def parse_action(action: Action | str, size: BoardSize = DEFAULT_SIZE) -> Action:
    """``Direction``, ``TileMove``, ``"left"`` or ``"left@5"`` (a cell of a board of ``size``, 0-15 on
    the 4x4) -> an action."""
    if isinstance(action, Direction):
        return action
    if isinstance(action, TileMove):
        return make_action(action.direction, action.cell, size)
    if not isinstance(action, str):
        raise ValueError(f"an action is a direction such as 'left' or 'left@5', got {action!r}")
    name, at, cell_text = action.partition("@")
    direction = Direction(name)
    if not at:
        return direction
    digits = plain_digits(cell_text)
    if digits is None or len(digits) > 2 or not 0 <= int(digits) < size.cells:
        raise ValueError(f"{action[:40]!r}: the cell after '@' must be 0-{size.cells - 1}{_on(size)}")
    return TileMove(direction, int(digits))


def _on(size: BoardSize) -> str:
    return "" if size == DEFAULT_SIZE else f" on a {size} board"
