"""The SQLite backend: one database file, shared by every process that opens it.

Opening first recognises the file without writing to it (SQLite header, application id, schema
version) and checks it (``PRAGMA quick_check``); only then does it set up write-ahead logging
(``sqlite_durability``) and run the missing migrations (``twenty48.store.schema``; the version is
the file header's ``PRAGMA user_version``). A write transaction is ``BEGIN IMMEDIATE``: it takes the
write lock of the whole file at once, so two writers never deadlock upgrading a read lock and every
action of every player takes its turn, and waits up to ``BUSY_TIMEOUT_MS`` for another process's
transaction to end. The statements are the shared ones, run on the ``sqlite3`` connection as they
are written.
"""

from __future__ import annotations

import contextlib
import functools
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path

from twenty48.store import schema
from twenty48.store.backends import sqlite_durability
from twenty48.store.database import SQL
from twenty48.store.errors import ForeignDatabaseError, StoreError, StoreUnreadableError

BUSY_TIMEOUT_MS = 5000
#: The first 16 bytes of every SQLite database file.
SQLITE_HEADER = b"SQLite format 3\x00"


class SQLiteConnection:
    """The ``sqlite3`` connection as the statements take it (``twenty48.store.database.Connection``)."""

    def __init__(self, db: sqlite3.Connection) -> None:
        # The connection's own methods, not wrappers: a statement costs what it costs in sqlite3.
        self.execute = db.execute
        self.executemany = db.executemany

    def lock_player(self, player_id: int) -> None:
        """Nothing to take: ``BEGIN IMMEDIATE`` holds the whole file's write lock already."""

    def lock_names(self) -> None:
        """Nothing to take: the writes take turns already."""


class SQLiteBackend:
    """A twenty48 database file, through one connection (the ``Store`` serialises its calls)."""

    def __init__(
        self, db: sqlite3.Connection, path: Path, group_commit: bool, migrated: tuple[int, int]
    ) -> None:
        self._db = db
        self._connection = SQLiteConnection(db)
        self.path = path
        self.location = str(path)
        #: The schema versions before and after opening ran the missing migrations.
        self.migrated = migrated
        #: With group commit, what ``flush`` must still make durable; None when every commit is.
        self._group = sqlite_durability.GroupCommit(path) if group_commit else None

    @classmethod
    def open(cls, path: Path, group_commit: bool, *, make_directory: bool = False) -> SQLiteBackend:
        """Open and migrate the database at ``path``, creating it where no file is (and its
        directory too with ``make_directory``)."""
        existing = _existing_file(path, make_directory)
        try:
            db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        except sqlite3.Error as exc:
            raise StoreError(f"cannot open the database {path}: {exc}") from exc
        versions = _Versions(db, path)
        try:
            db.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            # Nothing is written before the file is known to be a sound twenty48 database.
            schema.check(versions, db)
            if existing:
                _quick_check(db, path)
            sqlite_durability.use_wal(db, path, group_commit)
            db.execute("PRAGMA foreign_keys = ON")
            migrated = schema.migrate(versions)
            missing = missing_tables(db)
            if missing:
                raise StoreUnreadableError(f"{path} is damaged: its table {', '.join(missing)} is missing")
        except sqlite3.Error as exc:
            db.close()
            if _busy(exc):
                # Another connection held the write lock past the busy timeout: the file is fine, so
                # this must not read as damaged (the terminal game offers to set damaged files aside).
                raise StoreError(f"{path} is busy: {exc}") from exc
            raise StoreUnreadableError(f"{path} is damaged: {exc}") from exc
        except StoreError:
            db.close()
            raise
        return cls(db, path, group_commit, migrated)

    @contextmanager
    def read(self) -> Iterator[SQLiteConnection]:
        # One deferred transaction: in WAL mode its first statement fixes the snapshot that every
        # later one reads, so a page and its neighbours, or the several aggregates of a statistic,
        # never see another process's commit halfway. It takes no lock that blocks a writer.
        with self._translated_errors():
            self._db.execute("BEGIN")
            try:
                yield self._connection
            finally:
                # A read writes nothing; ROLLBACK ends it without a commit to make durable.
                if self._db.in_transaction:
                    self._db.execute("ROLLBACK")

    @contextmanager
    def write(self) -> Iterator[SQLiteConnection]:
        with self._translated_errors():
            changes = self._db.total_changes
            with _immediate(self._db):
                yield self._connection
            if self._group is not None and self._db.total_changes != changes:
                self._group.committed()

    def ping(self) -> None:
        with self._translated_errors():
            self._db.execute("SELECT 1")

    def flush(self) -> None:
        if self._group is not None:
            self._group.flush()

    def close(self) -> None:
        self._db.close()
        if self._group is not None:
            self._group.close()

    @contextmanager
    def _translated_errors(self) -> Iterator[None]:
        try:
            yield
        except sqlite3.OperationalError as exc:
            # Locked beyond the busy timeout, disk full, read-only file: the file itself is fine.
            raise StoreError(f"{self.path}: {exc}") from exc
        except sqlite3.DatabaseError as exc:
            raise StoreUnreadableError(f"{self.path} is damaged: {exc}") from exc


