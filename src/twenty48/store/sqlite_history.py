"""The SQLite statements of the history, statistics and transfer primitives (``HistoryConnection``).

Statistics are SQL aggregates over the covering index ``games_stats`` (schema migration 4): a
statistic of 10,000 games reads index entries, never a game's state or its moves. Medians use
``ORDER BY ... LIMIT ... OFFSET`` (SQLite has no median aggregate): the middle one or two rows.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from typing import Any

from twenty48.game import Action, parse_action
from twenty48.rules import Board
from twenty48.store.backend import Checkpoint, ListQuery, StatsQuery
from twenty48.store.records import GameSummary

#: Sort name -> the games column a page is ordered by (ties: newest first).
SORT_COLUMNS = {"date": "id", "score": "score", "max_tile": "max_tile"}

_SUMMARY = """g.id, g.variant, g.score, g.moves, g.max_tile, g.won, g.over, g.id = p.current_game_id,
    g.created_at, g.updated_at, g.hints, g.auto_moves, g.undos, g.origin, g.ranked, g.daily, g.finished_at,
    g.flagged"""
#: Known to have had no hint, auto-played move or undo: counted here, so never an imported game,
#: whose counts are its file's word (``transfer``).
_UNASSISTED = "AND hints = 0 AND auto_moves = 0 AND undos = 0 AND origin = 'played'"
#: Over or replaced by a newer game (``GameRecord.finished``), for rows joined with their player.
_FINISHED = "(g.over OR g.id IS DISTINCT FROM p.current_game_id)"


def _finished_games(query: StatsQuery) -> tuple[str, list[Any]]:
    """A CTE ``f`` of the finished games a statistic covers, and its parameters."""
    unassisted = _UNASSISTED if query.unassisted else ""
    sql = f"""WITH f AS (
        SELECT id, score, max_tile, won FROM games INDEXED BY games_stats
        WHERE player_id = ? AND variant = ? AND NOT set_aside AND (over OR id IS DISTINCT FROM ?)
              {unassisted})"""
    return sql, [query.player_id, query.variant, query.current_game_id]


class SQLiteHistory:
    """Mixed into ``SQLiteConnection``."""

    _db: sqlite3.Connection

    # ---- the history list -----------------------------------------------------------------------

    def history(self, player_id: int, query: ListQuery) -> list[GameSummary]:
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
        rows = self._db.execute(
            f"SELECT {_SUMMARY} FROM games g JOIN players p ON p.id = g.player_id "
            f"WHERE {' AND '.join(where)} ORDER BY {order} LIMIT ?",
            (*params, query.limit),
        ).fetchall()
        return [summary(r) for r in rows]

    # ---- positions ------------------------------------------------------------------------------

    def game_header(self, game_id: int) -> tuple[str, int]:
        state, moves = self._db.execute("SELECT state, moves FROM games WHERE id = ?", (game_id,)).fetchone()
        return state, moves

    def actions_between(self, game_id: int, first_ply: int, last_ply: int) -> list[Action]:
        return [
            parse_action(d if cell is None else f"{d}@{cell}")
            for d, cell in self._db.execute(
                "SELECT direction, cell FROM game_moves WHERE game_id = ? AND ply BETWEEN ? AND ? "
                "ORDER BY ply",
                (game_id, first_ply, last_ply),
            )
        ]

    def checkpoint_before(self, game_id: int, move: int) -> Checkpoint | None:
        row = self._db.execute(
            "SELECT move, cells, score, won, keep_playing FROM game_checkpoints "
            "WHERE game_id = ? AND move <= ? ORDER BY move DESC LIMIT 1",
            (game_id, move),
        ).fetchone()
        if row is None:
            return None
        move, cells, score, won, keep_playing = row
        board = Board.from_cells(int(c) for c in cells.split(","))
        return Checkpoint(move, board, score, bool(won), bool(keep_playing))

    def add_checkpoints(self, game_id: int, checkpoints: Sequence[Checkpoint]) -> None:
        self._db.executemany(
            "INSERT INTO game_checkpoints (game_id, move, cells, score, won, keep_playing) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            [
                (game_id, c.move, ",".join(map(str, c.board.cells)), c.score, c.won, c.keep_playing)
                for c in checkpoints
            ],
        )

    def add_first_reaches(self, game_id: int, reaches: Sequence[tuple[int, int]]) -> None:
        self._db.executemany(
            "INSERT INTO game_first_reach (game_id, tile, move) VALUES (?, ?, ?)",
            [(game_id, tile, move) for tile, move in reaches],
        )

    def forget_after(self, game_id: int, move: int) -> None:
        self._db.execute("DELETE FROM game_checkpoints WHERE game_id = ? AND move > ?", (game_id, move))
        self._db.execute("DELETE FROM game_first_reach WHERE game_id = ? AND move > ?", (game_id, move))

    # ---- assisted counts, origin, deletion ------------------------------------------------------

    def restart(self, game_id: int) -> None:
        self.forget_after(game_id, -1)
        self._db.execute("DELETE FROM game_reviews WHERE game_id = ?", (game_id,))
        self._db.execute(
            "UPDATE games SET hints = 0, auto_moves = 0, undos = 0, hint_revision = NULL, origin = 'played', "
            "ranked = FALSE, daily = NULL, finished_at = NULL, flagged = NULL WHERE id = ?",
            (game_id,),
        )

    def add_assists(self, game_id: int, *, hints: int = 0, auto_moves: int = 0, undos: int = 0) -> None:
        # NULL + n stays NULL: a game whose earlier assists nobody counted stays unknown. Any assist
        # unranks the game for good.
        self._db.execute(
            "UPDATE games SET hints = hints + ?, auto_moves = auto_moves + ?, undos = undos + ?, "
            "ranked = FALSE WHERE id = ?",
            (hints, auto_moves, undos, game_id),
        )

    def assists(self, game_id: int) -> tuple[int | None, int | None, int | None]:
        hints, auto_moves, undos = self._db.execute(
            "SELECT hints, auto_moves, undos FROM games WHERE id = ?", (game_id,)
        ).fetchone()
        return hints, auto_moves, undos

    def hint_revision(self, game_id: int) -> int | None:
        (revision,) = self._db.execute("SELECT hint_revision FROM games WHERE id = ?", (game_id,)).fetchone()
        return revision

    def set_hint_revision(self, game_id: int, revision: int) -> None:
        self._db.execute("UPDATE games SET hint_revision = ? WHERE id = ?", (revision, game_id))

    def delete_game(self, player_id: int, game_id: int, now: str) -> None:
        self._db.execute(
            "UPDATE players SET current_game_id = NULL WHERE id = ? AND current_game_id = ?",
            (player_id, game_id),
        )
        for table in ("game_moves", "game_checkpoints", "game_first_reach", "game_reviews"):
            self._db.execute(f"DELETE FROM {table} WHERE game_id = ?", (game_id,))
        self._db.execute(
            "UPDATE games SET set_aside = TRUE, deleted_at = ?, state = '{}', revision = revision + 1 "
            "WHERE id = ?",
            (now, game_id),
        )

    # ---- statistics -----------------------------------------------------------------------------

    def stats_totals(self, query: StatsQuery) -> tuple[int, int, int | None, float | None, int]:
        unassisted = _UNASSISTED if query.unassisted else ""
        (games,) = self._db.execute(
            f"SELECT count(*) FROM games INDEXED BY games_stats "
            f"WHERE player_id = ? AND variant = ? AND NOT set_aside {unassisted}",
            (query.player_id, query.variant),
        ).fetchone()
        cte, params = _finished_games(query)
        finished, best, mean, won = self._db.execute(
            f"{cte} SELECT count(*), max(score), avg(score), count(*) FILTER (WHERE won) FROM f", params
        ).fetchone()
        return games, finished, best, mean, won

    def median_score(self, query: StatsQuery) -> float | None:
        cte, params = _finished_games(query)
        # The middle one or two scores by OFFSET: half the time of numbering every row with a window.
        (median,) = self._db.execute(
            f"""{cte}, n AS (SELECT count(*) AS n FROM f)
                SELECT avg(score) FROM (
                    SELECT score FROM f ORDER BY score
                    LIMIT 2 - (SELECT n FROM n) % 2 OFFSET ((SELECT n FROM n) - 1) / 2) AS middle""",
            params,
        ).fetchone()
        return median

    def reach_counts(self, query: StatsQuery, smallest: int) -> dict[int, int]:
        cte, params = _finished_games(query)
        rows = self._db.execute(
            f"{cte} SELECT max_tile, count(*) FROM f WHERE max_tile >= ? GROUP BY max_tile",
            (*params, smallest),
        ).fetchall()
        return dict(rows)

    def first_reach(self, query: StatsQuery, smallest: int) -> dict[int, tuple[float, int]]:
        cte, params = _finished_games(query)
        rows = self._db.execute(
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

    def streaks(self, query: StatsQuery, tile: int) -> tuple[int, int]:
        cte, params = _finished_games(query)
        # Gaps and islands: a run is the games between two misses, numbered by the misses so far.
        current, best = self._db.execute(
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

    def recent_scores(self, query: StatsQuery, count: int) -> list[int]:
        cte, params = _finished_games(query)
        rows = self._db.execute(
            f"{cte} SELECT score FROM f ORDER BY id DESC LIMIT ?", (*params, count)
        ).fetchall()
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
    )
