"""The app-wide ``WebContext`` and each request's ``Caller``: every router depends on them, not on routes."""

from __future__ import annotations

import logging
import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Annotated, Any, TypeVar

from fastapi import Depends, Request

from twenty48.game import Game
from twenty48.play_service import PENDING_GAME, PlayService
from twenty48.store import Store
from twenty48.web.days import utc_date
from twenty48.web.error_codes import ErrorCode
from twenty48.web.errors import TooManyRequestsError
from twenty48.web.guard import player_token
from twenty48.web.import_gate import ImportGate
from twenty48.web.limits import CLAIMS_PER_MINUTE, Limits, RateBuckets
from twenty48.web.pending import PENDING_SECRET, pending_game
from twenty48.web.review_worker import ReviewWorker
from twenty48.web.worker import HintWorker, StoreWorker

T = TypeVar("T")

#: How many cookie -> player id mappings ``WebContext.players`` holds before it starts over.
PLAYER_CACHE_SIZE = 100_000
logger = logging.getLogger("twenty48.web")

#: The player of a request whose cookie names no stored player yet. No player has id 0, so the
#: store finds nothing of it: its games are none and every game id answers 404.
NO_PLAYER = 0


@dataclass
class WebContext:
    """What the routes share: the store, the play use cases over it, the thread that talks to it,
    the solver's thread, limits."""

    store: Store
    worker: StoreWorker
    limits: Limits = field(default_factory=Limits)
    #: The play use cases (``twenty48.play_service``) over ``store``: every route that starts or
    #: plays a game calls these, not the store's own.
    play: PlayService = field(init=False)
    #: The server secret new visitors' pending games derive from (``twenty48.web.pending``).
    pending_secret: bytes = field(init=False)
    #: Hints run one at a time, so a burst of them cannot take every core from the moves.
    hints: HintWorker = field(init=False)
    #: Reviews run one at a time in a background process (``review_worker``).
    reviews: ReviewWorker = field(init=False)
    #: Remembered cookie token -> player id (it only saves a query; cleared when full).
    players: dict[str, int] = field(default_factory=dict)
    #: Unix seconds now: transfer codes' expiry, the UTC day of the daily challenge and its board
    #: (tests set it). Looked up at each call, so a test that patches ``time.time`` moves it too.
    clock: Callable[[], float] = field(default=lambda: time.time())
    #: Failed transfer claims per client address.
    claims: RateBuckets = field(default_factory=lambda: RateBuckets(CLAIMS_PER_MINUTE))
    #: New players per client address (``Limits.new_players_per_hour``).
    new_players: RateBuckets = field(init=False)
    #: The import running in this process (``twenty48.web.imports``): one at a time.
    imports: ImportGate = field(default_factory=ImportGate)

    def __post_init__(self) -> None:
        self.play = PlayService(self.store)
        self.hints = HintWorker(self.limits.hint_queue)
        self.pending_secret = self.store.server_secret(PENDING_SECRET)
        self.reviews = ReviewWorker(self.limits.review_queue, self.store, self.worker)
        self.new_players = RateBuckets(self.limits.new_players_per_hour, period_s=3600.0)

    def remember(self, token: str, player: int) -> None:
        if len(self.players) >= PLAYER_CACHE_SIZE:
            self.players.clear()
        self.players[token] = player


@dataclass(frozen=True, slots=True)
class Caller:
    """Who is asking, and with what: the player making the request and the shared ``WebContext``.

    Resolved once per request by one dependency (each dependency costs time per request).
    """

    web: WebContext
    #: The player's id, or ``NO_PLAYER`` until a request that needs one creates it (``registered``).
    player: int
    token: str = ""
    #: The client's address (the proxy's, unless ``--forwarded-allow-ips`` trusts it to name another).
    address: str = ""

    async def run(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        return await self.web.worker.run(fn, *args, **kwargs)

    def today(self) -> str:
        """The UTC date now: the daily challenge open, and the day a daily game is played on."""
        return utc_date(self.web.clock())

    def pending(self) -> Game:
        """The game this caller is shown before a player is stored (``twenty48.web.pending``)."""
        return pending_game(self.web.pending_secret, self.token)

    async def game_id(self, game_id: int) -> tuple[Caller, int]:
        """The caller and the stored game ``game_id`` names: ``PENDING_GAME`` is the caller's
        pending game, stored now if it was not yet (with the player), or a 404 once another game
        has replaced it."""
        if game_id != PENDING_GAME:
            return self, game_id
        me = await self.registered()
        pending = self.pending()
        return me, (await me.run(me.web.play.adopt_pending, me.player, pending)).id

    async def stored(self, game_id: int) -> int:
        """The stored game a reading route's ``game_id`` names: ``PENDING_GAME``, the id a tab was
        shown before the first move, is the game that move stored; while nothing is stored it stays
        ``PENDING_GAME``, which no stored game has (there is no game 0 to read). Stores nothing."""
        if game_id != PENDING_GAME or self.player == NO_PLAYER:
            return game_id
        found = await self.run(self.web.store.find_pending, self.player, self.pending())
        return PENDING_GAME if found is None else found

    async def registered(self) -> Caller:
        """This caller with a stored player: created now by the first request that needs one (it
        starts or shows a game), called once the request is known to be valid."""
        if self.player != NO_PLAYER:
            return self
        limit = self.web.limits.new_players_per_hour
        wait = self.web.new_players.take(self.address, self.web.clock())
        if wait:
            logger.warning(
                "refused a new player: %s made its %d this hour (--new-players-per-hour; behind a proxy, "
                "--forwarded-allow-ips names it so that each client counts on its own)",
                self.address,
                limit,
            )
            raise TooManyRequestsError(
                f"at most {limit} new players an hour from one address",
                math.ceil(wait),
                ErrorCode.TOO_MANY_NEW_PLAYERS,
            )
        player = (await self.run(self.web.store.web_player, self.token)).id
        self.web.remember(self.token, player)
        return Caller(self.web, player, self.token, self.address)


async def get_caller(request: Request) -> Caller:
    # async: FastAPI would run a plain function in its thread pool, a hop per request.
    # Only looks the player up: reading, a refused request (422 included) and another origin's
    # page create nothing (routes that need a player call ``Caller.registered``).
    web: WebContext = request.app.state.web
    token = player_token(request.scope)
    address = request.client.host if request.client else ""
    player = web.players.get(token)
    if player is None:
        found = await web.worker.run(web.store.find_web_player, token)
        if found is None:
            return Caller(web, NO_PLAYER, token, address)
        player = found.id
        web.remember(token, player)
    return Caller(web, player, token, address)


#: A route parameter typed ``CallerDep`` receives the request's ``Caller``.
CallerDep = Annotated[Caller, Depends(get_caller)]
