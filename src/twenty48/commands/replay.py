"""``2048 replay``: rebuild a game from its seed and moves and print where it ends."""

from __future__ import annotations

import argparse
import json
import re
from dataclasses import dataclass

from twenty48 import spawns
from twenty48.commands.messages import fail, shown
from twenty48.commands.numbers import decimal
from twenty48.game import Action, Game, parse_action
from twenty48.rules import DEFAULT_SIZE, MAX_SIDE, BoardSize, Direction
from twenty48.variants import CLASSIC, VARIANTS

HELP = "Replay a game from its seed and moves; print the final board, score and state."


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


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--seed",
        type=parse_seed,
        required=True,
        help="the game's seed: an integer, or the 64 hex digits of a ranked game's key (blake2b spawns)",
    )
    parser.add_argument(
        "--actions",
        type=parse_actions,
        default=[],
        help="comma-separated moves, e.g. up,left,left,down; in the merge variant up@5 moves only "
        "the tile on cell 5 (cells 0-15 on the 4x4, row by row)",
    )
    parser.add_argument(
        "--size",
        type=parse_size,
        default=DEFAULT_SIZE,
        metavar="RxC",
        help="the game's board: R rows of C cells, each 2-6 (default %(default)s)",
    )
    parser.add_argument(
        "--variant",
        choices=sorted(VARIANTS),
        default=CLASSIC.name,
        help="the game's rules (default %(default)s)",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def state_label(game: Game) -> str:
    if game.over:
        return "won and over" if game.won else "over"
    return "won" if game.won else "in progress"


@dataclass(frozen=True, slots=True)
class Replayed:
    """A replayed game and what became of the moves given: 1-based positions of those that
    changed nothing, and of the first one given after the game had ended (None if none was)."""

    game: Game
    illegal: list[int]
    after_end: int | None


def replay(
    seed: spawns.Seed, actions: list[Action], variant: str, size: BoardSize = DEFAULT_SIZE
) -> Replayed:
    """Play ``actions`` as ``Game.replay`` does, noting which ones did nothing and why."""
    game = Game.new(seed, variant, size)
    illegal: list[int] = []
    for position, action in enumerate(actions, start=1):
        if game.over:
            return Replayed(game, illegal, position)
        if not game.play(action).changed:
            illegal.append(position)
    return Replayed(game, illegal, None)


def positions(numbers: list[int], shown: int = 10) -> str:
    """``#3, #7`` ... with at most ``shown`` listed."""
    listed = ", ".join(f"#{n}" for n in numbers[:shown])
    return listed + (f" and {len(numbers) - shown} more" if len(numbers) > shown else "")


def run(args: argparse.Namespace) -> int:
    try:
        replayed = replay(args.seed, check_actions(args.actions, args.size), args.variant, args.size)
    except ValueError as exc:
        return fail("replay", str(exc))
    game, given = replayed.game, len(args.actions)
    after_end = given - replayed.after_end + 1 if replayed.after_end is not None else 0
    if args.json:
        print(
            json.dumps(
                {
                    "seed": spawns.seed_json(game.seed),
                    "spawns": game.spawns,
                    "variant": game.variant.name,
                    "size": str(game.size),
                    "board": [list(r) for r in game.board.rows],
                    "score": game.score,
                    "moves": game.moves,
                    "won": game.won,
                    "over": game.over,
                    "max_tile": game.board.max_tile,
                    "given": given,
                    "illegal": replayed.illegal,
                    "after_end": after_end,
                }
            )
        )
        return 0
    print(game.board)
    print(f"score: {game.score}")
    print(f"moves: {game.moves} played of {given} given")
    if replayed.illegal:
        print(f"illegal (changed nothing): {len(replayed.illegal)}: {positions(replayed.illegal)}")
    if replayed.after_end is not None:
        last = f"-#{given}" if after_end > 1 else ""
        print(f"after the game ended (not played): {after_end}: #{replayed.after_end}{last}")
    print(f"state: {state_label(game)}")
    return 0
