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
- **Round trips.** The connection stays in pipeline mode: every statement is sent at once, and the
  client waits for the server only where it needs an answer. A write transaction (``BEGIN``, the
  row lock, the game's row) costs one round trip until the game's row is read, and its writes and
  ``COMMIT`` are sent without waiting. A statement's own work runs when it arrives, so the lock is
  released and the commit made durable without the client's word.
- **Guessed writes** (``guess``). Where the store already knows what a write's reads would answer
  (a move on a game this process wrote last, ``twenty48.store.games.rows``), the transaction is
  sent without waiting at all: the row lock, then a check that the rows are still what the store
  knows (``CHECKED``: it fails, and with it the whole transaction, unless they are), then the
  writes. It is an implicit transaction ended by a Sync of its own, so a failure there rolls back
  that transaction alone and the ones after it run; its last statement, sent on a cursor of its
  own, is answered only if every statement before it succeeded, which says, once the answers are
  read, whether it committed. Nothing else is sent while a guessed transaction's answers are
  unread: a ``read`` or ``write`` first reads them (and a guess first reads what the others are
  owed), so an error among them can only be a guessed transaction's, which fails, to be made
  again by the caller, and never costs another transaction its commit. Its statements are only
  sent (``_SendingConnection``): psycopg reads no answer, and polls nothing, until the next sync.
- **Durability.** Without group commit, ``synchronous_commit = on``: the server answers ``COMMIT``
  once the commit is flushed to its write-ahead log, and ``write`` reads that answer before it
  returns. Group commit (``Store.open(url, group_commit=True)``, as the web server opens it) is
  SQLite's group commit in PostgreSQL's terms: each action still commits in a transaction of its
  own, with ``synchronous_commit = off`` (the commit is made and seen at once, its log record is
  not waited for), and ``flush`` ends the batch with one transaction at ``synchronous_commit = on``
  (``DURABLE``). That commit waits until the log is on disk up to its own record, which lies after
  every commit sent before it (from any connection): one disk flush makes the whole batch durable,
  as one fsync of SQLite's log does. ``flush`` reads the answers of every commit since the last
  one, in one round trip, and raises if one of them failed or was lost with the connection: nothing
  written since the last ``flush`` may be acknowledged then (a guessed transaction that failed is
  not an error: it did not commit, and its caller makes it again). A later transaction's first
  round trip reads them too, so a batch of moves that wait costs one round trip each and one more,
  and a batch of guessed moves one in all. As on SQLite, a
  commit is seen by other connections before that flush; what they answer from it is a state that
  a crash could still undo, but no action's own answer leaves before its commit is durable, and an
  action built on another's commit commits after it in the log, so its flush covers both.
- **Schema version**: the one-row table ``twenty48_schema`` (application id and version) of the
  connection's schema; the missing migrations run in one transaction (PostgreSQL's DDL is
  transactional, so a failing migration changes nothing) under an advisory lock, so that servers
  started together migrate once.
- **Connections** come from a ``psycopg_pool`` pool that checks each one before lending it; the
  backend holds the one it gets while it works. Before each transaction it looks, without a round
  trip, whether the server has closed it (a closed connection is readable; a live one that is owed
  nothing is not), and takes a new one if so: a server restart costs the calls made while it is
  down (a clear ``StoreError``), not a stale connection afterwards. Any database error drops the
  connection (the server rolls back what it held). Credentials come from the URL or the usual
  libpq ways (``PGPASSWORD``, ``~/.pgpass``, ``PGSERVICE``); messages show the URL without its
  password.
