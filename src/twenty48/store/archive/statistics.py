"""A player's statistics in one variant on one board size, from SQL aggregates over the per-game
summary columns.

The figures are over the games that ended (game over, or won), and over the abandoned ones too
(replaced by a newer game before they were over or won) when asked (``records.game_status``); how
many games ended and how many were abandoned is counted apart. Reach rates and first reaches cover
every tile from ``reach_from`` (128 on the 4x4) up to the one above the largest reached, so a
beginner sees the tiles within reach and the next one, not an empty 2048; wins and streaks count
the size's win tile (``BoardSize.win_tile``: 2048 on 16 cells or more, less on smaller boards).
"""

from __future__ import annotations

from twenty48.rules import WINNING_TILE, BoardSize
from twenty48.store.archive import sql as archive_sql
from twenty48.store.archive.sql import StatsQuery
from twenty48.store.database import SQL
from twenty48.store.records import FirstReach, Stats

#: How many of the last games counted ``Stats.recent`` holds.
RECENT = 100
#: The smallest tile whose reach rate and first reach are reported on a board whose win tile is
#: 2048; a smaller board's is as far below its own win tile (``reach_from``).
REACH_FROM = 128


def reach_from(size: BoardSize) -> int:
    """The smallest tile whose reach rate is reported for games of ``size``: ``REACH_FROM`` for a
    win tile of 2048 and up, as many halvings below a smaller win tile (2 at least)."""
    return max(2, REACH_FROM * min(size.win_tile, WINNING_TILE) // WINNING_TILE)


def compute(db: SQL, query: StatsQuery) -> Stats:
    games, ended, abandoned, counted, best, mean, won = archive_sql.stats_totals(db, query)
    if counted == 0:
        return Stats.unfinished(query.variant, games, ended, abandoned, query.size)
    smallest = reach_from(query.size)
    exact = archive_sql.reach_counts(db, query, smallest)
    tiles = [smallest]
    while tiles[-1] <= max(exact, default=0) and tiles[-1] < query.size.max_tile:
        tiles.append(tiles[-1] * 2)
    firsts = archive_sql.first_reach(db, query, smallest)
    current, longest = archive_sql.streaks(db, query, query.size.win_tile)
    return Stats(
        variant=query.variant,
        games=games,
        ended=ended,
        abandoned=abandoned,
        counted=counted,
        best=best,
        mean=mean,
        median=archive_sql.median_score(db, query),
        # Reaching a tile is ending with it or anything larger.
        reach={t: sum(n for tile, n in exact.items() if tile >= t) / counted for t in tiles},
        first_reach={t: FirstReach(*firsts[t]) if t in firsts else FirstReach(None, None) for t in tiles},
        win_rate=won / counted,
        streak_current=current,
        streak_best=longest,
        recent=tuple(archive_sql.recent_scores(db, query, RECENT)),
        size=query.size,
    )
