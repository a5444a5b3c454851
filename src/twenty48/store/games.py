"""``Store``: every operation on players and games, written once against a ``Backend``.

The rules of an action live here and in ``rows`` (the game-row internals every part shares), and
nowhere else: load the game (from the cache while its revision is current), check the caller's
revision and that the game is not finished, let the ``Game`` apply the action (its refusal becomes
the store's error in ``errors.refusal``), write the state and the action log, raise the best
score. The backend only runs the primitive statements.
"""

from __future__ import annotations

import hashlib
from os import PathLike
from pathlib import Path
from typing import Self

import platformdirs

from twenty48 import spawns
from twenty48.game import Game, make_action
from twenty48.rules import Direction
from twenty48.store import checkpoints, codec, durability
from twenty48.store.backend import Connection, GameRow, ListQuery, current_game_of
from twenty48.store.boards import BoardsStore
from twenty48.store.errors import (
    GameInProgressError,
    StoreUnreadableError,
)
from twenty48.store.history import HistoryStore
from twenty48.store.imports import ImportStore
from twenty48.store.limits import LimitsStore
from twenty48.store.location import parse_location, postgres_backend
from twenty48.store.players import PlayersStore
from twenty48.store.ranking import RankingStore
from twenty48.store.records import DamagedGame, GameRecord, GameSummary, MoveOutcome, Player, Replay
from twenty48.store.reviews import ReviewsStore
from twenty48.store.rows import GameRows, log_actions, now_text
from twenty48.store.sqlite import SQLiteBackend
from twenty48.variants import CLASSIC, get_variant

#: How ``Store.games`` can order a page.
SORTS = ("date", "score", "max_tile")

#: The name of the player who plays on this machine's terminal.
TERMINAL_PLAYER = "terminal"


