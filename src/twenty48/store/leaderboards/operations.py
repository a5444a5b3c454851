"""``Leaderboards``: the all-time and daily leaderboards, and the public replays of their games::

    store.leaderboard("all-time", "classic", limit=20, offset=0, player_id=me)  # Leaderboard
    store.leaderboard("all-time", "classic", size="3x3")                  # the 3x3 classic board
    store.leaderboard("daily", "classic", date="2026-12-01", player_id=me)
    store.public_owner(game_id, today="2026-12-01")   # the player, or GameNotFoundError
    store.public_replay(game_id, today=...)           # the owner's Replay; public_positions(...)
    store.public_game(game_id, today=...)             # (the owner's display name, the GameRecord)

What is on a leaderboard: ranked games only (played through the server's own moves, never assisted,
from a seed nobody chose: ``games.ranked``), of players with a display name who did not hide
themselves and whom the host did not hide, one game per player. The **all-time** leaderboard of a
variant and board size holds each player's best game of them that is over. A **daily** leaderboard
(4x4 classic) holds the day's daily games, finished or not, one per name: the game started under the
name that day (``games.daily_name``), shown while its player has that name, so a name has one try a
day however it changes hands. A daily game still being played shows its score so far; the
leaderboard closes at midnight UTC, and a game unfinished then stays on it as it stood, also once it
is played on (unranked: ``closed_dailies``). Order: score, highest first; then who finished first (a
game still being played after every finished one of its score); then game id.

A game's replay is **public** when it is over and would be on a leaderboard: ranked, its player named
and not hidden, and, for a daily game, its day is over (until then its replay would show everyone
else the day's tiles of that player, and the seed). Every other game stays the player's own: the
public routes answer it as unknown.
"""

from __future__ import annotations

from datetime import date as Date

from twenty48.rules import DEFAULT_SIZE, BoardSize, SizeLike
from twenty48.store.errors import GameNotFoundError
from twenty48.store.games.operations import Games
from twenty48.store.games.rows import GameRows
from twenty48.store.leaderboards import sql as leaderboards_sql
from twenty48.store.leaderboards.sql import LeaderboardQuery
from twenty48.store.records import ID_LIMIT, Leaderboard, Positions, Replay
from twenty48.variants import CLASSIC, get_variant

#: The leaderboards there are.
LEADERBOARDS = ("daily", "all-time")
#: The most entries one page holds, and the deepest a page may start.
MAX_LEADERBOARD_PAGE = 100
MAX_LEADERBOARD_OFFSET = 100_000


class Leaderboards:
    """The store's part for the leaderboards; ``Store`` documents each operation."""

    def __init__(self, rows: GameRows, games: Games) -> None:
        self._rows = rows
        self._games = games

    def leaderboard(
        self,
        board: str,
        variant: str,
        *,
        size: SizeLike,
        date: str | None,
        limit: int,
        offset: int,
        player_id: int | None,
    ) -> Leaderboard:
        if board not in LEADERBOARDS:
            raise ValueError(f"board must be one of {', '.join(LEADERBOARDS)}, got {board!r}")
        name, shape = get_variant(variant).name, BoardSize.of(size)
        if board == "daily":
            if date is None:
                raise ValueError("the daily board needs a date")
            if name != CLASSIC.name:
                raise ValueError("the daily challenge is a classic game: its board has no other variant")
            if shape != DEFAULT_SIZE:
                raise ValueError(f"the daily challenge is a {DEFAULT_SIZE} game: its board has no other size")
            Date.fromisoformat(date)  # ValueError for what is not a date
        elif date is not None:
            raise ValueError("only the daily board has a date")
        if not 1 <= limit <= MAX_LEADERBOARD_PAGE:
            raise ValueError(f"limit must be 1-{MAX_LEADERBOARD_PAGE}")
        if not 0 <= offset <= MAX_LEADERBOARD_OFFSET:
            raise ValueError(f"offset must be 0-{MAX_LEADERBOARD_OFFSET}")
        query = LeaderboardQuery(name, str(shape), date, limit, offset)
        with self._rows.read() as db:
            entries = leaderboards_sql.page(db, query)
            me = None
            if player_id is not None and 0 < player_id <= ID_LIMIT:
                me = next((e for e in entries if e.player_id == player_id), None) or leaderboards_sql.entry(
                    db, query, player_id
                )
        return Leaderboard(board, name, date, tuple(entries), me, shape)

    def public_owner(self, game_id: int, today: str) -> int:
        owner = None
        if 0 < game_id <= ID_LIMIT:
            with self._rows.read() as db:
                owner = leaderboards_sql.public_game_owner(db, game_id, today)
        if owner is None:
            raise GameNotFoundError(f"no public game {game_id}")
        return owner

    def public_replay(self, game_id: int, today: str) -> Replay:
        return self._games.replay(self.public_owner(game_id, today), game_id)

    def public_positions(self, game_id: int, today: str, first: int, count: int) -> Positions:
        return self._games.positions(self.public_owner(game_id, today), game_id, first, count)
