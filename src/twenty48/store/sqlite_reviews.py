"""The statements of stored reviews and review jobs (``ReviewsConnection``), in the SQL both
backends share."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence

from twenty48.store.backend import ReviewRow

_COLUMNS = "game_id, player_id, job, state, revision, covers, done, setting, review, heartbeat"


class SQLiteReviews:
    """Mixed into ``SQLiteConnection`` (and so into PostgreSQL's connection)."""

    _db: sqlite3.Connection

    def review(self, game_id: int) -> ReviewRow | None:
        sql = f"SELECT {_COLUMNS} FROM game_reviews WHERE game_id = ?"
        row = self._db.execute(sql, (game_id,)).fetchone()
        return None if row is None else ReviewRow(*row[:9], float(row[9]))

    def live_review_of_player(self, player_id: int, since: float) -> int | None:
        row = self._db.execute(
            "SELECT game_id FROM game_reviews WHERE player_id = ? AND state IN ('queued', 'running') "
            "AND heartbeat > ? ORDER BY game_id LIMIT 1",
            (player_id, since),
        ).fetchone()
        return None if row is None else int(row[0])

    def put_review_job(
        self,
        game_id: int,
        player_id: int,
        job: str,
        revision: int,
        covers: int,
        setting: str,
        heartbeat: float,
        now: str,
    ) -> None:
        self._db.execute(
            "INSERT INTO game_reviews (game_id, player_id, job, state, revision, covers, done, setting, "
            "review, heartbeat, created_at, updated_at) "
            "VALUES (?, ?, ?, 'queued', ?, ?, 0, ?, NULL, ?, ?, ?) "
            "ON CONFLICT (game_id) DO UPDATE SET job = excluded.job, state = 'queued', "
            "revision = excluded.revision, covers = excluded.covers, done = 0, setting = excluded.setting, "
            "review = NULL, heartbeat = excluded.heartbeat, created_at = excluded.created_at, "
            "updated_at = excluded.updated_at",
            (game_id, player_id, job, revision, covers, setting, heartbeat, now, now),
        )

    def update_review(
        self,
        game_id: int,
        job: str,
        states: Sequence[str],
        state: str | None,
        done: int | None,
        review: str | None,
        heartbeat: float,
        now: str,
    ) -> bool:
        marks = ", ".join("?" for _ in states)
        cursor = self._db.execute(
            "UPDATE game_reviews SET state = coalesce(?, state), done = coalesce(?, done), "
            "review = coalesce(?, review), heartbeat = ?, updated_at = ? "
            f"WHERE game_id = ? AND job = ? AND state IN ({marks})",
            (state, done, review, heartbeat, now, game_id, job, *states),
        )
        return cursor.rowcount == 1
