"""The server's limits on what one player, or all of them, may make it do: settings of ``2048 serve``.

The per-player ones (new games a minute, one hint in flight) are kept in the database
(``twenty48.store.limits``), so they hold across every server process on it (``--workers N``, or
servers on several machines). The hint queue is per process: it bounds that process's solver, which
takes every core of its machine.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from twenty48.store.imports import MAX_IMPORT_SECONDS
from twenty48.store.transfer import MAX_IMPORT_GAMES

#: Games one player may start through ``POST /api/games`` in a minute (a burst of as many, then
#: one every 60/N s). A person starts a few; a script looping on it grew the database by 33 MB in 50 s.
NEW_GAMES_PER_MINUTE = 30
#: Hints being computed or waiting in one server process, over all players. One runs at a time (each
#: may take every core for up to 5 s), so a longer queue only makes its last client wait longer.
HINT_QUEUE = 4
#: Transfer codes one client address may try in a minute (a burst of as many, then one every 6 s).
#: A code has 136 random bits, so guessing is hopeless anyway; this keeps a script from trying.
CLAIMS_PER_MINUTE = 10
#: Addresses a ``RateBuckets`` remembers before it starts over.
ADDRESSES_KEPT = 10_000
#: Reviews running or waiting in one server process, over all players. One runs at a time (a
#: 5,000-move game takes up to half a minute of every core), so a longer queue only makes its last
#: player wait longer.
REVIEW_QUEUE = 4
#: Seconds a hint or import lease outlasts the longest either can take (the store's calls around it,
#: a slow event loop).
HINT_LEASE_MARGIN_S = 10.0


@dataclass(frozen=True, slots=True)
class Limits:
    """``2048 serve --new-games-per-minute`` and ``--hint-queue``, and the bounds of an import."""

    new_games_per_minute: int = NEW_GAMES_PER_MINUTE
    hint_queue: int = HINT_QUEUE
    review_queue: int = REVIEW_QUEUE
    #: The bounds of one ``POST /api/import``: its games, its seconds (``twenty48.store.imports``).
    import_games: int = MAX_IMPORT_GAMES
    import_seconds: float = MAX_IMPORT_SECONDS

    @property
    def import_lease_s(self) -> float:
        """How long a player's import lease lasts: the longest an import may take, and a margin."""
        return self.import_seconds + HINT_LEASE_MARGIN_S

    def hint_lease_s(self, longest_hint_s: float) -> float:
        """How long a player's hint lease lasts: as long as a hint may wait behind a full queue and
        then run, and a margin; a process killed mid-hint blocks its player that long at most."""
        return (self.hint_queue + 1) * longest_hint_s + HINT_LEASE_MARGIN_S


@dataclass
class RateBuckets:
    """A token bucket per client address, in this process (``per_minute`` at once, refilled at
    ``per_minute`` a minute); for requests that need no player, so no per-player limit applies."""

    per_minute: int
    buckets: dict[str, tuple[float, float]] = field(default_factory=dict)

    def take(self, address: str, now: float) -> float:
        """0.0 if allowed (one taken), else the seconds until one is."""
        if len(self.buckets) >= ADDRESSES_KEPT:
            self.buckets.clear()
        tokens, then = self.buckets.get(address, (float(self.per_minute), now))
        tokens = min(self.per_minute, tokens + max(0.0, now - then) * self.per_minute / 60)
        if tokens < 1:
            self.buckets[address] = (tokens, now)
            return (1 - tokens) * 60 / self.per_minute
        self.buckets[address] = (tokens - 1, now)
        return 0.0
