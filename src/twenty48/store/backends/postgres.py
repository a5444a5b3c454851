"""The PostgreSQL backend: one database server, shared by any number of server processes.

The statements are the store's own, written once in the SQL both databases share and run through
``postgres_dialect``; this module holds only what differs:

- **Locking.** A write transaction runs at ``READ COMMITTED`` and, before it reads a player's game
  or current game, locks the player's row (``SELECT ... FOR UPDATE``). Every action of a player
  therefore runs one at a time across all processes, and each statement after the lock sees what
  the previous holder committed: the revision check then holds between processes as it holds
  between SQLite connections. Only one row is locked per transaction, so two never deadlock.
- **Reads** run in one ``REPEATABLE READ READ ONLY`` transaction: a game's row and its state come
  from the same snapshot, so the cache never keeps a state under another revision.
- **Durability.** ``synchronous_commit = on`` for every connection: ``COMMIT`` returns once the
  commit is flushed to the server's write-ahead log, so ``flush`` has nothing left to do.
- **Schema version**: the one-row table ``twenty48_schema`` (application id and version) of the
  connection's schema; the missing migrations run in one transaction (PostgreSQL's DDL is
  transactional, so a failing migration changes nothing) under an advisory lock, so that servers
  started together migrate once.
- **Connections** come from a ``psycopg_pool`` pool that checks each one before lending it, so a
  server restart costs the calls made while it is down (a clear ``StoreError``), not a stale
  connection afterwards. Credentials come from the URL or the usual libpq ways (``PGPASSWORD``,
  ``~/.pgpass``, ``PGSERVICE``); messages show the URL without its password.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import psycopg
from psycopg.conninfo import conninfo_to_dict, make_conninfo
from psycopg_pool import ConnectionPool, PoolTimeout

from twenty48.store import schema
from twenty48.store.backends import postgres_dialect
from twenty48.store.backends.postgres_dialect import PostgresSQL
from twenty48.store.database import SQL
from twenty48.store.errors import ForeignDatabaseError, StoreError
from twenty48.store.location import redact

#: Seconds to wait for the server to accept a connection (libpq's ``connect_timeout``).
CONNECT_TIMEOUT_S = 5
#: Seconds a call waits for a working connection before it fails (the server is down).
POOL_TIMEOUT_S = 5.0
#: A statement running longer than this is cancelled (a lock held by a stuck process, say).
STATEMENT_TIMEOUT_MS = 10_000
#: The store serialises its calls, so one connection does the work; a second covers a reconnect.
POOL_SIZE = 2

#: The advisory lock a write holds while it looks a display name up: two players taking one name at
#: once take turns, and the second is told the name is taken (the unique index alone would refuse
#: its write with a database error). SQLite needs none: its writes take turns (BEGIN IMMEDIATE).
NAMES_LOCK = 0x2048_4E414D45
#: The table that keeps the schema version.
VERSION_TABLE = "twenty48_schema"


def _pool_record_in_one_line(record: logging.LogRecord) -> bool:
    # The pool logs each failed reconnect with libpq's message, which spans lines and may quote
    # the URL: one line, without the password, like the store's own errors.
    record.msg, record.args = redact(" ".join(record.getMessage().split())), None
    return True


logging.getLogger("psycopg.pool").addFilter(_pool_record_in_one_line)


class PostgresConnection:
    """The shared statements on a pooled connection (``twenty48.store.database.Connection``), and
    the locks a write transaction takes."""

    def __init__(self, sql: PostgresSQL, writing: bool) -> None:
        self.execute = sql.execute
        self.executemany = sql.executemany
        self._writing = writing
        self._locked: set[int] = set()

    def lock_player(self, player_id: int) -> None:
        # A statement of its own: at READ COMMITTED the statements after it take a new snapshot,
        # which holds whatever the lock's previous holder committed.
        if self._writing and player_id not in self._locked:
            self.execute("SELECT 1 FROM players WHERE id = ? FOR UPDATE", (player_id,))
            self._locked.add(player_id)

    def lock_names(self) -> None:
        # A statement of its own, like the row lock's: the lookup after it sees the name the
        # lock's previous holder committed.
        if self._writing:
            self.execute("SELECT pg_advisory_xact_lock(?)", (NAMES_LOCK,))


class PostgresBackend:
    """A twenty48 database on a PostgreSQL server."""

    def __init__(self, pool: ConnectionPool, location: str, migrated: tuple[int, int]) -> None:
        self._pool = pool
        self.location = location
        #: The schema versions before and after opening ran the missing migrations.
        self.migrated = migrated

    @classmethod
    def open(cls, url: str) -> PostgresBackend:
        """Connect to the database ``url`` names and run the missing migrations. Raises
        ``StoreError`` with one line when the server cannot be reached or refuses the credentials,
        and ``StoreUnreadableError`` for a database that is not a twenty48 one or is newer."""
        location = redact(url)
        try:
            conninfo = connection_info(url)
        except psycopg.ProgrammingError as exc:
            raise StoreError(f"{location} is not a PostgreSQL URL: {_one_line(exc)}") from None
        try:
            # One connection of its own first: a wrong password or an unknown database reads as
            # libpq says it, where a pool would only report a timeout.
            with psycopg.connect(conninfo, autocommit=True) as conn:
                _configure(conn)
                migrated = schema.migrate(_Versions(PostgresSQL(conn), location))
        except psycopg.Error as exc:
            raise unreachable(exc, location) from None
        pool = ConnectionPool(
            conninfo,
            min_size=1,
            max_size=POOL_SIZE,
            kwargs={"autocommit": True},
            configure=_configure,
            check=ConnectionPool.check_connection,
            timeout=POOL_TIMEOUT_S,
            name="twenty48",
            open=True,
        )
        return cls(pool, location, migrated)

    @contextmanager
    def read(self) -> Iterator[PostgresConnection]:
        with self._connection() as conn:
            conn.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
            yield PostgresConnection(PostgresSQL(conn), writing=False)

    @contextmanager
    def write(self) -> Iterator[PostgresConnection]:
        with self._connection() as conn:
            conn.execute("BEGIN ISOLATION LEVEL READ COMMITTED")
            yield PostgresConnection(PostgresSQL(conn), writing=True)

    def flush(self) -> None:
        """Nothing to do: each commit was durable when it returned (``synchronous_commit = on``)."""

    def ping(self) -> None:
        """Raise ``StoreError`` unless the server answers now."""
        with self._connection() as conn:
            conn.execute("SELECT 1")

    def close(self) -> None:
        self._pool.close()

    @contextmanager
    def _connection(self) -> Iterator[psycopg.Connection[Any]]:
        """A pooled connection whose transaction (if the block opens one) commits when the block
        ends and rolls back if it raises; psycopg's errors leave as ``StoreError``."""
        try:
            with self._pool.connection() as conn:
                try:
                    yield conn
                except BaseException:
                    if conn.info.transaction_status != psycopg.pq.TransactionStatus.IDLE and not conn.broken:
                        conn.execute("ROLLBACK")
                    raise
                if conn.info.transaction_status != psycopg.pq.TransactionStatus.IDLE:
                    conn.execute("COMMIT")
        except PoolTimeout:
            raise StoreError(
                f"the database {self.location} cannot be reached (no connection within {POOL_TIMEOUT_S:g} s)"
            ) from None
        except psycopg.Error as exc:
            raise unreachable(exc, self.location) from exc


