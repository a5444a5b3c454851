"""The review API: ask for a game's review, follow it, cancel it (``twenty48.ai.review`` grades,
``review_worker`` runs it in the background, ``twenty48.store.reviews`` keeps it)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Response, status

from twenty48.store import ReviewRecord
from twenty48.web.answers import ERROR_RESPONSES
from twenty48.web.context import CallerDep
from twenty48.web.error_codes import ErrorCode
from twenty48.web.errors import error_response
from twenty48.web.models import ErrorAnswer
from twenty48.web.params import GameId
from twenty48.web.review_models import ReviewStatus, status_json
from twenty48.web.review_worker import ReviewJob

router = APIRouter(prefix="/api", responses=ERROR_RESPONSES)

#: Seconds a player whose other game is being reviewed is told to wait before asking again.
IN_PROGRESS_RETRY_S = 5

_POST_ANSWERS: dict[int | str, dict[str, Any]] = {
    200: {"model": ReviewStatus, "description": "The stored review, current: nothing to compute."},
    429: {"model": ErrorAnswer, "description": "`review_in_progress`: another game is being reviewed."},
    503: {"model": ErrorAnswer, "description": "`reviews_busy`: the review queue is full (`Retry-After`)."},
}
_NO_REVIEW: dict[int | str, dict[str, Any]] = {
    404: {"model": ErrorAnswer, "description": "`no_review`: none was asked for; `not_found`: no such game."}
}


def _setting() -> dict[str, Any]:
    # Imported on first use: twenty48.ai loads the compiled solver.
    from twenty48.ai.review import REVIEW_SETTING

    return REVIEW_SETTING


def _answer(record: ReviewRecord, code: int = status.HTTP_200_OK) -> Response:
    return Response(status_json(record), status_code=code, media_type="application/json")


@router.post(
    "/games/{game_id}/review",
    response_model=ReviewStatus,
    status_code=status.HTTP_202_ACCEPTED,
    responses=_POST_ANSWERS,
    summary="Ask for the solver's review of a game",
    description="Reviews the game's current line as it stands now (moves played after this request "
    "are not covered: `total` says how many are). 202 with the job's progress while it is queued or "
    "running (asking again while it runs answers the same job); 200 with the stored review when one at "
    "the server's review setting covers the game as it is. A player has one review at a time (429 "
    "`review_in_progress`); at most a few are computed or waiting in each server process (503 "
    "`reviews_busy`, checked first); both carry `Retry-After`.",
)
async def request_review(me: CallerDep, game_id: GameId) -> Response:
    game_id = await me.stored(game_id)
    store, reviews = me.web.store, me.web.reviews
    setting = _setting()
    found = await me.run(store.review_status, me.player, game_id, setting)
    if found is not None and (found.current or found.state in ("queued", "running")):
        return _answer(found, status.HTTP_200_OK if found.current else status.HTTP_202_ACCEPTED)
    reviews.reserve()
    try:
        asked = await me.run(store.request_review, me.player, game_id, setting, today=me.today())
    except BaseException:
        reviews.release()
        raise
    if asked.outcome != "queued":
        reviews.release()
    if asked.outcome == "busy":
        response = error_response(
            429, ErrorCode.REVIEW_IN_PROGRESS, "another game of yours is being reviewed"
        )
        response.headers["Retry-After"] = str(IN_PROGRESS_RETRY_S)
        return response
    assert asked.record is not None
    if asked.outcome == "queued":
        assert asked.game is not None
        reviews.submit(ReviewJob(game_id, asked.record.job, asked.game))
    code = status.HTTP_200_OK if asked.outcome == "current" else status.HTTP_202_ACCEPTED
    return _answer(asked.record, code)


@router.get(
    "/games/{game_id}/review",
    response_model=ReviewStatus,
    responses=_NO_REVIEW,
    summary="A game's review: its progress, or the review once done",
    description='`state` is "queued", "running", "done", "cancelled" or "failed" (its server stopped or '
    "failed); `done` of `total` moves are graded. A done review stays readable after the game moves on "
    "(`current` false: it covers the first `total` moves).",
)
async def get_review(me: CallerDep, game_id: GameId) -> Response:
    game_id = await me.stored(game_id)
    found = await me.run(me.web.store.review_status, me.player, game_id, _setting())
    if found is None:
        return error_response(404, ErrorCode.NO_REVIEW, f"no review was asked for game {game_id}")
    return _answer(found)


@router.delete(
    "/games/{game_id}/review",
    response_model=ReviewStatus,
    responses=_NO_REVIEW,
    summary="Cancel a game's review",
    description="Stops a queued or running review (in whichever server process runs it, within a move); "
    "a review already done, cancelled or failed is answered as it is.",
)
async def cancel_review(me: CallerDep, game_id: GameId) -> Response:
    game_id = await me.stored(game_id)
    found = await me.run(me.web.store.cancel_review, me.player, game_id, _setting())
    if found is None:
        return error_response(404, ErrorCode.NO_REVIEW, f"no review was asked for game {game_id}")
    me.web.reviews.cancelled(game_id)
    return _answer(found)
