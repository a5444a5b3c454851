"""The leaderboards, and the public replays of the games on them."""

from __future__ import annotations

from datetime import date
from typing import Annotated

from fastapi import APIRouter, Path, Query, Response

from twenty48.store import ID_LIMIT, MAX_LEADERBOARD_OFFSET, MAX_LEADERBOARD_PAGE
from twenty48.web.answers import ERROR_RESPONSES, json_answer
from twenty48.web.context import NO_PLAYER, CallerDep
from twenty48.web.error_codes import ErrorCode
from twenty48.web.errors import error_response
from twenty48.web.history_models import FirstMove, PositionCount, PositionsAnswer, positions_json
from twenty48.web.models import (
    DEFAULT_SIZE_NAME,
    DEFAULT_VARIANT,
    VARIANT_HELP,
    ReplayAnswer,
    SizeName,
    VariantName,
)
from twenty48.web.params import Digits
from twenty48.web.players_models import BoardName, LeaderboardAnswer, PublicGameAnswer

router = APIRouter(prefix="/api", responses=ERROR_RESPONSES)

PublicGameId = Annotated[
    int, Path(ge=1, le=ID_LIMIT, description="A game on the leaderboards, over (and past its day)."), Digits
]


@router.get(
    "/leaderboard",
    response_model=LeaderboardAnswer,
    summary="A leaderboard page, and the player's own entry",
    description="Ranked games only (never assisted, played through this server's moves, from a "
    "seed nobody chose), of named players who are not hidden, one game per player: score, highest "
    "first, then who finished first. `all-time`: each player's best game that is over, per variant and "
    "board size (`size`, 4x4 unless told). `daily`: the daily games of `date` (UTC, default today; 4x4 "
    "classic only), a game still being "
    "played with its score so far. `me` is the asking player's entry wherever it stands.",
)
async def leaderboard(
    me: CallerDep,
    board: Annotated[BoardName, Query(description="daily or all-time")] = "all-time",
    variant: Annotated[VariantName, Query(description=VARIANT_HELP)] = DEFAULT_VARIANT,
    size: Annotated[SizeName, Query()] = DEFAULT_SIZE_NAME,
    date_: Annotated[
        str | None,
        Query(alias="date", pattern=r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$", description="daily only: YYYY-MM-DD"),
    ] = None,
    limit: Annotated[int, Query(ge=1, le=MAX_LEADERBOARD_PAGE), Digits] = 20,
    offset: Annotated[int, Query(ge=0, le=MAX_LEADERBOARD_OFFSET), Digits] = 0,
) -> Response:
    now = me.today()
    if board == "daily":
        if variant != DEFAULT_VARIANT:
            return error_response(
                422, ErrorCode.INVALID_REQUEST, "variant: the daily challenge is classic only"
            )
        if size != DEFAULT_SIZE_NAME:
            return error_response(
                422, ErrorCode.INVALID_REQUEST, f"size: the daily challenge is {DEFAULT_SIZE_NAME} only"
            )
        if date_ is None:
            date_ = now
        try:
            day = date.fromisoformat(date_).isoformat()
        except ValueError:
            return error_response(422, ErrorCode.INVALID_REQUEST, f"date: {date_} is not a date")
        if day > now:
            return error_response(
                422, ErrorCode.INVALID_REQUEST, f"date: {day} has not begun yet (UTC today: {now})"
            )
        date_ = day
    elif date_ is not None:
        return error_response(422, ErrorCode.INVALID_REQUEST, "date: only the daily board has a date")
    found = await me.run(
        me.web.store.leaderboard,
        board,
        variant,
        size=size,
        date=date_,
        limit=limit,
        offset=offset,
        player_id=None if me.player == NO_PLAYER else me.player,
    )
    return json_answer(LeaderboardAnswer.of(found))


@router.get(
    "/public/games/{game_id}",
    response_model=PublicGameAnswer,
    summary="A leaderboard game's player and result, for anyone",
    description="For the games of the public replay (every other game answers 404): who played it "
    "(their display name), its variant, final score, largest tile and moves, and when it ended.",
)
async def public_game(me: CallerDep, game_id: PublicGameId) -> Response:
    name, game = await me.run(me.web.store.public_game, game_id, me.today())
    return json_answer(PublicGameAnswer.of(name, game))


@router.get(
    "/public/games/{game_id}/replay",
    response_model=ReplayAnswer,
    summary="A leaderboard game's seed and moves, for anyone",
    description="As `GET /api/games/{id}/replay`, for a game that is over and would be on a board "
    "(ranked, its player named and not hidden); a daily game only once its day is over. Every "
    "other game answers 404.",
)
async def public_replay(me: CallerDep, game_id: PublicGameId) -> Response:
    found = await me.run(me.web.store.public_replay, game_id, me.today())
    return json_answer(ReplayAnswer.of(found))


@router.get(
    "/public/games/{game_id}/positions",
    response_model=PositionsAnswer,
    summary="A leaderboard game's boards after moves n, n+1, ..., for anyone",
    description="As `GET /api/games/{id}/positions`, for the games of the public replay.",
)
async def public_positions(
    me: CallerDep,
    game_id: PublicGameId,
    first: FirstMove = 0,
    count: PositionCount = 100,
) -> Response:
    found = await me.run(me.web.store.public_positions, game_id, me.today(), first, count)
    return Response(positions_json(found), media_type="application/json")
