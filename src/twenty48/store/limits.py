"""Per-player limits kept in the database, so that they hold across every server process on it.

A part of ``Store`` (``twenty48.store.games``). Each call is one write transaction that first takes
the player's write lock (SQLite's ``BEGIN IMMEDIATE``; PostgreSQL's lock on the player's row), so
two processes asking for the same player at once are answered one after the other::

    wait = store.take_new_game(player_id, per_minute=30)  # 0.0: allowed; else seconds to wait
    lease = store.claim_hint(player_id, seconds=30.0)     # None: another hint is in flight
    store.release_hint(player_id, lease)                  # only that lease is released
    lease = store.claim_import(player_id, seconds=60.0)   # the same for the player's one import

Times are Unix seconds of the calling process's clock (``time.time()``: the one clock that several
processes, and machines kept in time by NTP, share). A lease expires on its own, so the hint of a
process that was killed mid-hint blocks its player for ``seconds`` at most.
"""

from __future__ import annotations

import time
import uuid
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING

from twenty48.store.backend import Connection, LeaseKind, current_game_of


class LimitsStore:
    """Mixed into ``Store``, whose write transactions it uses."""

    if TYPE_CHECKING:

        def _write(self) -> AbstractContextManager[Connection]: ...

    def take_new_game(self, player_id: int, per_minute: int, now: float | None = None) -> float:
        """Take one from the player's new-game bucket (``per_minute`` at once, refilled at
        ``per_minute`` a minute): 0.0 if allowed, else the seconds until one is available."""
        if per_minute < 1:
            raise ValueError("per_minute must be at least 1")
        now = time.time() if now is None else now
        with self._write() as db:
            current_game_of(db, player_id)
            tokens, then = db.new_game_bucket(player_id) or (float(per_minute), now)
            # max(0, ...): a clock set back must not drain the bucket.
            tokens = min(per_minute, tokens + max(0.0, now - then) * per_minute / 60)
            if tokens < 1:
                db.set_new_game_bucket(player_id, tokens, now)
                return (1 - tokens) * 60 / per_minute
            db.set_new_game_bucket(player_id, tokens - 1, now)
            return 0.0

    def claim_hint(self, player_id: int, seconds: float, now: float | None = None) -> str | None:
        """A lease on the player's one hint in flight, valid for ``seconds``; None while another
        lease of the player is still valid."""
        return self._claim(player_id, "hint", seconds, now)

    def release_hint(self, player_id: int, lease: str) -> None:
        """End ``lease``: the player may ask again. A lease that expired and was claimed anew
        meanwhile is not this one, and stays."""
        self._release(player_id, "hint", lease)

    def claim_import(self, player_id: int, seconds: float, now: float | None = None) -> str | None:
        """A lease on the player's one import in flight, as ``claim_hint``."""
        return self._claim(player_id, "import", seconds, now)

    def release_import(self, player_id: int, lease: str) -> None:
        self._release(player_id, "import", lease)

    def _claim(self, player_id: int, kind: LeaseKind, seconds: float, now: float | None) -> str | None:
        now = time.time() if now is None else now
        with self._write() as db:
            current_game_of(db, player_id)
            held = db.lease(player_id, kind)
            if held is not None and held[1] > now:
                return None
            lease = uuid.uuid4().hex
            db.set_lease(player_id, kind, lease, now + seconds)
            return lease

    def _release(self, player_id: int, kind: LeaseKind, lease: str) -> None:
        with self._write() as db:
            current_game_of(db, player_id)
            held = db.lease(player_id, kind)
            if held is not None and held[0] == lease:
                db.set_lease(player_id, kind, None, None)