class Store(
    GameRows, HistoryStore, ImportStore, LimitsStore, RankingStore, PlayersStore, BoardsStore, ReviewsStore
):
    """A twenty48 database. Thread-safe: calls are serialised on the backend's one connection."""

    # ---- opening --------------------------------------------------------------------------------

    @staticmethod
    def default_path() -> Path:
        """The database the browser and terminal games share: in the user's data directory."""
        return Path(platformdirs.user_data_dir("twenty48", appauthor=False)) / "twenty48.sqlite3"

    @classmethod
    def open(cls, location: str | PathLike[str] | None = None, *, group_commit: bool = False) -> Store:
        """Open and migrate the database at ``location``: the PostgreSQL database a
        ``postgresql://`` URL names (needs the ``postgres`` extra), else the SQLite file there
        (default: ``default_path()``, whose directory is created if needed), created if no file is
        there. With ``group_commit`` (SQLite only; PostgreSQL commits are durable when they return)
        the caller must ``flush()`` before acknowledging what it wrote. Raises ``StoreError`` (one
        line) when it cannot be opened."""
        if location is None:
            return cls(SQLiteBackend.open(cls.default_path(), group_commit, make_directory=True))
        found = parse_location(location)
        if isinstance(found, str):
            return cls(postgres_backend().open(found))
        return cls(SQLiteBackend.open(found, group_commit))

    @staticmethod
    def set_aside(path: str | PathLike[str]) -> Path:
        """Rename an unreadable database file (and its companions) out of the way; see
        ``twenty48.store.durability.set_aside``."""
        return durability.set_aside(path)

    def close(self) -> None:
        with self._lock:
            self._backend.close()
            self._cache.clear()

    def ping(self) -> None:
        """Raise ``StoreError`` unless the database answers now (``GET /healthz``)."""
        with self._lock:
            self._backend.ping()

    def flush(self) -> None:
        """Make every commit so far durable (group commit): one fsync of the write-ahead log.
        Returns at once when nothing was committed since the last flush, or without group commit."""
        with self._lock:
            self._backend.flush()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ---- players --------------------------------------------------------------------------------

    def web_player(self, token: str) -> Player:
        """The browser player whose cookie holds ``token``; created on first use."""
        return self._player(web_key(token))

    def find_web_player(self, token: str) -> Player | None:
        """The browser player whose cookie holds ``token``, if one was created; writes nothing."""
        with self._read() as db:
            return db.player(web_key(token))

    def local_player(self, name: str = TERMINAL_PLAYER) -> Player:
        """A player known by name on this machine; ``"terminal"`` is the terminal game's player."""
        if not name:
            raise ValueError("a local player name must not be empty")
        return self._player("local:" + name)

    def _player(self, key: str) -> Player:
        with self._read() as db:
            found = db.player(key)
        if found is not None:
            return found
        with self._write() as db:
            db.add_player(key, now_text())
            found = db.player(key)
        assert found is not None
        return found

    def best_score(self, player_id: int, variant: str = CLASSIC.name) -> int:
        """The best score the player reached in ``variant`` (0 before any). Raises ValueError for
        an unknown variant and ``PlayerNotFoundError`` for an unknown player."""
        name = get_variant(variant).name
        with self._read() as db:
            current_game_of(db, player_id)
            return db.best_score(player_id, name)

    def damaged_games(self, player_id: int) -> list[DamagedGame]:
        """The player's games that the store found damaged, and what it did with each (oldest first)."""
        with self._read() as db:
            current_game_of(db, player_id)
            return db.damaged_games(player_id)

    # ---- games ----------------------------------------------------------------------------------

    def current_game(self, player_id: int, *, ranked: bool = False) -> GameRecord:
        """The player's current game; a new one is started if the player has none (``ranked``: a
        ranked one, see ``new_game``)."""
        with self._read() as db:
            current = current_game_of(db, player_id)
        if current is not None:
            return self.get_game(player_id, current)
        with self._write() as db:
            # Another process may have started one since the read above.
            current = db.current_game_id(player_id)
            if current is None:
                current = self._insert(db, player_id, _new(None, CLASSIC.name, ranked), ranked=ranked)
            return self._record(db, player_id, current)

    def new_game(
        self, player_id: int, seed: int | None = None, variant: str = CLASSIC.name, *, ranked: bool = False
    ) -> GameRecord:
        """Start a game of ``variant`` (from ``seed``, random if None); it becomes the player's
        current game. A current game with no move yet is replaced where it stands (same id, next
        revision) instead of kept: only played games take room. ``ranked``: the game counts for the
        leaderboards until its first assisted action; its spawns come from a fresh secret key
        (``twenty48.spawns``), which it does not reveal until it is finished. A game from a chosen
        seed is practice, never ranked. Raises ValueError for an unknown variant, or a ranked game
        with a seed."""
        if ranked and seed is not None:
            raise ValueError("a game from a chosen seed is practice: it is never ranked")
        game = _new(seed, variant, ranked)
        with self._write() as db:
            current = current_game_of(db, player_id)
            if current is not None:
                try:
                    row, old = self._load(db, player_id, current)
                except StoreUnreadableError:
                    pass  # a damaged current game is left as it is, beside the new one
                else:
                    # A daily game keeps its row: its date's key must never start a second game.
                    if codec.unplayed(old) and row.daily is None:
                        return self._as_record(db, self._restart(db, row, game, ranked, None), game)
            return self._record(db, player_id, self._insert(db, player_id, game, ranked=ranked))

    def add_game(self, player_id: int, game: Game) -> GameRecord:
        """Store a game set up elsewhere (``Game.from_board``, an imported save, a game already
        played) as the player's current game, moves and start included. The store keeps its own copy."""
        return self._add(player_id, Game.from_dict(game.to_dict()))

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
        auto: bool = False,
        today: str | None = None,
    ) -> MoveOutcome:
        """Play ``direction``, or with ``cell`` (Merge 2048 only) move just the tile on that cell;
        a legal move is committed before this returns, an illegal one writes nothing. Raises
        ValueError for an unknown direction or a cell outside 0-15, and ``ActionRejectedError`` for
        a single-tile move on a game whose variant has none. ``auto``: the move was auto-played
        (counted in the game's assisted counts). ``today``: the UTC date, which the server passes
        (the terminal plays no daily game): a daily game of an earlier day is played on unranked,
        its day's board keeping it as the day left it (``twenty48.store.ranking``); the same for
        every action below."""
        action = make_action(direction, cell)
        with self._write() as db:
            row, game = self._load_for_action(db, player_id, game_id, revision)
            max_before = game.board.max_tile
            with self._refusals(db, row, game):
                turn = game.play(action)
            if turn.changed:
                log_actions(db, row.id, game, game.moves - 1)
                checkpoints.note_move(db, row.id, max_before, game)
                row = self._close_day(db, row, today)
                if auto:
                    row = _assisted(db, row, auto_moves=1)
                row = self._save(db, row, game)
            return MoveOutcome(turn, self._as_record(db, row, game))

    def undo(
        self, player_id: int, game_id: int, *, revision: int | None = None, today: str | None = None
    ) -> GameRecord:
        """Take back the last move, committed before this returns."""
        with self._write() as db:
            row, game = self._load_for_action(db, player_id, game_id, revision)
            with self._refusals(db, row, game):
                game.undo()
            db.delete_action(row.id, game.moves)
            checkpoints.note_undo(db, row.id, game)
            row = _assisted(db, self._close_day(db, row, today), undos=1)
            return self._as_record(db, self._save(db, row, game), game)

    def keep_going(
        self, player_id: int, game_id: int, *, revision: int | None = None, today: str | None = None
    ) -> GameRecord:
        """Dismiss the win banner and play on. Asking again once keeping going changes nothing."""
        with self._write() as db:
            row, game = self._load_for_action(db, player_id, game_id, revision)
            if not game.keep_playing:
                with self._refusals(db, row, game):
                    game.keep_going()
                row = self._save(db, self._close_day(db, row, today), game)
            return self._as_record(db, row, game)

    def games(
        self,
        player_id: int,
        *,
        limit: int = 20,
        before: int | None = None,
        sort: str = "date",
        variant: str | None = None,
        finished: bool | None = None,
    ) -> list[GameSummary]:
        """The player's games, newest first, or highest ``sort="score"`` / ``"max_tile"`` first
        (ties newest first); ``before`` (a game id) pages on after that game; ``variant`` and
        ``finished`` filter. Raises ValueError for an unknown sort or variant and
        ``PlayerNotFoundError`` for an unknown player."""
        if limit < 1:
            raise ValueError("limit must be at least 1")
        if sort not in SORTS:
            raise ValueError(f"sort must be one of {', '.join(SORTS)}, got {sort!r}")
        name = get_variant(variant).name if variant is not None else None
        with self._read() as db:
            current_game_of(db, player_id)
            return db.history(player_id, ListQuery(sort, name, finished, before, limit))

    def replay(self, player_id: int, game_id: int) -> Replay:
        """The seed, variant, start and moves of a finished game:
        ``Game.replay(seed, actions, variant, start)`` rebuilds it."""
        with self._read() as db:
            row, game = self._load(db, player_id, game_id)
            record = self._as_record(db, row, game)
            if not record.finished:
                raise GameInProgressError(
                    "the game is still in progress; replay data is given for finished games", record
                )
            if record.secret:
                raise GameInProgressError(
                    "the daily game can still be resumed: its replay is given once it is over", record
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
                start=game.start,
            )

    def _add(self, player_id: int, game: Game) -> GameRecord:
        with self._write() as db:
            current_game_of(db, player_id)
            return self._record(db, player_id, self._insert(db, player_id, game))


def web_key(token: str) -> str:
    """The player key of a browser cookie's token."""
    if not token:
        raise ValueError("a player token must not be empty")
    # Only a hash is stored, so reading the database does not let anyone take over a cookie.
    return "web:" + hashlib.sha256(token.encode()).hexdigest()


def _new(seed: int | None, variant: str, ranked: bool) -> Game:
    """A new game; a ranked one draws its spawns from a fresh secret key."""
    return Game.new(spawns.random_key() if ranked else seed, variant)


def _assisted(db: Connection, row: GameRow, **counts: int) -> GameRow:
    """Count an assisted action (a hint, an auto-played move, an undo); it unranks the game."""
    db.add_assists(row.id, **counts)
    return row._replace(ranked=False)
