"""``Limits``: per-player limits kept in the database, so that they hold across every server
process on it. Each call is one write transaction that first takes
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

from twenty48.store.games import sql as games_sql
from twenty48.store.games.rows import GameRows
from twenty48.store.limits import sql as limits_sql
from twenty48.store.limits.sql import LeaseKind


class Limits:
    """The store's part for the per-player limits; ``Store`` documents each operation."""

    def __init__(self, rows: GameRows) -> None:
        self._rows = rows

    def take_new_game(self, player_id: int, per_minute: int, now: float | None) -> float:
        if per_minute < 1:
            raise ValueError("per_minute must be at least 1")
        now = time.time() if now is None else now
        with self._rows.write() as db:
            games_sql.current_game_of(db, player_id)
            tokens, then = limits_sql.new_game_bucket(db, player_id) or (float(per_minute), now)
            # max(0, ...): a clock set back must not drain the bucket.
            tokens = min(per_minute, tokens + max(0.0, now - then) * per_minute / 60)
            if tokens < 1:
                limits_sql.set_new_game_bucket(db, player_id, tokens, now)
                return (1 - tokens) * 60 / per_minute
            limits_sql.set_new_game_bucket(db, player_id, tokens - 1, now)
            return 0.0

    def claim(self, player_id: int, kind: LeaseKind, seconds: float, now: float | None) -> str | None:
        """A lease on the player's one ``kind`` in flight, valid for ``seconds``; None while
        another lease of the player is still valid."""
        now = time.time() if now is None else now
        with self._rows.write() as db:
            games_sql.current_game_of(db, player_id)
            held = limits_sql.lease(db, player_id, kind)
            if held is not None and held[1] > now:
                return None
            lease = uuid.uuid4().hex
            limits_sql.set_lease(db, player_id, kind, lease, now + seconds)
            return lease

    def release(self, player_id: int, kind: LeaseKind, lease: str) -> None:
        """End ``lease``: the player may ask again. A lease that expired and was claimed anew
        meanwhile is not this one, and stays."""
        with self._rows.write() as db:
            games_sql.current_game_of(db, player_id)
            held = limits_sql.lease(db, player_id, kind)
            if held is not None and held[0] == lease:
                limits_sql.set_lease(db, player_id, kind, None, None)
