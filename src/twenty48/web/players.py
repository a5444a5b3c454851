"""The players' API: a display name, hiding from the boards, and moving to another device."""

from __future__ import annotations

import logging
import math

from fastapi import APIRouter, Request, Response, status
from fastapi.responses import JSONResponse

from twenty48.names import NameRefusedError, check
from twenty48.store import TransferCodeError
from twenty48.web.answers import ERROR_RESPONSES, json_answer
from twenty48.web.context import NO_PLAYER, CallerDep
from twenty48.web.error_codes import ErrorCode
from twenty48.web.errors import TooManyRequestsError, error_response
from twenty48.web.guard import new_token, player_cookie
from twenty48.web.models import ErrorAnswer
from twenty48.web.players_models import ClaimRequest, MeAnswer, MeRequest, NameRefusal, TransferAnswer

logger = logging.getLogger("twenty48.web")

router = APIRouter(prefix="/api", responses=ERROR_RESPONSES)


@router.get("/me", response_model=MeAnswer, summary="The player's display name and board visibility")
async def me(me: CallerDep) -> Response:
    if me.player == NO_PLAYER:
        return json_answer(MeAnswer.of(None))
    return json_answer(MeAnswer.of(await me.run(me.web.store.profile, me.player)))


@router.put(
    "/me",
    response_model=MeAnswer,
    responses={
        422: {
            "model": NameRefusal,
            "description": "`name_empty`, `name_too_long`, `name_spaces`, `name_character` (the "
            "character named in `detail`, and given in `character` and `character_name`), "
            "`name_no_letter` (only punctuation and spaces), `name_taken` (another player has it, in "
            "any case).",
        }
    },
    summary="Choose a display name, or hide from the leaderboards",
    description="Without a name a player is anonymous and never on a board. `hidden: true` keeps "
    "the player's entries (and their public replays) off the boards until set back to false; a "
    "host's hiding (`2048 admin hide`) is apart from it and stays.",
)
async def set_me(me: CallerDep, body: MeRequest) -> Response:
    store = me.web.store
    if "name" in body.model_fields_set and body.name is not None:
        try:
            check(body.name)
        except NameRefusedError as exc:
            refusal = NameRefusal(
                error=ErrorCode(exc.reason), detail=str(exc), character=exc.char, character_name=exc.char_name
            )
            return JSONResponse(refusal.model_dump(mode="json", exclude_none=True), status_code=422)
        # Asked before a first-time visitor becomes a stored player: a refused name creates none.
        if await me.run(store.name_taken, body.name, me.player):
            return error_response(422, ErrorCode.NAME_TAKEN, f"the name {body.name!r} is taken")
    me = await me.registered()
    profile = await me.run(store.profile, me.player)
    if "name" in body.model_fields_set:
        profile = await me.run(store.set_name, me.player, body.name)
    if body.hidden is not None:
        profile = await me.run(store.set_hidden, me.player, body.hidden)
    return json_answer(MeAnswer.of(profile))


@router.post(
    "/me/transfer",
    response_model=TransferAnswer,
    status_code=status.HTTP_201_CREATED,
    summary="A one-time code that makes another device this player",
    description="The code works once, for 15 minutes; a new code ends the earlier ones. Enter it on "
    "the other device (`POST /api/me/claim`). Only a hash of it is stored.",
)
async def transfer(me: CallerDep) -> Response:
    me = await me.registered()
    now = me.web.clock()
    code = await me.run(me.web.store.new_transfer, me.player, now)
    return json_answer(TransferAnswer.of(code, now), status.HTTP_201_CREATED)


@router.post(
    "/me/claim",
    response_model=MeAnswer,
    responses={
        404: {"model": ErrorAnswer, "description": "`code_unknown`: no such code."},
        410: {"model": ErrorAnswer, "description": "`code_expired` or `code_used`."},
        429: {
            "model": ErrorAnswer,
            "description": "`too_many_claims`: a code that does not work, from an address that tried "
            "too many this minute.",
        },
    },
    summary="Become the player of a transfer code",
    description="This device's cookie becomes the code's player (a new cookie is set); the games "
    "this device played before stay with its old, anonymous identity. Both devices are that player "
    "from then on. An address may try 10 codes that do not work a minute; a code that works is "
    "always accepted (a code cannot be guessed, and others' mistypes behind a shared address lock "
    "nobody out).",
)
async def claim(me: CallerDep, body: ClaimRequest, request: Request) -> Response:
    web = me.web
    now = web.clock()
    token = new_token()
    try:
        player = await me.run(web.store.claim_transfer, body.code, token, now)
    except TransferCodeError:
        # Only failures count: a guesser past the limit is told nothing new (a right guess of 136
        # random bits never comes), and a player who mistyped is not kept from the right code.
        wait = web.claims.take(me.address, now)
        if wait:
            logger.warning("refused a transfer claim: %s tried too many this minute", me.address)
            detail = f"at most {web.claims.count} transfer codes that do not work a minute"
            raise TooManyRequestsError(detail, math.ceil(wait), ErrorCode.TOO_MANY_CLAIMS) from None
        raise
    web.remember(token, player.id)
    response = json_answer(MeAnswer.of(await me.run(web.store.profile, player.id)))
    response.headers["set-cookie"] = player_cookie(token, request.scope)
    return response
