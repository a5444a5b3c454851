"""``Ranking``: ranked games, daily challenges, the first games of new visitors, the server's secrets::

    store.new_game(player_id, ranked=True)          # a ranked game: keyed spawns, seed withheld
    store.daily_game(player_id, "2026-12-01")       # start, or resume, that day's daily challenge
    store.daily(player_id, "2026-12-01")            # Daily(date, game_id, rank, score)
    store.adopt_pending(player_id, game)            # a new visitor's first game, stored as it is
    store.move_pending(player_id, game, "left")     # ... or stored by its first move, played once
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

**Daily challenge**: one classic 4x4 game per player and UTC date, ranked. Its key is keyed BLAKE2b of
the date and the player under the server's ``daily`` secret: nobody without the database can
compute any day's tiles, and each player's differ, so scouting the day with throwaway players shows
nothing of another's game. A date is played once: asking again resumes it, or shows it once over.
It counts on its day's leaderboard under the name the player had when it was started
(``ranking.sql.claim_daily_name``: none if the player had none, or that name had its game of the
day already). An action on it after its day (the server passes ``today`` to every action) first
keeps its entry as the day left it and unranks it (``GameRows.close_day``): it may be finished,
but it moves no leaderboard any more.
"""

from __future__ import annotations

import hashlib
import secrets

from twenty48.game import Game, make_action
from twenty48.rules import DEFAULT_SIZE, Direction
from twenty48.store.archive import sql as archive_sql
from twenty48.store.database import Connection
from twenty48.store.errors import GameConflictError, GameNotFoundError, StoreUnreadableError
from twenty48.store.games import sql as games_sql
from twenty48.store.games.codec import unplayed
from twenty48.store.games.operations import Games
from twenty48.store.games.rows import GameRows, now_text
from twenty48.store.games.sql import GameRow
from twenty48.store.leaderboards import sql as leaderboards_sql
from twenty48.store.leaderboards.sql import LeaderboardQuery
from twenty48.store.ranking import sql as ranking_sql
from twenty48.store.records import Daily, GameRecord, MoveOutcome
from twenty48.variants import CLASSIC

#: The secret the daily challenges' keys are derived from.
DAILY_SECRET = "daily"
#: The bytes of a server secret.
SECRET_BYTES = 32


def daily_key(secret: bytes, date: str, player_id: int) -> bytes:
    """The key of the player's daily challenge of ``date``."""
    return hashlib.blake2b(f"daily:{date}:{player_id}".encode(), key=secret, digest_size=32).digest()


