"""The SQLite store: players, their games, every accepted action, best scores.

One database file holds everything; the browser server and the terminal game open the same file
(each process through its own ``Store``) and may run at the same time.

API (every game operation is scoped to a player: another player's game is ``GameNotFoundError``)::

    store = Store.open(path)                  # create or migrate; Store.default_path() is the usual file
    player = store.local_player()             # the well-known "terminal" player of this machine
    player = store.web_player(token)          # get or create the anonymous browser player of a cookie
    record = store.current_game(player.id)    # the game in progress (a new one on first call)
    record = store.new_game(player.id)        # start a game; it becomes the current one
    record = store.new_game(player.id, variant="merge")  # a "Merge 2048" game (classic by default)
    record = store.add_game(player.id, game)  # store a prepared Game as the current one
    record = store.get_game(player.id, game_id)
    game = store.load_game(player.id, game_id)          # an exact, independent Game copy
    outcome = store.move(player.id, game_id, "left", revision=record.revision)
    outcome = store.move(player.id, game_id, "left", cell=5, revision=...)  # merge: the tile on cell 5
    outcome.turn                              # twenty48.game.Turn: changed, score, slides, merges, spawn...
    outcome.game                              # GameRecord after the move (revision bumped if changed)
    record = store.undo(player.id, game_id, revision=...)
    record = store.keep_going(player.id, game_id, revision=...)
    store.best_score(player.id, "classic")    # best score the player reached in that variant
    store.games(player.id, limit=20, before=None)       # GameSummary list, newest first
    store.replay(player.id, game_id)          # Replay(seed, variant, actions, ...) of a finished game
    store.flush()                             # with group_commit=True: make the commits durable
    store.close()                             # or use ``with Store.open(path) as store:``

Guarantees:

- **One transaction per accepted action.** ``move``, ``undo`` and ``keep_going`` load, apply and write
  inside one ``BEGIN IMMEDIATE`` transaction and return only after ``COMMIT`` (WAL mode,
  ``synchronous=FULL``: the commit is on disk), so whatever a caller acknowledges survives a crash,
  of the process or of the machine. An illegal move (the board does not change) writes nothing.
- **Group commit.** ``Store.open(path, group_commit=True)`` keeps one transaction per action but
  shares the disk flush: commits reach the operating system at once (surviving a crash of the
  process) and ``store.flush()`` makes all of them durable with one ``fsync`` of the write-ahead log.
  A server answering many players calls ``flush()`` after each batch of actions and acknowledges
  them only after it returns: the same guarantee at a fraction of the disk waits.
- **Revisions.** Each game has a ``revision`` that every accepted action increments. Passing the
  revision you last saw makes the action conditional: if anything else changed the game meanwhile the
  call raises ``StaleRevisionError`` (carrying the current record) and changes nothing. Move counts
  cannot serve here: undo lowers them, so "move 5" can name two different positions.
- **Exact reload.** A game is stored as ``Game.to_dict()`` (the current line of moves in its own table),
  so ``load_game`` restores the very same state, undo history included.
- **Variants.** A game keeps the variant it was started with (``twenty48.variants``: classic, the
  default, or "Merge 2048"); best scores are kept per variant, since the two games score differently.
  A single-tile move (``cell=``) on a classic game is refused with ``ActionRejectedError``.
- **Finished games.** A game is finished when it is over or when the player has started a newer one;
  actions on a finished game raise ``GameFinishedError``; only a finished game has replay data.
- **Errors.** Refused actions raise a ``GameConflictError`` (``StaleRevisionError``,
  ``GameFinishedError``, ``ActionRejectedError``, ``GameInProgressError``) whose ``game`` is the
  unchanged current record. A file that is not a twenty48 database, is corrupt, or comes from a
  newer version raises ``StoreUnreadableError``; every store exception derives from ``StoreError``.

Schema changes are appended to ``MIGRATIONS``; ``PRAGMA user_version`` records how many ran, and
opening a database runs the missing ones in one transaction.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from os import PathLike
from pathlib import Path
from typing import NamedTuple, Self

import platformdirs

from twenty48.game import Action, Game, IllegalAction, Turn, make_action
from twenty48.rules import Board, Direction
from twenty48.variants import CLASSIC, get_variant

#: Written into the database header so a foreign SQLite file is recognised ("2048" in ASCII).
APPLICATION_ID = 0x32303438
#: The name of the player who plays on this machine's terminal.
TERMINAL_PLAYER = "terminal"
#: Games kept deserialised in memory, so an action does not rebuild its game from the database.
CACHE_SIZE = 4096
BUSY_TIMEOUT_MS = 5000
#: The largest id SQLite can hold (a signed 64-bit integer).
ID_LIMIT = 2**63 - 1


class StoreError(Exception):
    """Base class of every error raised by the store."""


class StoreUnreadableError(StoreError):
    """The database file is corrupt, not a twenty48 database, unreadable, or from a newer version."""


class GameNotFoundError(StoreError, LookupError):
    """No such game for this player (it does not exist or belongs to someone else)."""


class GameConflictError(StoreError):
    """The action does not fit the game's present state; ``game`` is that state, unchanged."""

    def __init__(self, message: str, game: GameRecord) -> None:
        super().__init__(message)
        #: The game as it is now, unchanged by the refused action.
        self.game = game


