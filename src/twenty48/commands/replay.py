"""``2048 replay``: rebuild a game from its seed and moves and print where it ends."""

from __future__ import annotations

import argparse
import json
from dataclasses import dataclass

from twenty48 import spawns
from twenty48.commands.game_arguments import check_actions, parse_actions, parse_seed, parse_size
from twenty48.commands.messages import fail
from twenty48.game import Action, Game
from twenty48.rules import DEFAULT_SIZE, BoardSize
from twenty48.variants import CLASSIC, VARIANTS

HELP = "Replay a game from its seed and moves; print the final board, score and state."


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
