"""The statements of players' names, devices and transfer codes (``PlayersConnection``), in the SQL
both backends share."""

from __future__ import annotations

import sqlite3

from twenty48.store.records import PlayerOverview, Profile

#: A game that counts for the boards: ranked (unassisted, from the server's own moves), not deleted.
RANKED = "g.ranked AND NOT g.set_aside AND g.deleted_at IS NULL"


class SQLitePlayers:
    """Mixed into ``SQLiteConnection`` (and so into PostgreSQL's connection)."""

    _db: sqlite3.Connection

    def profile(self, player_id: int) -> Profile | None:
        row = self._db.execute(
            "SELECT id, name, hidden, host_hidden FROM players WHERE id = ?", (player_id,)
        ).fetchone()
        return _profile(row) if row is not None else None

    def player_named(self, name_key: str) -> int | None:
        row = self._db.execute("SELECT id FROM players WHERE name_key = ?", (name_key,)).fetchone()
        return row[0] if row is not None else None

    def set_name(self, player_id: int, name: str | None, name_key: str | None) -> None:
        self._db.execute(
            "UPDATE players SET name = ?, name_key = ? WHERE id = ?", (name, name_key, player_id)
        )

    def set_hidden(self, player_id: int, hidden: bool, *, by_host: bool) -> None:
        column = "host_hidden" if by_host else "hidden"
        self._db.execute(f"UPDATE players SET {column} = ? WHERE id = ?", (hidden, player_id))

    def add_device(self, key: str, player_id: int, now: str) -> None:
        self._db.execute(
            "INSERT INTO player_devices (key, player_id, created_at) VALUES (?, ?, ?) "
            "ON CONFLICT (key) DO UPDATE "
            "SET player_id = excluded.player_id, created_at = excluded.created_at",
            (key, player_id, now),
        )

    def add_transfer_code(self, code_hash: str, player_id: int, expires_at: float) -> None:
        self._db.execute(
            "INSERT INTO transfer_codes (code_hash, player_id, expires_at) VALUES (?, ?, ?)",
            (code_hash, player_id, expires_at),
        )

    def end_transfer_codes(self, player_id: int, now: float) -> None:
        self._db.execute(
            "UPDATE transfer_codes SET expires_at = ? "
            "WHERE player_id = ? AND used_at IS NULL AND expires_at > ?",
            (now, player_id, now),
        )

    def forget_transfer_codes(self, before: float) -> None:
        self._db.execute("DELETE FROM transfer_codes WHERE expires_at < ?", (before,))

    def transfer_code(self, code_hash: str) -> tuple[int, float, float | None] | None:
        row = self._db.execute(
            "SELECT player_id, expires_at, used_at FROM transfer_codes WHERE code_hash = ?", (code_hash,)
        ).fetchone()
        return (row[0], float(row[1]), None if row[2] is None else float(row[2])) if row is not None else None

    def use_transfer_code(self, code_hash: str, now: float) -> None:
        self._db.execute("UPDATE transfer_codes SET used_at = ? WHERE code_hash = ?", (now, code_hash))

    def players_overview(self, named_only: bool) -> list[PlayerOverview]:
        rows = self._db.execute(
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
