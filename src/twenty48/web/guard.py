"""The ASGI layer every request passes first: host check, cross-site check, body cap, player cookie,
security headers, HEAD.

Written as plain ASGI rather than Starlette's BaseHTTPMiddleware because it runs on every request
and the plain form costs a few microseconds instead of a task and a stream per request.
"""

from __future__ import annotations

import json
import logging
import re
import secrets

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from twenty48.web.error_codes import ErrorCode

COOKIE_NAME = "twenty48_player"
#: 32 random bytes: 256 bits, URL-safe base64 without padding.
_TOKEN = re.compile(r"[A-Za-z0-9_-]{43}")
_COOKIE_PREFIX = f"{COOKIE_NAME}=".encode()
#: Ten years: the player is anonymous, the cookie is the only way back to their games.
COOKIE_MAX_AGE = 10 * 365 * 24 * 3600
#: Every request body of the API is a few dozen bytes.
MAX_BODY = 4096
#: The body limit of POST /api/import (a game or history file); every other request has MAX_BODY.
MAX_IMPORT_BODY = 2 << 20
_BODY_LIMITS = {"/api/import": MAX_IMPORT_BODY}

# Only this site's own files: no inline script or style, no other origin, no framing.
# data: images are inline pictures (Swagger UI's icons); they fetch nothing.
CSP = (
    "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)
SECURITY_HEADERS: tuple[tuple[bytes, bytes], ...] = (
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
    (b"cross-origin-opener-policy", b"same-origin"),
    (b"cross-origin-resource-policy", b"same-origin"),
)


#: ``Sec-Fetch-Site`` values of requests this site's own pages make ("none": typed or bookmarked).
_OWN_FETCHES = frozenset({b"same-origin", b"none"})

logger = logging.getLogger("twenty48.web")


def player_token(scope: Scope) -> str:
    """The token of the player making this request (set by ``Guard``)."""
    token: str = scope["state"]["player_token"]
    return token


def new_token() -> str:
    """A new player cookie's token."""
    return secrets.token_urlsafe(32)


def player_cookie(token: str, scope: Scope) -> str:
    """The ``Set-Cookie`` value that gives the browser the player cookie ``token``."""
    cookie = f"{COOKIE_NAME}={token}; Path=/; Max-Age={COOKIE_MAX_AGE}; HttpOnly; SameSite=Strict"
    if scope.get("scheme") == "https":
        # Served over HTTPS (directly, or by a proxy trusted through --forwarded-allow-ips,
        # whose X-Forwarded-Proto uvicorn has applied): never send the cookie in clear.
        cookie += "; Secure"
    return cookie


class Guard:
    """Wraps the app. A request with two ``Host`` headers is refused. ``allowed_hosts`` (lower-case
    names, None for any) defends the server against DNS rebinding: a page from another site cannot
    reach it under a name of its own. The API answers only this site's own pages: a request another
    origin's page makes (``Sec-Fetch-Site``, or failing that ``Origin``) is refused before it can
    create a player or a game. A HEAD request is answered as its GET, without the body."""

    def __init__(self, app: ASGIApp, *, allowed_hosts: frozenset[str] | None = None) -> None:
        self.app = app
        self.allowed_hosts = allowed_hosts

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = dict(scope["headers"])
        if sum(name == b"host" for name, _ in scope["headers"]) > 1:
            # The host check reads one of them while a proxy or the app may read another (RFC 9112
            # answers such a request 400).
            logger.warning("refused a request with more than one Host header")
            await _error(send, 400, ErrorCode.BAD_REQUEST, "a request has one Host header")
            return
        if self.allowed_hosts is not None:
            host = _hostname(headers.get(b"host", b"").decode("latin-1"))
            if host not in self.allowed_hosts:
                logger.warning("refused a request for host %r (not one this server answers for)", host)
                await _error(
                    send, 421, ErrorCode.HOST_NOT_ALLOWED, f"this server does not answer for {host!r}"
                )
                return
        if scope["path"].startswith("/api/") and _cross_site(headers):
            logger.warning("refused a cross-site %s %s", scope["method"], scope["path"])
            await _error(send, 403, ErrorCode.CROSS_SITE, "the API answers only this site's own pages")
            return
        if scope["method"] == "HEAD":
            scope = {**scope, "method": "GET"}
            send = _without_body(send)

        token = _cookie(headers.get(b"cookie", b""))
        extra: tuple[tuple[bytes, bytes], ...] = SECURITY_HEADERS
        if token is None:
            token = new_token()
            extra = (*SECURITY_HEADERS, (b"set-cookie", player_cookie(token, scope).encode()))
        scope.setdefault("state", {})["player_token"] = token

        limit = _BODY_LIMITS.get(scope["path"], MAX_BODY)
        length = headers.get(b"content-length")
        if length is not None and (not length.isdigit() or int(length) > limit):
            await _body_too_large(send, limit)
            return
        if scope["method"] in ("POST", "PUT", "PATCH", "DELETE"):
            try:
                body = await _read_body(receive, limit)
            except _ClientGoneError:
                return  # hung up, or timed out, before its body arrived: nobody to answer
            if body is None:
                await _body_too_large(send, limit)
                return
            receive = _replay(body, receive)

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", ()))
                # An answer that sets the player cookie itself (a claimed transfer code) decides it:
                # a second, fresh cookie after it would win in the browser and undo the claim.
                sets_cookie = any(
                    k.lower() == b"set-cookie" and v.startswith(_COOKIE_PREFIX) for k, v in headers
                )
                message["headers"] = [*headers, *(SECURITY_HEADERS if sets_cookie else extra)]
            await send(message)

        await self.app(scope, receive, send_with_headers)


def _cross_site(headers: dict[bytes, bytes]) -> bool:
    """Whether another origin's page made the request (browsers say so; other clients send neither
    header and are not a page's victims)."""
    fetch_site = headers.get(b"sec-fetch-site")
    if fetch_site is not None:
        return fetch_site not in _OWN_FETCHES
    origin = headers.get(b"origin")
    if origin is None:
        return False
    # An Origin is scheme://host[:port]; the request's own Host must be that host and port.
    return origin.partition(b"://")[2].lower() != headers.get(b"host", b"").lower()


def _without_body(send: Send) -> Send:
    async def head_only(message: Message) -> None:
        if message["type"] == "http.response.body":
            if message.get("more_body", False):
                return
            message = {"type": "http.response.body", "body": b""}
        await send(message)

    return head_only


def _hostname(host: str) -> str:
    host = host.strip().lower()
    if host.startswith("["):
        return host[: host.find("]") + 1]
    return host.rsplit(":", 1)[0] if ":" in host else host


def _cookie(header: bytes) -> str | None:
    for part in header.decode("latin-1").split(";"):
        name, _, value = part.strip().partition("=")
        if name == COOKIE_NAME and _TOKEN.fullmatch(value):
            return value
    return None


class _ClientGoneError(Exception):
    """The connection ended before the whole body arrived."""


async def _read_body(receive: Receive, limit: int) -> bytes | None:
    """The whole body, or None once it exceeds the cap (chunked bodies carry no length up front).
    Raises ``_ClientGoneError`` if the client is gone first: the part that came is no request."""
    chunks = []
    size = 0
    while True:
        message = await receive()
        if message["type"] != "http.request":
            raise _ClientGoneError
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > limit:
            return None
        chunks.append(chunk)
        if not message.get("more_body", False):
            return b"".join(chunks)


def _replay(body: bytes, receive: Receive) -> Receive:
    delivered = False

    async def replayed() -> Message:
        nonlocal delivered
        if not delivered:
            delivered = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replayed


async def _body_too_large(send: Send, limit: int) -> None:
    await _error(send, 413, ErrorCode.BODY_TOO_LARGE, f"request bodies are limited to {limit} bytes")


async def _error(send: Send, status: int, code: ErrorCode, detail: str) -> None:
    body = json.dumps({"error": code, "detail": detail}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                (b"connection", b"close"),
                *SECURITY_HEADERS,
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})
