"""uvicorn's httptools protocol with caps on a request's size and time, and its own refusals in our form.

httptools (uvicorn's fast parser) reads a request line and headers of any size: a 64 MB header was
read whole and answered. h11, uvicorn's other parser, has a cap, but parses in Python at a cost per
request (``bench/web.py --http h11`` measures it). This keeps httptools and refuses a head over
``MAX_HEAD`` bytes: 414 when the URL alone is over it, else 431, then the connection closes. The
bytes held meanwhile are bounded by ``MAX_HEAD`` plus one read from the socket.

Nor does uvicorn time out a request that never arrives: a connection that sent half a head, or
announced a body and sent one byte of it, was held for as long as the client liked. Here a head must
arrive within ``request_timeout`` seconds of the connection (or of its first byte, on a connection
kept alive; or of the answer before it, when it came behind a request still running), and a body
within as long again after its head, a body that keeps coming having as long again for each
``BODY_STEP`` bytes; otherwise 408 and the connection closes (a connection that sent nothing is
closed without an answer).

uvicorn's ``limit_concurrency`` (``--max-connections``) is applied here instead of by uvicorn, which
answers 503 to every request once the process holds that many connections, whatever they do: one
client that kept 600 connections waiting (each dropped after the request timeout, and opened again)
had every other client answered 503, and past the process's open-file limit (1,024 by default) none
was accepted at all. Here a process holds that many connections at most: a new one lets go of the
connection that has waited longest without a request running (one that sent nothing, or part of a
request, or sits idle between two), so that connections which only wait never keep a request out.
Only when every connection held runs a request is the new one answered 503 with ``Retry-After`` and
closed; a request that arrives while the process runs that many requests is answered so too.

uvicorn answers a request it cannot parse itself, before any application sees it; those answers
(and the two above) are sent here with the JSON error body and the security headers every
application answer carries.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import logging
from typing import Any

import httptools
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from twenty48.web.error_codes import ErrorCode
from twenty48.web.guard import SECURITY_HEADERS
from twenty48.web.server import ServeConfig

#: Request line plus headers, in bytes. Browsers send well under 8 KiB (the cookie is 60 bytes).
MAX_HEAD = 16 * 1024
#: A body's bytes that earn it another ``request_timeout``: 2 MiB (an import) must arrive at
#: 64 KiB per period at least, a body of the other routes (4 KiB at most) within one period.
BODY_STEP = 64 * 1024
#: ``Retry-After`` of a 503 ``server_busy``, in seconds.
RETRY_BUSY_S = 1

logger = logging.getLogger("twenty48.web")

#: Numbers the times connections begin to wait, in order: the loop's clock cannot order them
#: (uvloop's counts milliseconds, read once a loop iteration, so a crowd accepted at once ties).
_waits = itertools.count()

_REASONS = {
    400: b"Bad Request",
    408: b"Request Timeout",
    414: b"URI Too Long",
    431: b"Request Header Fields Too Large",
    503: b"Service Unavailable",
}


class _RefusedError(Exception):
    """Stops the parser at the end of a head that is refused (too large, or the process too busy)."""


class GuardedHttpToolsProtocol(HttpToolsProtocol):
    """``HttpToolsProtocol`` refusing request heads over ``MAX_HEAD`` bytes and requests that do
    not arrive within ``ServeConfig.request_timeout`` (pass it as uvicorn's ``http``), and calling
    ``ServeConfig.on_shutdown`` when its server begins to shut down."""

    def __init__(self, config: ServeConfig, *args: Any, **kwargs: Any) -> None:
        super().__init__(config, *args, **kwargs)
        self._on_shutdown = config.on_shutdown
        self._head_open = False  # a request's line or headers are still arriving
        self._head_bytes = 0  # of that head: what the parser has handed over, plus later reads
        self._url_bytes = 0
        self._body_open = False  # a request's body is still arriving
        self._body_bytes = 0  # of that body, since its deadline was last set
        self._timeout = config.request_timeout
        self._deadline: float | None = None  # the loop's time by which what is awaited must arrive
        self._timer: asyncio.TimerHandle | None = None  # fires at or before the deadline
        self._refusal: tuple[int, ErrorCode, str] | None = None
        # Applied here (the module says why); uvicorn's own test reads this attribute.
        self._max_connections: int | None = self.limit_concurrency
        self.limit_concurrency = None
        self._waiting_since = 0.0  # the loop's time when this connection last began to wait
        self._wait = 0  # of ``_waits``: the oldest wait is let go first

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)  # type: ignore[arg-type]
        self._begin_waiting()
        self._set_deadline()
        limit = self._max_connections
        if limit is not None and len(self.connections) > limit:
            self._make_room(limit)

    def shutdown(self) -> None:
        # uvicorn's server calls this on each open connection as its shutdown begins, before it
        # waits for their requests: a request held by a hint or an import ends now, not at the end
        # of the grace period. (A request whose client is gone has no connection: it ends itself.)
        # Called once per connection; stopping twice changes nothing.
        self._on_shutdown()
        super().shutdown()

    def connection_lost(self, exc: Exception | None) -> None:
        self._clear_deadline()
        if self._timer is not None:
            self._timer.cancel()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        # uvicorn's own, but for one log line per refusal that says what was refused.
        if self._refusal is not None:
            return
        began = self._head_open
        self._unset_keepalive_if_required()
        try:
            self.parser.feed_data(data)
        except httptools.HttpParserUpgrade:
            if self._should_upgrade():
                self.handle_websocket_upgrade()
            else:
                self._unsupported_upgrade_warning()
            return
        except httptools.HttpParserError as exc:
            if self._refusal is None:
                logger.warning(
                    "refused a request from %s that is not valid HTTP: %s", _client(self.client), exc
                )
            self.send_400_response("")
            return
        # The parser keeps a header it has not finished in a buffer of its own and reports it only
        # once complete: a read that did not finish the head counts whole (the read that began it
        # does not, as it may end earlier requests), which bounds that buffer too.
        if began and self._head_open and self._refusal is None:
            self._head_bytes += len(data)
            if self._head_bytes > MAX_HEAD:
                self._refuse_head()
                self.send_400_response("")

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._head_open, self._head_bytes, self._url_bytes = True, 0, 0
        if self._deadline is None:
            # A later request on a kept-alive connection (uvicorn's keep-alive timeout closed it
            # if it stayed idle), or one pipelined behind another.
            self._set_deadline()

    def on_url(self, url: bytes) -> None:
        self._url_bytes += len(url)
        self._head_bytes += len(url)
        super().on_url(url)

    def on_header(self, name: bytes, value: bytes) -> None:
        self._head_bytes += len(name) + len(value) + 4
        super().on_header(name, value)

    def on_headers_complete(self) -> None:
        self._head_open = False
        if self._head_bytes > MAX_HEAD:
            self._refuse_head()
            # Raised inside the parser's callback: uvicorn stops parsing and calls send_400_response.
            raise _RefusedError
        limit = self._max_connections
        if limit is not None and len(self.tasks) >= limit:
            # Requests whose clients hung up may run on: their connections no longer count.
            self._refuse_busy(limit)
            raise _RefusedError
        self._body_open, self._body_bytes = True, 0
        self._set_deadline()
        super().on_headers_complete()

    def on_body(self, body: bytes) -> None:
        self._body_bytes += len(body)
        if self._body_bytes >= BODY_STEP:
            self._body_bytes -= BODY_STEP
            self._set_deadline()
        super().on_body(body)

    def on_message_complete(self) -> None:
        self._body_open = False
        self._clear_deadline()
        super().on_message_complete()

    def on_response_complete(self) -> None:
        self._begin_waiting()
        if self._head_open:
            # A later request's head came behind this one: its time starts now (``_timed_out``).
            self._set_deadline()
        super().on_response_complete()

    def _begin_waiting(self) -> None:
        self._waiting_since = self.loop.time()
        self._wait = next(_waits)

    def _waiting(self) -> bool:
        """Whether no request of this connection runs: nothing came yet, part of a request is still
        arriving (its body included: the app only waits for it), or it is idle between two."""
        cycle = self.cycle
        return cycle is None or cycle.response_complete or self._body_open

    def _make_room(self, limit: int) -> None:
        """This new connection is one more than ``limit``: let go of the connection that has waited
        longest, or, when every other one runs a request, refuse this one."""
        waiting = [
            other
            for other in self.connections
            if other is not self and isinstance(other, GuardedHttpToolsProtocol) and other._waiting()
        ]
        if not waiting:
            self.connections.discard(self)
            self._refuse_busy(limit)
            self.send_400_response("")
            return
        oldest = min(waiting, key=lambda other: other._wait)
        logger.warning(
            "let go of a connection from %s that waited %.1f s: this process holds %d connections at "
            "most (--max-connections)",
            _client(oldest.client),
            self.loop.time() - oldest._waiting_since,
            limit,
        )
        oldest._let_go()

    def _let_go(self) -> None:
        # Counted out at once (uvicorn only discards it when the transport reports the close).
        self.connections.discard(self)
        self._clear_deadline()
        if self._body_open and self.cycle is not None:
            # The app waits for the body: it is told the client is gone.
            self.cycle.disconnected = True
            self.cycle.message_event.set()
        self.transport.close()

    def _refuse_busy(self, limit: int) -> None:
        detail = f"this server process holds {limit} connections or runs as many requests at most; try again"
        self._refusal = (503, ErrorCode.SERVER_BUSY, detail)
        logger.warning("refused a request from %s: %s (--max-connections)", _client(self.client), detail)

    def _set_deadline(self) -> None:
        # A deadline moves without touching the timer (a timer set and cancelled twice a request
        # cost more than the rest of this class): a timer that fires early is set again.
        self._deadline = self.loop.time() + self._timeout
        if self._timer is None:
            self._timer = self.loop.call_later(self._timeout, self._check_deadline)

    def _clear_deadline(self) -> None:
        self._deadline = None

    def _check_deadline(self) -> None:
        self._timer = None
        if self._deadline is None:
            return
        left = self._deadline - self.loop.time()
        if left > 0:
            self._timer = self.loop.call_later(left, self._check_deadline)
        else:
            self._deadline = None
            self._timed_out()

    def _timed_out(self) -> None:
        if self.transport.is_closing():
            return
        cycle = self.cycle
        if self._head_open and cycle is not None and not cycle.response_complete:
            # A later request's head behind one still running: a 408 now would be read as the
            # running request's answer, so its time counts from that answer's end instead.
            return
        answering = cycle is not None and cycle.response_started and not cycle.response_complete
        if not (self._head_open or self._body_open) or answering or self.pipeline:
            # Nothing of a request came (a connection opened and left idle), or an answer is on
            # its way that a second one would corrupt: the connection closes without one.
            self.transport.close()
            return
        if self._body_open and cycle is not None:
            # The app waits for the body: it is told the client is gone, and its answer dropped.
            cycle.disconnected = True
            cycle.message_event.set()
        part = "head" if self._head_open else "body"
        detail = f"the request's {part} did not arrive within {self._timeout:g} s"
        logger.warning("dropped a request from %s: %s", _client(self.client), detail)
        self._refusal = (408, ErrorCode.REQUEST_TIMEOUT, detail)
        self.send_400_response("")

    def _refuse_head(self) -> None:
        if self._url_bytes > MAX_HEAD:
            self._refusal = (414, ErrorCode.URI_TOO_LONG, f"request URLs are limited to {MAX_HEAD} bytes")
        else:
            detail = f"the request line and headers are limited to {MAX_HEAD} bytes together"
            self._refusal = (431, ErrorCode.HEADERS_TOO_LARGE, detail)
        logger.warning("refused a request from %s: %s", _client(self.client), self._refusal[2])

    def send_400_response(self, msg: str) -> None:
        refusal = self._refusal or (400, ErrorCode.BAD_REQUEST, "the request is not valid HTTP/1.1")
        status, code, detail = refusal
        body = json.dumps({"error": code, "detail": detail}).encode()
        head = [f"HTTP/1.1 {status} ".encode() + _REASONS[status]]
        head += [name + b": " + value for name, value in self.server_state.default_headers]
        head += [
            b"content-type: application/json",
            b"content-length: " + str(len(body)).encode(),
            b"connection: close",
            *(name + b": " + value for name, value in SECURITY_HEADERS),
        ]
        if status == 503:
            # Every connection ran a request: most end within a second (an API call takes
            # milliseconds, a hint at most its budget).
            head.append(b"retry-after: " + str(RETRY_BUSY_S).encode())
        self.transport.write(b"\r\n".join(head) + b"\r\n\r\n" + body)
        self.transport.close()


def _client(client: tuple[str, int] | None) -> str:
    return f"{client[0]}:{client[1]}" if client else "an unknown client"
