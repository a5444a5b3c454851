"""The store's ranked games: daily challenges, pending games of new visitors, the server's secrets.

A part of ``Store`` (``twenty48.store.games``)::

    store.new_game(player_id, ranked=True)          # a ranked game: keyed spawns, seed withheld
    store.daily_game(player_id, "2026-12-01")       # start, or resume, that day's daily challenge
    store.daily(player_id, "2026-12-01")            # Daily(date, game_id, rank)
    store.adopt_pending(player_id, game)            # a new visitor's first game, at its first move
    store.find_pending(player_id, game)             # the id it was stored under; writes nothing
    store.current_web_game(player_id)               # the current game; None: show the pending one
    store.server_secret("daily")                    # 32 random bytes, made once and kept

**Ranked** (the ``ranked`` column): a browser game the server started without a chosen seed counts
for the leaderboards until its first assisted action (a hint, an auto-played move, an undo, or a
review asked while it is played), which unranks it for good. Its spawns come from a fresh 256-bit
key (``twenty48.spawns``' keyed scheme), kept in its state and withheld from every answer
(``GameRecord.seed`` is None) until it is over, or replaced by a newer game (a daily game only when
it is over: it can be resumed). Terminal games, games from a chosen seed, prepared and imported games
are never ranked.

**Daily challenge**: one classic game per player and UTC date, ranked. Its key is keyed BLAKE2b of
the date and the player under the server's ``daily`` secret: nobody without the database can
compute any day's tiles, and each player's differ, so scouting the day with throwaway players shows
nothing of another's game. A date is played once: asking again resumes it, or shows it once over.
It counts on its day's board under the name the player had when it was started
(``Connection.claim_daily_name``: none if the player had none, or that name had its game of the
day already). An action on it after its day (the server passes ``today`` to every action) first
keeps its entry as the day left it and unranks it (``GameRows._close_day``): it may be finished,
but it moves no board any more.
"""

from __future__ import annotations

import hashlib
import secrets
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING

from twenty48.game import Game
from twenty48.store.backend import BoardQuery, Connection, GameRow, current_game_of
from twenty48.store.codec import unplayed
from twenty48.store.errors import GameNotFoundError, StoreUnreadableError
from twenty48.store.records import Daily, GameRecord
from twenty48.store.rows import now_text
from twenty48.variants import CLASSIC

#: The secret the daily challenges' keys are derived from.
DAILY_SECRET = "daily"
#: The bytes of a server secret.
SECRET_BYTES = 32


def daily_key(secret: bytes, date: str, player_id: int) -> bytes:
    """The key of the player's daily challenge of ``date``."""
    return hashlib.blake2b(f"daily:{date}:{player_id}".encode(), key=secret, digest_size=32).digest()


