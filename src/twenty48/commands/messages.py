"""How every ``2048`` command words a refusal: one line on standard error, ``2048 COMMAND: error:
...``, whoever finds the problem (argparse, a command, the store). The line itself is
``twenty48.wording.error_line``, which the terminal game's exit shares; an argument quoted in it is cut
short, so a mistyped 100,000-character argument is not echoed back whole."""

from __future__ import annotations

import sys

from twenty48.wording import error_line


def shown(text: str, limit: int = 40) -> str:
    """``text`` quoted as a message names what the user typed, cut to ``limit`` characters."""
    if len(text) <= limit:
        return repr(text)
    return f"{text[:limit]!r}… ({len(text):,} characters)"


def fail(command: str | None, message: str, status: int = 2) -> int:
    """Say why ``command`` refuses, on standard error; returns the exit status to end with."""
    print(error_line(command, message), file=sys.stderr)
    return status
