"""``Store``: the one API of the store, composed of its feature parts.

Each operation is one call to the part that holds its rules (``games``, ``players``, ``ranking``,
``archive``, ``transfer``, ``reviews``, ``leaderboards``, ``limits``); the parts share one
``GameRows`` (the backend, the lock, the transactions and the cache of games), so a game is read
and written one way whichever part acts on it. This module documents every operation.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from contextlib import AbstractContextManager
from os import PathLike
from pathlib import Path
from typing import Any, Self

import platformdirs

from twenty48.game import Game
from twenty48.rules import DEFAULT_SIZE, Direction, SizeLike
from twenty48.store.archive.operations import Archive
from twenty48.store.backends import sqlite_durability
from twenty48.store.database import Backend, Guess
from twenty48.store.games.operations import Games
from twenty48.store.games.rows import GameRows
from twenty48.store.leaderboards.operations import Leaderboards
from twenty48.store.limits.operations import Limits
from twenty48.store.opening import open_database, open_default
from twenty48.store.players.operations import TERMINAL_PLAYER, Players
from twenty48.store.ranking.operations import Ranking
from twenty48.store.records import (
    Daily,
    DamagedGame,
    GameRecord,
    GameSummary,
    ImportResult,
    Leaderboard,
    MoveOutcome,
    Player,
    PlayerOverview,
    Positions,
    Profile,
    Replay,
    Stats,
    TransferCode,
)
from twenty48.store.reviews.operations import ReviewRecord, ReviewRequest, Reviews
from twenty48.store.transfer import Imported
from twenty48.store.transfer.exports import Exports
from twenty48.store.transfer.imports import ImportBudget, ImportJob, Imports
from twenty48.variants import CLASSIC


class Store:
    """A twenty48 database. Thread-safe: calls are serialised on the backend's one connection."""

    def __init__(self, backend: Backend) -> None:
        self._rows = GameRows(backend)
        self._games = Games(self._rows)
        self._players = Players(self._rows)
        self._ranking = Ranking(self._rows, self._games)
        self._archive = Archive(self._rows)
        self._exports = Exports(self._rows)
        self._imports = Imports(self._rows)
        self._reviews = Reviews(self._rows)
        self._leaderboards = Leaderboards(self._rows, self._games)
        self._limits = Limits(self._rows)

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
        there. With ``group_commit`` the caller must ``flush()`` before acknowledging what it
        wrote: SQLite's commits then share one fsync, and PostgreSQL's confirmations are read in one
        round trip for all of them. Raises ``StoreError`` (one line) when it cannot be opened."""
        if location is None:
            return cls(open_default(cls.default_path(), group_commit=group_commit))
        return cls(open_database(location, group_commit=group_commit))

    @staticmethod
    def set_aside(path: str | PathLike[str]) -> Path:
        """Rename an unreadable database file (and its companions) out of the way; see
        ``twenty48.store.backends.sqlite_durability.set_aside``."""
        return sqlite_durability.set_aside(path)

    @property
    def path(self) -> str:
        """Where the data lives (the database file, or the URL without its password)."""
        return self._rows.backend.location

    @property
    def clock(self) -> Callable[[], float]:
        """The clock of the pace check (Unix seconds; ``time.time`` unless a test sets another)."""
        return self._rows.clock

    @clock.setter
    def clock(self, clock: Callable[[], float]) -> None:
        self._rows.clock = clock

    def close(self) -> None:
        self._rows.close()

    def ping(self) -> None:
        """Raise ``StoreError`` unless the database answers now (``GET /healthz``)."""
        self._rows.ping()

    def flush(self) -> None:
        """Make every commit so far durable and confirmed (group commit): on SQLite one fsync of
        the write-ahead log, on PostgreSQL one round trip that reads every commit's answer. Raises
        ``StoreError`` if one may not have happened: nothing written since the last flush may be
        acknowledged then. Returns at once when nothing was committed since the last flush, or
        without group commit."""
        self._rows.flush()

    def guessing(self) -> AbstractContextManager[Guess]:
        """Let the call made in the block save its wait for the database where it can: a move on a
        game this process wrote last is sent on the guess that the game's row is still as it left
        it, which the database checks (PostgreSQL; SQLite never waits). If ``failed`` says, after
        the next ``flush``, that the guess was wrong, nothing of the call's write happened and the
        caller must make the call again, outside this block, before acknowledging it."""
        return self._rows.guessing()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ---- players (``players.operations``) -------------------------------------------------------

    def web_player(self, token: str) -> Player:
        """The browser player whose cookie holds ``token``; created on first use."""
        return self._players.web_player(token)

    def find_web_player(self, token: str) -> Player | None:
        """The browser player whose cookie holds ``token``, if one was created; writes nothing."""
        return self._players.find_web_player(token)

    def local_player(self, name: str = TERMINAL_PLAYER) -> Player:
        """A player known by name on this machine; ``"terminal"`` is the terminal game's player."""
        return self._players.local_player(name)

    def profile(self, player_id: int) -> Profile:
        return self._players.profile(player_id)

    def set_name(self, player_id: int, name: str | None) -> Profile:
        """Give the player a display name (checked by ``twenty48.names.check``), or take it away
        (None: anonymous again, off the leaderboards). Raises ``NameTakenError`` for another
        player's."""
        return self._players.set_name(player_id, name)

    def name_taken(self, name: str, player_id: int | None = None) -> bool:
        """Whether another player than ``player_id`` has this name (or its case-twin)."""
        return self._players.name_taken(name, player_id)

    def set_hidden(self, player_id: int, hidden: bool, *, by_host: bool = False) -> Profile:
        """Keep the player's entries off the leaderboards (or bring them back); the host's choice
        (``by_host``) is kept apart from the player's own, which cannot undo it."""
        return self._players.set_hidden(player_id, hidden, by_host=by_host)

    def new_transfer(self, player_id: int, now: float | None = None) -> TransferCode:
        """A code that makes another device this player, for ``TRANSFER_SECONDS``, once."""
        return self._players.new_transfer(player_id, now)

    def claim_transfer(self, code: str, token: str, now: float | None = None) -> Player:
        """Make the browser cookie ``token`` the player of ``code``; raises ``TransferCodeError``
        (``reason`` unknown, expired or used) and changes nothing for a code that does not work."""
        return self._players.claim_transfer(code, token, now)

    def find_player(self, ref: str) -> Profile:
        """The player ``ref`` names: an id (digits), else a display name (any case). Raises
        ``PlayerNotFoundError``."""
        return self._players.find_player(ref)

    def players_overview(self, *, named_only: bool = True) -> list[PlayerOverview]:
        """Every player (only the named ones with ``named_only``), by id."""
        return self._players.players_overview(named_only=named_only)

    # ---- games (``games.operations``) -----------------------------------------------------------

    def best_score(self, player_id: int, variant: str = CLASSIC.name, size: SizeLike = DEFAULT_SIZE) -> int:
        """The best score the player reached in ``variant`` on boards of ``size`` (0 before any).
        Raises ValueError for an unknown variant or a size out of range and ``PlayerNotFoundError``
        for an unknown player."""
        return self._games.best_score(player_id, variant, size)

    def damaged_games(self, player_id: int) -> list[DamagedGame]:
        """The player's games that the store found damaged, and what it did with each (oldest first)."""
        return self._games.damaged_games(player_id)

    def current_game(self, player_id: int, *, ranked: bool = False) -> GameRecord:
        """The player's current game; a new one (4x4 classic) is started if the player has none
        (``ranked``: a ranked one, see ``new_game``)."""
        return self._games.current_game(player_id, ranked=ranked)

    def new_game(
        self,
        player_id: int,
        seed: int | None = None,
        variant: str = CLASSIC.name,
        *,
        size: SizeLike = DEFAULT_SIZE,
        ranked: bool = False,
    ) -> GameRecord:
        """Start a game of ``variant`` on a board of ``size`` (a ``BoardSize``, ``"3x4"`` or
        ``(3, 4)``: 2x2 to 6x6, ranked or not; 4x4 unless told) from ``seed`` (random if None); it
        becomes the player's
        current game. A current game with no move yet is replaced where it stands (same id, next
        revision) instead of kept: only played games take room. ``ranked``: the game counts for the
        leaderboards until its first assisted action; its spawns come from a fresh secret key
        (``twenty48.spawns``), which it does not reveal until it is finished. A game from a chosen
        seed is practice, never ranked. Raises ValueError for an unknown variant, a size out of
        range, or a ranked game with a seed."""
        return self._games.new_game(player_id, seed, variant, size, ranked=ranked)

    def add_game(self, player_id: int, game: Game) -> GameRecord:
        """Store a game set up elsewhere (``Game.from_board``, an imported save, a game already
        played) as the player's current game, moves and start included. The store keeps its own copy."""
        return self._games.add_game(player_id, game)

    def get_game(self, player_id: int, game_id: int) -> GameRecord:
        return self._games.get_game(player_id, game_id)

    def load_game(self, player_id: int, game_id: int) -> Game:
        """An exact copy of the stored game (its undo stack included) that the caller may change freely."""
        return self._games.load_game(player_id, game_id)

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
        game_copy: bool = False,
    ) -> MoveOutcome:
        """Play ``direction``, or with ``cell`` (Merge 2048 only) move just the tile on that cell;
        a legal move is committed before this returns, an illegal one writes nothing. Raises
        ValueError for an unknown direction or a cell outside the board (0-15 on the 4x4), and
        ``ActionRejectedError`` for a single-tile move on a game whose variant has none. ``auto``:
        the move was auto-played (counted in the game's assisted counts, unless
        ``note_hint(..., auto=True)`` counted it already at this position). ``today``: the UTC
        date, which the server passes (the terminal plays no daily game): a daily game of an
        earlier day is played on unranked, its day's leaderboard keeping it as the day left it
        (``twenty48.store.ranking``); the same for every action below. ``game_copy``: the outcome
        also carries the game after the move as the caller's own copy (``MoveOutcome.game_copy``),
        taken from the game the store played, so that a caller showing the game plays nothing again."""
        return self._games.move(
            player_id,
            game_id,
            direction,
            cell=cell,
            revision=revision,
            auto=auto,
            today=today,
            game_copy=game_copy,
        )

    def undo(
        self, player_id: int, game_id: int, *, revision: int | None = None, today: str | None = None
    ) -> GameRecord:
        """Take back the last move, committed before this returns."""
        return self._games.undo(player_id, game_id, revision=revision, today=today)

    def keep_going(
        self, player_id: int, game_id: int, *, revision: int | None = None, today: str | None = None
    ) -> GameRecord:
        """Dismiss the win banner and play on. Asking again once keeping going changes nothing."""
        return self._games.keep_going(player_id, game_id, revision=revision, today=today)

    def note_hint(
        self,
        player_id: int,
        game_id: int,
        revision: int | None = None,
        *,
        auto: bool = False,
        today: str | None = None,
    ) -> GameRecord:
        """Count a hint asked on the game at ``revision`` (None: as it stands) and return the game
        as the hint sees it; asking again at that revision counts nothing. ``auto``: the hint is
        auto-play's, asked for the move it then plays: it counts as that auto-played move (not as
        a hint), which ``move(..., auto=True)`` then does not count again. The game's revision does
        not change (a hint is not an action), but a hint is refused as an action is, counting
        nothing: on a game that is over or replaced (``GameFinishedError``) or at a revision that
        is not the current one (``StaleRevisionError``). The check and the count are one
        transaction, so a hint and the move that ends a ranked game come in one order: a hint
        first unranks the game before it can reach a leaderboard; a hint after it is refused, and
        the game stays on the leaderboard as it ended, unassisted. ``today``: as for ``move``."""
        return self._games.note_hint(player_id, game_id, revision, auto=auto, today=today)

    def replay(self, player_id: int, game_id: int) -> Replay:
        """The seed, variant, start, size and moves of a finished game:
        ``Game.replay(seed, actions, variant, start, size)`` rebuilds it."""
        return self._games.replay(player_id, game_id)

    def positions(self, player_id: int, game_id: int, first: int = 0, count: int = 100) -> Positions:
        """The positions after moves ``first`` .. ``first + count - 1`` (move 0 is the start);
        fewer at the end of the game, none from past it. Costs at most ``CHECKPOINT_EVERY - 1``
        moves of replay beyond the ones returned, however long the game."""
        return self._games.positions(player_id, game_id, first, count)

    # ---- the archive: the list of games, statistics, deletion (``archive.operations``) ---------

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
        return self._archive.games(
            player_id, limit=limit, before=before, sort=sort, variant=variant, finished=finished
        )

    def stats(
        self,
        player_id: int,
        variant: str,
        *,
        size: SizeLike = DEFAULT_SIZE,
        assisted: bool = True,
        abandoned: bool = False,
    ) -> Stats:
        """The player's figures in ``variant`` on boards of ``size``, over the games that ended
        (``abandoned=True``: and those abandoned); ``assisted=False`` counts only games known to
        have had no hint, auto-played move or undo."""
        return self._archive.stats(player_id, variant, size, assisted=assisted, abandoned=abandoned)

    def delete_game(self, player_id: int, game_id: int) -> None:
        """Remove one of the player's games (its moves and state); if it was the current game the
        player gets a new one on the next ``current_game``. Its id is never given to another game."""
        self._archive.delete_game(player_id, game_id)

    # ---- exports and imports (``transfer``) -----------------------------------------------------

    def export_game(self, player_id: int, game_id: int) -> dict[str, Any]:
        """The game as a ``twenty48-game/2`` file."""
        return self._exports.export_game(player_id, game_id)

    def export_history(self, player_id: int) -> dict[str, Any]:
        """Every game of the player, oldest first, as a ``twenty48-history/2`` file."""
        return self._exports.export_history(player_id)

    def import_games(
        self,
        player_id: int,
        games: Sequence[Imported],
        budget: ImportBudget | None = None,
        progress: Callable[[int, int], None] | None = None,
    ) -> ImportResult:
        """Store the checked games of a file (``transfer.read_file``) as the player's, never ranked,
        all or nothing (games already present are skipped), running every step here; ``budget``
        is checked before each, ``progress(stored, new)`` called after each."""
        return self._imports.import_games(player_id, games, budget, progress)

    def import_job(self, player_id: int, games: Sequence[Imported]) -> ImportJob:
        """The same import as steps that the caller runs one at a time (``transfer.imports``)."""
        return self._imports.job(player_id, games)

    # ---- per-player limits (``limits.operations``) ----------------------------------------------

    def take_new_game(self, player_id: int, per_minute: int, now: float | None = None) -> float:
        """Take one from the player's new-game bucket (``per_minute`` at once, refilled at
        ``per_minute`` a minute): 0.0 if allowed, else the seconds until one is available."""
        return self._limits.take_new_game(player_id, per_minute, now)

    def claim_hint(self, player_id: int, seconds: float, now: float | None = None) -> str | None:
        """A lease on the player's one hint in flight, valid for ``seconds``; None while another
        lease of the player is still valid."""
        return self._limits.claim(player_id, "hint", seconds, now)

    def release_hint(self, player_id: int, lease: str) -> None:
        """End ``lease``: the player may ask again. A lease that expired and was claimed anew
        meanwhile is not this one, and stays."""
        self._limits.release(player_id, "hint", lease)

    def claim_import(self, player_id: int, seconds: float, now: float | None = None) -> str | None:
        """A lease on the player's one import in flight, as ``claim_hint``."""
        return self._limits.claim(player_id, "import", seconds, now)

    def release_import(self, player_id: int, lease: str) -> None:
        self._limits.release(player_id, "import", lease)

    # ---- ranked games and daily challenges (``ranking.operations``) ----------------------------

    def server_secret(self, name: str) -> bytes:
        """The server's secret ``name``: 32 random bytes, made the first time it is asked for and
        kept in the database (every server process on it gets the same)."""
        return self._ranking.server_secret(name)

    def daily_game(self, player_id: int, date: str) -> GameRecord:
        """Start the player's daily challenge of ``date`` (UTC, YYYY-MM-DD), or resume it: it becomes
        the current game. Once over it is answered as it ended; a date is played once. A current
        game with no move yet gives the daily game its row, as in ``new_game``."""
        return self._ranking.daily_game(player_id, date)

    def daily(self, player_id: int, date: str) -> Daily:
        """The player's daily challenge of ``date``: its game (None before it is started) and its
        place on the day's leaderboard (None unless it is there: ranked, the player named and
        shown), so that the page's "#2 today" and the leaderboard never disagree."""
        return self._ranking.daily(player_id, date)

    def adopt_pending(self, player_id: int, game: Game) -> GameRecord:
        """The stored copy of a visitor's first game, held by the server unsaved until its first
        move: the player's current game if it is this one (two tabs made the first move at once),
        else ``GameNotFoundError``. A player who never had a game (made for this very move, or by
        choosing a name first) gets it stored now as their current, ranked game. Never later: the
        key of a first game that was played and shown must not start a second one."""
        return self._ranking.adopt_pending(player_id, game)

    def move_pending(
        self,
        player_id: int,
        game: Game,
        direction: Direction | str,
        *,
        cell: int | None = None,
        revision: int | None = None,
        auto: bool = False,
        today: str | None = None,
    ) -> MoveOutcome:
        """A move on the visitor's first game ``game`` (as ``adopt_pending``), in one transaction:
        the game is found or stored as ``adopt_pending`` does, then the move is played on the
        stored copy as ``move`` plays it (``game`` itself is not changed), and answered as ``move``
        answers, an illegal move included. A move refused (``GameConflictError``: a stale revision,
        a single-tile move on a classic game) leaves the game stored, as ``adopt_pending`` would,
        and the error carries it; any other error stores nothing. The caller decides beforehand
        whether an illegal first move should store the game at all (the server's pending game: it
        should not, see ``twenty48.play_service``)."""
        return self._ranking.move_pending(
            player_id, game, direction, cell=cell, revision=revision, auto=auto, today=today
        )

    def find_pending(self, player_id: int, game: Game) -> int | None:
        """The id of the stored game that the pending ``game`` became (as ``adopt_pending``), or
        None while it is not stored: the player never had a game. Writes nothing."""
        return self._ranking.find_pending(player_id, game)

    def current_web_game(self, player_id: int) -> GameRecord | None:
        """The browser player's current game; None for a player who never had one (named before
        playing, say): they are shown their pending game, stored by its first move, so reading
        stores nothing. (Deleting the current game starts the next one; a player whose current
        game a repair set aside gets a new ranked one here.)"""
        return self._ranking.current_web_game(player_id)

    # ---- leaderboards (``leaderboards.operations``) ---------------------------------------------

    def leaderboard(
        self,
        board: str,
        variant: str = CLASSIC.name,
        *,
        size: SizeLike = DEFAULT_SIZE,
        date: str | None = None,
        limit: int = 20,
        offset: int = 0,
        player_id: int | None = None,
    ) -> Leaderboard:
        """One page of the leaderboard ``board`` of ``variant`` and ``size`` ("daily": the one of
        ``date``, a UTC date YYYY-MM-DD, required, 4x4 classic only; "all-time": ``date`` must be
        None), and ``player_id``'s own entry wherever it stands (None when that player is not on
        it). Raises ValueError for what cannot be asked."""
        return self._leaderboards.leaderboard(
            board, variant, size=size, date=date, limit=limit, offset=offset, player_id=player_id
        )

    def public_owner(self, game_id: int, today: str) -> int:
        """The player of ``game_id`` if its replay is public on the UTC date ``today``; else
        ``GameNotFoundError``, as for a game that does not exist."""
        return self._leaderboards.public_owner(game_id, today)

    def public_replay(self, game_id: int, today: str) -> Replay:
        return self._leaderboards.public_replay(game_id, today)

    def public_positions(self, game_id: int, today: str, first: int = 0, count: int = 100) -> Positions:
        return self._leaderboards.public_positions(game_id, today, first, count)

    def public_game(self, game_id: int, today: str) -> tuple[str, GameRecord]:
        """Who played a public game (their display name) and the game, for its replay's title."""
        owner = self.public_owner(game_id, today)
        return self.profile(owner).name or "", self.get_game(owner, game_id)

    # ---- reviews (``reviews.operations``) -------------------------------------------------------

    def request_review(
        self,
        player_id: int,
        game_id: int,
        setting: Mapping[str, Any],
        now: float | None = None,
        today: str | None = None,
    ) -> ReviewRequest:
        """Ask for the review of the player's game at ``setting``; one job at a time per player.
        Raises ``GameNotFoundError`` for a game that is not the player's. A ranked game that may
        still be played is unranked for good, as a hint would: the solver's view of its moves so far
        is help for the moves to come (the page asks first); ``today`` as for ``move``."""
        return self._reviews.request_review(player_id, game_id, setting, now, today)

    def review_status(
        self, player_id: int, game_id: int, setting: Mapping[str, Any], now: float | None = None
    ) -> ReviewRecord | None:
        """The game's review row; None when no review was ever asked for."""
        return self._reviews.review_status(player_id, game_id, setting, now)

    def cancel_review(
        self, player_id: int, game_id: int, setting: Mapping[str, Any], now: float | None = None
    ) -> ReviewRecord | None:
        """Cancel the game's job if one is under way; the row as it then stands (None: never asked)."""
        return self._reviews.cancel_review(player_id, game_id, setting, now)

    def start_review(self, game_id: int, job: str, now: float | None = None) -> bool:
        """The job's worker begins it; False when it is no longer wanted (cancelled, replaced)."""
        return self._reviews.start_review(game_id, job, now)

    def review_progress(
        self, game_id: int, job: str, done: int | None = None, now: float | None = None
    ) -> bool:
        """The worker's word on its job: progress (``done`` moves graded) and heartbeat. False when
        the job is no longer wanted: the worker should stop."""
        return self._reviews.review_progress(game_id, job, done, now)

    def finish_review(
        self, game_id: int, job: str, review: Mapping[str, Any], now: float | None = None
    ) -> bool:
        """Store the finished review; False if the job was cancelled or replaced meanwhile."""
        return self._reviews.finish_review(game_id, job, review, now)

    def fail_review(self, game_id: int, job: str, now: float | None = None) -> None:
        """The job could not be done (its worker failed, or the server is shutting down)."""
        self._reviews.fail_review(game_id, job, now)


def open_store(location: str | PathLike[str] | None = None, *, group_commit: bool = False) -> Store:
    """``Store.open(location)``: the PostgreSQL database a URL names or the SQLite file a path does."""
    return Store.open(location, group_commit=group_commit)
