"""Type checks every public entry point shares.

``bool`` is a subclass of ``int`` in Python, so ``isinstance(True, int)`` holds; a caller who passes
``True`` as a depth, a seed or a tile has made a mistake, and these predicates say so. NumPy's scalars
count as numbers (``numbers.Integral`` and ``numbers.Real`` include them), since environments and
benchmarks hand over values read from arrays.
"""

from __future__ import annotations

import numbers


def is_int(value: object) -> bool:
    """An integer (Python's or NumPy's), never a bool."""
    return isinstance(value, numbers.Integral) and not isinstance(value, bool)


def is_real(value: object) -> bool:
    """A real number (an integer or a float, Python's or NumPy's), never a bool."""
    return isinstance(value, numbers.Real) and not isinstance(value, bool)
