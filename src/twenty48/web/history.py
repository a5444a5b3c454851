"""The history API: replayed positions, statistics, deletion, export and import of the player's games."""

from __future__ import annotations

import json
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from typing import Annotated, Any, Literal

import anyio
from fastapi import APIRouter, Query, Request, Response, status

from twenty48.store import ImportRefusedError, transfer
from twenty48.store.records import Stats
from twenty48.web.answers import ERROR_RESPONSES, json_answer
from twenty48.web.context import NO_PLAYER, CallerDep
from twenty48.web.errors import error_response
from twenty48.web.guard import MAX_IMPORT_BODY
from twenty48.web.history_models import (
    ABANDONED_HELP,
    FirstMove,
    ImportAnswer,
    PositionCount,
    PositionsAnswer,
    StatsAnswer,
    positions_json,
)
from twenty48.web.models import DEFAULT_VARIANT, VARIANT_HELP, ErrorAnswer, VariantName
from twenty48.web.params import GameId

#: Imports replay every game on a thread of their own, one at a time, so that a big file neither
#: holds up the store thread (every player's moves) nor takes every core.
_IMPORTS = anyio.CapacityLimiter(1)

router = APIRouter(prefix="/api", responses=ERROR_RESPONSES)


@router.get(
    "/games/{game_id}/positions",
    response_model=PositionsAnswer,
    summary="The boards of a game after moves n, n+1, ...",
    description="Position k is the board after move k of the game's current line (move 0 is the start, "
    "with no slides); `slides`, `merges` and `spawn` are what move k did, for animation. The server "
    "replays from a checkpoint, so any page of any game costs at most a few hundred moves of replay.",
)
async def positions(
    me: CallerDep,
    game_id: GameId,
    first: FirstMove = 0,
    count: PositionCount = 100,
) -> Response:
    game_id = await me.stored(game_id)
    found = await me.run(me.web.store.positions, me.player, game_id, first, count)
    return Response(positions_json(found), media_type="application/json")


@router.delete(
    "/games/{game_id}",
    status_code=status.HTTP_204_NO_CONTENT,
    summary="Delete one of the player's games",
    description="The game leaves the player's games for good; deleting the current game means the "
    "next `GET /api/game` starts a new one. Its id is never reused.",
)
async def delete_game(me: CallerDep, game_id: GameId) -> Response:
    game_id = await me.stored(game_id)
    await me.run(me.web.store.delete_game, me.player, game_id)
    return Response(status_code=status.HTTP_204_NO_CONTENT)


@router.get(
    "/stats",
    response_model=StatsAnswer,
    summary="The player's statistics in a variant",
    description="The figures are over the games that ended: game over, or won (2048 made) and then "
    "left for a new game. A game replaced by a new game before it was over or won is abandoned: "
    "counted apart (`abandoned_games`), and in the figures only with `abandoned=include`.",
)
async def stats(
    me: CallerDep,
    variant: Annotated[VariantName, Query(description=VARIANT_HELP)] = DEFAULT_VARIANT,
    assisted: Annotated[
        Literal["include", "exclude"],
        Query(description="exclude: only games known to have had no hint, auto-played move or undo"),
    ] = "include",
    abandoned: Annotated[Literal["include", "exclude"], Query(description=ABANDONED_HELP)] = "exclude",
) -> Response:
    if me.player == NO_PLAYER:
        # A visitor who has not played yet has no games (and asking stores nothing).
        return json_answer(StatsAnswer.of(Stats.unfinished(variant), assisted, abandoned))
    found = await me.run(
        me.web.store.stats,
        me.player,
        variant,
        assisted=assisted == "include",
        abandoned=abandoned == "include",
    )
    return json_answer(StatsAnswer.of(found, assisted, abandoned))


