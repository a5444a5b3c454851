"""The statements of the per-player limits, in the SQL both backends share; the caller holds the
player's write lock."""

from __future__ import annotations

from typing import Literal

from twenty48.store.database import SQL

#: What a player has at most one of in flight: a hint being computed, an import being stored.
LeaseKind = Literal["hint", "import"]

#: A lease's columns: who holds it, until when.
_LEASE_COLUMNS: dict[LeaseKind, tuple[str, str]] = {
    "hint": ("hint_lease", "hint_until"),
    "import": ("import_lease", "import_until"),
}


def new_game_bucket(db: SQL, player_id: int) -> tuple[float, float] | None:
    """(tokens left, when counted) of the player's new-game bucket; None before its first use."""
    row = db.execute(
        "SELECT new_game_tokens, new_game_at FROM player_limits "
        "WHERE player_id = ? AND new_game_tokens IS NOT NULL",
        (player_id,),
    ).fetchone()
    return (float(row[0]), float(row[1])) if row is not None else None


def set_new_game_bucket(db: SQL, player_id: int, tokens: float, at: float) -> None:
    db.execute(
        "INSERT INTO player_limits (player_id, new_game_tokens, new_game_at) VALUES (?, ?, ?) "
        "ON CONFLICT (player_id) DO UPDATE "
        "SET new_game_tokens = excluded.new_game_tokens, new_game_at = excluded.new_game_at",
        (player_id, tokens, at),
    )


def lease(db: SQL, player_id: int, kind: LeaseKind) -> tuple[str, float] | None:
    """(lease, expiry) of the player's hint or import in flight; None when there is none."""
    lease_column, until_column = _LEASE_COLUMNS[kind]
    row = db.execute(
        f"SELECT {lease_column}, {until_column} FROM player_limits "
        f"WHERE player_id = ? AND {lease_column} IS NOT NULL",
        (player_id,),
    ).fetchone()
    return (row[0], float(row[1])) if row is not None else None


def set_lease(db: SQL, player_id: int, kind: LeaseKind, lease: str | None, until: float | None) -> None:
    lease_column, until_column = _LEASE_COLUMNS[kind]
    db.execute(
        f"INSERT INTO player_limits (player_id, {lease_column}, {until_column}) VALUES (?, ?, ?) "
        f"ON CONFLICT (player_id) DO UPDATE SET {lease_column} = excluded.{lease_column}, "
        f"{until_column} = excluded.{until_column}",
        (player_id, lease, until),
    )
