"""uvicorn as ``2048 serve`` runs it, in one process or in each process of ``--workers N``.

Both run the same setup: the guarded HTTP protocol (caps on request heads, requests that must
arrive within ``--request-timeout``, at most ``--max-connections``), no access log, a 5-second grace
period, the trusted proxies of ``--forwarded-allow-ips`` (none unless named), and a server that
stops the hints and the import as soon as shutdown begins (waiting hints are answered 503 at once,
not cancelled with a traceback each when the grace period ends; an import stops at its next check).
uvicorn's supervisor builds each worker's server as a plain ``uvicorn.Server``; ``run_workers`` has it
build this one instead. Each worker is given the same ``ServeConfig`` (pickled into it), so every
process has the same settings.
"""

from __future__ import annotations

import socket
from collections.abc import Callable
from typing import Any
from unittest import mock

import uvicorn
from uvicorn.supervisors import Multiprocess, multiprocess

from twenty48.web import served
from twenty48.web.limits import MAX_CONNECTIONS, REQUEST_TIMEOUT_S


class ServeConfig(uvicorn.Config):
    """uvicorn's configuration, and the seconds a request's head (and then its body) may take to
    arrive, which ``twenty48.web.protocol.GuardedHttpToolsProtocol`` reads."""

    def __init__(self, app: Any, *, request_timeout: float, **kwargs: Any) -> None:
        super().__init__(app, **kwargs)
        self.request_timeout = request_timeout


def server_config(
    app: Any,
    *,
    http: str | type,
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
    are ``2048 serve``'s settings of the same names, per process."""
    return ServeConfig(
        app,
        request_timeout=request_timeout,
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


class QuietServer(uvicorn.Server):
    """uvicorn's server, calling ``on_shutdown`` when shutdown begins."""

    def __init__(self, config: uvicorn.Config, on_shutdown: Callable[[], None]) -> None:
        super().__init__(config)
        self._on_shutdown = on_shutdown

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        self._on_shutdown()
        await super().shutdown(sockets)


class _WorkerProcess(multiprocess.Process):
    """A worker of uvicorn's supervisor whose server is a ``QuietServer``; pickled into the new
    process, where ``server`` is first used."""

    @property
    def server(self) -> uvicorn.Server:
        if self._server is None:
            self._server = QuietServer(self.config, on_shutdown=served.stop_work_here)
        return self._server


def run_workers(config: uvicorn.Config, sock: socket.socket) -> None:
    """``config.workers`` processes on ``sock``, restarted when one dies, until SIGINT/SIGTERM."""
    sock.set_inheritable(True)
    # The supervisor names its worker class as a module global; replaced only while it runs, in
    # this parent process (which runs nothing else).
    with mock.patch.object(multiprocess, "Process", _WorkerProcess):
        Multiprocess(config, sockets=[sock]).run()
