"""The statements of imports stored in steps (``ImportsConnection``), in the SQL both backends share.

Lists of ids or digests go in as ``IN (?, ?, ...)``; the caller keeps each list short
(``twenty48.store.imports``), within every backend's limit on parameters.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence

from twenty48.store.backend import GameColumns, Staged


def _marks(values: Sequence[object]) -> str:
    return ", ".join("?" * len(values))


class SQLiteImports:
    """Mixed into ``SQLiteConnection`` (and so into PostgreSQL's connection)."""

    _db: sqlite3.Connection

    def undigested(self, player_id: int, after: int, limit: int) -> list[tuple[int, int]]:
        rows = self._db.execute(
            "SELECT id, moves FROM games "
            "WHERE player_id = ? AND digest IS NULL AND id > ? AND NOT set_aside ORDER BY id LIMIT ?",
            (player_id, after, limit),
        ).fetchall()
        return [(r[0], r[1]) for r in rows]

    def set_digest(self, game_id: int, digest: str) -> None:
        self._db.execute("UPDATE games SET digest = ? WHERE id = ?", (digest, game_id))

    def digests_present(self, player_id: int, digests: Sequence[str]) -> list[tuple[str, str]]:
        if not digests:
            return []
        rows = self._db.execute(
            f"SELECT digest, created_at FROM games "
            f"WHERE player_id = ? AND digest IN ({_marks(digests)}) AND NOT set_aside",
            (player_id, *digests),
        ).fetchall()
        return [(r[0], r[1]) for r in rows]

    def insert_staged(
        self, player_id: int, columns: GameColumns, state: str, now: str, staged: Staged
    ) -> int:
        (game_id,) = self._db.execute(
            """INSERT INTO games (player_id, revision, variant, score, moves, max_tile, won, over, spawns,
                                  state, created_at, updated_at, finished_at, origin, hints, auto_moves,
                                  undos, digest, import_token, set_aside)
               VALUES (?, 0, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'imported', ?, ?, ?, ?, ?, TRUE)
               RETURNING id""",
            (
                player_id,
                *columns,
                state,
                staged.created_at or now,
                now,
                now if columns.over else None,
                *staged.assists,
                staged.digest,
                staged.token,
            ),
        ).fetchone()
        return int(game_id)

    def unstage(self, game_ids: Sequence[int]) -> None:
        if game_ids:
            self._db.execute(
                f"UPDATE games SET set_aside = FALSE, import_token = NULL "
                f"WHERE import_token IS NOT NULL AND id IN ({_marks(game_ids)})",
                tuple(game_ids),
            )

    def staged(self, token: str, limit: int) -> list[tuple[int, int]]:
        rows = self._db.execute(
            "SELECT id, moves FROM games WHERE import_token = ? ORDER BY id LIMIT ?", (token, limit)
        ).fetchall()
        return [(r[0], r[1]) for r in rows]

    def staged_before(self, token: str, limit: int) -> list[tuple[int, int]]:
        rows = self._db.execute(
            "SELECT id, moves FROM games WHERE import_token IS NOT NULL AND import_token < ? "
            "ORDER BY import_token LIMIT ?",
            (token, limit),
        ).fetchall()
        return [(r[0], r[1]) for r in rows]

    def drop_staged(self, game_ids: Sequence[int]) -> None:
        if not game_ids:
            return
        staged = f"SELECT id FROM games WHERE import_token IS NOT NULL AND id IN ({_marks(game_ids)})"
        for table in ("game_moves", "game_checkpoints", "game_first_reach"):
            self._db.execute(f"DELETE FROM {table} WHERE game_id IN ({staged})", tuple(game_ids))
        self._db.execute(
            f"DELETE FROM games WHERE import_token IS NOT NULL AND id IN ({_marks(game_ids)})",
            tuple(game_ids),
        )
