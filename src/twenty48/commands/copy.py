"""``2048 copy``: move an SQLite store into PostgreSQL, every game verified by replay."""

from __future__ import annotations

import argparse
from pathlib import Path

from twenty48.commands.messages import fail
from twenty48.wording import count

HELP = "Copy an SQLite store into an empty PostgreSQL database, verifying every game by replay."


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--from", dest="source", type=Path, required=True, metavar="PATH", help="SQLite file")
    parser.add_argument("--to", dest="target", required=True, metavar="URL", help="postgresql:// URL")


def run(args: argparse.Namespace) -> int:
    from twenty48.store import StoreError, copy_store, is_postgres, redact

    if not args.source.is_file():
        return fail("copy", f"{args.source} is not a file")
    try:
        if not is_postgres(args.target):
            return fail("copy", "--to must be a postgresql:// URL")
        result = copy_store(args.source, args.target)
    except StoreError as exc:
        return fail("copy", str(exc), 1)
    print(
        f"copied {count(result.players, 'player')} and {count(result.games, 'game')} "
        f"(each verified by replay) from {args.source} to {redact(args.target)}"
    )
    return 0
