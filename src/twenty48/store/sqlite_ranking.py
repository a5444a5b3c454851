"""The SQLite statements of ranked games, daily challenges and the server's secrets
(``RankingConnection``)."""

from __future__ import annotations

import sqlite3


class SQLiteRanking:
    """Mixed into ``SQLiteConnection``."""

    _db: sqlite3.Connection

    def set_ranking(self, game_id: int, ranked: bool, daily: str | None) -> None:
        self._db.execute("UPDATE games SET ranked = ?, daily = ? WHERE id = ?", (ranked, daily, game_id))

    def set_pace(self, game_id: int, at: float, flagged: str | None) -> None:
        self._db.execute(
            "UPDATE games SET pace_at = ?, flagged = coalesce(flagged, ?) WHERE id = ?",
            (at, flagged, game_id),
        )

    def daily_game_id(self, player_id: int, date: str) -> int | None:
        row = self._db.execute(
            "SELECT id FROM games WHERE player_id = ? AND daily = ?", (player_id, date)
        ).fetchone()
        return row[0] if row is not None else None

    def claim_daily_name(self, game_id: int, player_id: int, date: str) -> None:
        self._db.execute(
            """UPDATE games SET daily_name = p.name_key FROM players p
               WHERE games.id = ? AND p.id = ? AND NOT EXISTS (
                   SELECT 1 FROM games o WHERE o.daily = ? AND o.daily_name = p.name_key)""",
            (game_id, player_id, date),
        )

    def close_daily(self, game_id: int) -> None:
        self._db.execute(
            "INSERT INTO closed_dailies (game_id, score, max_tile, moves) "
            "SELECT id, score, max_tile, moves FROM games WHERE id = ?",
            (game_id,),
        )

    def server_secret(self, name: str) -> str | None:
        row = self._db.execute("SELECT secret FROM server_secrets WHERE name = ?", (name,)).fetchone()
        return row[0] if row is not None else None

    def add_server_secret(self, name: str, secret: str) -> None:
        self._db.execute(
            "INSERT INTO server_secrets (name, secret) VALUES (?, ?) ON CONFLICT (name) DO NOTHING",
            (name, secret),
        )
