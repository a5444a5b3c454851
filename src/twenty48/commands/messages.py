"""How every ``2048`` command words a refusal: one line on standard error, ``2048 COMMAND: error:
...``, whoever finds the problem (argparse, a command, the store); an argument quoted in it is cut
short, so a mistyped 100,000-character argument is not echoed back whole."""

from __future__ import annotations

import re
import sys

#: The longest run of characters without a space a message keeps whole: past any real path or URL.
LONGEST_WORD = 300
_WORD = re.compile(rf"\S{{{LONGEST_WORD + 1},}}")


def shown(text: str, limit: int = 40) -> str:
    """``text`` quoted as a message names what the user typed, cut to ``limit`` characters."""
    if len(text) <= limit:
        return repr(text)
    return f"{text[:limit]!r}… ({len(text):,} characters)"


def cut(message: str) -> str:
    """``message`` with every run of more than ``LONGEST_WORD`` non-space characters cut short."""
    return _WORD.sub(lambda m: f"{m.group()[:60]}… ({len(m.group()):,} characters)", message)


def error_line(command: str | None, message: str) -> str:
    """The one line of a refusal: ``2048 COMMAND: error: message``."""
    who = f"2048 {command}" if command else "2048"
    return f"{who}: error: {cut(message)}"


def fail(command: str | None, message: str, status: int = 2) -> int:
    """Say why ``command`` refuses, on standard error; returns the exit status to end with."""
    print(error_line(command, message), file=sys.stderr)
    return status
