"""``2048 play``: the game in the terminal, saved to the same database as the browser game."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from twenty48.commands.replay import parse_seed
from twenty48.variants import VARIANTS

HELP = "Play in the terminal; the game is saved after every move and resumes next time."


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--seed", type=parse_seed, default=None, help="start a new game from this seed instead of resuming"
    )
    parser.add_argument(
        "--variant",
        choices=sorted(VARIANTS),
        default=None,
        help="start a new game with these rules instead of resuming (merge: Merge 2048, whose "
        "single-tile swipes exist only in the browser; the terminal moves the whole board)",
    )
    parser.add_argument(
        "--db",
        type=Path,
        default=None,
        metavar="PATH",
        help="the SQLite database of saved games (default: the one the browser game uses)",
    )


def run(args: argparse.Namespace) -> int:
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        print("2048 play: needs an interactive terminal (stdin and stdout)", file=sys.stderr)
        return 2
    # Textual and the solver load only when the game starts, keeping `2048 --help` instant.
    from twenty48.tui import Twenty48App

    Twenty48App(db_path=args.db, seed=args.seed, variant=args.variant).run()
    return 0
