"""A player's statistics in one variant, from SQL aggregates over the per-game summary columns.

The figures are over the games that ended (game over, or won), and over the abandoned ones too
(replaced by a newer game before they were over or won) when asked (``records.game_status``); how
many games ended and how many were abandoned is counted apart. Reach rates and first reaches cover
every tile from ``REACH_FROM`` (128) up to the one above the largest reached, so a beginner sees the
tiles within reach and the next one, not an empty 2048.
"""

from __future__ import annotations

from twenty48.rules import MAX_TILE, WINNING_TILE
from twenty48.store.archive import sql as archive_sql
from twenty48.store.archive.sql import StatsQuery
from twenty48.store.database import SQL
from twenty48.store.records import FirstReach, Stats

#: How many of the last games counted ``Stats.recent`` holds.
RECENT = 100
#: The smallest tile whose reach rate and first reach are reported.
REACH_FROM = 128


def compute(db: SQL, query: StatsQuery) -> Stats:
    games, ended, abandoned, counted, best, mean, won = archive_sql.stats_totals(db, query)
    if counted == 0:
        return Stats.unfinished(query.variant, games, ended, abandoned)
    exact = archive_sql.reach_counts(db, query, REACH_FROM)
    tiles = [REACH_FROM]
    while tiles[-1] <= max(exact, default=0) and tiles[-1] < MAX_TILE:
        tiles.append(tiles[-1] * 2)
    firsts = archive_sql.first_reach(db, query, REACH_FROM)
    current, longest = archive_sql.streaks(db, query, WINNING_TILE)
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
    )
