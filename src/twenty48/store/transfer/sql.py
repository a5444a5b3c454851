"""The statements of imports stored in steps, in the SQL both backends share.

Lists of ids or digests go in as ``IN (?, ?, ...)``; the caller keeps each list short
(``twenty48.store.transfer.imports``), within every backend's limit on parameters.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from twenty48.store.database import SQL
from twenty48.store.games.sql import GameColumns


class Staged(NamedTuple):
    """What an imported game's row holds beside its state: the import staging it, what makes it the
    same game as another (``transfer.digest``), and what its file says of it."""

    token: str
    digest: str
    created_at: str | None
    #: (hints, auto_moves, undos), None where unknown.
    assists: tuple[int | None, int | None, int | None]


def _marks(values: Sequence[object]) -> str:
    return ", ".join("?" * len(values))


def undigested(db: SQL, player_id: int, after: int, limit: int) -> list[tuple[int, int]]:
    """(id, moves) of up to ``limit`` of the player's games (not deleted) without a digest, from the
    first id above ``after`` on."""
    rows = db.execute(
        "SELECT id, moves FROM games "
        "WHERE player_id = ? AND digest IS NULL AND id > ? AND NOT set_aside ORDER BY id LIMIT ?",
        (player_id, after, limit),
    ).fetchall()
    return [(r[0], r[1]) for r in rows]


def set_digest(db: SQL, game_id: int, digest: str) -> None:
    db.execute("UPDATE games SET digest = ? WHERE id = ?", (digest, game_id))


def digests_present(db: SQL, player_id: int, digests: Sequence[str]) -> list[tuple[str, str]]:
    """(digest, created_at) of each of the player's games (not deleted) with one of ``digests``."""
    if not digests:
        return []
    rows = db.execute(
        f"SELECT digest, created_at FROM games "
        f"WHERE player_id = ? AND digest IN ({_marks(digests)}) AND NOT set_aside",
        (player_id, *digests),
    ).fetchall()
    return [(r[0], r[1]) for r in rows]


def insert_staged(db: SQL, player_id: int, columns: GameColumns, state: str, now: str, staged: Staged) -> int:
    """A new imported game row (never ranked), hidden under the import's token until ``unstage``,
    without its actions; returns its id. It began at ``staged.created_at``, or ``now`` when the file
    does not say."""
    (game_id,) = db.execute(
        """INSERT INTO games (player_id, revision, variant, score, moves, max_tile, won, over, spawns,
                              size, state, created_at, updated_at, finished_at, origin, hints,
                              auto_moves, undos, digest, import_token, set_aside)
           VALUES (?, 0, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'imported', ?, ?, ?, ?, ?, TRUE)
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


def unstage(db: SQL, game_ids: Sequence[int]) -> None:
    """Show these staged games: they are the player's from now on."""
    if game_ids:
        db.execute(
            f"UPDATE games SET set_aside = FALSE, import_token = NULL "
            f"WHERE import_token IS NOT NULL AND id IN ({_marks(game_ids)})",
            tuple(game_ids),
        )


def staged(db: SQL, token: str, limit: int) -> list[tuple[int, int]]:
    """(id, moves) of up to ``limit`` games staged under ``token``."""
    rows = db.execute(
        "SELECT id, moves FROM games WHERE import_token = ? ORDER BY id LIMIT ?", (token, limit)
    ).fetchall()
    return [(r[0], r[1]) for r in rows]


def staged_before(db: SQL, token: str, limit: int) -> list[tuple[int, int]]:
    """(id, moves) of up to ``limit`` games staged under a token that sorts before ``token``."""
    rows = db.execute(
        "SELECT id, moves FROM games WHERE import_token IS NOT NULL AND import_token < ? "
        "ORDER BY import_token LIMIT ?",
        (token, limit),
    ).fetchall()
    return [(r[0], r[1]) for r in rows]


def drop_staged(db: SQL, game_ids: Sequence[int]) -> None:
    """Delete these staged games and their moves: nobody was ever shown them, so their ids may be
    given again."""
    if not game_ids:
        return
    found = f"SELECT id FROM games WHERE import_token IS NOT NULL AND id IN ({_marks(game_ids)})"
    for table in ("game_moves", "game_checkpoints", "game_first_reach"):
        db.execute(f"DELETE FROM {table} WHERE game_id IN ({found})", tuple(game_ids))
    db.execute(
        f"DELETE FROM games WHERE import_token IS NOT NULL AND id IN ({_marks(game_ids)})", tuple(game_ids)
    )