class RankingStore:
    """Mixed into ``Store``, whose transactions and game loading it uses."""

    if TYPE_CHECKING:

        def _read(self) -> AbstractContextManager[Connection]: ...

        def _write(self) -> AbstractContextManager[Connection]: ...

        def _load(self, db: Connection, player_id: int, game_id: int) -> tuple[GameRow, Game]: ...

        def _as_record(self, db: Connection, row: GameRow, game: Game) -> GameRecord: ...

        def _record(self, db: Connection, player_id: int, game_id: int) -> GameRecord: ...

        def current_game(self, player_id: int, *, ranked: bool = False) -> GameRecord: ...

        def _insert(
            self,
            db: Connection,
            player_id: int,
            game: Game,
            *,
            ranked: bool = False,
            daily: str | None = None,
        ) -> int: ...

        def _restart(
            self, db: Connection, row: GameRow, game: Game, ranked: bool, daily: str | None
        ) -> GameRow: ...

    def server_secret(self, name: str) -> bytes:
        """The server's secret ``name``: 32 random bytes, made the first time it is asked for and
        kept in the database (every server process on it gets the same)."""
        with self._read() as db:
            found = db.server_secret(name)
        if found is None:
            with self._write() as db:
                db.add_server_secret(name, secrets.token_hex(SECRET_BYTES))
                found = db.server_secret(name)
            assert found is not None
        return bytes.fromhex(found)

    def daily_game(self, player_id: int, date: str) -> GameRecord:
        """Start the player's daily challenge of ``date`` (UTC, YYYY-MM-DD), or resume it: it becomes
        the current game. Once over it is answered as it ended; a date is played once. A current
        game with no move yet gives the daily game its row, as in ``new_game``."""
        key = daily_key(self.server_secret(DAILY_SECRET), date, player_id)
        with self._write() as db:
            current = current_game_of(db, player_id)
            found = db.daily_game_id(player_id, date)
            if found is not None:
                try:
                    row, game = self._load(db, player_id, found)
                except GameNotFoundError:
                    raise GameNotFoundError(
                        f"the daily game of {date} was deleted: a day's challenge is played once"
                    ) from None
                if not game.over and current != found:
                    if current is not None:
                        self._set_aside_unplayed(db, player_id, current)
                    db.set_current_game(player_id, found)
                    row = row._replace(current_game_id=found)
                return self._as_record(db, row, game)
            game = Game.new(key, CLASSIC)
            game_id = None
            if current is not None:
                old_row, _ = self._unplayed(db, player_id, current)
                if old_row is not None and old_row.daily is None:
                    game_id = self._restart(db, old_row, game, True, date).id
            if game_id is None:
                game_id = self._insert(db, player_id, game, ranked=True, daily=date)
            db.claim_daily_name(game_id, player_id, date)
            return self._record(db, player_id, game_id)

    def _unplayed(self, db: Connection, player_id: int, game_id: int) -> tuple[GameRow | None, Game | None]:
        """The game and its row if it has no move yet (``codec.unplayed``); (None, None) if it has,
        or is damaged (then it is left as it is)."""
        try:
            row, game = self._load(db, player_id, game_id)
        except StoreUnreadableError:
            return None, None
        return (row, game) if unplayed(game) else (None, None)

    def _set_aside_unplayed(self, db: Connection, player_id: int, game_id: int) -> None:
        """Resuming a daily game replaces the current one: one with no move yet leaves no trace."""
        row, _ = self._unplayed(db, player_id, game_id)
        if row is not None and row.daily is None:
            db.delete_game(player_id, game_id, now_text())

    def daily(self, player_id: int, date: str) -> Daily:
        """The player's daily challenge of ``date``: its game (None before it is started) and its
        place on the day's leaderboard (None unless it is there: ranked, the player named and shown),
        so that the page's "#2 today" and the board never disagree."""
        with self._read() as db:
            current_game_of(db, player_id)
            found = db.daily_game_id(player_id, date)
            if found is None or db.game(player_id, found) is None:
                return Daily(date, None, None)
            entry = db.board_entry(BoardQuery(CLASSIC.name, date, 1, 0), player_id)
            return Daily(date, found, entry.rank if entry is not None else None)

    def adopt_pending(self, player_id: int, game: Game) -> GameRecord:
        """The stored copy of a visitor's first game, held by the server unsaved until its first
        move: the player's current game if it is this one (two tabs made the first move at once),
        else ``GameNotFoundError``. A player who never had a game (made for this very move, or by
        choosing a name first) gets it stored now as their current, ranked game. Never later: the
        key of a first game that was played and shown must not start a second one."""
        with self._write() as db:
            found = self._pending_id(db, player_id, game)
            if found is None:
                found = self._insert(db, player_id, game, ranked=True)
            return self._record(db, player_id, found)

    def find_pending(self, player_id: int, game: Game) -> int | None:
        """The id of the stored game that the pending ``game`` became (as ``adopt_pending``), or
        None while it is not stored: the player never had a game. Writes nothing."""
        with self._read() as db:
            return self._pending_id(db, player_id, game)

    def current_web_game(self, player_id: int) -> GameRecord | None:
        """The browser player's current game; None for a player who never had one (named before
        playing, say): they are shown their pending game, stored by its first move, so reading
        stores nothing. (Deleting the current game starts the next one; a player whose current
        game a repair set aside gets a new ranked one here.)"""
        with self._read() as db:
            if current_game_of(db, player_id) is None and not db.has_games(player_id):
                return None
        return self.current_game(player_id, ranked=True)

    def _pending_id(self, db: Connection, player_id: int, game: Game) -> int | None:
        current = current_game_of(db, player_id)
        if current is None and not db.has_games(player_id):
            return None
        if current is None:
            raise GameNotFoundError("the game shown is no longer the current one")
        _, found = self._load(db, player_id, current)
        if found.seed != game.seed:
            raise GameNotFoundError("the game shown was replaced by another one meanwhile")
        return current
