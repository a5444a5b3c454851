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
from twenty48.web.error_codes import ErrorCode
from twenty48.web.import_gate import ImportsBusyError
from twenty48.web.models import ErrorAnswer, GameState
from twenty48.web.review_worker import ReviewQueueFullError
from twenty48.web.worker import ClientGoneError, HintInProgressError, HintRefusedError

logger = logging.getLogger("twenty48.web")


class TooManyRequestsError(Exception):
    """A per-player rate limit refused the request; ``retry_after`` in seconds."""

    def __init__(
        self, message: str, retry_after: int, code: ErrorCode = ErrorCode.TOO_MANY_NEW_GAMES
    ) -> None:
        super().__init__(message)
        self.retry_after = retry_after
        self.code = code


_HTTP_CODES = {
    400: ErrorCode.BAD_REQUEST,
    403: ErrorCode.FORBIDDEN,
    404: ErrorCode.NOT_FOUND,
    405: ErrorCode.METHOD_NOT_ALLOWED,
    409: ErrorCode.CONFLICT,
    413: ErrorCode.BODY_TOO_LARGE,
    415: ErrorCode.UNSUPPORTED_MEDIA_TYPE,
}

_CONFLICTS: dict[type[GameConflictError], ErrorCode] = {
    StaleRevisionError: ErrorCode.STALE_REVISION,
    GameFinishedError: ErrorCode.GAME_FINISHED,
    ActionRejectedError: ErrorCode.REJECTED,
    GameInProgressError: ErrorCode.GAME_IN_PROGRESS,
}

#: A transfer code's ``reason`` (``TransferCodeError``) as the API answers it.
_TRANSFER_CODES = {
    "unknown": (404, ErrorCode.CODE_UNKNOWN),
    "expired": (410, ErrorCode.CODE_EXPIRED),
    "used": (410, ErrorCode.CODE_USED),
}


def error_response(status: int, code: ErrorCode, detail: str, state: GameState | None = None) -> JSONResponse:
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
        return error_response(400, ErrorCode.MALFORMED_JSON, "the request body is not valid JSON")
    detail = "; ".join(f"{_location(tuple(p.get('loc', ())))}: {p.get('msg', 'invalid')}" for p in problems)
    return error_response(422, ErrorCode.INVALID_REQUEST, detail or "invalid request")


async def _http(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    if exc.status_code == 405:
        return _method_not_allowed(request)
    # Starlette raises no other status; one would be the client's fault below 500, else ours.
    fallback = ErrorCode.BAD_REQUEST if exc.status_code < 500 else ErrorCode.INTERNAL_ERROR
    response = error_response(exc.status_code, _HTTP_CODES.get(exc.status_code, fallback), str(exc.detail))
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
    response = error_response(405, ErrorCode.METHOD_NOT_ALLOWED, f"{request.method} is not allowed here")
    response.headers.update(allow)
    return response


async def _refused(_: Request, exc: Exception) -> JSONResponse:
    if isinstance(exc, HintInProgressError):
        status, code = 429, ErrorCode.HINT_IN_PROGRESS
    elif isinstance(exc, HintRefusedError):
        status, code = 503, ErrorCode.HINTS_BUSY
    else:
        assert isinstance(exc, TooManyRequestsError)
        status, code = 429, exc.code
    assert isinstance(exc, HintRefusedError | TooManyRequestsError)
    response = error_response(status, code, str(exc))
    response.headers["Retry-After"] = str(exc.retry_after)
    return response


async def _busy(_: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, ReviewQueueFullError | ImportsBusyError)
    code = ErrorCode.REVIEWS_BUSY if isinstance(exc, ReviewQueueFullError) else ErrorCode.IMPORTS_BUSY
    response = error_response(503, code, str(exc))
    response.headers["Retry-After"] = str(exc.retry_after)
    return response


async def _gone(_: Request, exc: Exception) -> JSONResponse:
    # Nobody reads it: the connection is closed. Sent so that the request ends like any other.
    return error_response(503, ErrorCode.CLIENT_GONE, str(exc))


async def _store(_: Request, exc: Exception) -> JSONResponse:
    if isinstance(exc, GameNotFoundError | PlayerNotFoundError):
        return error_response(404, ErrorCode.NOT_FOUND, str(exc))
    if isinstance(exc, NameTakenError):
        return error_response(422, ErrorCode.NAME_TAKEN, str(exc))
    if isinstance(exc, TransferCodeError):
        status, code = _TRANSFER_CODES[exc.reason]
        return error_response(status, code, str(exc))
    if isinstance(exc, GameConflictError):
        code = next(code for kind, code in _CONFLICTS.items() if isinstance(exc, kind))
        return error_response(409, code, str(exc), GameState.of(exc.game))
    # The database itself failed (locked by another program, disk full, damaged file). The reason
    # names the database (its file, or its host, user and name): the host's log is for that, while
    # this answer may be public behind the proxy (as /healthz's).
    logger.warning("answered 503: %s", exc)
    return error_response(503, ErrorCode.STORE_UNAVAILABLE, "the database is unavailable; try again shortly")


async def _internal(_: Request, exc: Exception) -> JSONResponse:
    # A bug, never the client's input; the page still gets JSON it can show.
    return error_response(500, ErrorCode.INTERNAL_ERROR, f"the server failed: {type(exc).__name__}")


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
