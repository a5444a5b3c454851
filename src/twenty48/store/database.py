"""The seam between the store and a database: what a backend provides, and the SQL both speak.

Every statement of the store, migrations included, is written once, in each feature's ``sql``
module, in the SQL that SQLite (3.39 and later) and PostgreSQL both speak: standard joins and
window functions, ``ON CONFLICT`` upserts, ``RETURNING``, ``IS DISTINCT FROM``,
``count(*) FILTER (WHERE ...)``, ``BOOLEAN`` columns tested as booleans and written
``TRUE``/``FALSE``, an alias on every subquery in ``FROM``, ``?`` placeholders. A statement is a
function that takes the ``Connection`` as its first argument and runs one or two statements on it;
none decides anything about the game. A backend (``twenty48.store.backends``) owns only what
differs: how a write transaction takes its lock, how its errors read, what makes a commit durable,
where the schema version is kept, and (PostgreSQL) the translation of placeholders and types.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable


class SQL(Protocol):
    """What a statement runs on: ``sqlite3.Connection``'s two methods, in the shared SQL (a
    migration gets no more than this)."""

    def execute(self, sql: str, parameters: Sequence[Any] = ..., /) -> Any: ...

    def executemany(self, sql: str, parameters: Iterable[Sequence[Any]], /) -> Any: ...


class Connection(SQL, Protocol):
    """One transaction of ``Backend.read`` or ``Backend.write``, and the locks a write takes."""

    def lock_player(self, player_id: int) -> None:
        """In a write transaction, hold the player's write lock from here to the commit, and let
        every later statement see what its previous holder committed: every action of a player then
        runs one at a time, in every process (SQLite's ``BEGIN IMMEDIATE`` holds the whole file
        already; PostgreSQL locks the player's row)."""

    def lock_names(self) -> None:
        """In a write transaction, take turns with every other write that looks a display name up
        (SQLite's writes take turns already), so that two players taking one name at once are told
        it is taken instead of failing on the unique index."""


class Backend(Protocol):
    """A database: ``twenty48.store.backends.sqlite`` or ``twenty48.store.backends.postgres``."""

    #: Where the data lives, for messages (a file path for SQLite, a URL without its password).
    location: str
    #: The schema versions before and after opening ran the missing migrations.
    migrated: tuple[int, int]

    def read(self) -> AbstractContextManager[Connection]:
        """One read transaction: every statement in the block reads the same snapshot of the
        database, however many there are, so a concurrent writer is never seen halfway. Database
        errors leave it as ``StoreError`` subclasses."""

    def write(self) -> AbstractContextManager[Connection]:
        """One write transaction (see ``Connection.lock_player``): committed when the block ends,
        rolled back if it raises."""

    def ping(self) -> None:
        """Raise ``StoreError`` unless the database answers now."""

    def flush(self) -> None:
        """Make every commit so far durable, for a backend that defers that (group commit)."""

    def close(self) -> None: ...


@dataclass
class Guess:
    """One call's leave to make its one write transaction a guessed one
    (``GuessingBackend.guess``), and what came of it."""

    #: The call sent a guessed transaction.
    used: bool = False
    #: That transaction did not commit (the guess was wrong, or a statement of it failed): nothing
    #: of it happened, and the call is to be made again without guessing.
    failed: bool = False


@runtime_checkable
class GuessingBackend(Backend, Protocol):
    """A backend whose connection waits for the server's answers (PostgreSQL), and can therefore
    save that wait on a write whose reads this process already knows."""

    def guess(
        self, guess: Guess, player_id: int, check: str, parameters: Sequence[Any]
    ) -> AbstractContextManager[Connection]:
        """A write transaction of the player's (their row lock taken) that is sent without waiting
        for any answer, on the guess that ``check`` (a query of one boolean, in the shared SQL)
        holds under that lock: if it does not, the transaction fails whole. Nothing sent in it may
        be read. Whether it committed is known once the backend has read its answers, before the
        next ``read`` or ``write`` begins or at ``flush``: ``guess.failed`` says so then. An
        exception in the block makes it fail too."""
