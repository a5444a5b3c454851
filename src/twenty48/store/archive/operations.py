"""``Archive``: a player's games as a whole: the list of them (sorted, filtered, page by page),
their statistics, and deleting one::

    store.games(player_id, limit=20, before=None)             # GameSummary list, newest first
    store.games(player_id, sort="score", variant="classic", finished=True)
    store.stats(player_id, "classic", assisted=False)         # Stats of finished unassisted games
    store.stats(player_id, "classic", size="3x3")             # ... of the 3x3 games
    store.delete_game(player_id, game_id)                     # gone from the player's games

The command line and the page call the list "history" (``2048 history``, ``twenty48-history``
files); in the store, "history" is never used for it, since a game's undo stack is its history too.
"""

from __future__ import annotations

from twenty48.rules import BoardSize, SizeLike
from twenty48.store.archive import sql as archive_sql
from twenty48.store.archive import statistics
from twenty48.store.archive.sql import ListQuery, StatsQuery
from twenty48.store.games import sql as games_sql
from twenty48.store.games.rows import GameRows, now_text, owned
from twenty48.store.leaderboards import sql as leaderboards_sql
from twenty48.store.records import GameSummary, Stats
from twenty48.variants import get_variant

#: How ``Store.games`` can order a page.
GAME_SORTS = ("date", "score", "max_tile")


class Archive:
    """The store's part for a player's games as a whole; ``Store`` documents each operation."""

    def __init__(self, rows: GameRows) -> None:
        self._rows = rows

    def games(
        self,
        player_id: int,
        *,
        limit: int,
        before: int | None,
        sort: str,
        variant: str | None,
        finished: bool | None,
    ) -> list[GameSummary]:
        if limit < 1:
            raise ValueError("limit must be at least 1")
        if sort not in GAME_SORTS:
            raise ValueError(f"sort must be one of {', '.join(GAME_SORTS)}, got {sort!r}")
        name = get_variant(variant).name if variant is not None else None
        with self._rows.read() as db:
            games_sql.current_game_of(db, player_id)
            return archive_sql.page(db, player_id, ListQuery(sort, name, finished, before, limit))

    def stats(
        self, player_id: int, variant: str, size: SizeLike, *, assisted: bool, abandoned: bool
    ) -> Stats:
        name, shape = get_variant(variant).name, BoardSize.of(size)
        with self._rows.read() as db:
            current = games_sql.current_game_of(db, player_id)
            query = StatsQuery(player_id, name, shape, current, not assisted, abandoned)
            return statistics.compute(db, query)

    def delete_game(self, player_id: int, game_id: int) -> None:
        with self._rows.write() as db:
            row = owned(db, player_id, game_id)
            # The hidden row is never loaded again, so its cached copy cannot be handed out.
            archive_sql.delete_game(db, player_id, game_id, now_text())
            # A deleted game leaves the leaderboards; the player's next best takes its place.
            leaderboards_sql.refresh_best(db, player_id, row.variant, row.size)
