"""The schema of both backends, as one list of migrations (written in ``migrations``), and
SQLite's upgrade that runs them.

A migration is written once, in the SQL SQLite and PostgreSQL share (``twenty48.store.dialect``
says which), against ``sqlite3.Connection``'s ``execute``/``executemany``; PostgreSQL runs the same
list through ``dialect.PostgresSQL`` (``twenty48.store.postgres_schema``). SQLite's
``PRAGMA user_version`` records how many migrations ran; opening a database runs the missing ones
in one transaction, so a failing migration changes nothing. Migration ``i`` takes a database from
version ``i`` to ``i + 1``: append new ones to ``MIGRATIONS``, never edit an old one (the types of
migrations 1-4 were made the shared ones, ``BOOLEAN`` for flags, which SQLite stores exactly as
before).
"""

from __future__ import annotations

import contextlib
import functools
import sqlite3
from collections.abc import Callable
from pathlib import Path

from twenty48.store import migrations
from twenty48.store.errors import ForeignDatabaseError, NewerDatabaseError
from twenty48.store.migrations import SQL

#: Written into the database header so a foreign SQLite file is recognised ("2048" in ASCII).
APPLICATION_ID = 0x32303438

#: Migration ``i`` takes a database from schema version ``i`` to ``i + 1``. Append, never edit.
MIGRATIONS: list[Callable[[SQL], None]] = [
    migrations.schema_1,
    migrations.variants_2,
    migrations.lost_actions_3,
    migrations.history_4,
    migrations.player_limits_5,
    migrations.ranked_6,
    migrations.players_7,
    migrations.game_reviews_8,
    migrations.dailies_9,
    migrations.imports_10,
]


def check(db: sqlite3.Connection, path: Path) -> int:
    """The database's schema version; raises ``ForeignDatabaseError`` for another program's
    database and ``NewerDatabaseError`` for a newer twenty48's. Reads only: run before anything
    (WAL mode included) is written to a file that may not be ours."""
    application_id = db.execute("PRAGMA application_id").fetchone()[0]
    version: int = db.execute("PRAGMA user_version").fetchone()[0]
    has_tables = db.execute("SELECT count(*) FROM sqlite_schema").fetchone()[0] > 0
    if application_id != APPLICATION_ID and (has_tables or version):
        raise ForeignDatabaseError(f"{path} is an SQLite database, but not a twenty48 one")
    if version > len(MIGRATIONS):
        raise NewerDatabaseError(
            f"{path} has schema version {version}, newer than this program's {len(MIGRATIONS)}: "
            "upgrade twenty48 to open it"
        )
    return version


def missing_tables(db: sqlite3.Connection) -> list[str]:
    """The tables of the current schema that ``db`` lacks: a file whose version says it has them
    all but that lost one (dropped by hand, a bad restore) is damaged, not out of reach."""
    return sorted(_tables(tuple(MIGRATIONS)) - _names(db))


@functools.cache
def _tables(migrations: tuple[Callable[[SQL], None], ...]) -> frozenset[str]:
    # The migrations themselves say which tables there are: run them once on an empty database.
    with contextlib.closing(sqlite3.connect(":memory:")) as db:
        for migration in migrations:
            migration(db)
        return frozenset(_names(db))


def _names(db: sqlite3.Connection) -> set[str]:
    found = db.execute("SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
    return {name for (name,) in found}


def migrate(db: sqlite3.Connection, path: Path) -> None:
    """Bring the database to the current schema, in one transaction; refuse a foreign or newer one."""
    db.execute("BEGIN IMMEDIATE")
    try:
        # Again inside the write lock: another process may have changed the file since it was opened.
        version = check(db, path)
        for migration in MIGRATIONS[version:]:
            migration(db)
        if version < len(MIGRATIONS):
            db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
            db.execute(f"PRAGMA user_version = {len(MIGRATIONS)}")
        db.execute("COMMIT")
    except BaseException:
        if db.in_transaction:
            db.execute("ROLLBACK")
        raise
