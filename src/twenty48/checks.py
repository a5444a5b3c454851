"""Type checks every public entry point shares, and the one reading of a number's decimal digits.

``bool`` is a subclass of ``int`` in Python, so ``isinstance(True, int)`` holds; a caller who passes
``True`` as a depth, a seed or a tile has made a mistake, and these predicates say so. NumPy's scalars
count as numbers (``numbers.Integral`` and ``numbers.Real`` include them), since environments and
benchmarks hand over values read from arrays.
"""

from __future__ import annotations

import numbers
import re

_DIGITS = re.compile(r"[0-9]+")


def is_int(value: object) -> bool:
    """An integer (Python's or NumPy's), never a bool."""
    # Python's own int first: the abstract class's check costs a microsecond, and every tile of
    # every board built is checked (most of what building a board costs).
    return type(value) is int or (isinstance(value, numbers.Integral) and not isinstance(value, bool))


def is_real(value: object) -> bool:
    """A real number (an integer or a float, Python's or NumPy's), never a bool."""
    return isinstance(value, numbers.Real) and not isinstance(value, bool)


def plain_digits(text: str) -> str | None:
    """``text`` as a number's plain decimal digits, leading zeros dropped ("007" -> "7"); None for
    anything else. Python's int() also reads "+1", " 1", "1_0" (10), "0x10" (with base 0) and other
    scripts' digits ("١٢"), pydantic "1.0": every number a user types, in the API and on the
    command line, is read through this instead, so that a number has one spelling."""
    if not _DIGITS.fullmatch(text):
        return None
    return text.lstrip("0") or "0"
