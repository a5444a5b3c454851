"""The arguments that name a game on the command line, which ``replay``, ``review``, ``play`` and
``bench`` share: its seed (decimal digits, or a ranked game's 64 hex digits), its board's size and its
moves."""

from __future__ import annotations

import argparse
import re

from twenty48 import spawns
from twenty48.commands.messages import shown
from twenty48.commands.numbers import decimal
from twenty48.game import Action, parse_action
from twenty48.rules import MAX_SIDE, BoardSize, Direction


def parse_actions(text: str) -> list[str]:
    """Moves separated by commas (or spaces): ``up,left,left@5``, as words: a single-tile move's
    cell is checked against the board once ``--size`` is known (``check_actions``). An empty entry
    (``up,,left``, a comma at either end) is refused, never skipped: a move was probably lost there."""
    text = text.strip()
    if not text:
        return []
    tokens = []
    for number, token in enumerate(re.split(r"\s*,\s*|\s+", text), start=1):
        if not token:
            raise argparse.ArgumentTypeError(
                f"move {number} is empty (two commas in a row, or one at an end): separate moves by one comma"
            )
        name, at, _ = token.lower().partition("@")
        try:
            parse_action(token.lower(), _LARGEST)
        except ValueError:
            if at and name in {d.value for d in Direction}:
                raise argparse.ArgumentTypeError(
                    f"move {number} {shown(token)}: the cell after @ is 0-15 on the 4x4, 0-(R*C - 1) "
                    "on an RxC board (row by row, 0 top left)"
                ) from None
            raise argparse.ArgumentTypeError(
                f"unknown move {shown(token)} (use up, down, left, right; left@5 moves the tile on cell 5"
                " in the merge variant)"
            ) from None
        tokens.append(token.lower())
    return tokens


#: The board whose cells every other board's cells are among, for reading moves before the size.
_LARGEST = BoardSize(MAX_SIDE, MAX_SIDE)


def check_actions(tokens: list[str], size: BoardSize) -> list[Action]:
    """The moves of a game on a board of ``size``; ValueError naming a cell the board does not have."""
    actions = []
    for position, token in enumerate(tokens, start=1):
        try:
            actions.append(parse_action(token, size))
        except ValueError as exc:
            raise ValueError(f"move #{position}: {exc}") from None
    return actions


def parse_seed(text: str) -> spawns.Seed:
    """An integer in decimal digits (a SplitMix64 seed), or a ranked game's key: 64 hex digits, as
    its replay gives it."""
    if len(text) == 2 * spawns.KEY_BYTES:
        try:
            return spawns.seed_from_json(text.lower(), spawns.KEYED)
        except ValueError:
            pass  # not hex: reported below as not decimal digits either
    seed = decimal(text, f"a seed (or a ranked game's {2 * spawns.KEY_BYTES} hex digits)")
    if seed >= spawns.SEED_LIMIT:
        raise argparse.ArgumentTypeError(f"seed must be between 0 and 2**64 - 1, got {shown(text)}")
    return seed


def parse_size(text: str) -> BoardSize:
    """A board size ``RxC`` (rows first), each side 2-6, else a one-line error naming the range."""
    try:
        return BoardSize.parse(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
