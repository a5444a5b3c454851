"""The statements of a player's list of games, deletion and statistics, in the SQL both backends
share.

Statistics are SQL aggregates over the covering index ``games_stats`` (schema migration 4): a
statistic of 10,000 games reads index entries, never a game's state or its moves. Medians use
``ORDER BY ... LIMIT ... OFFSET`` (SQLite has no median aggregate): the middle one or two rows.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

from twenty48.rules import BoardSize
from twenty48.store.database import SQL
from twenty48.store.records import GameSummary


class ListQuery(NamedTuple):
    """Which of a player's games a page of their list holds, in which order."""

    #: "date" (newest first), "score" or "max_tile" (highest first; ties newest first).
    sort: str
    #: Only this variant; None for all.
    variant: str | None
    #: Only finished (True) or unfinished (False) games; None for both.
    finished: bool | None
    #: The page starts after this game in ``sort`` order; None for the first page.
    before: int | None
    limit: int


class StatsQuery(NamedTuple):
    """The games a statistic covers: one player's, of one variant and board size, the ended ones
    (and the abandoned ones too, with ``abandoned``), assisted ones or not (``records.game_status``)."""

    player_id: int
    variant: str
    size: BoardSize
    #: The player's current game, which is not finished unless it is over.
    current_game_id: int | None
    #: Leave out every game that had a hint, an auto-played move or an undo, whose counts are
    #: unknown, or that was imported (its counts are its file's word).
    unassisted: bool
    #: Count the abandoned games too (replaced by a new game before they were over or won).
    abandoned: bool = False


class StatsTotals(NamedTuple):
    """How many games there are, and the totals of those a statistic covers."""

    games: int
    ended: int
    abandoned: int
    counted: int
    best: int | None
    mean: float | None
    won: int


#: Sort name -> the games column a page is ordered by (ties: newest first).
SORT_COLUMNS = {"date": "id", "score": "score", "max_tile": "max_tile"}

_SUMMARY = """g.id, g.variant, g.score, g.moves, g.max_tile, g.won, g.over, g.id = p.current_game_id,
    g.created_at, g.updated_at, g.hints, g.auto_moves, g.undos, g.origin, g.ranked, g.daily, g.finished_at,
    g.flagged, g.size"""
#: Known to have had no hint, auto-played move or undo: counted here, so never an imported game,
#: whose counts are its file's word (``transfer``).
_UNASSISTED = "AND hints = 0 AND auto_moves = 0 AND undos = 0 AND origin = 'played'"
#: Over or replaced by a newer game (``GameRecord.finished``), for rows joined with their player.
_FINISHED = "(g.over OR g.id IS DISTINCT FROM p.current_game_id)"
#: Of the player's games in ``games_stats``, given the current game's id: the finished ones (over, or
#: replaced by a newer game) and the ended ones (over, or won and replaced: ``records.game_status``).
_FINISHED_ROW = "(over OR id IS DISTINCT FROM ?)"
_ENDED_ROW = "(over OR (won AND id IS DISTINCT FROM ?))"


def _finished_games(query: StatsQuery) -> tuple[str, list[Any]]:
    """A CTE ``f`` of the games a statistic covers, and its parameters."""
    unassisted = _UNASSISTED if query.unassisted else ""
    covered = _FINISHED_ROW if query.abandoned else _ENDED_ROW
    sql = f"""WITH f AS (
        SELECT id, score, max_tile, won FROM games INDEXED BY games_stats
        WHERE player_id = ? AND variant = ? AND size = ? AND NOT set_aside AND {covered}
              {unassisted})"""
    return sql, [query.player_id, query.variant, str(query.size), query.current_game_id]


# ---- the list of games --------------------------------------------------------------------------


def page(db: SQL, player_id: int, query: ListQuery) -> list[GameSummary]:
    """One page of the player's list of games, as ``query`` asks."""
    column = SORT_COLUMNS[query.sort]
    where = ["g.player_id = ?", "NOT g.set_aside"]
    params: list[Any] = [player_id]
    if query.variant is not None:
        where.append("g.variant = ?")
        params.append(query.variant)
    if query.finished is not None:
        where.append(f"{_FINISHED} = ?")
        params.append(query.finished)
    if query.before is not None:
        if column == "id":
            where.append("g.id < ?")
            params.append(query.before)
        else:
            # Keyset paging: after the named game in (column, id) order. A game of someone else
            # matches no row, so it pages nothing.
            where.append(
                f"(g.{column}, g.id) < (SELECT {column}, id FROM games WHERE id = ? AND player_id = ?)"
            )
            params.extend((query.before, player_id))
    order = "g.id DESC" if column == "id" else f"g.{column} DESC, g.id DESC"
    rows = db.execute(
        f"SELECT {_SUMMARY} FROM games g JOIN players p ON p.id = g.player_id "
        f"WHERE {' AND '.join(where)} ORDER BY {order} LIMIT ?",
        (*params, query.limit),
    ).fetchall()
    return [summary(r) for r in rows]


# ---- deletion ---------------------------------------------------------------------------------