class _Versions:
    """SQLite's schema version: the file header's ``application_id`` and ``user_version``."""

    def __init__(self, db: sqlite3.Connection, path: Path) -> None:
        self._db = db
        self.location = str(path)

    def transaction(self) -> AbstractContextManager[SQL]:
        return _immediate(self._db)

    def read(self, db: SQL) -> int:
        application_id = db.execute("PRAGMA application_id").fetchone()[0]
        version: int = db.execute("PRAGMA user_version").fetchone()[0]
        has_tables = db.execute("SELECT count(*) FROM sqlite_schema").fetchone()[0] > 0
        if application_id != schema.APPLICATION_ID and (has_tables or version):
            raise ForeignDatabaseError(f"{self.location} is an SQLite database, but not a twenty48 one")
        return version

    def write(self, db: SQL, old: int, new: int) -> None:
        db.execute(f"PRAGMA application_id = {schema.APPLICATION_ID}")
        db.execute(f"PRAGMA user_version = {new}")


@contextmanager
def _immediate(db: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    """A ``BEGIN IMMEDIATE`` transaction: committed when the block ends, rolled back if it raises."""
    db.execute("BEGIN IMMEDIATE")
    try:
        yield db
        db.execute("COMMIT")
    except BaseException:
        if db.in_transaction:
            db.execute("ROLLBACK")
        raise


def missing_tables(db: sqlite3.Connection) -> list[str]:
    """The tables of the current schema that ``db`` lacks: a file whose version says it has them
    all but that lost one (dropped by hand, a bad restore) is damaged, not out of reach."""
    return sorted(_tables(tuple(schema.MIGRATIONS)) - _names(db))


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


def _existing_file(path: Path, make_directory: bool) -> bool:
    """Whether ``path`` holds a database to open (False: one is to be created there). Refuses what
    cannot be one without touching it: a directory, an empty file, a file that is not SQLite."""
    try:
        if path.is_dir():
            raise ForeignDatabaseError(f"{path} is a directory, not a database file")
        if not path.exists():
            if make_directory:
                path.parent.mkdir(parents=True, exist_ok=True)
            elif not path.parent.is_dir():
                raise StoreError(f"cannot create the database {path}: there is no directory {path.parent}")
            return False
        with path.open("rb") as file:
            header = file.read(len(SQLITE_HEADER))
    except OSError as exc:
        raise StoreError(f"cannot open the database {path}: {exc.strerror or exc}") from exc
    if not header:
        # SQLite would take an empty file for a new database; an existing one that is empty is
        # more likely a database lost to a full disk or a failed copy than a wish to start afresh.
        raise StoreUnreadableError(
            f"{path} is an empty file (0 bytes): no saved games can be read from it; "
            "remove it, or name a file that does not exist, to start a new one"
        )
    if header != SQLITE_HEADER:
        raise ForeignDatabaseError(f"{path} is not a twenty48 database (not an SQLite file at all)")
    return True


def _quick_check(db: sqlite3.Connection, path: Path) -> None:
    """SQLite's structural check of every page (without matching indexes to their tables, which
    ``integrity_check`` adds at many times the cost)."""
    problems = [row[0] for row in db.execute("PRAGMA quick_check(3)")]
    if problems != ["ok"]:
        raise StoreUnreadableError(f"{path} is damaged: {'; '.join(problems)}")


def _busy(exc: sqlite3.Error) -> bool:
    return (getattr(exc, "sqlite_errorcode", 0) & 0xFF) in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)
