"""The SQLite backend: one database file, shared by every process that opens it.

Opening first recognises the file without writing to it (SQLite header, application id, schema
version) and checks it (``PRAGMA quick_check``); only then does it set up write-ahead logging
(``twenty48.store.durability``) and run the missing migrations (``twenty48.store.schema``). A write
transaction is ``BEGIN IMMEDIATE``: it takes the write lock at once, so two writers never deadlock
upgrading a read lock, and waits up to ``BUSY_TIMEOUT_MS`` for another process's transaction to end.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from twenty48.game import Action, TileMove
from twenty48.store import durability, schema
from twenty48.store.backend import GameColumns, GameRow
from twenty48.store.errors import (
    ForeignDatabaseError,
    PlayerNotFoundError,
    StoreError,
    StoreUnreadableError,
)
from twenty48.store.records import DamagedGame, Player
from twenty48.store.sqlite_boards import SQLiteBoards
from twenty48.store.sqlite_history import SQLiteHistory
from twenty48.store.sqlite_imports import SQLiteImports
from twenty48.store.sqlite_limits import SQLiteLimits
from twenty48.store.sqlite_players import SQLitePlayers
from twenty48.store.sqlite_ranking import SQLiteRanking
from twenty48.store.sqlite_reviews import SQLiteReviews

BUSY_TIMEOUT_MS = 5000
#: The first 16 bytes of every SQLite database file.
SQLITE_HEADER = b"SQLite format 3\x00"

_GAME_COLUMNS = (
    "g.id, g.player_id, g.revision, g.created_at, g.updated_at, p.current_game_id, g.variant, "
    "g.ranked, g.daily, g.finished_at, g.flagged, g.pace_at"
)


class SQLiteConnection(
    SQLiteHistory, SQLiteImports, SQLiteLimits, SQLiteRanking, SQLitePlayers, SQLiteBoards, SQLiteReviews
):
    """The ``Connection`` primitives as SQLite statements (those of the history in ``SQLiteHistory``,
    of imports in ``SQLiteImports``, of the per-player limits in ``SQLiteLimits``, of ranked games
    in ``SQLiteRanking``, of names and devices in ``SQLitePlayers``, of the leaderboards in
    ``SQLiteBoards``)."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self._db = db

    def player(self, key: str) -> Player | None:
        # A device that claimed a transfer code is the player through a key of its own.
        row = self._db.execute(
            "SELECT id, key, current_game_id FROM players WHERE key = ? UNION ALL "
            "SELECT p.id, p.key, p.current_game_id FROM player_devices d "
            "JOIN players p ON p.id = d.player_id WHERE d.key = ?",
            (key, key),
        ).fetchone()
        return Player(*row) if row is not None else None

    def add_player(self, key: str, now: str) -> None:
        self._db.execute(
            "INSERT INTO players (key, created_at) VALUES (?, ?) ON CONFLICT (key) DO NOTHING", (key, now)
        )

    def has_games(self, player_id: int) -> bool:
        # Deleted and set-aside games count too: a key once shown must not start another game.
        found = self._db.execute("SELECT 1 FROM games WHERE player_id = ? LIMIT 1", (player_id,)).fetchone()
        return found is not None

    def current_game_id(self, player_id: int) -> int | None:
        row = self._db.execute("SELECT current_game_id FROM players WHERE id = ?", (player_id,)).fetchone()
        if row is None:
            raise PlayerNotFoundError(f"no player {player_id}")
        return row[0]

    def game(self, player_id: int, game_id: int) -> GameRow | None:
        found = self._db.execute(
            f"SELECT {_GAME_COLUMNS} FROM games g JOIN players p ON p.id = g.player_id "
            "WHERE g.id = ? AND g.player_id = ? AND NOT g.set_aside",
            (game_id, player_id),
        ).fetchone()
        if found is None:
            return None
        # SQLite gives its BOOLEAN as 0 or 1.
        return GameRow(*found[:7], bool(found[7]), *found[8:])

    def state(self, game_id: int) -> tuple[str, list[str]]:
        (state,) = self._db.execute("SELECT state FROM games WHERE id = ?", (game_id,)).fetchone()
        actions = [
            d if cell is None else f"{d}@{cell}"
            for d, cell in self._db.execute(
                "SELECT direction, cell FROM game_moves WHERE game_id = ? ORDER BY ply", (game_id,)
            )
        ]
        return state, actions

    def insert_game(
        self, player_id: int, columns: GameColumns, state: str, now: str, pace_at: float | None
    ) -> int:
        (game_id,) = self._db.execute(
            """INSERT INTO games (player_id, revision, variant, score, moves, max_tile, won, over, spawns,
                                  state, created_at, updated_at, finished_at, pace_at)
               VALUES (?, 0, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id""",
            (player_id, *columns, state, now, now, now if columns.over else None, pace_at),
        ).fetchone()
        return int(game_id)

    def update_game(self, game_id: int, revision: int, columns: GameColumns, state: str, now: str) -> None:
        # A game once over stays over (undo is refused then), so its first finish time is kept. Its
        # digest no longer says what it holds: an import fills it in again when it needs it.
        self._db.execute(
            """UPDATE games SET revision = ?, variant = ?, score = ?, moves = ?, max_tile = ?, won = ?,
                                over = ?, spawns = ?, state = ?, updated_at = ?, digest = NULL,
                                finished_at = CASE WHEN ? THEN coalesce(finished_at, ?) END
               WHERE id = ?""",
            (revision, *columns, state, now, columns.over, now, game_id),
        )

    def append_actions(self, game_id: int, first_ply: int, actions: Sequence[Action]) -> None:
        self._db.executemany(
            "INSERT INTO game_moves (game_id, ply, direction, cell) VALUES (?, ?, ?, ?)",
            [
                (game_id, ply, *((a[0].value, a[1]) if isinstance(a, TileMove) else (a.value, None)))
                for ply, a in enumerate(actions, start=first_ply)
            ],
        )

    def delete_action(self, game_id: int, ply: int) -> None:
        self._db.execute("DELETE FROM game_moves WHERE game_id = ? AND ply = ?", (game_id, ply))

    def set_current_game(self, player_id: int, game_id: int) -> None:
        self._db.execute("UPDATE players SET current_game_id = ? WHERE id = ?", (game_id, player_id))

    def best_score(self, player_id: int, variant: str) -> int:
        row = self._db.execute(
            "SELECT score FROM best_scores WHERE player_id = ? AND variant = ?", (player_id, variant)
        ).fetchone()
        return row[0] if row is not None else 0

    def raise_best_score(self, player_id: int, variant: str, score: int) -> None:
        self._db.execute(
            """INSERT INTO best_scores (player_id, variant, score) VALUES (?, ?, ?)
               ON CONFLICT (player_id, variant) DO UPDATE SET score = excluded.score
               WHERE excluded.score > best_scores.score""",
            (player_id, variant, score),
        )

    def damaged_games(self, player_id: int) -> list[DamagedGame]:
        rows = self._db.execute(
            "SELECT game_id, player_id, repair, problem, found_at FROM damaged_games "
            "WHERE player_id = ? ORDER BY id",
            (player_id,),
        ).fetchall()
        return [DamagedGame(*r) for r in rows]


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
        self._group: durability.GroupCommit | None = durability.GroupCommit(path) if group_commit else None

    @classmethod
    def open(cls, path: Path, group_commit: bool, *, make_directory: bool = False) -> SQLiteBackend:
        """Open and migrate the database at ``path``, creating it where no file is (and its
        directory too with ``make_directory``)."""
        existing = _existing_file(path, make_directory)
        try:
            db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        except sqlite3.Error as exc:
            raise StoreError(f"cannot open the database {path}: {exc}") from exc
        try:
            db.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            # Nothing is written before the file is known to be a sound twenty48 database.
            before = schema.check(db, path)
            if existing:
                _quick_check(db, path)
            durability.use_wal(db, path, group_commit)
            db.execute("PRAGMA foreign_keys = ON")
            schema.migrate(db, path)
            missing = schema.missing_tables(db)
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
        return cls(db, path, group_commit, (before, len(schema.MIGRATIONS)))

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
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._connection
                self._db.execute("COMMIT")
            except BaseException:
                if self._db.in_transaction:
                    self._db.execute("ROLLBACK")
                raise
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
