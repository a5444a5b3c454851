"""Opening the database a location names: the SQLite backend for a path, the PostgreSQL one for a
``postgresql://`` URL; and bringing one to the current schema (``2048 migrate``).

The PostgreSQL backend is loaded only when a URL asks for it: it needs psycopg, an optional extra
(``pip install 'twenty48[postgres]'``) that the SQLite-only install (the default) goes without.
"""

from __future__ import annotations

from os import PathLike
from pathlib import Path
from typing import TYPE_CHECKING

from twenty48.store.backends.sqlite import SQLiteBackend
from twenty48.store.database import Backend
from twenty48.store.errors import StoreError
from twenty48.store.location import parse_location

if TYPE_CHECKING:
    from twenty48.store.backends.postgres import PostgresBackend


def open_database(location: str | PathLike[str], *, group_commit: bool = False) -> Backend:
    """The backend of the database at ``location``, opened and migrated: the PostgreSQL database a
    URL names, else the SQLite file there (created if no file is there, in a directory that
    exists). With ``group_commit`` the caller must ``flush()`` before acknowledging a write (see
    ``Store.open``)."""
    found = parse_location(location)
    if isinstance(found, str):
        return postgres_backend().open(found, group_commit)
    return SQLiteBackend.open(found, group_commit)


def open_default(path: Path, *, group_commit: bool = False) -> Backend:
    """The SQLite file of the default location, its directory created if needed."""
    return SQLiteBackend.open(path, group_commit, make_directory=True)


def postgres_backend() -> type[PostgresBackend]:
    """The PostgreSQL backend's class; ``StoreError`` (one line) when the ``postgres`` extra that
    it needs is not installed."""
    try:
        # Here, not at the top: psycopg is an optional extra, loaded only when a URL needs it.
        from twenty48.store.backends.postgres import PostgresBackend
    except ImportError as exc:
        raise StoreError(
            f"PostgreSQL needs psycopg: pip install 'twenty48[postgres]' ({exc.name} is missing)"
        ) from None
    return PostgresBackend


def migrate_database(location: str | PathLike[str]) -> tuple[int, int]:
    """Run the missing migrations on the database at ``location`` (creating it if it is an SQLite
    file that does not exist yet); returns the (old, new) schema version. Refuses what opening
    refuses (another program's file, a damaged or newer database) the same way."""
    backend = open_database(location)
    backend.close()
    return backend.migrated