class _Versions:
    """PostgreSQL's schema version: the one-row table ``VERSION_TABLE``."""

    def __init__(self, sql: PostgresSQL, location: str) -> None:
        self._sql = sql
        self.location = location

    @contextmanager
    def transaction(self) -> Iterator[SQL]:
        self._sql.execute("BEGIN")
        try:
            # Held to the end of the transaction: a second server waits, then finds nothing to do.
            self._sql.execute("SELECT pg_advisory_xact_lock(?)", (schema.APPLICATION_ID,))
            yield self._sql
            self._sql.execute("COMMIT")
        except BaseException:
            if not self._sql.conn.broken:
                self._sql.execute("ROLLBACK")
            raise

    def read(self, db: SQL) -> int:
        if not db.execute("SELECT to_regclass(?) IS NOT NULL", (VERSION_TABLE,)).fetchone()[0]:
            (tables,) = db.execute(
                "SELECT count(*) FROM pg_catalog.pg_tables WHERE schemaname = current_schema()"
            ).fetchone()
            if tables:
                raise ForeignDatabaseError(f"{self.location} holds tables, but is not a twenty48 database")
            return 0
        row = db.execute(f"SELECT application_id, version FROM {VERSION_TABLE}").fetchone()
        if row is None or row[0] != schema.APPLICATION_ID:
            raise ForeignDatabaseError(f"{self.location} is not a twenty48 database")
        version: int = row[1]
        return version

    def write(self, db: SQL, old: int, new: int) -> None:
        if old == 0:
            db.execute(
                f"CREATE TABLE {VERSION_TABLE} (application_id BIGINT NOT NULL, version BIGINT NOT NULL)"
            )
            db.execute(f"INSERT INTO {VERSION_TABLE} VALUES (?, ?)", (schema.APPLICATION_ID, new))
        else:
            db.execute(f"UPDATE {VERSION_TABLE} SET version = ?", (new,))


def _configure(conn: psycopg.Connection[Any]) -> None:
    postgres_dialect.configure(conn)
    # Set on the session, not in the URL, so that a URL's own options are left as they are.
    conn.execute("SET synchronous_commit = on")
    conn.execute(f"SET statement_timeout = {STATEMENT_TIMEOUT_MS}")


def connection_info(url: str) -> str:
    """``url`` with a connect timeout and an application name unless it sets its own."""
    params = conninfo_to_dict(url)
    params.setdefault("connect_timeout", str(CONNECT_TIMEOUT_S))
    params.setdefault("application_name", "twenty48")
    return make_conninfo(**params)


def _one_line(exc: psycopg.Error) -> str:
    """libpq's message in one line (its messages span several and may be indented), without the
    password it may quote."""
    return redact(" ".join(str(exc).split()))


def unreachable(exc: psycopg.Error, location: str) -> StoreError:
    """One line for what went wrong."""
    text = _one_line(exc) or type(exc).__name__
    if isinstance(exc, psycopg.OperationalError):
        return StoreError(f"the database {location} cannot be used: {text}")
    return StoreError(f"the database {location} failed: {text}")
