"""The statements of the per-player limits (``LimitsConnection``), in the SQL both backends share."""

from __future__ import annotations

import sqlite3


class SQLiteLimits:
    """Mixed into ``SQLiteConnection`` (and so into PostgreSQL's connection)."""

    _db: sqlite3.Connection

    def new_game_bucket(self, player_id: int) -> tuple[float, float] | None:
        row = self._db.execute(
            "SELECT new_game_tokens, new_game_at FROM player_limits "
            "WHERE player_id = ? AND new_game_tokens IS NOT NULL",
            (player_id,),
        ).fetchone()
        return (float(row[0]), float(row[1])) if row is not None else None

    def set_new_game_bucket(self, player_id: int, tokens: float, at: float) -> None:
        self._db.execute(
            "INSERT INTO player_limits (player_id, new_game_tokens, new_game_at) VALUES (?, ?, ?) "
            "ON CONFLICT (player_id) DO UPDATE "
            "SET new_game_tokens = excluded.new_game_tokens, new_game_at = excluded.new_game_at",
            (player_id, tokens, at),
        )

    def hint_lease(self, player_id: int) -> tuple[str, float] | None:
        row = self._db.execute(
            "SELECT hint_lease, hint_until FROM player_limits WHERE player_id = ? AND hint_lease IS NOT NULL",
            (player_id,),
        ).fetchone()
        return (row[0], float(row[1])) if row is not None else None

    def set_hint_lease(self, player_id: int, lease: str | None, until: float | None) -> None:
        self._db.execute(
            "INSERT INTO player_limits (player_id, hint_lease, hint_until) VALUES (?, ?, ?) "
            "ON CONFLICT (player_id) DO UPDATE SET hint_lease = excluded.hint_lease, "
            "hint_until = excluded.hint_until",
            (player_id, lease, until),
        )