"""

from __future__ import annotations

import contextlib
import logging
import select
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import ExitStack, contextmanager
from functools import lru_cache, partial
from typing import Any

import psycopg
from psycopg.abc import PQGen
from psycopg.conninfo import conninfo_to_dict, make_conninfo
from psycopg.pq import ExecStatus
from psycopg.waiting import Ready, Wait
from psycopg_pool import ConnectionPool, PoolTimeout

from twenty48.store import schema
from twenty48.store.backends import postgres_dialect
from twenty48.store.backends.postgres_dialect import PostgresSQL
from twenty48.store.database import SQL, Guess
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
#: With group commit, what ``flush`` ends a batch with: a transaction of its own (an implicit one, made
#: synchronous for itself alone), whose commit waits for the log to reach the disk up to its own
#: record, past every commit sent before it. It writes a record of its own to the log (a logical
#: decoding message, which any role may write and no table holds): PostgreSQL flushes the log at a
#: commit only for a transaction that wrote to it.
DURABLE = "SELECT set_config('synchronous_commit', 'on', true), pg_logical_emit_message(true, 'twenty48', '')"
#: A guessed transaction's check, as a statement that fails unless the check holds: plain SQL has
#: no way to raise an error, but dividing by zero is one, and it rolls the transaction back.
CHECKED = "SELECT 1 / ({check})::int"
#: What fails a guessed transaction whose block raised, however far it got.
ABANDON = "SELECT 1 / 0"


def _pool_record_in_one_line(record: logging.LogRecord) -> bool:
    # The pool logs each failed reconnect with libpq's message, which spans lines and may quote
    # the URL: one line, without the password, like the store's own errors.
    record.msg, record.args = redact(" ".join(record.getMessage().split())), None
    return True


logging.getLogger("psycopg.pool").addFilter(_pool_record_in_one_line)


class _SendingConnection(psycopg.Connection[Any]):
    """A connection that, while ``sending`` (a guessed transaction's statements, whose answers are
    read only at the next sync), sends without looking for answers. psycopg's pipeline asks after
    each statement whether the socket can be read or written, polls, and reads what answers have
    come; each poll and read lets go of the interpreter, which the event loop then holds until it
    yields (up to ``sys.getswitchinterval()``, 5 ms): a guessed move's statements waited behind the
    event loop's work a dozen times each. Told "writable" at once, psycopg sends and goes on; if the
    socket is full, libpq keeps the rest, which the next sync sends (it waits for real)."""

    sending = False

    def wait(self, gen: PQGen[Any], *args: Any, **kwargs: Any) -> Any:
        # psycopg's own arguments (an interval, and a timeout since 3.3) pass through as they come.
        if not self.sending:
            return super().wait(gen, *args, **kwargs)
        try:
            state = next(gen)
            while state == Wait.RW:
                state = gen.send(Ready.W)
        except StopIteration as stop:
            return stop.value
        # Anything else (a read it cannot go on without): waited for as psycopg waits.
        return super().wait(_resumed(state, gen), *args, **kwargs)


def _resumed(state: Wait, gen: PQGen[Any]) -> PQGen[Any]:
    """``gen``, already started and waiting for ``state``, as a generator that starts there."""
    while True:
        ready = yield state
        try:
            state = gen.send(ready)
        except StopIteration as stop:
            return stop.value


class _Unread:
    """A guessed transaction's statements: sent, and not read until the next sync (the connection
    is ``sending`` meanwhile, so an answer's error cannot surface here; an error that does, on the
    client's side or of the connection, is the transaction's and raises). Each statement is held
    back until the next one comes, so that the last is sent by ``end`` on a cursor of its own
    (``witness``), whose answer can be no other's: it is answered only if every statement before it
    succeeded."""

    def __init__(self, sql: PostgresSQL) -> None:
        assert isinstance(sql.conn, _SendingConnection)
        self._sql, self._conn = sql, sql.conn
        self._held: tuple[str, Sequence[Any]] | None = None

    def execute(self, sql: str, params: Sequence[Any] = ()) -> None:
        held, self._held = self._held, (sql, params)
        if held is not None:
            self._send(self._sql.execute, *held)

    def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        # A row at a time: the last row may be the transaction's last statement, held for ``end``.
        for row in rows:
            self.execute(sql, row)

    def end(self, witness: psycopg.RawCursor[Any]) -> None:
        """Send the last statement on ``witness``."""
        assert self._held is not None
        sql, params = self._held
        self._send(witness.execute, postgres_dialect.translate(sql), params)

    def abandon(self) -> None:
        """Fail the transaction, whatever it sent."""
        self._held = None
        self._send(self._sql.execute, ABANDON, ())

    def _send(self, execute: Callable[[str, Sequence[Any]], object], sql: str, params: Sequence[Any]) -> None:
        self._conn.sending = True
        try:
            execute(sql, params)
        finally:
            self._conn.sending = False


class PostgresConnection:
    """The shared statements on a pooled connection (``twenty48.store.database.Connection``), and
    the locks a write transaction takes."""

    def __init__(self, sql: PostgresSQL | _Unread, writing: bool) -> None:
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


#: How each transaction begins. A read sees one snapshot throughout; a write sees, after the
#: player's row lock, whatever the lock's previous holder committed.
READ = "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY"
WRITE = "BEGIN ISOLATION LEVEL READ COMMITTED"


class PostgresBackend:
    """A twenty48 database on a PostgreSQL server."""

    def __init__(
        self, pool: ConnectionPool, location: str, migrated: tuple[int, int], group_commit: bool
    ) -> None:
        self._pool = pool
        self.location = location
        #: The schema versions before and after opening ran the missing migrations.
        self.migrated = migrated
        self._group_commit = group_commit
        #: The connection held while it works, in pipeline mode, and what leaves that mode.
        self._conn: psycopg.Connection[Any] | None = None
        self._sql: PostgresSQL | None = None
        self._pipeline: psycopg.Pipeline | None = None
        self._exit = ExitStack()
        #: Commits sent since the last ``flush`` whose answers are not read yet.
        self._unconfirmed = False
        #: Why a commit sent since the last ``flush`` may not have happened (``flush`` raises it).
        self._lost: StoreError | None = None
        #: A transaction that is not guessed was sent since the server's answers were last read.
        self._unanswered = False
        #: The guessed transactions whose answers are unread, each with its last statement's cursor
        #: (None: it was failed on purpose).
        self._guessed: list[tuple[Guess, psycopg.RawCursor[Any] | None]] = []
        #: Cursors for a guessed transaction's last statement and ``DURABLE``, one per transaction
        #: between two reads of the answers.
        self._witnesses: list[psycopg.RawCursor[Any]] = []

    @classmethod
    def open(cls, url: str, group_commit: bool = False) -> PostgresBackend:
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
            connection_class=_SendingConnection,
            configure=partial(_configure, synchronous=not group_commit),
            check=ConnectionPool.check_connection,
            timeout=POOL_TIMEOUT_S,
            name="twenty48",
            open=True,
        )
        return cls(pool, location, migrated, group_commit)

    @contextmanager
    def read(self) -> Iterator[PostgresConnection]:
        with self._transaction(READ, writing=False) as db:
            yield db

    @contextmanager
    def write(self) -> Iterator[PostgresConnection]:
        with self._transaction(WRITE, writing=True) as db:
            yield db
        self._unconfirmed = True
        if not self._group_commit:
            self.flush()

    @contextmanager
    def guess(
        self, guess: Guess, player_id: int, check: str, parameters: Sequence[Any]
    ) -> Iterator[PostgresConnection]:
        """A guessed write transaction (``twenty48.store.database.GuessingBackend``)."""
        with self._errors():
            if self._unanswered:
                # An error among those answers could not be told from a guessed transaction's.
                self._settle()
            sent = _Unread(self._connection())
        guess.used = True
        self._unconfirmed = True
        completed = False
        try:
            db = PostgresConnection(sent, writing=True)
            db.lock_player(player_id)
            sent.execute(_checked(check), parameters)
            yield db
            completed = True
        finally:
            with self._errors():
                self._end_guess(guess, sent, completed)

    def _end_guess(self, guess: Guess, sent: _Unread, completed: bool) -> None:
        """End the guessed transaction with its last statement, on a cursor whose answer says
        whether it committed, or with ``ABANDON`` if it is not to commit, and a Sync, which commits
        it (or rolls it back) by itself."""
        assert self._pipeline is not None and self._conn is not None
        witness = None
        if completed:
            witness = self._witness(len(self._guessed))
            sent.end(witness)
        else:
            guess.failed = True
            sent.abandon()
        # psycopg's own way of ending a pipeline's segment, without waiting for its answers
        # (``Pipeline.sync`` would wait): sent with the next statement.
        self._pipeline._enqueue_sync()
        self._guessed.append((guess, witness))
        if self._conn.broken:
            raise psycopg.OperationalError("the connection was lost")

    def _witness(self, index: int) -> psycopg.RawCursor[Any]:
        """A cursor of its own for the ``index``-th statement whose answer is looked at after the
        next ``_settle``: its answer can be no other statement's."""
        assert self._conn is not None
        while len(self._witnesses) <= index:
            self._witnesses.append(psycopg.RawCursor(self._conn))
        return self._witnesses[index]

    def _settle(self, *, durable: bool = False) -> None:
        """Read every answer the server owes, in one round trip, after ``DURABLE`` if ``durable``.
        Each guessed transaction among them is marked as failed unless its last statement was
        answered; an error of anything else raises (so does a lost connection, and ``DURABLE`` not
        answered)."""
        guessed, self._guessed = self._guessed, []
        if not (guessed or self._unanswered or durable):
            return
        self._unanswered = False
        assert self._pipeline is not None and self._conn is not None
        synchronous = None
        if durable:
            synchronous = self._witness(len(guessed))
            with _guessed_answers(self._conn, bool(guessed)):
                synchronous.execute(DURABLE)
        # psycopg stops reading once an error surfaces among the answers it read while sending:
        # another Sync reads on, until every answer owed is read.
        while True:
            with _guessed_answers(self._conn, bool(guessed)):
                self._pipeline.sync()
                break
            if not self._pipeline.result_queue:
                break
        if synchronous is not None and not _answered(synchronous):
            raise psycopg.OperationalError("the batch's synchronous commit was not made")
        for guess, witness in guessed:
            if witness is None or not _answered(witness):
                guess.failed = True
        if any(guess.failed for guess, _ in guessed):
            self._retire()

    def _retire(self) -> None:
        """Close the held connection (the pool makes a new one instead of lending it again); the
        commits it made stay for the next flush to make durable: its synchronous commit, on any
        connection, flushes the log past them. Also after a guessed transaction failed, every
        answer read: psycopg counts a statement as prepared once it has sent its preparation (with
        the statement's sixth run), and a failed transaction may have skipped that preparation,
        which psycopg does not take back (every later run of the statement would fail: "prepared
        statement ... does not exist")."""
        if self._conn is not None:
            self._conn.close()
        self._drop()

    def flush(self) -> None:
        """Read the answers of the commits sent since the last flush, in one round trip (its
        guessed transactions' too: one that failed is not an error); raise ``StoreError`` if one
        failed or may not have happened."""
        lost, self._lost = self._lost, None
        if lost is not None:
            raise lost
        if self._unconfirmed:
            # Answered by this sync, or reported by its error, not left for the next flush.
            self._unconfirmed = False
            with self._errors():
                self._settle(durable=self._group_commit)

    def ping(self) -> None:
        """Raise ``StoreError`` unless the server answers now."""
        # In a transaction of its own: in pipeline mode a statement outside one would open an
        # implicit one that the next BEGIN could not set its isolation level in.
        with self.read() as db:
            db.execute("SELECT 1").fetchone()

    def close(self) -> None:
        self._drop()
        self._pool.close()

    @contextmanager
    def _transaction(self, begin: str, *, writing: bool) -> Iterator[PostgresConnection]:
        """One transaction on the held connection, its ``COMMIT`` sent (not waited for) when the
        block ends; psycopg's errors leave as ``StoreError``."""
        with self._errors():
            if self._guessed:
                self._settle()
            sql = self._connection()
            sql.execute(begin)
            try:
                yield PostgresConnection(sql, writing)
            except psycopg.Error:
                raise
            except BaseException:
                if writing:
                    self._roll_back(sql)
                else:
                    # A read-only transaction wrote nothing: its COMMIT undoes as much.
                    sql.execute("COMMIT")
                    self._unanswered = True
                raise
            sql.execute("COMMIT")
            self._unanswered = True

    def _roll_back(self, sql: PostgresSQL) -> None:
        """Undo the write transaction that raised, and wait for it: psycopg answers a ROLLBACK by
        deallocating its prepared statements with the next statement it sends, which must not open
        an implicit transaction (it would refuse the next BEGIN's isolation level) but run inside
        the next BEGIN. Waiting also reads the answers of the commits before it."""
        assert self._pipeline is not None
        sql.execute("ROLLBACK")
        self._pipeline.sync()
        self._unanswered = False
        # With group commit the commits before it are answered but not yet durable: the next
        # flush still owes them its synchronous commit.
        if not self._group_commit:
            self._unconfirmed = False

    def _connection(self) -> PostgresSQL:
        """The held connection, or a new one from the pool if there is none or the server closed it."""
        # Answers owed to guessed transactions make a live connection readable too.
        if self._conn is not None and not self._guessed and _closed_by_server(self._conn):
            self._forget("the server closed the connection")
        if self._sql is None:
            try:
                conn = self._pool.getconn()
            except PoolTimeout:
                within = f"no connection within {POOL_TIMEOUT_S:g} s"
                raise StoreError(f"the database {self.location} cannot be reached ({within})") from None
            # Unwound in reverse: out of pipeline mode, then back to the pool.
            self._exit.callback(self._pool.putconn, conn)
            self._pipeline = self._exit.enter_context(conn.pipeline())
            self._conn, self._sql = conn, PostgresSQL(conn)
        return self._sql

    @contextmanager
    def _errors(self) -> Iterator[None]:
        try:
            yield
        except psycopg.Error as exc:
            error = unreachable(exc, self.location)
            self._forget(str(error))
            raise error from exc

    def _forget(self, why: str) -> None:
        """Drop the held connection; the commits whose answers it still owed may not have happened."""
        if self._unconfirmed:
            self._lost = StoreError(f"the database {self.location}: commits not confirmed ({why})")
            self._unconfirmed = False
        self._retire()

    def _drop(self) -> None:
        self._conn = self._sql = self._pipeline = None
        self._unanswered, self._guessed, self._witnesses = False, [], []
        # Leaving pipeline mode reads what the server still owes, which a dead connection cannot.
        with contextlib.suppress(psycopg.Error):
            self._exit.close()