class Ranking:
    """The store's part for ranked games; ``Store`` documents each operation."""

    def __init__(self, rows: GameRows, games: Games) -> None:
        self._rows = rows
        self._games = games

    def server_secret(self, name: str) -> bytes:
        with self._rows.read() as db:
            found = ranking_sql.server_secret(db, name)
        if found is None:
            with self._rows.write() as db:
                ranking_sql.add_server_secret(db, name, secrets.token_hex(SECRET_BYTES))
                found = ranking_sql.server_secret(db, name)
            assert found is not None
        return bytes.fromhex(found)

    def daily_game(self, player_id: int, date: str) -> GameRecord:
        key = daily_key(self.server_secret(DAILY_SECRET), date, player_id)
        rows = self._rows
        with rows.write() as db:
            current = games_sql.current_game_of(db, player_id)
            found = ranking_sql.daily_game_id(db, player_id, date)
            if found is not None:
                try:
                    row, game = rows.load(db, player_id, found)
                except GameNotFoundError:
                    raise GameNotFoundError(
                        f"the daily game of {date} was deleted: a day's challenge is played once"
                    ) from None
                if not game.over and current != found:
                    if current is not None:
                        self._set_aside_unplayed(db, player_id, current)
                    games_sql.set_current_game(db, player_id, found)
                    row = row._replace(current_game_id=found)
                return rows.as_record(db, row, game)
            game = Game.new(key, CLASSIC)
            game_id = None
            if current is not None:
                old_row, _ = self._unplayed(db, player_id, current)
                if old_row is not None and old_row.daily is None:
                    game_id = rows.restart(db, old_row, game, True, date).id
            if game_id is None:
                game_id = rows.insert(db, player_id, game, ranked=True, daily=date)
            ranking_sql.claim_daily_name(db, game_id, player_id, date)
            return rows.record(db, player_id, game_id)

    def _unplayed(self, db: Connection, player_id: int, game_id: int) -> tuple[GameRow | None, Game | None]:
        """The game and its row if it has no move yet (``codec.unplayed``); (None, None) if it has,
        or is damaged (then it is left as it is)."""
        try:
            row, game = self._rows.load(db, player_id, game_id)
        except StoreUnreadableError:
            return None, None
        return (row, game) if unplayed(game) else (None, None)

    def _set_aside_unplayed(self, db: Connection, player_id: int, game_id: int) -> None:
        """Resuming a daily game replaces the current one: one with no move yet leaves no trace."""
        row, _ = self._unplayed(db, player_id, game_id)
        if row is not None and row.daily is None:
            archive_sql.delete_game(db, player_id, game_id, now_text())

    def daily(self, player_id: int, date: str) -> Daily:
        with self._rows.read() as db:
            games_sql.current_game_of(db, player_id)
            found = ranking_sql.daily_game_id(db, player_id, date)
            if found is None or games_sql.game(db, player_id, found) is None:
                return Daily(date, None, None)
            entry = leaderboards_sql.entry(
                db, LeaderboardQuery(CLASSIC.name, str(DEFAULT_SIZE), date, 1, 0), player_id
            )
            if entry is None:
                return Daily(date, found, None)
            return Daily(date, found, entry.rank, entry.score)

    def adopt_pending(self, player_id: int, game: Game) -> GameRecord:
        with self._rows.write() as db:
            found = self._pending_id(db, player_id, game)
            if found is None:
                # The store keeps its own copy: the cached game is never the caller's.
                found = self._rows.insert(db, player_id, game.copy(), ranked=True)
            return self._rows.record(db, player_id, found)

    def move_pending(
        self,
        player_id: int,
        game: Game,
        direction: Direction | str,
        *,
        cell: int | None,
        revision: int | None,
        auto: bool,
        today: str | None,
    ) -> MoveOutcome:
        make_action(direction)  # an unknown direction is refused before anything is read
        rows = self._rows
        with rows.write() as db:
            found = self._pending_id(db, player_id, game)
            inserted = found is None
            if found is None:
                # The store keeps its own copy, and plays the move on it: ``game`` stays as it was.
                found = rows.insert(db, player_id, game.copy(), ranked=True)
            try:
                row, stored = rows.load_for_action(db, player_id, found, revision)
                return self._games.play(
                    db, row, stored, direction, cell, auto=auto, today=today, game_copy=False
                )
            except GameConflictError as exc:
                if not inserted:
                    raise
                # Refused before anything but the game was written: the game stays stored, as
                # adopting it alone leaves it, and the error carries it as stored.
                refused = exc
            except BaseException:
                if inserted:
                    # Rolled back with the game's row, whose id may be given again: not cached.
                    rows.forget(found)
                raise
        raise refused

    def find_pending(self, player_id: int, game: Game) -> int | None:
        with self._rows.read() as db:
            return self._pending_id(db, player_id, game)

    def current_web_game(self, player_id: int) -> GameRecord | None:
        with self._rows.read() as db:
            if games_sql.current_game_of(db, player_id) is None and not games_sql.has_games(db, player_id):
                return None
        return self._games.current_game(player_id, ranked=True)

    def _pending_id(self, db: Connection, player_id: int, game: Game) -> int | None:
        current = games_sql.current_game_of(db, player_id)
        if current is None and not games_sql.has_games(db, player_id):
            return None
        if current is None:
            raise GameNotFoundError("the game shown is no longer the current one")
        _, found = self._rows.load(db, player_id, current)
        if found.seed != game.seed:
            raise GameNotFoundError("the game shown was replaced by another one meanwhile")
        return current
