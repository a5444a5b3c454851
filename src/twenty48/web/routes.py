"""The JSON API under ``/api``. Routes translate HTTP to calls of the play use cases
(``twenty48.play_service``) and of the store, and back; they hold no rules."""

from __future__ import annotations

import logging
import math
from functools import partial
from typing import TYPE_CHECKING, Annotated, Any

from fastapi import APIRouter, Query, Request, Response, status

from twenty48.play_service import (
    PENDING_GAME,
    check_pending_keep_going,
    check_pending_undo,
    pending_record,
    pending_refusal,
)
from twenty48.rules import Board, Direction
from twenty48.store import ID_LIMIT, Daily
from twenty48.web.answers import ERROR_RESPONSES, json_answer
from twenty48.web.context import NO_PLAYER, CallerDep
from twenty48.web.days import seconds_to_midnight, utc_date
from twenty48.web.error_codes import ErrorCode
from twenty48.web.errors import TooManyRequestsError, error_response
from twenty48.web.models import (
    DEFAULT_SIZE_NAME,
    DEFAULT_VARIANT,
    VARIANT_HELP,
    ActionRequest,
    BestScore,
    DailyAnswer,
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
    SizeName,
    SortName,
    VariantName,
)
from twenty48.web.params import Digits, GameId
from twenty48.web.worker import HintInProgressError, wait_for_disconnect

if TYPE_CHECKING:
    from twenty48.ai import Pace

#: Games per page of the game list: the default and the most one request may ask for.
PAGE_SIZE = 20
MAX_PAGE_SIZE = 100
#: The solver's time budget for a hint, in milliseconds: the default and the range accepted.
DEFAULT_HINT_MS = 300
MIN_HINT_MS = 10
MAX_HINT_MS = 5000

logger = logging.getLogger("twenty48.web")

_CONFLICT: dict[int | str, dict[str, Any]] = {
    409: {
        "model": ErrorAnswer,
        "description": "Refused in the game's present state (stale revision, finished game, nothing "
        "to undo, ...); `state` is the unchanged current game.",
    }
}

router = APIRouter(prefix="/api", responses=ERROR_RESPONSES)


@router.get(
    "/game",
    response_model=GameState,
    summary="The player's current game",
    description="A visitor without a stored player, or a player who never had a game, gets a ranked "
    "game with id 0 that is not stored: the same one on every request with the same cookie. Its "
    "first move that changes the board stores the game (and the player); no GET stores anything.",
)
async def current_game(me: CallerDep) -> Response:
    record = None
    if me.player != NO_PLAYER:
        record = await me.run(me.web.store.current_web_game, me.player)
    return json_answer(GameState.of(record if record is not None else pending_record(me.pending())))


@router.post(
    "/games",
    response_model=GameState,
    status_code=status.HTTP_201_CREATED,
    responses={
        429: {
            "model": ErrorAnswer,
            "description": "`too_many_new_games` a minute for this player, or `too_many_new_players` "
            "an hour from this address.",
        }
    },
    summary="Start a new game",
    description="The new game becomes the current one. While the current game has no move yet it is "
    "replaced where it stands instead of being kept: a game is kept only once it has been played. "
    "Without `seed` the game is ranked (its spawns come from a secret key, withheld until it is "
    "finished); with one it is practice, never ranked. `size` is the board's, 2x2 to 6x6 (4x4 unless "
    "told), ranked or not; one out of range is 422. `daily` starts or resumes today's daily challenge "
    "(4x4 classic). A player may start a limited number of games a minute "
    "(`2048 serve --new-games-per-minute`); beyond it the answer is 429 with `Retry-After`.",
)
async def new_game(me: CallerDep, body: NewGameRequest | None = None) -> Response:
    body = body if body is not None else NewGameRequest()
    me = await me.registered()
    # Counted in the database: the limit holds across every server process on it.
    wait = await me.run(me.web.store.take_new_game, me.player, me.web.limits.new_games_per_minute)
    if wait:
        logger.warning("refused a new game: player %d started too many this minute", me.player)
        raise TooManyRequestsError(
            f"at most {me.web.limits.new_games_per_minute} new games a minute", math.ceil(wait)
        )
    record = await me.run(
        me.web.play.new_game,
        me.player,
        body.seed,
        body.variant,
        size=body.size,
        ranked=body.seed is None,
        daily=me.today() if body.daily else None,
    )
    return json_answer(GameState.of(record), status.HTTP_201_CREATED)


