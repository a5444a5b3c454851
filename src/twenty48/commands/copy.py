"""``2048 copy``: move an SQLite store into PostgreSQL, every game verified by replay."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

HELP = "Copy an SQLite store into an empty PostgreSQL database, verifying every game by replay."


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--from", dest="source", type=Path, required=True, metavar="PATH", help="SQLite file")
    parser.add_argument("--to", dest="target", required=True, metavar="URL", help="postgresql:// URL")


def run(args: argparse.Namespace) -> int:
    from twenty48.store import StoreError, copy_store, is_postgres, redact

    if not args.source.is_file():
        print(f"2048: {args.source} is not a file", file=sys.stderr)
        return 2
    try:
        if not is_postgres(args.target):
            print("2048: --to must be a postgresql:// URL", file=sys.stderr)
            return 2
        result = copy_store(args.source, args.target)
    except StoreError as exc:
        print(f"2048: {exc}", file=sys.stderr)
        return 1
    print(
        f"copied {result.players} players and {result.games} games (each verified by replay) "
        f"from {args.source} to {redact(args.target)}"
    )
    return 0