@router.get(
    "/games/{game_id}/export",
    summary='One game as a "twenty48-game/1" file',
    description='`{"format": "twenty48-game/1", "seed", "variant", "start_board" (prepared games only), '
    '"start_score" (with start_board, when not 0), "actions", "score", "moves", "max_tile", "finished", '
    '"status" ("ended": game over, or won; "abandoned": left for a new game before either; "playing"), '
    '"board" (the final board: it catches a changed action that the score would not)}`.',
)
async def export_game(me: CallerDep, game_id: GameId) -> Response:
    game_id = await me.stored(game_id)
    data = await me.run(me.web.store.export_game, me.player, game_id)
    return _file(data, f"twenty48-game-{game_id}.json")


@router.get(
    "/export",
    summary='Every game of the player as a "twenty48-history/1" file',
    description='`{"format": "twenty48-history/1", "games": [game file, ...]}`, oldest first.',
)
async def export_history(me: CallerDep) -> Response:
    if me.player == NO_PLAYER:
        return _file(transfer.export_history([]), "twenty48-history.json")
    return _file(await me.run(me.web.store.export_history, me.player), "twenty48-history.json")


@router.post(
    "/import",
    response_model=ImportAnswer,
    responses={
        413: {"model": ErrorAnswer, "description": f"Request body over {MAX_IMPORT_BODY} bytes."},
        422: {
            "model": ErrorAnswer,
            "description": "`import_refused`: a game that does not replay as recorded.",
        },
    },
    summary="Import a game or history file",
    description=f"Either file of the export routes, up to {MAX_IMPORT_BODY // (1 << 20)} MiB, as the JSON "
    "body or as the file of a `multipart/form-data` upload (`curl -F file=@history.json`). Every game "
    "is replayed; one whose actions do not replay, or whose recorded score, moves, largest tile or "
    "finished flag differ from its replay, refuses the whole file (422 `import_refused`, naming the "
    "game) and nothing is stored. Games already present are skipped. Imported games are finished, "
    "their assisted counts unknown, and they are never ranked.",
)
async def import_file(me: CallerDep, request: Request) -> Response:
    body = await request.body()
    content_type = request.headers.get("content-type", "")
    if content_type.lower().startswith("multipart/form-data"):
        uploaded = _uploaded_file(content_type, body)
        if uploaded is None:
            return error_response(400, "malformed_upload", "the form holds no file part")
        body = uploaded
    try:
        data = json.loads(body)
    except (ValueError, RecursionError):
        # Beside JSONDecodeError and UnicodeDecodeError: an integer past Python's 4,300-digit
        # limit (ValueError) and arrays nested too deeply (RecursionError) fit in the body limit.
        return error_response(400, "malformed_json", "the request body is not valid JSON")
    try:
        games = await anyio.to_thread.run_sync(transfer.read_file, data, limiter=_IMPORTS)
    except ImportRefusedError as exc:
        return error_response(422, "import_refused", str(exc))
    # A valid file is what makes a first-time visitor a stored player (a refused one creates none).
    me = await me.registered()
    result = await me.run(me.web.store.import_games, me.player, games)
    return json_answer(ImportAnswer(imported=list(result.imported), skipped=result.skipped))


def _uploaded_file(content_type: str, body: bytes) -> bytes | None:
    """The first file in a ``multipart/form-data`` body (as ``curl -F file=@games.json`` or an HTML
    form sends it), else its first part; None when there is no part. The body is within the
    import limit already, and the standard library's MIME parser reads it."""
    head = f"Content-Type: {content_type}\r\n\r\n".encode("latin-1", "replace")
    form = BytesParser(policy=policy.HTTP).parsebytes(head + body)
    if not form.is_multipart():
        return None
    parts = [part for part in form.iter_parts() if isinstance(part, EmailMessage)]
    files = [part for part in parts if part.get_filename() is not None] or parts
    if not files:
        return None
    payload = files[0].get_payload(decode=True)
    return payload if isinstance(payload, bytes) else None


def _file(data: dict[str, Any], name: str) -> Response:
    return Response(
        json.dumps(data, separators=(",", ":")),
        media_type="application/json",
        headers={"Content-Disposition": f'attachment; filename="{name}"'},
    )
