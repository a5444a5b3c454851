"""``POST /api/import``: a game or history file, read and replayed off the event loop and the store
thread, stored in short steps between other players' actions, bounded, stopped when its client
hangs up or the server shuts down.

What an import costs, and who pays: the body is at most ``MAX_IMPORT_BODY`` bytes, a form at most
``MAX_UPLOAD_PARTS`` parts, a file at most ``Limits.import_games`` games, and the whole import at
most ``Limits.import_seconds`` (``twenty48.store.ImportBudget``). One import runs at a time
in a server process (another is answered 503 ``imports_busy``), and each counts against its
player's limits: one of the new-game bucket's tokens, and one import in flight per player, across
processes (a lease in the database, as a hint's).
"""

from __future__ import annotations

import asyncio
import json
import math
import re
from collections.abc import Callable
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from functools import partial
from typing import TypeVar

import anyio
from fastapi import APIRouter, Request, Response

from twenty48.store import (
    MAX_IMPORT_SECONDS,
    ImportBudget,
    ImportRefusedError,
    ImportResult,
    ImportStoppedError,
    transfer,
)
from twenty48.web.answers import ERROR_RESPONSES, json_answer
from twenty48.web.context import NO_PLAYER, Caller, CallerDep
from twenty48.web.error_codes import ErrorCode
from twenty48.web.errors import TooManyRequestsError, error_response
from twenty48.web.guard import MAX_IMPORT_BODY
from twenty48.web.history_models import ImportAnswer
from twenty48.web.models import ErrorAnswer
from twenty48.web.worker import wait_for_disconnect

T = TypeVar("T")

#: The most parts a ``multipart/form-data`` upload may have: a page's form sends its file and a
#: few fields. The standard library's MIME parser takes seconds over tens of thousands of parts.
MAX_UPLOAD_PARTS = 16

router = APIRouter(prefix="/api", responses=ERROR_RESPONSES)


class UploadRefusedError(ValueError):
    """The body is not a file to import: 400 with ``code``."""

    def __init__(self, code: ErrorCode, message: str) -> None:
        super().__init__(message)
        self.code = code


@router.post(
    "/import",
    response_model=ImportAnswer,
    responses={
        413: {"model": ErrorAnswer, "description": f"Request body over {MAX_IMPORT_BODY} bytes."},
        422: {
            "model": ErrorAnswer,
            "description": "`import_refused`: a game that does not replay as recorded, or a file past an "
            "import's bounds (games, time).",
        },
        429: {
            "model": ErrorAnswer,
            "description": "`too_many_imports`: past the player's new games a minute, or the player's "
            "other import is still running (`Retry-After`).",
        },
        503: {
            "model": ErrorAnswer,
            "description": "`imports_busy`: this server process is running another import "
            "(`Retry-After`); `import_stopped`: the server shut down meanwhile.",
        },
    },
    summary="Import a game or history file",
    description=f"Either file of the export routes (`twenty48-game/1` or `/2`, `twenty48-history/1` or "
    f"`/2`), up to {MAX_IMPORT_BODY // (1 << 20)} MiB, as the JSON body or as the file of a "
    f"`multipart/form-data` upload of at most {MAX_UPLOAD_PARTS} parts (`curl -F file=@history.json`). "
    f"Every game is replayed; one whose actions do not replay, or whose recorded score, moves, largest "
    f"tile or finished flag differ from its replay, refuses the whole file (422 `import_refused`, "
    f"naming the game) and nothing is stored. An import takes at most {transfer.MAX_IMPORT_GAMES:,} "
    f"games and {MAX_IMPORT_SECONDS:g} s, one runs at a time per server process, and each "
    f"counts as one of the player's new games a minute. Games already present are skipped. Imported "
    f"games are never ranked; their start times and assisted counts are the file's word, so the "
    f"unassisted statistics leave them out. The file's game in progress becomes the current game when "
    f"the player has none. A client that hangs up stops its import, and nothing of it is stored.",
)
async def import_file(me: CallerDep, request: Request) -> Response:
    body = await request.body()
    content_type = request.headers.get("content-type", "")
    limits = me.web.limits
    with me.web.imports.enter(limits.import_seconds) as budget:
        watcher = asyncio.ensure_future(_stop_on_hang_up(request, budget))
        try:
            data = await _off_loop(
                partial(_read_upload, content_type, body, limits.import_games, budget.check), budget
            )
            lease = await _limited(me) if me.player != NO_PLAYER else None
            try:
                games = await _off_loop(
                    partial(transfer.read_file, data, max_games=limits.import_games, check=budget.check),
                    budget,
                )
                if lease is None:
                    # A valid file is what makes a first-time visitor a stored player.
                    me = await me.registered()
                    lease = await _limited(me)
                result = await _stored(me, games, budget)
            finally:
                if lease is not None:
                    await me.run(me.web.store.release_import, me.player, lease)
        except UploadRefusedError as exc:
            return error_response(400, exc.code, str(exc))
        except ImportRefusedError as exc:
            return error_response(422, ErrorCode.IMPORT_REFUSED, str(exc))
        except ImportStoppedError as exc:
            return error_response(503, ErrorCode.IMPORT_STOPPED, str(exc))
        finally:
            watcher.cancel()
    return json_answer(
        ImportAnswer(imported=list(result.imported), skipped=result.skipped, resumed=result.resumed)
    )


