"""How a stored game reads in a list of games, in English, for the terminal's history and ``2048
history``: what became of it, and how much help it had."""

from __future__ import annotations

from twenty48.store import GameSummary, Status
from twenty48.wording import count

#: How a game's ``status`` reads in a table.
STATUS_WORDS: dict[Status, str] = {"playing": "in progress", "ended": "ended", "abandoned": "abandoned"}


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
