"""The leaderboards and the public replays of the games on them.

A part of ``Store`` (``twenty48.store.games``)::

    store.leaderboard("all-time", "classic", limit=20, offset=0, player_id=me)  # Leaderboard
    store.leaderboard("daily", "classic", date="2026-12-01", player_id=me)
    store.public_owner(game_id, today="2026-12-01")   # the player, or GameNotFoundError
    store.public_replay(game_id, today=...)           # the owner's Replay; public_positions(...)

What is on a board: ranked games only (played through the server's own moves, never assisted,
from a seed nobody chose: ``games.ranked``), of players with a display name who did not hide
themselves and whom the host did not hide, one game per player. The **all-time** board of a
variant holds each player's best game that is over. A **daily** board holds the day's daily games,
finished or not, one per name: the game started under the name that day (``games.daily_name``),
shown while its player has that name, so a name has one try a day however it changes hands. A
daily game still being played shows its score so far; the board closes at midnight UTC, and a game
unfinished then stays on it as it stood, also once it is played on (unranked: ``closed_dailies``).
Order: score, highest first; then who finished first (a game still being played after every
finished one of its score); then game id.

A game's replay is **public** when it is over and would be on a board: ranked, its player named
and not hidden, and, for a daily game, its day is over (until then its replay would show everyone
else the day's tiles of that player, and the seed). Every other game stays the player's own: the
public routes answer it as unknown.
"""

from __future__ import annotations

from contextlib import AbstractContextManager
from datetime import date as Date
from typing import TYPE_CHECKING

from twenty48.store.backend import BoardQuery, Connection
from twenty48.store.errors import GameNotFoundError
from twenty48.store.records import ID_LIMIT, Leaderboard, Positions, Replay
from twenty48.variants import CLASSIC, get_variant

#: The boards there are.
BOARDS = ("daily", "all-time")
#: The most entries one page holds, and the deepest a page may start.
MAX_LIMIT = 100
MAX_OFFSET = 100_000


class BoardsStore:
    """Mixed into ``Store``, whose transactions and replays it uses."""

    if TYPE_CHECKING:

        def _read(self) -> AbstractContextManager[Connection]: ...

        def replay(self, player_id: int, game_id: int) -> Replay: ...

        def positions(self, player_id: int, game_id: int, first: int = 0, count: int = 100) -> Positions: ...

    def leaderboard(
        self,
        board: str,
        variant: str = CLASSIC.name,
        *,
        date: str | None = None,
        limit: int = 20,
        offset: int = 0,
        player_id: int | None = None,
    ) -> Leaderboard:
        """One page of ``board`` ("daily": the board of ``date``, a UTC date YYYY-MM-DD, required;
        "all-time": ``date`` must be None), and ``player_id``'s own entry wherever it stands (None
        when that player is not on the board). Raises ValueError for what cannot be asked."""
        if board not in BOARDS:
            raise ValueError(f"board must be one of {', '.join(BOARDS)}, got {board!r}")
        name = get_variant(variant).name
        if board == "daily":
            if date is None:
                raise ValueError("the daily board needs a date")
            if name != CLASSIC.name:
                raise ValueError("the daily challenge is a classic game: its board has no other variant")
            Date.fromisoformat(date)  # ValueError for what is not a date
        elif date is not None:
            raise ValueError("only the daily board has a date")
        if not 1 <= limit <= MAX_LIMIT:
            raise ValueError(f"limit must be 1-{MAX_LIMIT}")
        if not 0 <= offset <= MAX_OFFSET:
            raise ValueError(f"offset must be 0-{MAX_OFFSET}")
        query = BoardQuery(name, date, limit, offset)
        with self._read() as db:
            entries = db.board_page(query)
            me = None
            if player_id is not None and 0 < player_id <= ID_LIMIT:
                me = next((e for e in entries if e.player_id == player_id), None) or db.board_entry(
                    query, player_id
                )
        return Leaderboard(board, name, date, tuple(entries), me)

    def public_owner(self, game_id: int, today: str) -> int:
        """The player of ``game_id`` if its replay is public on the UTC date ``today``; else
        ``GameNotFoundError``, as for a game that does not exist."""
        owner = None
        if 0 < game_id <= ID_LIMIT:
            with self._read() as db:
                owner = db.public_game_owner(game_id, today)
        if owner is None:
            raise GameNotFoundError(f"no public game {game_id}")
        return owner

    def public_replay(self, game_id: int, today: str) -> Replay:
        return self.replay(self.public_owner(game_id, today), game_id)

    def public_positions(self, game_id: int, today: str, first: int = 0, count: int = 100) -> Positions:
        return self.positions(self.public_owner(game_id, today), game_id, first, count)