class StaleRevisionError(GameConflictError):
    """The caller's revision is not the game's current one: someone else acted first."""


class GameFinishedError(GameConflictError):
    """The game is over or was replaced by a newer game: no more actions."""


class ActionRejectedError(GameConflictError):
    """The action is not possible in this position (nothing to undo, keep going without a win)."""


class GameInProgressError(GameConflictError):
    """Replay data exists only for finished games."""


@dataclass(frozen=True, slots=True)
class Player:
    id: int
    #: "web:<sha256 of the cookie token>" or "local:<name>".
    key: str
    current_game_id: int | None


@dataclass(frozen=True, slots=True)
class GameRecord:
    """An immutable snapshot of a stored game, safe to hand to other threads."""

    id: int
    player_id: int
    #: Incremented by every accepted action; see the module docstring.
    revision: int
    #: The player's current game (not replaced by a newer one).
    current: bool
    seed: int
    #: The game's rules: "classic" or "merge" (see ``twenty48.variants``).
    variant: str
    board: Board
    score: int
    moves: int
    won: bool
    keep_playing: bool
    over: bool
    can_undo: bool
    #: The player's best score in this game's variant, as of this snapshot.
    best_score: int
    created_at: str
    updated_at: str

    @property
    def finished(self) -> bool:
        return self.over or not self.current

    @property
    def max_tile(self) -> int:
        return self.board.max_tile


@dataclass(frozen=True, slots=True)
class MoveOutcome:
    turn: Turn
    game: GameRecord


@dataclass(frozen=True, slots=True)
class GameSummary:
    id: int
    variant: str
    score: int
    moves: int
    max_tile: int
    won: bool
    over: bool
    current: bool
    created_at: str
    updated_at: str

    @property
    def finished(self) -> bool:
        return self.over or not self.current


@dataclass(frozen=True, slots=True)
class Replay:
    """What ``Game.replay(seed, actions, variant)`` needs to rebuild a finished game, plus its result."""

    game_id: int
    seed: int
    variant: str
    #: ``Direction`` for a whole-board move, ``TileMove`` (``str()`` gives "left@5") for a single tile.
    actions: tuple[Action, ...]
    score: int
    max_tile: int
    won: bool
    over: bool


# ---- schema ---------------------------------------------------------------------------------------


