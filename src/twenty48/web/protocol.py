"""uvicorn's httptools protocol with a cap on the request head, and its own refusals in our form.

httptools (uvicorn's fast parser) reads a request line and headers of any size: a 64 MB header was
read whole and answered. h11, uvicorn's other parser, has a cap, but parses in Python at a cost per
request (``bench/web.py --http h11`` measures it). This keeps httptools and refuses a head over
``MAX_HEAD`` bytes: 414 when the URL alone is over it, else 431, then the connection closes. The
bytes held meanwhile are bounded by ``MAX_HEAD`` plus one read from the socket.

uvicorn answers a request it cannot parse itself, before any application sees it; those answers
(and the two above) are sent here with the JSON error body and the security headers every
application answer carries.
"""

from __future__ import annotations

import json
import logging
from typing import Any

import httptools
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from twenty48.web.guard import SECURITY_HEADERS

#: Request line plus headers, in bytes. Browsers send well under 8 KiB (the cookie is 60 bytes).
MAX_HEAD = 16 * 1024

logger = logging.getLogger("twenty48.web")

_REASONS = {400: b"Bad Request", 414: b"URI Too Long", 431: b"Request Header Fields Too Large"}


class _HeadTooLarge(Exception):
    """Stops the parser at the end of a head that is over the cap."""


class GuardedHttpToolsProtocol(HttpToolsProtocol):
    """``HttpToolsProtocol`` refusing request heads over ``MAX_HEAD`` bytes (pass it as uvicorn's
    ``http``)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._head_open = False  # a request's line or headers are still arriving
        self._head_bytes = 0  # of that head: what the parser has handed over, plus later reads
        self._url_bytes = 0
        self._refusal: tuple[int, str, str] | None = None

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
            raise _HeadTooLarge
        super().on_headers_complete()

    def _refuse_head(self) -> None:
        if self._url_bytes > MAX_HEAD:
            self._refusal = (414, "uri_too_long", f"request URLs are limited to {MAX_HEAD} bytes")
        else:
            detail = f"the request line and headers are limited to {MAX_HEAD} bytes together"
            self._refusal = (431, "headers_too_large", detail)
        logger.warning("refused a request from %s: %s", _client(self.client), self._refusal[2])

    def send_400_response(self, msg: str) -> None:
        status, code, detail = self._refusal or (400, "bad_request", "the request is not valid HTTP/1.1")
        body = json.dumps({"error": code, "detail": detail}).encode()
        head = [f"HTTP/1.1 {status} ".encode() + _REASONS[status]]
        head += [name + b": " + value for name, value in self.server_state.default_headers]
        head += [
            b"content-type: application/json",
            b"content-length: " + str(len(body)).encode(),
            b"connection: close",
            *(name + b": " + value for name, value in SECURITY_HEADERS),
        ]
        self.transport.write(b"\r\n".join(head) + b"\r\n\r\n" + body)
        self.transport.close()


def _client(client: tuple[str, int] | None) -> str:
    return f"{client[0]}:{client[1]}" if client else "an unknown client"
