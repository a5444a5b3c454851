"""The JSON API under ``/api``. Routes translate HTTP to store calls and back; they hold no rules."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import partial
from typing import Annotated, Any, TypeVar

import anyio
from fastapi import APIRouter, Depends, Path, Query, Request, status

from twenty48.rules import Board, Direction
from twenty48.store import GameFinishedError, Store
from twenty48.web.guard import player_token
from twenty48.web.models import (
    ID_LIMIT,
    ActionRequest,
    BestScore,
    ErrorAnswer,
    GameList,
    GameListItem,
    GameState,
    HintAnswer,
    MoveAnswer,
    MoveRequest,
    NewGameRequest,
    RankedMove,
    ReplayAnswer,
)

T = TypeVar("T")

#: Remembered cookie -> player id mappings; cleared when full (it only saves a query).
PLAYER_CACHE_SIZE = 100_000
DEFAULT_HINT_MS = 300
MAX_HINT_MS = 5000


@dataclass
class WebContext:
    """What the routes share: the store, the thread that talks to it, the solver's budget."""

    store: Store
    #: One thread: the store serialises its calls anyway, and one queue beats 40 threads on a lock.
    executor: ThreadPoolExecutor = field(
        default_factory=lambda: ThreadPoolExecutor(max_workers=1, thread_name_prefix="twenty48-store")
    )
    #: Hints run one at a time, so a burst of them cannot take every core from the moves.
    hint_limiter: anyio.CapacityLimiter = field(default_factory=lambda: anyio.CapacityLimiter(1))
    players: dict[str, int] = field(default_factory=dict)

    async def run(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.executor, partial(fn, *args, **kwargs))


def context(request: Request) -> WebContext:
    web: WebContext = request.app.state.web
    return web


async def player_id(request: Request) -> int:
    web = context(request)
    token = player_token(request.scope)
    known = web.players.get(token)
    if known is not None:
        return known
    player = await web.run(web.store.web_player, token)
    if len(web.players) >= PLAYER_CACHE_SIZE:
        web.players.clear()
    web.players[token] = player.id
    return player.id


Web = Annotated[WebContext, Depends(context)]
Player = Annotated[int, Depends(player_id)]
GameId = Annotated[int, Path(ge=1, le=ID_LIMIT, description="A game of the requesting player.")]

_ERRORS: dict[int | str, dict[str, Any]] = {
    code: {"model": ErrorAnswer, "description": description}
    for code, description in {
        400: "Malformed JSON.",
        404: "No such game for this player.",
        413: "Request body over 4096 bytes.",
        422: "A field is missing, of the wrong type or out of range.",
        503: "The database is unavailable (locked by another program, disk full).",
    }.items()
}
_CONFLICT: dict[int | str, dict[str, Any]] = {
    409: {
        "model": ErrorAnswer,
        "description": "Refused in the game's present state (stale revision, finished game, nothing "
        "to undo, ...); `state` is the unchanged current game.",
    }
}

router = APIRouter(prefix="/api", responses=_ERRORS)


@router.get("/game", summary="The player's current game (started on first visit)")
async def current_game(web: Web, player: Player) -> GameState:
    return GameState.of(await web.run(web.store.current_game, player))


@router.post("/games", status_code=status.HTTP_201_CREATED, summary="Start a new game")
async def new_game(web: Web, player: Player, body: NewGameRequest | None = None) -> GameState:
    seed = body.seed if body is not None else None
    return GameState.of(await web.run(web.store.new_game, player, seed))


@router.get("/games", summary="The player's games, newest first")
async def list_games(
    web: Web,
    player: Player,
    limit: Annotated[int, Query(ge=1, le=100)] = 20,
    before: Annotated[int | None, Query(ge=1, le=ID_LIMIT, description="A game id")] = None,
) -> GameList:
    games = await web.run(web.store.games, player, limit=limit, before=before)
    return GameList(
        games=[GameListItem.of(g) for g in games],
        next_before=games[-1].id if len(games) == limit else None,
    )


@router.get("/games/{game_id}", summary="One game's state")
async def get_game(web: Web, player: Player, game_id: GameId) -> GameState:
    return GameState.of(await web.run(web.store.get_game, player, game_id))


@router.post(
    "/games/{game_id}/move",
    responses=_CONFLICT,
    summary="Play a direction",
    description="Applies the move only if `revision` is the game's current revision. Revisions, "
    "not move counts, guard against stale clients: undo lowers the move count, so a count can "
    "name two different positions, whereas every accepted action bumps the revision. An illegal "
    "move answers 200 with `changed: false` and changes nothing.",
)
async def move(web: Web, player: Player, game_id: GameId, body: MoveRequest) -> MoveAnswer:
    outcome = await web.run(web.store.move, player, game_id, body.direction, revision=body.revision)
    return MoveAnswer.of(outcome)


@router.post("/games/{game_id}/undo", responses=_CONFLICT, summary="Take back the last move")
async def undo(web: Web, player: Player, game_id: GameId, body: ActionRequest) -> GameState:
    return GameState.of(await web.run(web.store.undo, player, game_id, revision=body.revision))


@router.post("/games/{game_id}/keep-going", responses=_CONFLICT, summary="Play on after winning")
async def keep_going(web: Web, player: Player, game_id: GameId, body: ActionRequest) -> GameState:
    return GameState.of(await web.run(web.store.keep_going, player, game_id, revision=body.revision))


@router.get(
    "/games/{game_id}/hint",
    responses=_CONFLICT,
    summary="The solver's ranking of the legal moves",
    description="Runs the expectimax solver on the game's position for at most `time_ms`.",
)
async def hint(
    web: Web,
    player: Player,
    game_id: GameId,
    time_ms: Annotated[int, Query(ge=10, le=MAX_HINT_MS)] = DEFAULT_HINT_MS,
) -> HintAnswer:
    record = await web.run(web.store.get_game, player, game_id)
    if record.over:
        raise GameFinishedError("the game is over: there is no move to rank", record)
    ranking = await anyio.to_thread.run_sync(
        partial(_rank, record.board, time_ms / 1000), limiter=web.hint_limiter
    )
    return HintAnswer(
        game_id=record.id,
        revision=record.revision,
        best=next(iter(ranking)),
        moves=[RankedMove(direction=d, value=v) for d, v in ranking.items()],
    )


def _rank(board: Board, time_limit: float) -> dict[Direction, float]:
    # Imported on first use: loading the compiled solver is not worth delaying the server's start.
    from twenty48.ai import rank_moves

    return rank_moves(board, time_limit=time_limit)


@router.get("/games/{game_id}/replay", responses=_CONFLICT, summary="A finished game's seed and moves")
async def replay(web: Web, player: Player, game_id: GameId) -> ReplayAnswer:
    return ReplayAnswer.of(await web.run(web.store.replay, player, game_id))


@router.get("/best", summary="The player's best score")
async def best(web: Web, player: Player) -> BestScore:
    return BestScore(best=await web.run(web.store.best_score, player))
