"""The ``--db`` option that ``serve`` and ``play`` share."""

from __future__ import annotations

import argparse
from pathlib import Path


def parse_db(text: str) -> Path:
    """An argparse type: the SQLite file ``--db`` names; a URL is refused by name (exit 2)."""
    from twenty48.store import StoreError, database_path

    try:
        return database_path(text)
    except StoreError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def add_db_argument(parser: argparse.ArgumentParser, help_text: str) -> None:
    parser.add_argument("--db", type=parse_db, default=None, metavar="PATH", help=help_text)
