"""``2048 migrate``: bring a database to this version's schema."""

from __future__ import annotations

import argparse

from twenty48.commands.database import add_db_argument
from twenty48.commands.messages import fail

HELP = "Bring a database (an SQLite file or postgresql:// URL) to this version's schema."


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_db_argument(parser, "the database (default: the SQLite file in your user data directory)")


def run(args: argparse.Namespace) -> int:
    from twenty48.store import Store, StoreError, migrate_database, redact

    location = args.db if args.db is not None else Store.default_path()
    try:
        before, after = migrate_database(location)
    except StoreError as exc:
        return fail("migrate", str(exc), 1)
    if before == after:
        print(f"{redact(str(location))} is at schema version {after}: nothing to do")
    else:
        print(f"{redact(str(location))}: schema version {before} -> {after}")
    return 0
