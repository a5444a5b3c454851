"""The schema of both backends: one list of migrations (written in ``migrations``), and the one
runner that brings a database up to date on either backend.

A migration is written once, in the SQL SQLite and PostgreSQL share (``twenty48.store.database``),
against ``SQL``'s ``execute``/``executemany``. A backend says only where it keeps the version
(``Versions``: SQLite in the file header, ``PRAGMA user_version`` and ``application_id``;
PostgreSQL in a one-row table) and how its migration transaction takes its lock; ``migrate`` runs
the missing migrations in that one transaction, so a failing migration changes nothing. Migration
``i`` takes a database from version ``i`` to ``i + 1``: append new ones to ``MIGRATIONS``, never edit
an old one (the types of migrations 1-4 were made the shared ones, ``BOOLEAN`` for flags, which
SQLite stores exactly as before).
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Protocol

from twenty48.store.database import SQL
from twenty48.store.errors import NewerDatabaseError
from twenty48.store.schema import migrations

#: Written into every database so that another program's is recognised ("2048" in ASCII).
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
    migrations.assists_11,
    migrations.sizes_12,
]


class Versions(Protocol):
    """Where a backend keeps a database's schema version, and its migration transaction."""

    #: Where the database is, for messages.
    location: str

    def transaction(self) -> AbstractContextManager[SQL]:
        """One transaction that holds the backend's write lock (and, where processes could migrate
        at once, a lock that makes the second wait and then find nothing to do): committed when
        the block ends, rolled back if it raises."""

    def read(self, db: SQL) -> int:
        """The recorded version, 0 for an empty database. Reads only; raises
        ``ForeignDatabaseError`` for a database that is not a twenty48 one."""

    def write(self, db: SQL, old: int, new: int) -> None:
        """Record version ``new`` (the database was at ``old``) and that it is a twenty48 one."""


def check(versions: Versions, db: SQL) -> int:
    """The database's schema version; ``ForeignDatabaseError`` for another program's database and
    ``NewerDatabaseError`` for a newer twenty48's. Reads only: a backend runs it before it writes
    anything to a database that may not be ours."""
    version = versions.read(db)
    if version > len(MIGRATIONS):
        raise NewerDatabaseError(
            f"{versions.location} has schema version {version}, newer than this program's "
            f"{len(MIGRATIONS)}: upgrade twenty48 to open it"
        )
    return version


def migrate(versions: Versions) -> tuple[int, int]:
    """Bring the database to the current schema in one transaction; returns the (old, new) version."""
    with versions.transaction() as db:
        # Again inside the lock: another process may have migrated since the database was opened.
        version = check(versions, db)
        for migration in MIGRATIONS[version:]:
            migration(db)
        if version < len(MIGRATIONS):
            versions.write(db, version, len(MIGRATIONS))
    return version, len(MIGRATIONS)
