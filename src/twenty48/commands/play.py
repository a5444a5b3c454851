"""``2048 play``: the game in the terminal, saved to the same database as the browser game."""

from __future__ import annotations

import argparse
import sys

from twenty48.commands.database import add_db_argument
from twenty48.commands.game_arguments import parse_seed, parse_size
from twenty48.commands.messages import fail
from twenty48.variants import VARIANTS
from twenty48.wording import count

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
        "--size",
        type=parse_size,
        default=None,
        help="start a new game on a board of R rows of C cells (RxC, each 2-6: 3x3, 2x4, 5x5...) "
        "instead of resuming; `n` in the game keeps the size",
    )
    parser.add_argument(
        "--new",
        action="store_true",
        help="with --seed, --variant or --size: replace a game in progress without asking (for scripts)",
    )
    add_db_argument(
        parser, "the saved games: an SQLite file or a postgresql:// URL (default: the browser game's file)"
    )


def run(args: argparse.Namespace) -> int:
    from twenty48.tui.colours import check_color_system

    try:
        check_color_system()
    except ValueError as exc:
        return fail("play", str(exc))
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        return fail("play", "needs an interactive terminal (stdin and stdout)")
    starts_new = args.seed is not None or args.variant is not None or args.size is not None
    if starts_new and not args.new and not _may_replace(args):
        print("2048 play: the game in progress is kept; `2048 play` resumes it", file=sys.stderr)
        return 1
    # Textual and the solver load only when the game starts, keeping `2048 --help` instant.
    from twenty48.tui import Twenty48App

    app = Twenty48App(db_path=args.db, seed=args.seed, variant=args.variant, size=args.size)
    app.run()
    return app.return_code or 0


def _may_replace(args: argparse.Namespace) -> bool:
    """Whether a new game may replace the terminal's game in progress: asked first when there is
    one (the in-app new game asks too), since a replaced game can no longer be resumed."""
    from twenty48.store import StoreError, open_store

    try:
        with open_store(args.db) as store:
            latest = store.games(store.local_player().id, limit=1)
    except StoreError:
        return True  # the game explains an unusable database itself
    if not latest or not latest[0].current or latest[0].over or latest[0].moves == 0:
        return True
    game = latest[0]
    try:
        answer = input(
            f"A {game.variant} {game.size} game is in progress "
            f"({count(game.moves, 'move')}, score {game.score}). "
            "Start a new one instead? It cannot be resumed afterwards. [y/N] "
        )
    except EOFError:
        return False
    return answer.strip().lower() in ("y", "yes")