async def _stop_on_hang_up(request: Request, budget: ImportBudget) -> None:
    await wait_for_disconnect(request.receive)
    budget.stop("the client hung up")


async def _off_loop(call: Callable[[], T], budget: ImportBudget) -> T:
    """``call()`` on a worker thread: neither the event loop nor the store thread waits for it. It
    checks ``budget`` itself where it can take long, which also lets the event loop run."""
    budget.check()
    return await anyio.to_thread.run_sync(call)


async def _limited(me: Caller) -> str:
    """The player's import lease, once the import is counted as a new game; 429 otherwise."""
    limits = me.web.limits
    wait = await me.run(me.web.store.take_new_game, me.player, limits.new_games_per_minute)
    if wait:
        raise TooManyRequestsError(
            f"at most {limits.new_games_per_minute} new games or imports a minute",
            math.ceil(wait),
            ErrorCode.TOO_MANY_IMPORTS,
        )
    lease = await me.run(me.web.store.claim_import, me.player, limits.import_lease_s)
    if lease is None:
        raise TooManyRequestsError(
            "another import of this player is still running",
            math.ceil(limits.import_seconds),
            ErrorCode.TOO_MANY_IMPORTS,
        )
    return lease


async def _stored(me: Caller, games: list[transfer.Imported], budget: ImportBudget) -> ImportResult:
    """The games stored by ``ImportJob``'s steps, each a call of its own on the store thread, so
    that other players' actions are answered between them."""
    job = me.web.store.import_job(me.player, games)
    try:
        for step in job.steps():
            budget.check()
            await me.run(step)
    except BaseException:
        # What a cancelled request leaves is deleted by a later import (``ImportJob``'s first step).
        for step in job.abandon():
            await me.run(step)
        raise
    assert job.result is not None
    return job.result


def _read_upload(content_type: str, body: bytes, max_games: int, pause: Callable[[], None]) -> object:
    """The JSON of the body, or of the file a ``multipart/form-data`` body uploads (as ``curl -F
    file=@games.json`` or an HTML form sends it: its first file part, else its first part). A
    history of more than ``max_games`` games is refused as soon as its parse gets past them."""
    if content_type.lower().startswith("multipart/form-data"):
        body = _uploaded_file(content_type, body)
    try:
        return _parse(body.decode(json.detect_encoding(body), "surrogatepass"), pause, max_games)
    except _TooManyGamesError:
        raise transfer.too_many_games(f"more than {max_games:,}", max_games) from None
    except transfer.ImportRefusedError:
        # ``pause`` found the import past its time: a ValueError too, but not a malformed body.
        raise
    except (ValueError, RecursionError):
        # Beside JSONDecodeError and UnicodeDecodeError: an integer past Python's 4,300-digit
        # limit (ValueError) and arrays nested too deeply (RecursionError) fit in the body limit.
        raise UploadRefusedError(ErrorCode.MALFORMED_JSON, "the request body is not valid JSON") from None


