"""The history API: replayed positions, statistics, deletion and export of the player's games (import:
``twenty48.web.imports``)."""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query, Response, status

from twenty48.rules import BoardSize
from twenty48.store import Stats, transfer
from twenty48.web.answers import ERROR_RESPONSES, json_answer
from twenty48.web.context import NO_PLAYER, CallerDep
from twenty48.web.history_models import (
    ABANDONED_HELP,
    FirstMove,
    PositionCount,
    PositionsAnswer,
    StatsAnswer,
    positions_json,
)
from twenty48.web.models import (
    DEFAULT_SIZE_NAME,
    DEFAULT_VARIANT,
    VARIANT_HELP,
    ErrorAnswer,
    SizeName,
    VariantName,
)
from twenty48.web.params import GameId

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
    description="The game leaves the player's games for good; deleting the current game starts a "
    "new (ranked) one in its place, which `GET /api/game` then shows. Its id is never reused.",
)
async def delete_game(me: CallerDep, game_id: GameId) -> Response:
    game_id = await me.stored(game_id)
    await me.run(me.web.store.delete_game, me.player, game_id)
    # The next current game is started here, not by the GET that would show it: reading stores nothing.
    await me.run(me.web.play.current_game, me.player, ranked=True)
    return Response(status_code=status.HTTP_204_NO_CONTENT)


@router.get(
    "/stats",
    response_model=StatsAnswer,
    summary="The player's statistics in a variant and size",
    description="The figures are over the games that ended: game over, or won (2048 made) and then "
    "left for a new game. A game replaced by a new game before it was over or won is abandoned: "
    "counted apart (`abandoned_games`), and in the figures only with `abandoned=include`. The games of "
    "one board size (`size`, 4x4 unless told) are counted: a win is the size's win tile.",
)
async def stats(
    me: CallerDep,
    variant: Annotated[VariantName, Query(description=VARIANT_HELP)] = DEFAULT_VARIANT,
    size: Annotated[SizeName, Query()] = DEFAULT_SIZE_NAME,
    assisted: Annotated[
        Literal["include", "exclude"],
        Query(description="exclude: only games known to have had no hint, auto-played move or undo"),
    ] = "include",
    abandoned: Annotated[Literal["include", "exclude"], Query(description=ABANDONED_HELP)] = "exclude",
) -> Response:
    if me.player == NO_PLAYER:
        # A visitor who has not played yet has no games (and asking stores nothing).
        unplayed = Stats.unfinished(variant, size=BoardSize.parse(size))
        return json_answer(StatsAnswer.of(unplayed, assisted, abandoned))
    found = await me.run(
        me.web.store.stats,
        me.player,
        variant,
        size=size,
        assisted=assisted == "include",
        abandoned=abandoned == "include",
    )
    return json_answer(StatsAnswer.of(found, assisted, abandoned))


@router.get(
    "/games/{game_id}/export",
    responses={
        409: {
            "model": ErrorAnswer,
            "description": "`game_in_progress`: a ranked game that may still be played (its seed "
            "would tell every tile to come); `state` is the game.",
        }
    },
    summary='One game as a "twenty48-game/2" file',
    description='`{"format": "twenty48-game/2", "seed", "variant", "size" (a board other than 4x4 only), '
    '"start_board" (prepared games only), '
    '"start_score" (with start_board, when not 0), "actions", "score", "moves", "max_tile", "finished", '
    '"board" (the final board: it catches a changed action that the score would not), "status" '
    '("ended": game over, or won; "abandoned": left for a new game before either; "playing"), '
    '"created_at" (when the game began), "hints", "auto_moves", "undos" (where known)}`.',
)
async def export_game(me: CallerDep, game_id: GameId) -> Response:
    game_id = await me.stored(game_id)
    data = await me.run(me.web.store.export_game, me.player, game_id)
    return _file(data, f"twenty48-game-{game_id}.json")


@router.get(
    "/export",
    summary='Every game of the player as a "twenty48-history/2" file',
    description='`{"format": "twenty48-history/2", "games": [game file, ...]}`, oldest first.',
)
async def export_history(me: CallerDep) -> Response:
    if me.player == NO_PLAYER:
        return _file(transfer.export_history([]), "twenty48-history.json")
    return _file(await me.run(me.web.store.export_history, me.player), "twenty48-history.json")


def _file(data: dict[str, Any], name: str) -> Response:
    return Response(
        json.dumps(data, separators=(",", ":")),
        media_type="application/json",
        headers={"Content-Disposition": f'attachment; filename="{name}"'},
    )
