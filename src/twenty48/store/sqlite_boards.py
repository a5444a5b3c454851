"""The statements of the leaderboards and public games (``BoardsConnection``), in the SQL both
backends share.

The all-time board reads ``board_bests``, each player's best finished ranked game per variant,
kept up to date when a ranked game ends or is deleted: ranking "best game per player" straight from
``games`` would group every ranked game on each request. A daily board reads the day's daily games
through the partial index ``games_daily`` (one game per player and day, so nothing to group). Both
order by score (highest first), then by who finished first (a daily game still being played comes
after every finished one of its score), then by game id.
"""

from __future__ import annotations

import sqlite3
from typing import Any

from twenty48.store.backend import BoardQuery
from twenty48.store.records import BoardEntry
from twenty48.store.sqlite_players import RANKED

#: A player whose games appear on the boards: named, hidden neither by themself nor by the host.
ON_BOARDS = "p.name IS NOT NULL AND NOT p.hidden AND NOT p.host_hidden"
_ENTRY = "p.id, p.name, g.id, g.score, g.max_tile, g.moves, g.finished_at"


class SQLiteBoards:
    """Mixed into ``SQLiteConnection`` (and so into PostgreSQL's connection)."""

    _db: sqlite3.Connection

    def refresh_board_best(self, player_id: int, variant: str) -> None:
        self._db.execute("DELETE FROM board_bests WHERE variant = ? AND player_id = ?", (variant, player_id))
        self._db.execute(
            f"""INSERT INTO board_bests (variant, player_id, game_id, score, finished_at)
                SELECT g.variant, g.player_id, g.id, g.score, g.finished_at FROM games g
                WHERE g.player_id = ? AND g.variant = ? AND {RANKED} AND g.finished_at IS NOT NULL
                ORDER BY g.score DESC, g.finished_at, g.id LIMIT 1""",
            (player_id, variant),
        )

    def board_page(self, query: BoardQuery) -> list[BoardEntry]:
        source, params = _source(query)
        rows = self._db.execute(
            f"SELECT {_ENTRY} {source} AND {ON_BOARDS} {_order(query)} LIMIT ? OFFSET ?",
            (*params, query.limit, query.offset),
        ).fetchall()
        return [BoardEntry(query.offset + i + 1, *row) for i, row in enumerate(rows)]

    def board_entry(self, query: BoardQuery, player_id: int) -> BoardEntry | None:
        source, params = _source(query)
        row = self._db.execute(
            f"SELECT {_ENTRY} {source} AND {ON_BOARDS} AND p.id = ?", (*params, player_id)
        ).fetchone()
        if row is None:
            return None
        _, _, game_id, score, _, _, finished_at = row
        before, before_params = _before(score, finished_at, game_id)
        (ahead,) = self._db.execute(
            f"SELECT count(*) {source} AND {ON_BOARDS} AND ({before})", (*params, *before_params)
        ).fetchone()
        return BoardEntry(ahead + 1, *row)

    def public_game_owner(self, game_id: int, today: str) -> int | None:
        row = self._db.execute(
            f"""SELECT p.id FROM games g JOIN players p ON p.id = g.player_id
                WHERE g.id = ? AND {RANKED} AND g.finished_at IS NOT NULL AND {ON_BOARDS}
                AND (g.daily IS NULL OR g.daily < ?)""",
            (game_id, today),
        ).fetchone()
        return row[0] if row is not None else None


def _source(query: BoardQuery) -> tuple[str, tuple[Any, ...]]:
    """FROM and WHERE (to be continued with AND) of the board's games, one per player."""
    if query.date is None:
        return (
            "FROM board_bests b JOIN games g ON g.id = b.game_id JOIN players p ON p.id = b.player_id "
            "WHERE b.variant = ?",
            (query.variant,),
        )
    return (
        f"FROM games g JOIN players p ON p.id = g.player_id WHERE g.daily = ? AND g.variant = ? AND {RANKED}",
        (query.date, query.variant),
    )


def _order(query: BoardQuery) -> str:
    if query.date is None:
        return "ORDER BY b.score DESC, b.finished_at, b.game_id"
    return "ORDER BY g.score DESC, g.finished_at IS NULL, g.finished_at, g.id"


def _before(score: int, finished_at: str | None, game_id: int) -> tuple[str, tuple[Any, ...]]:
    """The condition of the games that come before this one in the boards' order."""
    if finished_at is None:
        # After every finished game of the same score; among unfinished ones, by id.
        return (
            "g.score > ? OR (g.score = ? AND (g.finished_at IS NOT NULL OR g.id < ?))",
            (score, score, game_id),
        )
    return (
        "g.score > ? OR (g.score = ? AND (g.finished_at < ? OR (g.finished_at = ? AND g.id < ?)))",
        (score, score, finished_at, finished_at, game_id),
    )
