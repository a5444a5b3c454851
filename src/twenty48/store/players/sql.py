"""The statements of players: their keys and devices, names, hiding, transfer codes and the host's
listing, in the SQL both backends share."""

from __future__ import annotations

from twenty48.store.database import SQL, Connection
from twenty48.store.leaderboards.sql import RANKED
from twenty48.store.records import Player, PlayerOverview, Profile


def player(db: SQL, key: str) -> Player | None:
    # A device that claimed a transfer code is the player through a key of its own.
    row = db.execute(
        "SELECT id, key, current_game_id FROM players WHERE key = ? UNION ALL "
        "SELECT p.id, p.key, p.current_game_id FROM player_devices d "
        "JOIN players p ON p.id = d.player_id WHERE d.key = ?",
        (key, key),
    ).fetchone()
    return Player(*row) if row is not None else None


def add_player(db: SQL, key: str, now: str) -> None:
    """Create the player unless one has this key (another process may have just done it)."""
    db.execute("INSERT INTO players (key, created_at) VALUES (?, ?) ON CONFLICT (key) DO NOTHING", (key, now))


def profile(db: SQL, player_id: int) -> Profile | None:
    row = db.execute(
        "SELECT id, name, hidden, host_hidden FROM players WHERE id = ?", (player_id,)
    ).fetchone()
    return _profile(row) if row is not None else None


def player_named(db: Connection, name_key: str) -> int | None:
    """The player whose name has this key (``twenty48.names.Name.key``); in a write transaction,
    after taking the names' lock."""
    db.lock_names()
    row = db.execute("SELECT id FROM players WHERE name_key = ?", (name_key,)).fetchone()
    return row[0] if row is not None else None


def set_name(db: SQL, player_id: int, name: str | None, name_key: str | None) -> None:
    """Raises the backend's unique-constraint error (as ``StoreError``) if another has the key."""
    db.execute("UPDATE players SET name = ?, name_key = ? WHERE id = ?", (name, name_key, player_id))


def set_hidden(db: SQL, player_id: int, hidden: bool, *, by_host: bool) -> None:
    column = "host_hidden" if by_host else "hidden"
    db.execute(f"UPDATE players SET {column} = ? WHERE id = ?", (hidden, player_id))


def add_device(db: SQL, key: str, player_id: int, now: str) -> None:
    """Make the cookie key ``key`` another way to be the player."""
    db.execute(
        "INSERT INTO player_devices (key, player_id, created_at) VALUES (?, ?, ?) "
        "ON CONFLICT (key) DO UPDATE SET player_id = excluded.player_id, created_at = excluded.created_at",
        (key, player_id, now),
    )


def add_transfer_code(db: SQL, code_hash: str, player_id: int, expires_at: float) -> None:
    db.execute(
        "INSERT INTO transfer_codes (code_hash, player_id, expires_at) VALUES (?, ?, ?)",
        (code_hash, player_id, expires_at),
    )


def end_transfer_codes(db: SQL, player_id: int, now: float) -> None:
    """Expire the player's codes still open at ``now``."""
    db.execute(
        "UPDATE transfer_codes SET expires_at = ? WHERE player_id = ? AND used_at IS NULL AND expires_at > ?",
        (now, player_id, now),
    )


def forget_transfer_codes(db: SQL, before: float) -> None:
    """Delete the codes that expired before ``before``."""
    db.execute("DELETE FROM transfer_codes WHERE expires_at < ?", (before,))


def transfer_code(db: SQL, code_hash: str) -> tuple[int, float, float | None] | None:
    """(player, expiry, when used or None) of the code with this hash."""
    row = db.execute(
        "SELECT player_id, expires_at, used_at FROM transfer_codes WHERE code_hash = ?", (code_hash,)
    ).fetchone()
    return (row[0], float(row[1]), None if row[2] is None else float(row[2])) if row is not None else None


def use_transfer_code(db: SQL, code_hash: str, now: float) -> None:
    db.execute("UPDATE transfer_codes SET used_at = ? WHERE code_hash = ?", (now, code_hash))


def players_overview(db: SQL, named_only: bool) -> list[PlayerOverview]:
    rows = db.execute(
        f"""SELECT p.id, p.name, p.hidden, p.host_hidden, p.created_at,
                   count(g.id),
                   count(g.id) FILTER (WHERE {RANKED} AND g.finished_at IS NOT NULL),
                   count(g.id) FILTER (WHERE g.flagged IS NOT NULL)
            FROM players p LEFT JOIN games g ON g.player_id = p.id AND NOT g.set_aside
            {"WHERE p.name IS NOT NULL" if named_only else ""}
            GROUP BY p.id, p.name, p.hidden, p.host_hidden, p.created_at ORDER BY p.id"""
    ).fetchall()
    return [PlayerOverview(_profile(r[:4]), r[4], r[5], r[6], r[7]) for r in rows]


def _profile(row: tuple[object, ...]) -> Profile:
    player_id, name, hidden, host_hidden = row
    assert isinstance(player_id, int) and (name is None or isinstance(name, str))
    return Profile(player_id, name, bool(hidden), bool(host_hidden))
