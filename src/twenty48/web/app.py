"""The FastAPI application: the API, the page, and the API documentation, all served locally."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Annotated, Any
from urllib.parse import quote

import fastapi_offline
from fastapi import FastAPI, Header, Query
from fastapi.responses import FileResponse, JSONResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.concurrency import run_in_threadpool
from starlette.types import ASGIApp

from twenty48 import __version__
from twenty48.checks import plain_digits
from twenty48.store import ID_LIMIT, Store, StoreError
from twenty48.web import errors, history, imports, leaderboards, players, reviews, routes
from twenty48.web.context import WebContext
from twenty48.web.guard import Guard
from twenty48.web.limits import Limits
from twenty48.web.manifest import Language, language, manifest
from twenty48.web.openapi import exact_bounds
from twenty48.web.release import worker_script
from twenty48.web.worker import StoreWorker

HERE = Path(__file__).parent
logger = logging.getLogger("twenty48.web")
#: The page: index.html and the files it loads.
STATIC = HERE / "static"
#: Swagger UI's page and start-up script (no inline script: the CSP forbids it).
DOCS = HERE / "docs"
#: Swagger UI's bundle, shipped by the fastapi-offline package so that /docs needs no CDN.
SWAGGER_ASSETS = Path(fastapi_offline.__file__).parent / "static"

DESCRIPTION = """The browser game's API. The server is authoritative: the page sends directions and
animates what the answers say. Players are anonymous: a cookie set on the first request identifies
one, and every game id of another player answers 404. Errors answer
`{"error": code, "detail": message}`; a 409 also carries the current `state`."""


class GameApp(FastAPI):
    """FastAPI with ``Guard`` outermost, so that even an answer made by Starlette's last-resort
    error handler carries the security headers, and an OpenAPI document with exact integers."""

    allowed_hosts: frozenset[str] | None = None
    #: The OpenAPI document whose integer bounds ``exact_bounds`` wrote back (FastAPI keeps one).
    _exact_document: dict[str, Any] | None = None

    def build_middleware_stack(self) -> ASGIApp:
        return Guard(super().build_middleware_stack(), allowed_hosts=self.allowed_hosts)

    def openapi(self) -> dict[str, Any]:
        document = super().openapi()
        if document is not self._exact_document:
            exact_bounds(document)
            self._exact_document = document
        return document


def create_app(
    store: Store,
    *,
    allowed_hosts: frozenset[str] | None = None,
    limits: Limits | None = None,
    clock: Callable[[], float] | None = None,
    static: Path | None = None,
) -> FastAPI:
    """The app over ``store`` (which the caller opens and closes). ``allowed_hosts`` limits the Host
    names answered (None: any); ``limits`` are ``2048 serve``'s (the defaults if None); ``clock``
    gives Unix seconds now (``time.time`` if None: tests pass their own); ``static`` is the page's
    directory (``STATIC`` if None: tests serve a second release from another). A server
    calls ``stop_work(app)`` when it begins to shut down, so waiting hints and a running import end
    at once."""
    static = static or STATIC
    # Read once: a release is what this process serves, from start to end.
    worker = worker_script(static)

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        web.hints.open()
        yield
        web.hints.close()
        await web.reviews.close()
        web.worker.close()

    app = GameApp(
        title="twenty48",
        version=__version__,
        description=DESCRIPTION,
        docs_url=None,
        redoc_url=None,
        openapi_url="/openapi.json",
        lifespan=lifespan,
    )
    web = WebContext(store=store, worker=StoreWorker(store), limits=limits or Limits())
    if clock is not None:
        web.clock = clock
    app.state.web = web
    errors.install(app)
    app.include_router(routes.router)
    app.include_router(history.router)
    app.include_router(imports.router)
    app.include_router(players.router)
    app.include_router(leaderboards.router)
    app.include_router(reviews.router)
    app.mount("/static", StaticFiles(directory=static), name="static")
    app.mount("/docs-assets", StaticFiles(directory=SWAGGER_ASSETS), name="docs-assets")

    @app.get("/healthz", include_in_schema=False)
    async def healthz() -> JSONResponse:
        # For a proxy or a supervisor: 200 while this process can reach its database.
        try:
            await run_in_threadpool(store.ping)
        except StoreError as exc:
            # The reason names the database (its host, user, name): the host's log is for that,
            # while this answer may be public behind the proxy.
            logger.warning("health check: %s", exc)
            return JSONResponse({"status": "unavailable"}, status_code=503)
        return JSONResponse({"status": "ok"})

    @app.get("/", include_in_schema=False)
    async def index() -> FileResponse:
        return FileResponse(static / "index.html")

    # At the root, so that its scope is the whole app. The browser compares it byte for byte to
    # find a new release: it must not be kept by a cache on the way.
    @app.get("/sw.js", include_in_schema=False)
    async def service_worker() -> Response:
        return Response(worker, media_type="text/javascript", headers={"cache-control": "no-cache"})

    @app.get("/manifest.webmanifest", include_in_schema=False)
    async def web_manifest(
        lang: Annotated[Language | None, Query()] = None,
        accept_language: Annotated[str, Header()] = "",
    ) -> JSONResponse:
        return JSONResponse(manifest(language(lang, accept_language)), media_type="application/manifest+json")

    # A public replay's link to share: the page routes by fragment, which a server never sees. A
    # link that names no game opens the page too, which says so in the reader's language (a JSON
    # refusal is no answer for a person who followed a link).
    @app.get("/public/{game_id}", include_in_schema=False)
    async def public_replay(game_id: str) -> RedirectResponse:
        return RedirectResponse(f"/#/public/{_link_part(game_id)}")

    @app.get("/public/{game_id}/{move}", include_in_schema=False)
    async def public_replay_at(game_id: str, move: str) -> RedirectResponse:
        return RedirectResponse(f"/#/public/{_link_part(game_id)}/{_link_part(move)}")

    @app.get("/docs", include_in_schema=False)
    async def docs() -> FileResponse:
        return FileResponse(DOCS / "docs.html")

    @app.get("/docs/start.js", include_in_schema=False)
    async def docs_script() -> FileResponse:
        return FileResponse(DOCS / "start.js")

    app.allowed_hosts = allowed_hosts
    return app


def stop_work(app: FastAPI) -> None:
    """Answer every waiting hint now and take no more, and stop the running import (a server that
    is shutting down)."""
    app.state.web.hints.close()
    app.state.web.imports.close()


def _link_part(text: str) -> str:
    """A shared link's id or move for the page's address: decimal digits without leading zeros,
    anything else as given (cut short and escaped), which the page shows as naming no game."""
    digits = plain_digits(text)
    if digits is not None and len(digits) <= len(str(ID_LIMIT)):
        return digits
    return quote(text[:32], safe="")