@contextmanager
def _guessed_answers(conn: psycopg.Connection[Any], guessed: bool) -> Iterator[None]:
    """While guessed transactions' answers are unread (``guessed``), an error that surfaces is one
    of theirs (nothing else was owed an answer when they were sent), which each one's last
    statement tells: it is let pass. Any other error raises, and so does a lost connection."""
    try:
        yield
    except psycopg.Error:
        if not guessed or conn.broken:
            raise


@lru_cache(maxsize=16)
def _checked(check: str) -> str:
    return CHECKED.format(check=check)


def _answered(cursor: psycopg.RawCursor[Any]) -> bool:
    """Whether the statement last sent on ``cursor`` succeeded (one skipped after an error in its
    transaction has no answer)."""
    answer = cursor.pgresult
    return answer is not None and answer.status in (ExecStatus.TUPLES_OK, ExecStatus.COMMAND_OK)


def _closed_by_server(conn: psycopg.Connection[Any]) -> bool:
    """Whether the server has closed the idle connection, or sent it what nothing asked for: the
    server answers only on request, so a live connection it owes nothing to is not readable."""
    if conn.broken or conn.closed:
        return True
    readable, _, _ = select.select([conn.fileno()], [], [], 0)
    return bool(readable)


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


def _configure(conn: psycopg.Connection[Any], synchronous: bool = True) -> None:
    postgres_dialect.configure(conn)
    # No limit on the prepared statements (the store's are a few dozen): psycopg would deallocate
    # one after a COMMIT, where in pipeline mode it would open an implicit transaction.
    conn.prepared_max = None
    # Set on the session, not in the URL, so that a URL's own options are left as they are.
    # Off only for group commit, whose flush makes each batch durable (``DURABLE``).
    conn.execute(f"SET synchronous_commit = {'on' if synchronous else 'off'}")
    conn.execute(f"SET statement_timeout = {STATEMENT_TIMEOUT_MS}")
    # A guessed transaction is an implicit one, at the session's level: the other writes' level.
    conn.execute("SET default_transaction_isolation = 'read committed'")


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