def delete_game(db: SQL, player_id: int, game_id: int, now: str) -> None:
    """Remove the game's moves, checkpoints and state; its row stays, hidden (ids are never reused)."""
    db.execute(
        "UPDATE players SET current_game_id = NULL WHERE id = ? AND current_game_id = ?",
        (player_id, game_id),
    )
    for table in ("game_moves", "game_checkpoints", "game_first_reach", "game_reviews"):
        db.execute(f"DELETE FROM {table} WHERE game_id = ?", (game_id,))
    db.execute(
        "UPDATE games SET set_aside = TRUE, deleted_at = ?, state = '{}', revision = revision + 1 "
        "WHERE id = ?",
        (now, game_id),
    )


# ---- statistics ---------------------------------------------------------------------------------


def stats_totals(db: SQL, query: StatsQuery) -> StatsTotals:
    """The player's games in the variant and size (assisted ones or not), and the totals of the ones
    ``query`` covers."""
    unassisted = _UNASSISTED if query.unassisted else ""
    games, finished, ended = db.execute(
        f"SELECT count(*), count(*) FILTER (WHERE {_FINISHED_ROW}), count(*) FILTER (WHERE {_ENDED_ROW}) "
        f"FROM games INDEXED BY games_stats "
        f"WHERE player_id = ? AND variant = ? AND size = ? AND NOT set_aside {unassisted}",
        (query.current_game_id, query.current_game_id, query.player_id, query.variant, str(query.size)),
    ).fetchone()
    cte, params = _finished_games(query)
    counted, best, mean, won = db.execute(
        f"{cte} SELECT count(*), max(score), avg(score), count(*) FILTER (WHERE won) FROM f", params
    ).fetchone()
    return StatsTotals(games, ended, finished - ended, counted, best, mean, won)


def median_score(db: SQL, query: StatsQuery) -> float | None:
    cte, params = _finished_games(query)
    # The middle one or two scores by OFFSET: half the time of numbering every row with a window.
    (median,) = db.execute(
        f"""{cte}, n AS (SELECT count(*) AS n FROM f)
            SELECT avg(score) FROM (
                SELECT score FROM f ORDER BY score
                LIMIT 2 - (SELECT n FROM n) % 2 OFFSET ((SELECT n FROM n) - 1) / 2) AS middle""",
        params,
    ).fetchone()
    return median


def reach_counts(db: SQL, query: StatsQuery, smallest: int) -> dict[int, int]:
    """Largest tile (``smallest`` and up) -> how many of the games ended with it."""
    cte, params = _finished_games(query)
    rows = db.execute(
        f"{cte} SELECT max_tile, count(*) FROM f WHERE max_tile >= ? GROUP BY max_tile",
        (*params, smallest),
    ).fetchall()
    return dict(rows)


def first_reach(db: SQL, query: StatsQuery, smallest: int) -> dict[int, tuple[float, int]]:
    """Tile -> (median, best) first-reach move over the games that reached it."""
    cte, params = _finished_games(query)
    rows = db.execute(
        f"""{cte}, r AS (
                SELECT fr.tile, fr.move,
                       row_number() OVER (PARTITION BY fr.tile ORDER BY fr.move) AS rn,
                       count(*) OVER (PARTITION BY fr.tile) AS n
                FROM f JOIN game_first_reach fr ON fr.game_id = f.id AND fr.tile >= ?)
            SELECT tile, avg(CASE WHEN rn IN ((n + 1) / 2, (n + 2) / 2) THEN move END), min(move)
            FROM r GROUP BY tile""",
        (*params, smallest),
    ).fetchall()
    return {tile: (median, best) for tile, median, best in rows}


def streaks(db: SQL, query: StatsQuery, tile: int) -> tuple[int, int]:
    """(current, longest) run of the games, in id order, whose largest tile reached ``tile``."""
    cte, params = _finished_games(query)
    # Gaps and islands: a run is the games between two misses, numbered by the misses so far.
    current, best = db.execute(
        f"""{cte}, runs AS (
                SELECT count(*) AS n FROM (
                    SELECT max_tile >= ? AS hit,
                           sum(CASE WHEN max_tile < ? THEN 1 ELSE 0 END) OVER (ORDER BY id) AS run
                    FROM f
                ) AS marked
                WHERE hit GROUP BY run)
            SELECT (SELECT count(*) FROM f
                    WHERE id > coalesce((SELECT max(id) FROM f WHERE max_tile < ?), 0)),
                   coalesce((SELECT max(n) FROM runs), 0)""",
        (*params, tile, tile, tile),
    ).fetchone()
    return current, best


def recent_scores(db: SQL, query: StatsQuery, count: int) -> list[int]:
    """The scores of the last ``count`` of the games, oldest first."""
    cte, params = _finished_games(query)
    rows = db.execute(f"{cte} SELECT score FROM f ORDER BY id DESC LIMIT ?", (*params, count)).fetchall()
    return [r[0] for r in reversed(rows)]


def summary(r: Sequence[Any]) -> GameSummary:
    return GameSummary(
        id=r[0],
        variant=r[1],
        score=r[2],
        moves=r[3],
        max_tile=r[4],
        won=bool(r[5]),
        over=bool(r[6]),
        current=bool(r[7]),
        created_at=r[8],
        updated_at=r[9],
        hints=r[10],
        auto_moves=r[11],
        undos=r[12],
        origin=r[13],
        ranked=bool(r[14]),
        daily=r[15],
        finished_at=r[16],
        flagged=r[17],
        size=BoardSize.parse(r[18]),
    )
