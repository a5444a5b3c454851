"""The server's limits on what one player, or all of them, may make it do: settings of ``2048 serve``."""

from __future__ import annotations

import time
from dataclasses import dataclass

#: Games one player may start through ``POST /api/games`` in a minute (a burst of as many, then
#: one every 60/N s). A person starts a few; a script looping on it grew the database by 33 MB in 50 s.
NEW_GAMES_PER_MINUTE = 30
#: Hints being computed or waiting, over all players. One runs at a time (each may take every core
#: for up to 5 s), so a longer queue only makes its last client wait longer.
HINT_QUEUE = 4


@dataclass(frozen=True, slots=True)
class Limits:
    """``2048 serve --new-games-per-minute`` and ``--hint-queue``."""

    new_games_per_minute: int = NEW_GAMES_PER_MINUTE
    hint_queue: int = HINT_QUEUE


class RateLimit:
    """A token bucket per key: ``per_minute`` at once, refilled at ``per_minute`` a minute."""

    #: Keys remembered at most; beyond that, the keys whose bucket has refilled are forgotten.
    MAX_KEYS = 100_000

    def __init__(self, per_minute: int) -> None:
        self.per_minute = per_minute
        self._buckets: dict[str, tuple[float, float]] = {}  # key -> (tokens, when counted)

    def take(self, key: str, now: float | None = None) -> float:
        """Take one for ``key``: 0.0 if allowed, else the seconds until one is available."""
        now = time.monotonic() if now is None else now
        tokens, then = self._buckets.get(key, (self.per_minute, now))
        tokens = min(self.per_minute, tokens + (now - then) * self.per_minute / 60)
        if tokens < 1:
            self._buckets[key] = (tokens, now)
            return (1 - tokens) * 60 / self.per_minute
        if len(self._buckets) >= self.MAX_KEYS and key not in self._buckets:
            self._forget_full(now)
        self._buckets[key] = (tokens - 1, now)
        return 0.0

    def _forget_full(self, now: float) -> None:
        # A full bucket is the state of a key never seen: forgetting it changes no answer.
        refill = 60 / self.per_minute
        self._buckets = {
            k: (t, w) for k, (t, w) in self._buckets.items() if t + (now - w) / refill < self.per_minute
        }
