"""How the command line reads a number: decimal digits only (``twenty48.checks.plain_digits``), as
the API does, so that ``0x10``, ``1_000``, ``+5`` or other scripts' digits are refused, never read
as some other number; and within its bounds, with the bounds in the one-line refusal."""

from __future__ import annotations

import argparse
from collections.abc import Callable

from twenty48.checks import plain_digits
from twenty48.commands.messages import shown


def decimal(text: str, what: str) -> int:
    """``text`` as a non-negative integer written in decimal digits, else an argparse error naming
    ``what`` was expected."""
    digits = plain_digits(text)
    if digits is None:
        raise argparse.ArgumentTypeError(f"{what} is written in decimal digits (0-9), got {shown(text)}")
    # Past any bound a caller checks, without reading a number of any length.
    return int(digits) if len(digits) <= 100 else 10**100


def bounded_int(low: int, high: int, what: str = "") -> Callable[[str], int]:
    """An argparse type: a decimal integer from ``low`` to ``high``, else a one-line error."""
    expected = f"expected {what + ': ' if what else ''}an integer from {low:,} to {high:,}"

    def parse(text: str) -> int:
        digits = plain_digits(text)
        if digits is None:
            raise argparse.ArgumentTypeError(f"{expected} in decimal digits, got {shown(text)}")
        if len(digits) > len(str(high)) or not low <= int(digits) <= high:
            raise argparse.ArgumentTypeError(f"{expected}, got {shown(text)}")
        return int(digits)

    parse.__name__ = "integer"  # argparse names the type in its message
    return parse