def _schema_1(db: sqlite3.Connection) -> None:
    db.execute(
        """
        CREATE TABLE players (
            id INTEGER PRIMARY KEY,
            key TEXT NOT NULL UNIQUE,
            best_score INTEGER NOT NULL DEFAULT 0,
            current_game_id INTEGER REFERENCES games(id),
            created_at TEXT NOT NULL
        )"""
    )
    db.execute(
        """
        CREATE TABLE games (
            id INTEGER PRIMARY KEY,
            player_id INTEGER NOT NULL REFERENCES players(id),
            revision INTEGER NOT NULL,
            score INTEGER NOT NULL,
            moves INTEGER NOT NULL,
            max_tile INTEGER NOT NULL,
            won INTEGER NOT NULL,
            over INTEGER NOT NULL,
            -- Game.to_dict() without "actions", which live in game_moves.
            state TEXT NOT NULL,
            created_at TEXT NOT NULL,
            updated_at TEXT NOT NULL
        )"""
    )
    db.execute("CREATE INDEX games_by_player ON games (player_id, id)")
    # The current line of play: a move appends a ply, undo deletes the last one. Kept apart from
    # the state so that an action writes a constant amount however long the game has run.
    db.execute(
        """
        CREATE TABLE game_moves (
            game_id INTEGER NOT NULL REFERENCES games(id),
            ply INTEGER NOT NULL,
            direction TEXT NOT NULL CHECK (direction IN ('up', 'down', 'left', 'right')),
            PRIMARY KEY (game_id, ply)
        ) WITHOUT ROWID"""
    )


def _variants_2(db: sqlite3.Connection) -> None:
    # Every game stored before variants existed is classic.
    db.execute("ALTER TABLE games ADD COLUMN variant TEXT NOT NULL DEFAULT 'classic'")
    # The source cell of a single-tile move ("Merge 2048"); NULL for a whole-board move.
    db.execute("ALTER TABLE game_moves ADD COLUMN cell INTEGER CHECK (cell BETWEEN 0 AND 15)")
    # Best scores per variant: the variants score differently, so one number would mix them.
    db.execute(
        """
        CREATE TABLE best_scores (
            player_id INTEGER NOT NULL REFERENCES players(id),
            variant TEXT NOT NULL,
            score INTEGER NOT NULL,
            PRIMARY KEY (player_id, variant)
        ) WITHOUT ROWID"""
    )
    db.execute(
        "INSERT INTO best_scores (player_id, variant, score) "
        "SELECT id, 'classic', best_score FROM players WHERE best_score > 0"
    )
    db.execute("ALTER TABLE players DROP COLUMN best_score")


#: Migration ``i`` takes a database from schema version ``i`` to ``i + 1``. Append, never edit.
MIGRATIONS: list[Callable[[sqlite3.Connection], None]] = [_schema_1, _variants_2]


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def _hash_token(token: str) -> str:
    # Only a hash is stored, so reading the database does not let anyone take over a player's cookie.
    return "web:" + hashlib.sha256(token.encode()).hexdigest()


class _GameRow(NamedTuple):
    """A game's row with its player's current game; the state is read only when the game is not
    cached."""

    id: int
    player_id: int
    revision: int
    created_at: str
    updated_at: str
    current_game_id: int | None
    variant: str


_GAME_COLUMNS = "g.id, g.player_id, g.revision, g.created_at, g.updated_at, p.current_game_id, g.variant"