@router.get(
    "/daily",
    response_model=DailyAnswer,
    summary="Today's daily challenge: time left, the player's game and place",
    description='One classic ranked game per player and UTC day (`POST /api/games {"daily": true}`), '
    "from a seed of the player's own that nobody can compute ahead. Creates nothing.",
)
async def daily(me: CallerDep) -> Response:
    now = me.web.clock()
    if me.player == NO_PLAYER:
        found = Daily(utc_date(now), None, None)
    else:
        found = await me.run(me.web.store.daily, me.player, utc_date(now))
    return json_answer(DailyAnswer.of(found, seconds_to_midnight(now)))


@router.get(
    "/games",
    response_model=GameList,
    summary="The player's games, newest first (or by score or largest tile)",
    description="`next_before` pages on in the same order and filters.",
)
async def list_games(
    me: CallerDep,
    limit: Annotated[int, Query(ge=1, le=MAX_PAGE_SIZE), Digits] = PAGE_SIZE,
    before: Annotated[int | None, Query(ge=1, le=ID_LIMIT, description="A game id"), Digits] = None,
    sort: Annotated[
        SortName, Query(description="date: newest first; score, max_tile: highest first")
    ] = "date",
    variant: Annotated[VariantName | None, Query(description=VARIANT_HELP)] = None,
    finished: Annotated[bool | None, Query(description="Only finished (true) or unfinished games")] = None,
) -> Response:
    if me.player == NO_PLAYER:
        return json_answer(GameList(games=[], next_before=None))
    games = await me.run(
        me.web.store.games,
        me.player,
        limit=limit,
        before=before,
        sort=sort,
        variant=variant,
        finished=finished,
    )
    return json_answer(
        GameList(
            games=[GameListItem.of(g) for g in games],
            next_before=games[-1].id if len(games) == limit else None,
        )
    )


@router.get("/games/{game_id}", response_model=GameState, summary="One game's state")
async def get_game(me: CallerDep, game_id: GameId) -> Response:
    game_id = await me.stored(game_id)
    if game_id == PENDING_GAME:
        return json_answer(GameState.of(pending_record(me.pending())))
    return json_answer(GameState.of(await me.run(me.web.store.get_game, me.player, game_id)))


@router.post(
    "/games/{game_id}/move",
    response_model=MoveAnswer,
    responses=_CONFLICT,
    summary="Play a direction",
    description="Applies the move only if `revision` is the game's current revision. Revisions, "
    "not move counts, guard against stale clients: undo lowers the move count, so a count can "
    "name two different positions, whereas every accepted action bumps the revision. An illegal "
    "move answers 200 with `changed: false` and changes nothing. The answer is sent only after "
    "the move is committed to disk. In a Merge 2048 game, `cell` moves only the tile on that cell "
    "(a swipe that starts on it); a classic game refuses a `cell` with 409 `rejected`.",
)
async def move(me: CallerDep, game_id: GameId, body: MoveRequest) -> Response:
    play, today = me.web.play, me.today()
    try:
        if game_id != PENDING_GAME:
            outcome = await me.run(
                play.move,
                me.player,
                game_id,
                body.direction,
                cell=body.cell,
                revision=body.revision,
                auto=body.auto,
                today=today,
            )
            return json_answer(MoveAnswer.of(outcome))
        shown = me.pending()
        if me.player == NO_PLAYER:
            # A move that changes nothing stores nothing: the pending game is asked, not played.
            unchanged = pending_refusal(shown, body.revision, body.direction, body.cell)
            if unchanged is not None:
                return json_answer(MoveAnswer.of(unchanged))
            me = await me.registered()
        # The game is stored (unless it was) and the move played on it once, in one transaction.
        outcome = await me.run(
            play.move_pending,
            me.player,
            shown,
            body.direction,
            cell=body.cell,
            revision=body.revision,
            auto=body.auto,
            today=today,
        )
    except ValueError as exc:
        # The one thing the model cannot check: a cell past the game's own board (0-8 on a 3x3).
        # The game refused it before anything was written.
        return error_response(422, ErrorCode.INVALID_REQUEST, f"body.cell: {exc}")
    return json_answer(MoveAnswer.of(outcome))


@router.post(
    "/games/{game_id}/undo", response_model=GameState, responses=_CONFLICT, summary="Take back the last move"
)
async def undo(me: CallerDep, game_id: GameId, body: ActionRequest) -> Response:
    if game_id == PENDING_GAME and me.player == NO_PLAYER:
        check_pending_undo(me.pending(), body.revision)
    me, game_id = await me.game_id(game_id)
    record = await me.run(me.web.play.undo, me.player, game_id, revision=body.revision, today=me.today())
    return json_answer(GameState.of(record))


