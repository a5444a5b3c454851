"""English wording the terminal game and the command line share, knowing nothing of a game: counts
with their nouns, and the one line of a refusal (``2048 COMMAND: error: ...``) with anything long
quoted in it cut short, so a mistyped 100,000-character argument is not echoed back whole.

How a stored game reads in a list (what became of it, the help it had) is ``twenty48.listing``'s.
"""

from __future__ import annotations

import re

#: The longest run of characters without a space a message keeps whole: past any real path or URL.
LONGEST_WORD = 300
_WORD = re.compile(rf"\S{{{LONGEST_WORD + 1},}}")


def count(n: int, noun: str, plural: str | None = None) -> str:
    """``"1 hint"``, ``"2 hints"``, ``"1,000 moves"``; ``plural`` where adding an s is wrong."""
    return f"{n:,} {noun if n == 1 else plural or noun + 's'}"


def cut(message: str) -> str:
    """``message`` with every run of more than ``LONGEST_WORD`` non-space characters cut short."""
    return _WORD.sub(lambda m: f"{m.group()[:60]}… ({len(m.group()):,} characters)", message)


def error_line(command: str | None, message: str) -> str:
    """The one line of a refusal: ``2048 COMMAND: error: message``."""
    who = f"2048 {command}" if command else "2048"
    return f"{who}: error: {cut(message)}"