class Store:
    """A twenty48 database. Thread-safe: calls are serialised on one connection."""

    def __init__(self, db: sqlite3.Connection, path: Path, group_commit: bool = False) -> None:
        self._db = db
        self.path = path
        self.group_commit = group_commit
        self._lock = threading.Lock()
        #: Commits made since the last ``flush`` (group commit only).
        self._unflushed = False
        self._wal_fd: int | None = None
        #: game id -> (revision, Game): valid only while the revision matches the database.
        self._cache: OrderedDict[int, tuple[int, Game]] = OrderedDict()

    # ---- opening --------------------------------------------------------------------------------

    @staticmethod
    def default_path() -> Path:
        """The database the browser and terminal games share: in the user's data directory."""
        return Path(platformdirs.user_data_dir("twenty48", appauthor=False)) / "twenty48.sqlite3"

    @classmethod
    def open(cls, path: str | PathLike[str] | None = None, *, group_commit: bool = False) -> Store:
        """Open (creating it and its directory if needed) and migrate the database at ``path``.
        With ``group_commit`` the caller must ``flush()`` before acknowledging what it wrote."""
        path = Path(path) if path is not None else cls.default_path()
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        except (OSError, sqlite3.Error) as exc:
            raise StoreUnreadableError(f"cannot open the database {path}: {exc}") from exc
        try:
            db.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            if db.execute("PRAGMA journal_mode = WAL").fetchone()[0].lower() != "wal":
                raise StoreUnreadableError(f"{path}: the database cannot use write-ahead logging")
            # FULL: a commit is on disk before the action it records is acknowledged. NORMAL (group
            # commit) leaves that fsync to flush(), shared by every commit since the previous one.
            db.execute(f"PRAGMA synchronous = {'NORMAL' if group_commit else 'FULL'}")
            db.execute("PRAGMA foreign_keys = ON")
            _migrate(db, path)
        except sqlite3.Error as exc:
            db.close()
            if _busy(exc):
                # Another connection held the write lock past the busy timeout: the file is fine, so
                # this must not read as damaged (the terminal game offers to set damaged files aside).
                raise StoreError(f"{path} is busy: {exc}") from exc
            raise StoreUnreadableError(f"{path} is not a readable twenty48 database: {exc}") from exc
        except StoreError:
            db.close()
            raise
        return cls(db, path, group_commit)

    @staticmethod
    def set_aside(path: str | PathLike[str]) -> Path:
        """Rename an unreadable database file, with its ``-wal`` and ``-shm`` companions, to
        ``<name>.damaged-<UTC time>`` so that ``open`` starts afresh while nothing is deleted.
        Returns the new path. Raises OSError if ``path`` is not a file or cannot be renamed."""
        path = Path(path)
        if not path.is_file():
            raise OSError(f"{path} is not a file")
        stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S%fZ")
        target = path.with_name(f"{path.name}.damaged-{stamp}")
        path.rename(target)
        for suffix in ("-wal", "-shm"):
            companion = path.with_name(path.name + suffix)
            if companion.exists():
                # Kept beside the main file under the names SQLite looks for, so the set-aside copy
                # still opens with its last transactions.
                companion.rename(target.with_name(target.name + suffix))
        return target

    def close(self) -> None:
        with self._lock:
            self._db.close()
            self._cache.clear()
            if self._wal_fd is not None:
                os.close(self._wal_fd)
                self._wal_fd = None

    def flush(self) -> None:
        """Make every commit so far durable (group commit): one fsync of the write-ahead log.
        Returns at once when nothing was committed since the last flush, or without group commit."""
        with self._lock:
            if not self._unflushed:
                return
            try:
                fd = self._wal()
                if fd is not None:
                    os.fsync(fd)
            except OSError as exc:
                raise StoreError(f"{self.path}: cannot flush the write-ahead log: {exc}") from exc
            self._unflushed = False

    def _wal(self) -> int | None:
        """A descriptor of the current write-ahead log file; None if there is none (all of it was
        checkpointed into the database, which the checkpoint synced)."""
        wal = Path(f"{self.path}-wal")
        try:
            inode = wal.stat().st_ino
        except FileNotFoundError:
            return None
        if self._wal_fd is not None and os.fstat(self._wal_fd).st_ino != inode:
            os.close(self._wal_fd)
            self._wal_fd = None
        if self._wal_fd is None:
            self._wal_fd = os.open(wal, os.O_RDWR)
        return self._wal_fd

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ---- players --------------------------------------------------------------------------------

    def web_player(self, token: str) -> Player:
        """The browser player whose cookie holds ``token``; created on first use."""
        if not token:
            raise ValueError("a player token must not be empty")
        return self._player(_hash_token(token))

    def local_player(self, name: str = TERMINAL_PLAYER) -> Player:
        """A player known by name on this machine; ``"terminal"`` is the terminal game's player."""
        if not name:
            raise ValueError("a local player name must not be empty")
        return self._player("local:" + name)

    def _player(self, key: str) -> Player:
        with self._read() as db:
            row = db.execute("SELECT id, key, current_game_id FROM players WHERE key = ?", (key,)).fetchone()
        if row is not None:
            return Player(*row)
        with self._write() as db:
            db.execute(
                "INSERT INTO players (key, created_at) VALUES (?, ?) ON CONFLICT (key) DO NOTHING",
                (key, _now()),
            )
            row = db.execute("SELECT id, key, current_game_id FROM players WHERE key = ?", (key,)).fetchone()
        return Player(*row)

    def best_score(self, player_id: int, variant: str = CLASSIC.name) -> int:
        """The best score the player reached in ``variant`` (0 before any). Raises ValueError for
        an unknown variant and LookupError for an unknown player."""
        name = get_variant(variant).name
        with self._read() as db:
            if db.execute("SELECT 1 FROM players WHERE id = ?", (player_id,)).fetchone() is None:
                raise LookupError(f"no player {player_id}")
            return _best(db, player_id, name)

    # ---- games ----------------------------------------------------------------------------------

    def current_game(self, player_id: int) -> GameRecord:
        """The player's current game; a new one is started if the player has none."""
        with self._read() as db:
            row = db.execute("SELECT current_game_id FROM players WHERE id = ?", (player_id,)).fetchone()
        if row is None:
            raise LookupError(f"no player {player_id}")
        if row[0] is not None:
            return self.get_game(player_id, row[0])
        with self._write() as db:
            # Another process may have started one since the read above.
            (current,) = db.execute(
                "SELECT current_game_id FROM players WHERE id = ?", (player_id,)
            ).fetchone()
            game_id = current if current is not None else self._insert_game(db, player_id, Game.new())
            return self._record(db, player_id, game_id)

    def new_game(self, player_id: int, seed: int | None = None, variant: str = CLASSIC.name) -> GameRecord:
        """Start a game of ``variant`` (from ``seed``, random if None); it becomes the player's
        current game. Raises ValueError for an unknown variant."""
        return self._add(player_id, Game.new(seed, variant))

    def add_game(self, player_id: int, game: Game) -> GameRecord:
        """Store a game set up elsewhere (``Game.from_board``, an imported save) as the player's
        current game. The store keeps its own copy."""
        return self._add(player_id, Game.from_dict(game.to_dict()))

    def _add(self, player_id: int, game: Game) -> GameRecord:
        with self._write() as db:
            if db.execute("SELECT 1 FROM players WHERE id = ?", (player_id,)).fetchone() is None:
                raise LookupError(f"no player {player_id}")
            game_id = self._insert_game(db, player_id, game)
            return self._record(db, player_id, game_id)

    def get_game(self, player_id: int, game_id: int) -> GameRecord:
        with self._read() as db:
            return self._record(db, player_id, game_id)

    def load_game(self, player_id: int, game_id: int) -> Game:
        """An exact copy of the stored game (undo history included) that the caller may change freely."""
        with self._read() as db:
            _, game = self._load(db, player_id, game_id)
            return Game.from_dict(game.to_dict())

    def move(
        self,
        player_id: int,
        game_id: int,
        direction: Direction | str,
        *,
        cell: int | None = None,
        revision: int | None = None,
    ) -> MoveOutcome:
        """Play ``direction``, or with ``cell`` (Merge 2048 only) move just the tile on that cell;
        a legal move is committed before this returns, an illegal one writes nothing. Raises
        ValueError for an unknown direction or a cell outside 0-15, and ``ActionRejectedError`` for
        a single-tile move on a game whose variant has none."""
        action = make_action(direction, cell)
        with self._write() as db:
            row, game = self._load_for_action(db, player_id, game_id, revision)
            if cell is not None and not game.variant.tile_moves:
                raise ActionRejectedError(
                    f"single-tile moves belong to the merge variant; game {game_id} is {game.variant.name}",
                    self._as_record(db, row, game),
                )
            turn = game.play(action)
            if turn.changed:
                db.execute(
                    "INSERT INTO game_moves (game_id, ply, direction, cell) VALUES (?, ?, ?, ?)",
                    (game_id, game.moves - 1, turn.direction.value, cell),
                )
                row = self._save(db, row, game)
            return MoveOutcome(turn, self._as_record(db, row, game))

    def undo(self, player_id: int, game_id: int, *, revision: int | None = None) -> GameRecord:
        """Take back the last move, committed before this returns."""
        with self._write() as db:
            row, game = self._load_for_action(db, player_id, game_id, revision)
            try:
                game.undo()
            except IllegalAction as exc:
                raise ActionRejectedError(str(exc), self._as_record(db, row, game)) from exc
            db.execute("DELETE FROM game_moves WHERE game_id = ? AND ply = ?", (game_id, game.moves))
            return self._as_record(db, self._save(db, row, game), game)

    def keep_going(self, player_id: int, game_id: int, *, revision: int | None = None) -> GameRecord:
        """Dismiss the win banner and play on. Asking again once keeping going changes nothing."""
        with self._write() as db:
            row, game = self._load_for_action(db, player_id, game_id, revision)
            if not game.won:
                raise ActionRejectedError(
                    "the game has not been won, there is nothing to keep going from",
                    self._as_record(db, row, game),
                )
            if not game.keep_playing:
                game.keep_going()
                row = self._save(db, row, game)
            return self._as_record(db, row, game)

    def games(self, player_id: int, *, limit: int = 20, before: int | None = None) -> list[GameSummary]:
        """The player's games, newest first; ``before`` (a game id) pages further back."""
        if limit < 1:
            raise ValueError("limit must be at least 1")
        with self._read() as db:
            rows = db.execute(
                """
                SELECT g.id, g.variant, g.score, g.moves, g.max_tile, g.won, g.over,
                       g.id = p.current_game_id, g.created_at, g.updated_at
                FROM games g JOIN players p ON p.id = g.player_id
                WHERE g.player_id = ? AND g.id < ?
                ORDER BY g.id DESC LIMIT ?""",
                (player_id, before if before is not None else ID_LIMIT, limit),
            ).fetchall()
        return [
            GameSummary(
                id=r[0],
                variant=r[1],
                score=r[2],
                moves=r[3],
                max_tile=r[4],
                won=bool(r[5]),
                over=bool(r[6]),
                current=bool(r[7]),
                created_at=r[8],
                updated_at=r[9],
            )
            for r in rows
        ]

    def replay(self, player_id: int, game_id: int) -> Replay:
        """The seed, variant and moves of a finished game: ``Game.replay(seed, actions, variant)``
        rebuilds it."""
        with self._read() as db:
            row, game = self._load(db, player_id, game_id)
            record = self._as_record(db, row, game)
            if not record.finished:
                raise GameInProgressError(
                    "the game is still in progress; replay data is given for finished games", record
                )
            return Replay(
                game_id=game_id,
                seed=game.seed,
                variant=game.variant.name,
                actions=game.actions,
                score=game.score,
                max_tile=game.board.max_tile,
                won=game.won,
                over=game.over,
            )

    # ---- internals ------------------------------------------------------------------------------

    @contextmanager
    def _read(self) -> Iterator[sqlite3.Connection]:
        with self._lock, _translated_errors(self.path):
            yield self._db

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        """One transaction, holding the database's write lock from the start (no upgrade deadlocks)."""
        with self._lock, _translated_errors(self.path):
            changes = self._db.total_changes
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
                self._db.execute("COMMIT")
                if self.group_commit and self._db.total_changes != changes:
                    self._unflushed = True
            except (GameNotFoundError, GameConflictError):
                # Refused before anything was changed.
                self._db.execute("ROLLBACK")
                raise
            except BaseException:
                if self._db.in_transaction:
                    self._db.execute("ROLLBACK")
                # The cached game may have been changed by the action whose write failed.
                self._cache.clear()
                raise

    def _insert_game(self, db: sqlite3.Connection, player_id: int, game: Game) -> int:
        now = _now()
        cursor = db.execute(
            """INSERT INTO games (player_id, revision, variant, score, moves, max_tile, won, over, state,
                                  created_at, updated_at)
               VALUES (?, 0, ?, ?, ?, ?, ?, ?, ?, ?, ?)""",
            (
                player_id,
                game.variant.name,
                game.score,
                game.moves,
                game.board.max_tile,
                game.won,
                game.over,
                _state_json(game),
                now,
                now,
            ),
        )
        game_id = cursor.lastrowid
        assert game_id is not None
        db.execute("UPDATE players SET current_game_id = ? WHERE id = ?", (game_id, player_id))
        self._remember(game_id, 0, game)
        return game_id

    def _load(self, db: sqlite3.Connection, player_id: int, game_id: int) -> tuple[_GameRow, Game]:
        if not 0 < game_id <= ID_LIMIT or not 0 < player_id <= ID_LIMIT:
            # Beyond SQLite's integers: no such row can exist.
            raise GameNotFoundError(f"no game {game_id} for this player")
        found = db.execute(
            f"SELECT {_GAME_COLUMNS} FROM games g JOIN players p ON p.id = g.player_id "
            "WHERE g.id = ? AND g.player_id = ?",
            (game_id, player_id),
        ).fetchone()
        if found is None:
            raise GameNotFoundError(f"no game {game_id} for this player")
        row = _GameRow(*found)
        cached = self._cache.get(game_id)
        if cached is not None and cached[0] == row.revision:
            self._cache.move_to_end(game_id)
            return row, cached[1]
        game = self._decode(db, game_id, row.variant)
        self._remember(game_id, row.revision, game)
        return row, game

    def _decode(self, db: sqlite3.Connection, game_id: int, variant: str) -> Game:
        (state_json,) = db.execute("SELECT state FROM games WHERE id = ?", (game_id,)).fetchone()
        actions = [
            d if cell is None else f"{d}@{cell}"
            for d, cell in db.execute(
                "SELECT direction, cell FROM game_moves WHERE game_id = ? ORDER BY ply", (game_id,)
            )
        ]
        try:
            state = json.loads(state_json)
            state["actions"] = actions
            game = Game.from_dict(state)
        except (ValueError, TypeError) as exc:
            raise StoreUnreadableError(f"{self.path}: game {game_id} is damaged: {exc}") from exc
        if game.variant.name != variant:
            raise StoreUnreadableError(
                f"{self.path}: game {game_id} is damaged: its state is {game.variant.name}, its row {variant}"
            )
        return game

    def _load_for_action(
        self, db: sqlite3.Connection, player_id: int, game_id: int, revision: int | None
    ) -> tuple[_GameRow, Game]:
        row, game = self._load(db, player_id, game_id)
        if revision is not None and revision != row.revision:
            raise StaleRevisionError(
                f"the game is at revision {row.revision}, not {revision}: it changed meanwhile",
                self._as_record(db, row, game),
            )
        if game.over or row.current_game_id != game_id:
            record = self._as_record(db, row, game)
            why = "is over" if game.over else "was replaced by a newer game"
            raise GameFinishedError(f"game {game_id} {why}", record)
        return row, game

    def _save(self, db: sqlite3.Connection, row: _GameRow, game: Game) -> _GameRow:
        """Write the changed game; returns its row as it now stands."""
        revision, now = row.revision + 1, _now()
        db.execute(
            """UPDATE games SET revision = ?, score = ?, moves = ?, max_tile = ?, won = ?, over = ?,
                                state = ?, updated_at = ?
               WHERE id = ?""",
            (
                revision,
                game.score,
                game.moves,
                game.board.max_tile,
                game.won,
                game.over,
                _state_json(game),
                now,
                row.id,
            ),
        )
        _raise_best(db, row.player_id, game.variant.name, game.score)
        self._remember(row.id, revision, game)
        return row._replace(revision=revision, updated_at=now)

    def _record(self, db: sqlite3.Connection, player_id: int, game_id: int) -> GameRecord:
        return self._as_record(db, *self._load(db, player_id, game_id))

    def _as_record(self, db: sqlite3.Connection, row: _GameRow, game: Game) -> GameRecord:
        return GameRecord(
            id=row.id,
            player_id=row.player_id,
            revision=row.revision,
            current=row.current_game_id == row.id,
            seed=game.seed,
            variant=game.variant.name,
            board=game.board,
            score=game.score,
            moves=game.moves,
            won=game.won,
            keep_playing=game.keep_playing,
            over=game.over,
            can_undo=game.can_undo,
            best_score=_best(db, row.player_id, game.variant.name),
            created_at=row.created_at,
            updated_at=row.updated_at,
        )

    def _remember(self, game_id: int, revision: int, game: Game) -> None:
        self._cache[game_id] = (revision, game)
        self._cache.move_to_end(game_id)
        while len(self._cache) > CACHE_SIZE:
            self._cache.popitem(last=False)


