"""``Reviews``: stored game reviews and the state of the review jobs, kept in the database so that
every server process on it can answer for them (``2048 serve --workers N`` over PostgreSQL).

A game has at most one review row: the job that
computes it (``queued``, ``running``), or what became of that job (``done`` with the review,
``cancelled``, ``failed``). Each row names the setting it was made at (the review setting and the
solver version, as JSON) and the game's revision and moves when it started, so a review covers the
moves up to then, and one of another setting, or of a line that has changed since, is recomputed
on request. Only the job that owns a row (its ``job`` id) may write progress or the result to it::

    asked = store.request_review(player, game, setting)   # "current" | "pending" | "queued" | "busy"
    store.start_review(game, job)            # False: cancelled meanwhile, do not start
    store.review_progress(game, job, done)   # False: cancelled (by any process) or replaced
    store.finish_review(game, job, review)   # the review, stored for the next request
    store.cancel_review(player, game, setting)

A worker refreshes the ``heartbeat`` of its jobs (``review_progress``, every second or so); a
queued or running job whose heartbeat is older than ``STALE_S`` belonged to a process that is gone,
and reads as ``failed``.
"""

from __future__ import annotations

import json
import time
import uuid
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from twenty48.store.games import codec
from twenty48.store.games import sql as games_sql
from twenty48.store.games.rows import GameRows, now_text
from twenty48.store.reviews import sql as reviews_sql
from twenty48.store.reviews.sql import ReviewRow

#: Seconds without word from a job's worker after which the job is taken for dead.
STALE_S = 30.0
#: The states of a job still under way.
LIVE = ("queued", "running")

ReviewState = Literal["queued", "running", "done", "cancelled", "failed"]


@dataclass(frozen=True, slots=True)
class ReviewRecord:
    """A game's review row as the API reports it."""

    game_id: int
    job: str
    state: ReviewState
    #: Moves graded so far, and moves the review covers (the game's moves when it was asked for).
    done: int
    total: int
    #: The review's JSON object, as text, once ``done`` (handed on to a client as it is).
    review_text: str | None
    #: A done review made at the setting asked for, of the game's line as it stands now.
    current: bool

    @property
    def review(self) -> dict[str, Any] | None:
        return None if self.review_text is None else json.loads(self.review_text)


@dataclass(frozen=True, slots=True)
class ReviewRequest:
    """What asking for a review found: ``current`` (a done review to answer at once), ``pending``
    (a job for this game is under way), ``queued`` (a new job: compute ``game`` for ``job``) or
    ``busy`` (a job for another game of the player is under way)."""

    outcome: Literal["current", "pending", "queued", "busy"]
    record: ReviewRecord | None
    #: For ``queued``: the game's current line, as ``Game.to_dict()``, to review.
    game: dict[str, Any] | None = None


def setting_text(setting: Mapping[str, Any]) -> str:
    return json.dumps(setting, sort_keys=True, separators=(",", ":"))


class Reviews:
    """The store's part for reviews; ``Store`` documents each operation."""

    def __init__(self, rows: GameRows) -> None:
        self._rows = rows

    def request_review(
        self, player_id: int, game_id: int, setting: Mapping[str, Any], now: float | None, today: str | None
    ) -> ReviewRequest:
        now = time.time() if now is None else now
        wanted = setting_text(setting)
        rows = self._rows
        with rows.write() as db:
            games_sql.current_game_of(db, player_id)
            row, game = rows.load(db, player_id, game_id)
            if codec.withheld(row, game):
                # A daily game of an earlier day leaves its day's leaderboard as the day left it.
                rows.close_day(db, row, today)
                games_sql.add_assists(db, game_id)
            found = reviews_sql.review(db, game_id)
            if found is not None:
                record = _record(found, row.revision, wanted, now)
                if record.current:
                    return ReviewRequest("current", record)
                if record.state in LIVE:
                    return ReviewRequest("pending", record)
            other = reviews_sql.live_review_of_player(db, player_id, now - STALE_S)
            if other is not None and other != game_id:
                return ReviewRequest("busy", None)
            job = uuid.uuid4().hex
            reviews_sql.put_job(
                db, game_id, player_id, job, row.revision, game.moves, wanted, now, now_text()
            )
            record = _record(reviews_sql.review(db, game_id), row.revision, wanted, now)  # type: ignore[arg-type]
            return ReviewRequest("queued", record, game.to_dict())

    def review_status(
        self, player_id: int, game_id: int, setting: Mapping[str, Any], now: float | None
    ) -> ReviewRecord | None:
        now = time.time() if now is None else now
        with self._rows.read() as db:
            row, _ = self._rows.load(db, player_id, game_id)
            found = reviews_sql.review(db, game_id)
            return None if found is None else _record(found, row.revision, setting_text(setting), now)

    def cancel_review(
        self, player_id: int, game_id: int, setting: Mapping[str, Any], now: float | None
    ) -> ReviewRecord | None:
        now = time.time() if now is None else now
        with self._rows.write() as db:
            games_sql.current_game_of(db, player_id)
            row, _ = self._rows.load(db, player_id, game_id)
            found = reviews_sql.review(db, game_id)
            if found is None:
                return None
            if found.state in LIVE:
                reviews_sql.update(db, game_id, found.job, LIVE, "cancelled", None, None, now, now_text())
                found = reviews_sql.review(db, game_id)
                assert found is not None
            return _record(found, row.revision, setting_text(setting), now)

    def start_review(self, game_id: int, job: str, now: float | None) -> bool:
        return self._update(game_id, job, ("queued",), "running", None, None, now)

    def review_progress(self, game_id: int, job: str, done: int | None, now: float | None) -> bool:
        return self._update(game_id, job, LIVE, None, done, None, now)

    def finish_review(self, game_id: int, job: str, review: Mapping[str, Any], now: float | None) -> bool:
        text = json.dumps(review, separators=(",", ":"), allow_nan=False)
        return self._update(game_id, job, ("running",), "done", int(review["covers"]), text, now)

    def fail_review(self, game_id: int, job: str, now: float | None) -> None:
        self._update(game_id, job, LIVE, "failed", None, None, now)

    def _update(
        self,
        game_id: int,
        job: str,
        states: tuple[str, ...],
        state: str | None,
        done: int | None,
        review: str | None,
        now: float | None,
    ) -> bool:
        now = time.time() if now is None else now
        with self._rows.write() as db:
            return reviews_sql.update(db, game_id, job, states, state, done, review, now, now_text())


def _record(row: ReviewRow, revision: int, wanted: str, now: float) -> ReviewRecord:
    state = row.state
    if state in LIVE and row.heartbeat < now - STALE_S:
        state = "failed"  # its worker's process is gone
    return ReviewRecord(
        game_id=row.game_id,
        job=row.job,
        state=state,  # type: ignore[arg-type]
        done=row.done,
        total=row.covers,
        review_text=row.review,
        current=state == "done" and row.setting == wanted and row.revision == revision,
    )
