"""The statements of the per-player limits (``LimitsConnection``), in the SQL both backends share."""

from __future__ import annotations

import sqlite3

from twenty48.store.backend import LeaseKind

#: A lease's columns: who holds it, until when.
_LEASE_COLUMNS: dict[LeaseKind, tuple[str, str]] = {
    "hint": ("hint_lease", "hint_until"),
    "import": ("import_lease", "import_until"),
}


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

    def lease(self, player_id: int, kind: LeaseKind) -> tuple[str, float] | None:
        lease, until = _LEASE_COLUMNS[kind]
        row = self._db.execute(
            f"SELECT {lease}, {until} FROM player_limits WHERE player_id = ? AND {lease} IS NOT NULL",
            (player_id,),
        ).fetchone()
        return (row[0], float(row[1])) if row is not None else None

    def set_lease(self, player_id: int, kind: LeaseKind, lease: str | None, until: float | None) -> None:
        lease_column, until_column = _LEASE_COLUMNS[kind]
        self._db.execute(
            f"INSERT INTO player_limits (player_id, {lease_column}, {until_column}) VALUES (?, ?, ?) "
            f"ON CONFLICT (player_id) DO UPDATE SET {lease_column} = excluded.{lease_column}, "
            f"{until_column} = excluded.{until_column}",
            (player_id, lease, until),
        )
