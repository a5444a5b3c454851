"""The ``--db`` option that every command with a database shares."""

from __future__ import annotations

import argparse

from twenty48.store import Location


def parse_db(text: str) -> Location:
    """An argparse type: the SQLite file or PostgreSQL URL ``--db`` names; a URL of another scheme
    is refused by name (exit 2)."""
    from twenty48.store import StoreError, parse_location

    try:
        return parse_location(text)
    except StoreError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


#: What ``--db`` names, for the commands that read and write the saved games.
SAVED_GAMES_HELP = (
    "the SQLite file or PostgreSQL URL of the saved games (default: the one `play` and `serve` use)"
)


def add_db_argument(
    parser: argparse.ArgumentParser, help_text: str = SAVED_GAMES_HELP, *, default: str | None = None
) -> None:
    """``--db``: a ``Location`` (``parse_db``); ``default`` None is the user's own SQLite file, and
    ``argparse.SUPPRESS`` leaves an earlier ``--db`` (a subcommand's parent's) as it is."""
    parser.add_argument("--db", type=parse_db, default=default, metavar="PATH|URL", help=help_text)
