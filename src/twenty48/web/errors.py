"""Every failure answers JSON ``{"error": code, "detail": message}`` (plus ``state`` for conflicts)."""

from __future__ import annotations

import logging

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from starlette.exceptions import HTTPException
from starlette.routing import Match

from twenty48.store import (
    ActionRejectedError,
    GameConflictError,
    GameFinishedError,
    GameInProgressError,
    GameNotFoundError,
    NameTakenError,
    PlayerNotFoundError,
    StaleRevisionError,
    StoreError,
    TransferCodeError,
)
from twenty48.web.import_gate import ImportsBusyError
from twenty48.web.models import ErrorAnswer, GameState
from twenty48.web.review_worker import ReviewQueueFullError
from twenty48.web.worker import ClientGoneError, HintInProgressError, HintRefusedError

logger = logging.getLogger("twenty48.web")


class TooManyRequestsError(Exception):
    """A per-player rate limit refused the request; ``retry_after`` in seconds."""

    def __init__(self, message: str, retry_after: int, code: str = "too_many_new_games") -> None:
        super().__init__(message)
        self.retry_after = retry_after
        self.code = code


_HTTP_CODES = {
    400: "bad_request",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    409: "conflict",
    413: "body_too_large",
    415: "unsupported_media_type",
}

_CONFLICTS: dict[type[GameConflictError], str] = {
    StaleRevisionError: "stale_revision",
    GameFinishedError: "game_finished",
    ActionRejectedError: "rejected",
    GameInProgressError: "game_in_progress",
}


def error_response(status: int, code: str, detail: str, state: GameState | None = None) -> JSONResponse:
    answer = ErrorAnswer(error=code, detail=detail, state=state)
    # Only an absent state is left out: the state's own nulls (a ranked game's seed) are part of it.
    return JSONResponse(
        answer.model_dump(mode="json", exclude={"state"} if state is None else set()), status_code=status
    )


def _location(loc: tuple[int | str, ...]) -> str:
    return ".".join(str(part) for part in loc) or "request"


async def _invalid(_: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)
    problems = list(exc.errors())
    if any(p.get("type") == "json_invalid" for p in problems):
        return error_response(400, "malformed_json", "the request body is not valid JSON")
    detail = "; ".join(f"{_location(tuple(p.get('loc', ())))}: {p.get('msg', 'invalid')}" for p in problems)
    return error_response(422, "invalid_request", detail or "invalid request")


async def _http(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    if exc.status_code == 405:
        return _method_not_allowed(request)
    response = error_response(exc.status_code, _HTTP_CODES.get(exc.status_code, "error"), str(exc.detail))
    if exc.headers:
        response.headers.update(exc.headers)
    return response


_METHODS = ("GET", "POST", "PUT", "PATCH", "DELETE")


def _method_not_allowed(request: Request) -> Response:
    """405 naming, in ``Allow``, the methods of every route at this path (the router names only
    the first route's); OPTIONS is answered 204 with the same ``Allow``."""
    methods = {"OPTIONS"} | {
        method
        for method in _METHODS
        # A full match needs path and method: asked of every route (included routers answer for
        # their own routes), so that nothing of the router's inner layout is relied on.
        if any(
            route.matches({**request.scope, "method": method})[0] is Match.FULL
            for route in request.app.router.routes
        )
    }
    if "GET" in methods:
        methods.add("HEAD")  # answered as GET by the Guard
    allow = {"Allow": ", ".join(sorted(methods))}
    if request.method == "OPTIONS":
        return Response(status_code=204, headers=allow)
    response = error_response(405, "method_not_allowed", f"{request.method} is not allowed here")
    response.headers.update(allow)
    return response


async def _refused(_: Request, exc: Exception) -> JSONResponse:
    if isinstance(exc, HintInProgressError):
        status, code = 429, "hint_in_progress"
    elif isinstance(exc, HintRefusedError):
        status, code = 503, "hints_busy"
    else:
        assert isinstance(exc, TooManyRequestsError)
        status, code = 429, exc.code
    assert isinstance(exc, HintRefusedError | TooManyRequestsError)
    response = error_response(status, code, str(exc))
    response.headers["Retry-After"] = str(exc.retry_after)
    return response


async def _busy(_: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, ReviewQueueFullError | ImportsBusyError)
    code = "reviews_busy" if isinstance(exc, ReviewQueueFullError) else "imports_busy"
    response = error_response(503, code, str(exc))
    response.headers["Retry-After"] = str(exc.retry_after)
    return response


async def _gone(_: Request, exc: Exception) -> JSONResponse:
    # Nobody reads it: the connection is closed. Sent so that the request ends like any other.
    return error_response(503, "client_gone", str(exc))


async def _store(_: Request, exc: Exception) -> JSONResponse:
    if isinstance(exc, GameNotFoundError | PlayerNotFoundError):
        return error_response(404, "not_found", str(exc))
    if isinstance(exc, NameTakenError):
        return error_response(422, "name_taken", str(exc))
    if isinstance(exc, TransferCodeError):
        return error_response(404 if exc.reason == "unknown" else 410, f"code_{exc.reason}", str(exc))
    if isinstance(exc, GameConflictError):
        code = next(code for kind, code in _CONFLICTS.items() if isinstance(exc, kind))
        return error_response(409, code, str(exc), GameState.of(exc.game))
    # The database itself failed (locked by another program, disk full, damaged file). The reason
    # names the database (its file, or its host, user and name): the host's log is for that, while
    # this answer may be public behind the proxy (as /healthz's).
    logger.warning("answered 503: %s", exc)
    return error_response(503, "store_unavailable", "the database is unavailable; try again shortly")


async def _internal(_: Request, exc: Exception) -> JSONResponse:
    # A bug, never the client's input; the page still gets JSON it can show.
    return error_response(500, "internal_error", f"the server failed: {type(exc).__name__}")


def install(app: FastAPI) -> None:
    app.add_exception_handler(RequestValidationError, _invalid)
    app.add_exception_handler(HTTPException, _http)
    app.add_exception_handler(StoreError, _store)
    app.add_exception_handler(HintRefusedError, _refused)
    app.add_exception_handler(TooManyRequestsError, _refused)
    app.add_exception_handler(ReviewQueueFullError, _busy)
    app.add_exception_handler(ImportsBusyError, _busy)
    app.add_exception_handler(ClientGoneError, _gone)
    app.add_exception_handler(Exception, _internal)
