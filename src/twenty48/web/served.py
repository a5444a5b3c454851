"""The app of one process of ``2048 serve --workers N``: built by uvicorn in each worker process
from what the parent put in the environment (the workers are started, not forked).

The parent imports this module too (for the names below), and only supervises: the app, FastAPI
and the store are loaded by the functions that build and stop an app, which run in the workers."""

from __future__ import annotations

import atexit
import os
from typing import TYPE_CHECKING

from twenty48.web.limits import Limits

if TYPE_CHECKING:
    from fastapi import FastAPI

#: The import string uvicorn calls in each worker.
APP_FACTORY = "twenty48.web.served:app_from_environment"
#: The database URL the parent was given.
DB_VARIABLE = "TWENTY48_SERVE_DB"
#: The Host names to answer (comma-separated), empty for any.
HOSTS_VARIABLE = "TWENTY48_SERVE_ALLOWED_HOSTS"
#: ``--new-games-per-minute``, ``--new-players-per-hour`` and ``--hint-queue``, comma-separated
#: (the server's own settings, ``--request-timeout`` and ``--max-connections``, travel in its config).
LIMITS_VARIABLE = "TWENTY48_SERVE_LIMITS"

#: This worker's app, for its server's shutdown (``stop_work_here``).
_app: FastAPI | None = None


def app_from_environment() -> FastAPI:
    from twenty48.store import open_store
    from twenty48.web.app import create_app
    from twenty48.web.startup import prepare_process

    store = open_store(os.environ[DB_VARIABLE], group_commit=True)
    atexit.register(store.close)
    hosts = os.environ.get(HOSTS_VARIABLE, "")
    new_games, new_players, hint_queue = (int(n) for n in os.environ[LIMITS_VARIABLE].split(","))
    app = create_app(
        store,
        allowed_hosts=frozenset(hosts.split(",")) if hosts else None,
        limits=Limits(
            new_games_per_minute=new_games, new_players_per_hour=new_players, hint_queue=hint_queue
        ),
    )
    global _app
    _app = app
    prepare_process()
    return app


def limits_variable(limits: Limits) -> str:
    """``LIMITS_VARIABLE``'s value for ``limits``."""
    return f"{limits.new_games_per_minute},{limits.new_players_per_hour},{limits.hint_queue}"


def stop_work_here() -> None:
    """Stop this worker's hints and import (its server is shutting down)."""
    if _app is not None:
        from twenty48.web.app import stop_work

        stop_work(_app)