@router.post(
    "/games/{game_id}/keep-going",
    response_model=GameState,
    responses=_CONFLICT,
    summary="Play on after winning",
)
async def keep_going(me: CallerDep, game_id: GameId, body: ActionRequest) -> Response:
    if game_id == PENDING_GAME and me.player == NO_PLAYER:
        check_pending_keep_going(me.pending(), body.revision)
    me, game_id = await me.game_id(game_id)
    record = await me.run(
        me.web.play.keep_going, me.player, game_id, revision=body.revision, today=me.today()
    )
    return json_answer(GameState.of(record))


@router.post(
    "/games/{game_id}/hint",
    response_model=HintAnswer,
    responses=_CONFLICT,
    summary="The solver's ranking of the legal moves",
    description="Runs the expectimax solver on the game's position for at most `time_ms`. The solver "
    "ranks whole-board moves only and assumes classic spawns (2 or 4); for a Merge 2048 game its "
    "values are estimates under those assumptions, and single-tile moves are not considered. "
    "Hints are computed one at a time: a player has at most one at once (429 `hint_in_progress`), "
    "and at most `2048 serve --hint-queue` are computed or waiting over all players (503 "
    "`hints_busy`); both carry `Retry-After`. A hint whose client hangs up is dropped. A POST: "
    "the hint is counted (a ranked game is unranked for good), in the same transaction that checks "
    "the game is still being played at its current revision (409 otherwise, counting nothing). It "
    "is counted in the game's `hints`, once per position; with `auto=true` it is auto-play's, asked "
    "for the move it then plays: it counts as that auto-played move instead (`auto_moves`, once per "
    "position), and the move then played from it with `auto: true` is not counted again.",
)
# The hint was a GET until it was seen to be a write (it counts itself and unranks a game); clients
# written against that API keep working, and the page uses the POST.
@router.get(
    "/games/{game_id}/hint",
    response_model=HintAnswer,
    responses=_CONFLICT,
    summary="The solver's ranking of the legal moves (the POST's former form)",
    description="As `POST /api/games/{game_id}/hint`, which it equals in every respect: the hint is "
    "counted. Kept for clients of the earlier API.",
    deprecated=True,
)
async def hint(
    request: Request,
    me: CallerDep,
    game_id: GameId,
    time_ms: Annotated[int, Query(ge=MIN_HINT_MS, le=MAX_HINT_MS), Digits] = DEFAULT_HINT_MS,
    auto: Annotated[
        bool, Query(description="The hint is auto-play's: counted as the auto-played move it chooses.")
    ] = False,
) -> Response:
    asked = game_id
    # A hint on a pending game is counted (it unranks the game), so the game is stored first.
    me, game_id = await me.game_id(game_id)
    # The player's one hint in flight is a lease in the database, so that it holds across server
    # processes; it outlasts the longest this process may take (its queue, then the budget), and
    # expires by itself if the process dies holding it.
    lease = await me.run(me.web.store.claim_hint, me.player, me.web.limits.hint_lease_s(MAX_HINT_MS / 1000))
    if lease is None:
        raise HintInProgressError("a hint for this player is already being computed", 1)
    try:
        # The position ranked is the one the hint is counted on, in the transaction that checks
        # that the game is still being played: a move that ends it meanwhile comes before or after.
        record = await me.run(me.web.play.note_hint, me.player, game_id, auto=auto, today=me.today())
        ranking = await me.web.hints.run(
            partial(_rank, record.board, time_ms / 1000),
            time_ms / 1000,
            partial(wait_for_disconnect, request.receive),
        )
    finally:
        await me.run(me.web.store.release_hint, me.player, lease)
    return json_answer(
        HintAnswer(
            game_id=asked,
            revision=record.revision,
            best=next(iter(ranking)),
            moves=RankedMove.ranked(record.board, ranking),
        )
    )


def _rank(board: Board, time_limit: float, pace: Pace) -> dict[Direction, float]:
    # Imported on first use: loading the compiled solver is not worth delaying the server's start.
    from twenty48.ai import analyse

    return analyse(board, time_limit=time_limit, pace=pace).values


@router.get(
    "/games/{game_id}/replay",
    response_model=ReplayAnswer,
    responses=_CONFLICT,
    summary="A finished game's seed and moves",
)
async def replay(me: CallerDep, game_id: GameId) -> Response:
    game_id = await me.stored(game_id)
    return json_answer(ReplayAnswer.of(await me.run(me.web.store.replay, me.player, game_id)))


@router.get("/best", response_model=BestScore, summary="The player's best score in a variant and size")
async def best(
    me: CallerDep,
    variant: Annotated[VariantName, Query(description=VARIANT_HELP)] = DEFAULT_VARIANT,
    size: Annotated[SizeName, Query()] = DEFAULT_SIZE_NAME,
) -> Response:
    found = 0
    if me.player != NO_PLAYER:
        found = await me.run(me.web.store.best_score, me.player, variant, size)
    return json_answer(BestScore(variant=variant, size=size, best=found))
