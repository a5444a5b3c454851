"""The server's limits on what one player, or all of them, may make it do: settings of ``2048 serve``.

The per-player ones (new games a minute, one hint in flight) are kept in the database
(``twenty48.store.limits``), so they hold across every server process on it (``--workers N``, or
servers on several machines). The hint queue is per process: it bounds that process's solver, which
takes every core of its machine. The per-address ones (new players, failed transfer claims) are
per process too: with ``--workers N`` an address may make N times as many.
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass, field

from twenty48.store import MAX_IMPORT_GAMES, MAX_IMPORT_SECONDS

#: Games one player may start through ``POST /api/games`` in a minute (a burst of as many, then
#: one every 60/N s). A person starts a few; a script looping on it grew the database by 33 MB in 50 s.
NEW_GAMES_PER_MINUTE = 30
#: Hints being computed or waiting in one server process, over all players. One runs at a time (each
#: may take every core for up to 5 s), so a longer queue only makes its last client wait longer.
HINT_QUEUE = 4
#: Failed transfer claims one client address may make in a minute (a burst of as many, then one
#: every 6 s). A code has 136 random bits, so guessing is hopeless anyway; this keeps a script from
#: trying, while a working code is always accepted (a shared address's mistypes lock nobody out).
CLAIMS_PER_MINUTE = 10
#: New players (browsers without a cookie that make their first move, start a game, ...) one client
#: address may create in an hour: a burst of as many, then one every 60/N minutes. A class of 30
#: behind one school address starts at once; a script looping without a cookie made 16 a second.
NEW_PLAYERS_PER_HOUR = 60
#: Seconds a request's line and headers may take to arrive, and then its body (as long again for
#: each further 64 KiB of it): a browser sends a head in one packet, an API body in another; a
#: client that sent half a head, or announced 4,000 bytes and sent one, was held as long as it liked.
REQUEST_TIMEOUT_S = 10.0
#: Connections one server process holds: one more lets go of the one that waited longest, or is
#: answered 503 when every one runs a request (``twenty48.web.protocol``). A class of 30 browsers
#: keeps a few each; 512 stays well under the usual limit of 1,024 open files a process, which would
#: otherwise stop it accepting any.
MAX_CONNECTIONS = 512
#: Addresses a ``RateBuckets`` remembers before it starts over.
ADDRESSES_KEPT = 10_000
#: The IPv6 prefix one party holds (a home, a host are given a /64): its addresses share a bucket.
IPV6_PREFIX = 64
#: Reviews running or waiting in one server process, over all players. One runs at a time (a
#: 5,000-move game takes up to half a minute of every core), so a longer queue only makes its last
#: player wait longer.
REVIEW_QUEUE = 4
#: Seconds a hint or import lease outlasts the longest either can take (the store's calls around it,
#: a slow event loop).
HINT_LEASE_MARGIN_S = 10.0


@dataclass(frozen=True, slots=True)
class Limits:
    """``2048 serve --new-games-per-minute``, ``--new-players-per-hour`` and ``--hint-queue``, and the
    bounds of an import."""

    new_games_per_minute: int = NEW_GAMES_PER_MINUTE
    new_players_per_hour: int = NEW_PLAYERS_PER_HOUR
    hint_queue: int = HINT_QUEUE
    review_queue: int = REVIEW_QUEUE
    #: The bounds of one ``POST /api/import``: its games, its seconds (``twenty48.store.transfer.imports``).
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
    """A token bucket per client address, in this process (``count`` at once, refilled at ``count``
    every ``period_s``); for limits that no player's row can hold (no player yet, or none known)."""

    count: int
    period_s: float = 60.0
    buckets: dict[str, tuple[float, float]] = field(default_factory=dict)

    def take(self, address: str, now: float) -> float:
        """0.0 if allowed (one taken), else the seconds until one is."""
        if len(self.buckets) >= ADDRESSES_KEPT:
            self.buckets.clear()
        key = address_key(address)
        rate = self.count / self.period_s
        tokens, then = self.buckets.get(key, (float(self.count), now))
        tokens = min(self.count, tokens + max(0.0, now - then) * rate)
        if tokens < 1:
            self.buckets[key] = (tokens, now)
            return (1 - tokens) / rate
        self.buckets[key] = (tokens - 1, now)
        return 0.0


def address_key(address: str) -> str:
    """What a client address is counted as: an IPv6 address's /64 (one host may use any address in
    it), an IPv4 address written as IPv6 as itself, anything else as it is."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, IPV6_PREFIX), strict=False))
    return address
