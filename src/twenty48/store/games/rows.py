"""What every part of the store shares: its one backend, its lock, its transactions and its cache
of games, and a game's row as it is loaded (through the cache), checked for an action, saved and
answered as a ``GameRecord``.

The parts (``games.operations``, ``archive``, ``ranking``, ``reviews``, ...) each hold this one
``GameRows``, so a game is read and written one way only, whichever part acts on it.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime

from twenty48.game import Game, IllegalActionError
from twenty48.store.database import Backend, Connection, Guess, GuessingBackend
from twenty48.store.errors import (
    GameConflictError,
    GameFinishedError,
    GameNotFoundError,
    PlayerNotFoundError,
    StaleRevisionError,
    StoreError,
    StoreUnreadableError,
    refusal,
)
from twenty48.store.games import checkpoints, codec
from twenty48.store.games import sql as games_sql
from twenty48.store.games.cache import GameCache
from twenty48.store.games.sql import GameRow
from twenty48.store.leaderboards import sql as leaderboards_sql
from twenty48.store.ranking import sql as ranking_sql
from twenty48.store.records import ID_LIMIT, GameRecord

#: The pace check: a game whose last ``PACE_WINDOW`` actions took less than ``PACE_WINDOW /
#: MAX_ACTIONS_PER_S`` seconds (45 in 3 s) is flagged as played faster than a person can, for the
#: host to look at; nothing is hidden by it. A person keeps up 5-8 moves a second for a few moves.
PACE_WINDOW = 45
MAX_ACTIONS_PER_S = 15


class GameRows:
    """A store's backend, lock and cache, and the game-row internals built on them. Thread-safe:
    every transaction holds the lock, so calls are serialised on the backend's one connection."""

    def __init__(self, backend: Backend) -> None:
        self.backend = backend
        self._lock = threading.Lock()
        self._cache = GameCache()
        #: The clock of the pace check (Unix seconds).
        self.clock: Callable[[], float] = time.time
        #: The backend, where it can guess a write (``act``).
        self._guesser = backend if isinstance(backend, GuessingBackend) else None
        #: The guessed transactions sent whose fate was not looked at yet.
        self._sent: list[Guess] = []
        #: Per thread, the leave to guess of the call being made (``guessing``).
        self._calls = threading.local()
        #: A write transaction is open (under the lock).
        self._writing = False

    @contextmanager
    def guessing(self) -> Iterator[Guess]:
        """Let the call made in the block guess its write, if its first transaction is a move on a
        game this process wrote last (``act``): its answers are then not waited for, and it is the
        caller's to make the call again, without this leave, if ``failed`` says it did not commit
        once the next ``flush`` has returned. Only for a caller that can do that (the web's store
        thread, which acknowledges nothing before the flush)."""
        guess = Guess()
        self._calls.guess = guess
        try:
            yield guess
        finally:
            self._calls.guess = None

    @contextmanager
    def read(self) -> Iterator[Connection]:
        with self._lock, self.backend.read() as db:
            self._begun()
            yield db

    @contextmanager
    def write(self) -> Iterator[Connection]:
        """One transaction; whatever it changed is rolled back if it raises."""
        with self._lock:
            try:
                with self.backend.write() as db:
                    self._begun()
                    self._writing = True
                    try:
                        yield db
                    finally:
                        self._writing = False
            except (PlayerNotFoundError, GameNotFoundError, GameConflictError):
                # Refused before anything was changed: the cached games are still right.
                raise
            except BaseException:
                # The cached game may have been changed by the action whose write failed.
                self._cache.clear()
                raise

    def _begun(self) -> None:
        """A transaction that is not guessed has begun: the backend has read every guessed one's
        answers. A call's guess can only be its first transaction."""
        self._looked_at_guesses()
        guess: Guess | None = getattr(self._calls, "guess", None)
        self._calls.guess = None
        if guess is not None and guess.failed:
            # This call's guessed write did not happen, and what it does next may build on it:
            # it stops here, and is made again without guessing.
            raise StoreError("the game changed meanwhile")

    def _looked_at_guesses(self) -> None:
        if any(guess.failed for guess in self._sent):
            # Its game (and any played after it in the batch) is cached as if it had committed.
            self._cache.clear()
        self._sent.clear()

    def ping(self) -> None:
        with self._lock:
            self.backend.ping()

    def flush(self) -> None:
        with self._lock:
            try:
                self.backend.flush()
            except BaseException:
                # A commit since the last flush may not have happened: its game, cached at its
                # new revision, must be read again.
                self._cache.clear()
                self._sent.clear()
                raise
            self._looked_at_guesses()

    def close(self) -> None:
        with self._lock:
            self.backend.close()
            self._cache.clear()

    @contextmanager
    def refusals(self, db: Connection, row: GameRow, game: Game) -> Iterator[None]:
        """Where the Game decides whether an action is possible: its refusal, as the store's error."""
        try:
            yield
        except IllegalActionError as exc:
            raise refusal(exc, self.as_record(db, row, game)) from exc

    def insert(
        self, db: Connection, player_id: int, game: Game, *, ranked: bool = False, daily: str | None = None
    ) -> int:
        """Store ``game`` (state and whole log) as the player's current game; returns its id."""
        game_id = games_sql.insert_game(
            db, player_id, codec.columns(game), codec.encode(game), now_text(), self.clock()
        )
        if ranked:
            ranking_sql.set_ranking(db, game_id, True, daily)
        log_actions(db, game_id, game, 0)
        checkpoints.note_game(db, game_id, game)
        games_sql.set_current_game(db, player_id, game_id)
        self._cache.put(game_id, 0, game)
        return game_id

    def forget(self, game_id: int) -> None:
        """Drop a game inserted by a transaction that is being rolled back: its id may be given
        again, and the cache must not answer for that game with this one. Called inside ``write``."""
        self._cache.forget(game_id)

    def load(self, db: Connection, player_id: int, game_id: int) -> tuple[GameRow, Game]:
        row = owned(db, player_id, game_id)
        cached = self._cache.get(game_id, row.revision)
        if cached is None:
            game = self._decode(db, row)
            self._cache.put(game_id, row.revision, game)
            return row, game
        if cached.row is not None and (self._writing or cached.row != row):
            # A write may change the row without ``save``, which alone keeps it as a guess.
            self._cache.put(game_id, row.revision, cached.game)
        return row, cached.game

    def _decode(self, db: Connection, row: GameRow) -> Game:
        try:
            game = codec.decode(*games_sql.state(db, row.id))
        except ValueError as exc:
            raise StoreUnreadableError(f"{self.backend.location}: game {row.id} is damaged: {exc}") from exc
        for state, column in ((game.variant.name, row.variant), (str(game.size), row.size)):
            if state != column:
                raise StoreUnreadableError(
                    f"{self.backend.location}: game {row.id} is damaged: "
                    f"its state is {state}, its row {column}"
                )
        return game

    @contextmanager
    def act(
        self, player_id: int, game_id: int, revision: int | None, *, guessable: bool
    ) -> Iterator[tuple[Connection, GameRow, Game]]:
        """A write transaction on the game as ``load_for_action`` gives it. Guessed
        (``GuessingBackend.guess``) where the caller may (``guessable``: the action reads nothing
        but the game's row and state) and the call has the leave to (``guessing``), on the row and
        game this process's last write of the game left, which the database then checks."""
        guess: Guess | None = getattr(self._calls, "guess", None) if guessable else None
        written = None
        if guess is not None and not guess.used and self._guesser is not None:
            written = self._cache.written(game_id)
        if written is None or written[0].player_id != player_id:
            with self.write() as db:
                yield (db, *self.load_for_action(db, player_id, game_id, revision))
            return
        assert guess is not None and self._guesser is not None
        row, game = written
        check, parameters = games_sql.unchanged(row)
        with self._lock, self._guesser.guess(guess, player_id, check, parameters) as db:
            self._sent.append(guess)
            try:
                yield db, *self._actionable(db, row, game, revision)
            except BaseException:
                # The action may have played the cached game before it raised.
                self._cache.forget(game_id)
                raise

    def load_for_action(
        self, db: Connection, player_id: int, game_id: int, revision: int | None
    ) -> tuple[GameRow, Game]:
        return self._actionable(db, *self.load(db, player_id, game_id), revision)

    def _actionable(
        self, db: Connection, row: GameRow, game: Game, revision: int | None
    ) -> tuple[GameRow, Game]:
        """The game, unless the caller's revision is not its own or the game takes no action."""
        if revision is not None and revision != row.revision:
            raise StaleRevisionError(
                f"the game is at revision {row.revision}, not {revision}: it changed meanwhile",
                self.as_record(db, row, game),
            )
        # A finished game takes no action at all. That is the store's rule: for the Game, a move
        # on a board that is over is only an illegal move, and only the store knows of newer games.
        if game.over or row.current_game_id != row.id:
            why = "is over" if game.over else "was replaced by a newer game"
            raise GameFinishedError(f"game {row.id} {why}", self.as_record(db, row, game))
        return row, game

    def close_day(self, db: Connection, row: GameRow, today: str | None) -> GameRow:
        """Before a ranked daily game is played on after its day (``today``, the UTC date the
        server passes; None checks nothing): its entry on that day's leaderboard is kept as its
        stored row has it, and the game is unranked from then on (``twenty48.store.ranking``).
        Called once the action is known to write, before the game's new state is: the row still
        holds the day's end."""
        if today is None or not row.ranked or row.daily is None or row.daily >= today:
            return row
        ranking_sql.close_daily(db, row.id)
        ranking_sql.set_ranking(db, row.id, False, row.daily)
        return row._replace(ranked=False)

    def assisted(self, db: Connection, row: GameRow, **counts: int) -> GameRow:
        """Count an assisted action (a hint, an auto-played move, an undo); it unranks the game."""
        games_sql.add_assists(db, row.id, **counts)
        return row._replace(ranked=False)

    def restart(self, db: Connection, row: GameRow, game: Game, ranked: bool, daily: str | None) -> GameRow:
        """Put the new ``game`` in the row of an unplayed game; returns the row as it now stands."""
        # The old game's checkpoints, review and counts go in the same transaction as its state.
        games_sql.restart(db, row.id)
        ranking_sql.set_ranking(db, row.id, ranked, daily)
        checkpoints.note_game(db, row.id, game)
        # The row's best score was the old game's variant's and size's; the new game may be of others.
        variant, size = game.variant.name, str(game.size)
        best = games_sql.best_score(db, row.player_id, variant, size)
        row = row._replace(
            variant=variant,
            size=size,
            ranked=ranked,
            daily=daily,
            finished_at=None,
            flagged=None,
            best_score=best,
        )
        return self.save(db, row, game)

    def save(self, db: Connection, row: GameRow, game: Game) -> GameRow:
        """Write the changed game; returns its row as it now stands."""
        revision, now = row.revision + 1, now_text()
        games_sql.update_game(db, row.id, revision, codec.columns(game), codec.encode(game), now)
        if game.score > row.best_score:
            # The row's best was read under the player's write lock: no other writer raised it since.
            games_sql.raise_best_score(db, row.player_id, game.variant.name, str(game.size), game.score)
            row = row._replace(best_score=game.score)
        finished_at = (row.finished_at or now) if game.over else None
        if game.over and row.ranked:
            # The move that ended a ranked game: it may be the player's best on the all-time board.
            leaderboards_sql.refresh_best(db, row.player_id, game.variant.name, str(game.size))
        row = self._paced(db, row._replace(revision=revision, updated_at=now, finished_at=finished_at))
        # As the database will hold it once this commits: the next action's guess.
        self._cache.put(row.id, revision, game, row)
        return row

    def _paced(self, db: Connection, row: GameRow) -> GameRow:
        """The pace check, once every ``PACE_WINDOW`` actions: flag the game if they came faster
        than a person plays."""
        if row.revision % PACE_WINDOW:
            return row
        now = self.clock()
        flagged = None
        if row.pace_at is not None and now - row.pace_at < PACE_WINDOW / MAX_ACTIONS_PER_S:
            flagged = f"{PACE_WINDOW} actions in {now - row.pace_at:.2f} s"
        ranking_sql.set_pace(db, row.id, now, flagged)
        return row._replace(pace_at=now, flagged=row.flagged or flagged)

    def record(self, db: Connection, player_id: int, game_id: int) -> GameRecord:
        return self.as_record(db, *self.load(db, player_id, game_id))

    def as_record(self, db: Connection, row: GameRow, game: Game) -> GameRecord:
        return GameRecord(
            id=row.id,
            player_id=row.player_id,
            revision=row.revision,
            current=row.current_game_id == row.id,
            seed=None if codec.withheld(row, game) else game.seed,
            variant=game.variant.name,
            board=game.board,
            score=game.score,
            moves=game.moves,
            won=game.won,
            keep_playing=game.keep_playing,
            over=game.over,
            can_undo=game.can_undo,
            best_score=row.best_score,
            created_at=row.created_at,
            updated_at=row.updated_at,
            spawns=game.spawns,
            ranked=row.ranked,
            daily=row.daily,
            finished_at=row.finished_at,
            flagged=row.flagged,
        )


def owned(db: Connection, player_id: int, game_id: int) -> GameRow:
    """The player's game's row; ``GameNotFoundError`` when the player has no such game."""
    # Beyond the database's integers no such row can exist.
    found = (
        games_sql.game(db, player_id, game_id)
        if 0 < game_id <= ID_LIMIT and 0 < player_id <= ID_LIMIT
        else None
    )
    if found is None:
        raise GameNotFoundError(f"no game {game_id} for this player")
    return found


def log_actions(db: Connection, game_id: int, game: Game, first_ply: int) -> None:
    """Write the game's actions from ``first_ply`` on: the one way actions reach the database, for
    a game being stored (all of them) as for a move (the last one)."""
    games_sql.append_actions(db, game_id, first_ply, game.actions[first_ply:])


def now_text() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")
