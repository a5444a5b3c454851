"""The statements of stored reviews and review jobs, in the SQL both backends share; the caller
holds the player's write lock where it writes on a player's behalf."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from twenty48.store.database import SQL


class ReviewRow(NamedTuple):
    """A game's review row."""

    game_id: int
    player_id: int
    job: str
    state: str
    #: The game's revision and moves when the review was asked for.
    revision: int
    covers: int
    done: int
    #: The setting, as ``reviews.operations.setting_text`` writes it.
    setting: str
    #: The review's JSON text once done.
    review: str | None
    #: Unix seconds of the last word from the job's worker.
    heartbeat: float


_COLUMNS = "game_id, player_id, job, state, revision, covers, done, setting, review, heartbeat"


def review(db: SQL, game_id: int) -> ReviewRow | None:
    row = db.execute(f"SELECT {_COLUMNS} FROM game_reviews WHERE game_id = ?", (game_id,)).fetchone()
    return None if row is None else ReviewRow(*row[:9], float(row[9]))


def live_review_of_player(db: SQL, player_id: int, since: float) -> int | None:
    """A game of the player with a job queued or running whose heartbeat is after ``since``."""
    row = db.execute(
        "SELECT game_id FROM game_reviews WHERE player_id = ? AND state IN ('queued', 'running') "
        "AND heartbeat > ? ORDER BY game_id LIMIT 1",
        (player_id, since),
    ).fetchone()
    return None if row is None else int(row[0])


def put_job(
    db: SQL,
    game_id: int,
    player_id: int,
    job: str,
    revision: int,
    covers: int,
    setting: str,
    heartbeat: float,
    now: str,
) -> None:
    """A new queued job for the game, replacing the game's review row if it has one."""
    db.execute(
        "INSERT INTO game_reviews (game_id, player_id, job, state, revision, covers, done, setting, "
        "review, heartbeat, created_at, updated_at) "
        "VALUES (?, ?, ?, 'queued', ?, ?, 0, ?, NULL, ?, ?, ?) "
        "ON CONFLICT (game_id) DO UPDATE SET job = excluded.job, state = 'queued', "
        "revision = excluded.revision, covers = excluded.covers, done = 0, setting = excluded.setting, "
        "review = NULL, heartbeat = excluded.heartbeat, created_at = excluded.created_at, "
        "updated_at = excluded.updated_at",
        (game_id, player_id, job, revision, covers, setting, heartbeat, now, now),
    )


def update(
    db: SQL,
    game_id: int,
    job: str,
    states: Sequence[str],
    state: str | None,
    done: int | None,
    review: str | None,
    heartbeat: float,
    now: str,
) -> bool:
    """Update the row of ``job`` if it is in one of ``states``: the new ``state``, ``done`` and
    ``review`` where not None, and the heartbeat. Whether such a row was there."""
    marks = ", ".join("?" for _ in states)
    # RETURNING, not the cursor's rowcount: PostgreSQL's pipelined statements count their rows only
    # once their results are read.
    updated = db.execute(
        "UPDATE game_reviews SET state = coalesce(?, state), done = coalesce(?, done), "
        "review = coalesce(?, review), heartbeat = ?, updated_at = ? "
        f"WHERE game_id = ? AND job = ? AND state IN ({marks}) RETURNING 1",
        (state, done, review, heartbeat, now, game_id, job, *states),
    ).fetchone()
    return updated is not None