_DECODER = json.JSONDecoder()
_SPACE = re.compile(r"[ \t\n\r]*")
#: Values decoded between two pauses of ``_parse``.
_PAUSE_EVERY = 256


class _TooManyGamesError(Exception):
    pass


def _parse(text: str, pause: Callable[[], None], max_games: int) -> object:
    """``json.loads(text)``, a piece at a time: the members and elements of the document's outer
    object or array, and of the objects and arrays right inside it (a history's games, a game's
    actions), are each decoded by the json module on their own, with ``pause()`` every
    ``_PAUSE_EVERY`` of them. ``json.loads`` holds the interpreter for the whole document (tens of
    milliseconds for 2 MiB, which the event loop would wait); a piece, for one game at most.
    Raises ``_TooManyGamesError`` once the outer object's ``games`` has more than ``max_games``."""
    decoded = 0

    def value(at: int, depth: int, name: str = "") -> tuple[object, int]:
        nonlocal decoded
        decoded += 1
        if decoded % _PAUSE_EVERY == 0:
            pause()
        opening = text[at : at + 1]
        if depth == 2 or opening not in ("{", "["):
            return _DECODER.raw_decode(text, at)
        closing = "}" if opening == "{" else "]"
        members: dict[str, object] = {}
        elements: list[object] = []
        at = _skip(text, at + 1)
        if text.startswith(closing, at):
            return (members if opening == "{" else elements), at + 1
        while True:
            if opening == "{":
                key, at = _DECODER.raw_decode(text, at)
                at = _skip(text, at)
                if not isinstance(key, str) or not text.startswith(":", at):
                    raise ValueError("an object's member is a string, a colon and a value")
                members[key], at = value(_skip(text, at + 1), depth + 1, key)
            else:
                item, at = value(at, depth + 1)
                elements.append(item)
                if depth == 1 and name == "games" and len(elements) > max_games:
                    raise _TooManyGamesError
            at = _skip(text, at)
            if text.startswith(closing, at):
                return (members if opening == "{" else elements), at + 1
            if not text.startswith(",", at):
                raise ValueError(f"expected ',' or '{closing}' at {at}")
            at = _skip(text, at + 1)

    found, end = value(_skip(text, 0), 0)
    if _skip(text, end) != len(text):
        raise ValueError("extra data after the document")
    return found


def _skip(text: str, at: int) -> int:
    """Past the white space from ``at`` on."""
    space = _SPACE.match(text, at)
    return space.end() if space else at


def _uploaded_file(content_type: str, body: bytes) -> bytes:
    head = f"Content-Type: {content_type}\r\n\r\n".encode("latin-1", "replace")
    boundary = BytesParser(policy=policy.HTTP).parsebytes(head, headersonly=True).get_boundary()
    # Counted before parsing: every part begins with its delimiter on a line of its own.
    if (
        boundary is not None
        and body.count(b"\n--" + boundary.encode("latin-1", "replace")) > MAX_UPLOAD_PARTS
    ):
        raise UploadRefusedError(
            ErrorCode.MALFORMED_UPLOAD, f"a form may have at most {MAX_UPLOAD_PARTS} parts"
        )
    form = BytesParser(policy=policy.HTTP).parsebytes(head + body)
    parts = (
        [part for part in form.iter_parts() if isinstance(part, EmailMessage)] if form.is_multipart() else []
    )
    files = [part for part in parts if part.get_filename() is not None] or parts
    payload = files[0].get_payload(decode=True) if files else None
    if not isinstance(payload, bytes):
        raise UploadRefusedError(ErrorCode.MALFORMED_UPLOAD, "the form holds no file part")
    return payload
