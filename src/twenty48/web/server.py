"""uvicorn as ``2048 serve`` runs it, in one process or in each process of ``--workers N``.

Both run the same setup: the guarded HTTP protocol (caps on request heads, requests that must
arrive within ``--request-timeout``, at most ``--max-connections``), no access log, a 5-second grace
period, the trusted proxies of ``--forwarded-allow-ips`` (none unless named), and ``on_shutdown``,
which stops the hints and the import as soon as shutdown begins (waiting hints are answered 503 at
once, not cancelled with a traceback each when the grace period ends; an import stops at its next
check): uvicorn tells each open connection's protocol that shutdown begins, and the guarded protocol
calls it then. Each worker is given the same ``ServeConfig`` (pickled into it), so every process
has the same settings.
"""

from __future__ import annotations

import socket
from collections.abc import Callable
from typing import Any

import uvicorn
from uvicorn.supervisors import Multiprocess

from twenty48.web.limits import MAX_CONNECTIONS, REQUEST_TIMEOUT_S


class ServeConfig(uvicorn.Config):
    """uvicorn's configuration, the seconds a request's head (and then its body) may take to arrive,
    and what stops this process's work when its server begins to shut down: both read by
    ``twenty48.web.protocol.GuardedHttpToolsProtocol``. ``on_shutdown`` is pickled into each worker,
    so there it is a module's function."""

    def __init__(
        self, app: Any, *, request_timeout: float, on_shutdown: Callable[[], None], **kwargs: Any
    ) -> None:
        super().__init__(app, **kwargs)
        self.request_timeout = request_timeout
        self.on_shutdown = on_shutdown


def server_config(
    app: Any,
    *,
    http: str | type,
    on_shutdown: Callable[[], None],
    workers: int = 1,
    forwarded_allow_ips: str | None = None,
    request_timeout: float = REQUEST_TIMEOUT_S,
    max_connections: int = MAX_CONNECTIONS,
) -> ServeConfig:
    """The one configuration: ``app`` is the app, or (with ``workers``) the import string of the
    factory each worker calls; ``http`` the protocol (``twenty48.commands.serve.HTTP_PROTOCOL``).
    ``X-Forwarded-For`` and ``-Proto`` are believed only from the addresses (or networks, or ``*``)
    of ``forwarded_allow_ips``, as uvicorn names them; None believes them from nobody (uvicorn's
    own default believes them from loopback, so that any local client could name itself anew at
    each request and reset every per-address limit). ``request_timeout`` and ``max_connections``
    are ``2048 serve``'s settings of the same names, per process. ``on_shutdown`` stops the work
    of the process (``twenty48.web.app.stop_work``) when its server begins to shut down."""
    return ServeConfig(
        app,
        request_timeout=request_timeout,
        on_shutdown=on_shutdown,
        factory=isinstance(app, str),
        workers=workers,
        http=http,
        log_level="warning",
        access_log=False,
        timeout_graceful_shutdown=5,
        proxy_headers=forwarded_allow_ips is not None,
        forwarded_allow_ips=forwarded_allow_ips,
        limit_concurrency=max_connections,
    )


def run_workers(config: uvicorn.Config, sock: socket.socket) -> None:
    """``config.workers`` processes on ``sock``, restarted when one dies, until SIGINT/SIGTERM."""
    sock.set_inheritable(True)
    Multiprocess(config, sockets=[sock]).run()