def _best(db: sqlite3.Connection, player_id: int, variant: str) -> int:
    row = db.execute(
        "SELECT score FROM best_scores WHERE player_id = ? AND variant = ?", (player_id, variant)
    ).fetchone()
    return row[0] if row is not None else 0


def _raise_best(db: sqlite3.Connection, player_id: int, variant: str, score: int) -> None:
    if score > 0:
        db.execute(
            """INSERT INTO best_scores (player_id, variant, score) VALUES (?, ?, ?)
               ON CONFLICT (player_id, variant) DO UPDATE SET score = excluded.score
               WHERE excluded.score > best_scores.score""",
            (player_id, variant, score),
        )


def _state_json(game: Game) -> str:
    return json.dumps(game.to_dict(actions=False), separators=(",", ":"))


def _busy(exc: sqlite3.Error) -> bool:
    return (getattr(exc, "sqlite_errorcode", 0) & 0xFF) in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)


@contextmanager
def _translated_errors(path: Path) -> Iterator[None]:
    try:
        yield
    except sqlite3.OperationalError as exc:
        # Locked beyond the busy timeout, disk full, read-only file: the file itself is fine.
        raise StoreError(f"{path}: {exc}") from exc
    except sqlite3.DatabaseError as exc:
        raise StoreUnreadableError(f"{path} is damaged: {exc}") from exc


def _migrate(db: sqlite3.Connection, path: Path) -> None:
    db.execute("BEGIN IMMEDIATE")
    try:
        application_id = db.execute("PRAGMA application_id").fetchone()[0]
        version = db.execute("PRAGMA user_version").fetchone()[0]
        has_tables = db.execute("SELECT count(*) FROM sqlite_schema").fetchone()[0] > 0
        if application_id != APPLICATION_ID and (has_tables or version):
            raise StoreUnreadableError(f"{path} is an SQLite database, but not a twenty48 one")
        if version > len(MIGRATIONS):
            raise StoreUnreadableError(
                f"{path} has schema version {version}, newer than this program's {len(MIGRATIONS)}: "
                "upgrade twenty48 to open it"
            )
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
