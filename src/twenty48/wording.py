"""English wording the terminal game and the command line share: counts with their nouns, what
became of a game, and how much help it had."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from twenty48.store import GameSummary, Status

#: How a game's ``status`` reads in a table.
STATUS_WORDS: dict[Status, str] = {"playing": "in progress", "ended": "ended", "abandoned": "abandoned"}


def count(n: int, noun: str, plural: str | None = None) -> str:
    """``"1 hint"``, ``"2 hints"``, ``"1,000 moves"``; ``plural`` where adding an s is wrong."""
    return f"{n:,} {noun if n == 1 else plural or noun + 's'}"


def assists(game: GameSummary) -> str:
    """The help a game had: ``"no"``, ``"1 hint, 42 auto moves"``, ``"unknown"`` (counted by
    nobody), with what is not known named (``"42 auto moves, hints unknown"``)."""
    if game.origin == "imported":
        return "unknown (imported)"
    if game.assisted is None:
        return "unknown"
    if not game.assisted:
        return "no"
    counts = ((game.hints, "hint"), (game.auto_moves, "auto move"), (game.undos, "undo"))
    known = [count(n, noun) for n, noun in counts if n]
    return ", ".join(known + [f"{noun}s unknown" for n, noun in counts if n is None])
