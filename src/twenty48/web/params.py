"""Path and query parameter types every router shares (integers as decimal digits only), in one place."""

from __future__ import annotations

from typing import Annotated

from fastapi import Path
from pydantic import BeforeValidator

from twenty48.checks import plain_digits
from twenty48.store import ID_LIMIT

#: Every ``Digits`` parameter's bound is at most ID_LIMIT (19 digits), so a longer number is past
#: it; it goes on as this value, for the parameter's own bound to word the refusal, and a number
#: of any length never reaches int().
_PAST_EVERY_BOUND = str(10**19)


def _digits(value: object) -> object:
    if not isinstance(value, str):
        return value
    digits = plain_digits(value)
    if digits is None:
        raise ValueError("expected decimal digits only")
    return _PAST_EVERY_BOUND if len(digits) > len(str(ID_LIMIT)) else digits


#: Integers in a URL are decimal digits, nothing else: ``Digits`` after the parameter's own bounds
#: (placed after them, the bounds still reach the schema as minimum and maximum).
Digits = BeforeValidator(_digits)
GameId = Annotated[
    int,
    Path(
        ge=0,
        le=ID_LIMIT,
        description="A game of the requesting player; 0 is a new visitor's first game, which is stored "
        "only at its first move (its answers then carry its id).",
    ),
    Digits,
]
