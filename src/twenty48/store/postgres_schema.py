"""PostgreSQL's schema bookkeeping: the same ``schema.MIGRATIONS``, and a version table.

SQLite keeps its version in the file header (``PRAGMA user_version``); PostgreSQL keeps it in the
one-row table ``twenty48_schema`` (application id and version) of the connection's schema. The
missing migrations run in one transaction (PostgreSQL's DDL is transactional, so a failing
migration changes nothing) under an advisory lock, so that servers started together migrate once.
"""

from __future__ import annotations

from twenty48.store import schema
from twenty48.store.dialect import PostgresSQL
from twenty48.store.errors import ForeignDatabaseError, NewerDatabaseError

VERSION_TABLE = "twenty48_schema"


def check(db: PostgresSQL, location: str) -> int:
    """The database's schema version (0: empty); raises ``ForeignDatabaseError`` for a database
    that holds other tables and ``NewerDatabaseError`` for a newer twenty48's."""
    if not db.execute("SELECT to_regclass(?) IS NOT NULL", (VERSION_TABLE,)).fetchone()[0]:
        (tables,) = db.execute(
            "SELECT count(*) FROM pg_catalog.pg_tables WHERE schemaname = current_schema()"
        ).fetchone()
        if tables:
            raise ForeignDatabaseError(f"{location} holds tables, but is not a twenty48 database")
        return 0
    row = db.execute(f"SELECT application_id, version FROM {VERSION_TABLE}").fetchone()
    if row is None or row[0] != schema.APPLICATION_ID:
        raise ForeignDatabaseError(f"{location} is not a twenty48 database")
    version: int = row[1]
    if version > len(schema.MIGRATIONS):
        raise NewerDatabaseError(
            f"{location} has schema version {version}, newer than this program's "
            f"{len(schema.MIGRATIONS)}: upgrade twenty48 to use it"
        )
    return version


def migrate(db: PostgresSQL, location: str) -> tuple[int, int]:
    """Run the missing migrations; returns the (old, new) schema version."""
    db.execute("BEGIN")
    try:
        # Held to the end of the transaction: a second server waits, then finds nothing to do.
        db.execute("SELECT pg_advisory_xact_lock(?)", (schema.APPLICATION_ID,))
        version = check(db, location)
        for migration in schema.MIGRATIONS[version:]:
            migration(db)
        if version == 0:
            db.execute(
                f"CREATE TABLE {VERSION_TABLE} (application_id BIGINT NOT NULL, version BIGINT NOT NULL)"
            )
            db.execute(
                f"INSERT INTO {VERSION_TABLE} VALUES (?, ?)", (schema.APPLICATION_ID, len(schema.MIGRATIONS))
            )
        elif version < len(schema.MIGRATIONS):
            db.execute(f"UPDATE {VERSION_TABLE} SET version = ?", (len(schema.MIGRATIONS),))
        db.execute("COMMIT")
    except BaseException:
        if not db.conn.broken:
            db.execute("ROLLBACK")
        raise
    return version, len(schema.MIGRATIONS)
