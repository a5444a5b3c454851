"""``2048 serve`` (and bare ``2048``): the browser game on a local server."""

from __future__ import annotations

import argparse
import errno
import gc
import ipaddress
import os
import socket
import sys
import threading
import time
import webbrowser

from twenty48.commands.database import add_db_argument

HELP = "Play in the browser: start the game server (the default command)."

#: More server processes than this only queue on the database and the cores.
MAX_WORKERS = 64


def parse_port(text: str) -> int:
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"port must be a number, got {text!r}") from None
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"port must be between 0 and 65535, got {port}")
    return port


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (default %(default)s)")
    parser.add_argument(
        "--port",
        type=parse_port,
        default=2048,
        help="port to listen on; 0 picks a free one (default %(default)s)",
    )
    add_db_argument(
        parser,
        "SQLite database file (default: in your user data directory) or postgresql://user@host/db URL",
    )
    parser.add_argument(
        "--workers",
        type=parse_workers,
        default=1,
        help="server processes sharing the port; above 1 needs a PostgreSQL --db (default %(default)s)",
    )
    parser.add_argument("--no-browser", action="store_true", help="do not open a browser")


def parse_workers(text: str) -> int:
    try:
        workers = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"workers must be a number, got {text!r}") from None
    if not 1 <= workers <= MAX_WORKERS:
        raise argparse.ArgumentTypeError(f"workers must be between 1 and {MAX_WORKERS}, got {workers}")
    return workers


def bind(host: str, port: int) -> socket.socket:
    """The listening socket, bound here so that a busy port is reported before anything starts."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        if os.name != "nt":
            # Lets a restarted server reuse the port at once (not a second listener: that needs SO_REUSEPORT).
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(2048)
    except BaseException:
        sock.close()
        raise
    sock.setblocking(False)
    return sock


def allowed_hosts(host: str) -> frozenset[str] | None:
    """A loopback server answers only to loopback names (a defence against DNS rebinding)."""
    try:
        loopback = ipaddress.ip_address(host).is_loopback
    except ValueError:
        loopback = host == "localhost"
    return frozenset({"127.0.0.1", "localhost", "[::1]"}) if loopback else None


def url_for(host: str, port: int) -> str:
    shown = "127.0.0.1" if host in ("0.0.0.0", "") else ("[::1]" if host == "::" else host)
    if ":" in shown and not shown.startswith("["):
        shown = f"[{shown}]"
    return f"http://{shown}:{port}/"


def has_display() -> bool:
    if sys.platform in ("win32", "darwin"):
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def run(args: argparse.Namespace) -> int:
    import uvicorn

    from twenty48.store import StoreError, open_store
    from twenty48.store.location import is_postgres
    from twenty48.web import create_app

    if args.workers > 1 and not is_postgres(args.db):
        print(
            "2048: --workers above 1 needs a PostgreSQL database (--db postgresql://...): an SQLite "
            "file takes one writer at a time, so more processes would only queue on its lock",
            file=sys.stderr,
        )
        return 2
    try:
        sock = bind(args.host, args.port)
    except OSError as exc:
        if exc.errno == errno.EADDRINUSE:
            print(f"2048: port {args.port} on {args.host} is already in use (try --port)", file=sys.stderr)
        else:
            print(f"2048: cannot listen on {args.host}:{args.port}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    try:
        # Group commit: the server's store thread flushes once per batch of actions (web/worker.py).
        store = open_store(args.db, group_commit=True)
    except StoreError as exc:
        sock.close()
        print(f"2048: {exc}", file=sys.stderr)
        return 1

    port = sock.getsockname()[1]
    url = url_for(args.host, port)
    if args.workers > 1:
        # Opened above to migrate it and report a problem once; each worker opens its own.
        store.close()
        return _run_workers(args, sock, url)
    app = create_app(store, allowed_hosts=allowed_hosts(args.host))
    tune_garbage_collector()
    threading.Thread(target=_warm_solver, name="twenty48-warm-solver", daemon=True).start()
    config = uvicorn.Config(app, log_level="warning", access_log=False, timeout_graceful_shutdown=5)
    server = uvicorn.Server(config)
    print(f"2048 is being served at {url} (database {store.path}); Ctrl+C stops it.", flush=True)
    if not args.no_browser and has_display():
        threading.Thread(target=_open_when_started, args=(server, url), daemon=True).start()
    try:
        server.run(sockets=[sock])
    finally:
        store.close()
        sock.close()
    return 0


def _run_workers(args: argparse.Namespace, sock: socket.socket, url: str) -> int:
    """``args.workers`` processes answering on ``sock``, each with its own store on the database;
    uvicorn's supervisor starts them, and starts a new one when one dies."""
    import uvicorn
    from uvicorn.supervisors import Multiprocess

    from twenty48.store.location import parse_location, redact
    from twenty48.web import served

    os.environ[served.DB_VARIABLE] = str(args.db)
    hosts = allowed_hosts(args.host)
    os.environ[served.HOSTS_VARIABLE] = ",".join(sorted(hosts)) if hosts is not None else ""
    config = uvicorn.Config(
        served.APP_FACTORY,
        factory=True,
        workers=args.workers,
        log_level="warning",
        access_log=False,
        timeout_graceful_shutdown=5,
    )
    location = redact(str(parse_location(args.db)))
    print(
        f"2048 is being served at {url} by {args.workers} processes (database {location}); Ctrl+C stops it.",
        flush=True,
    )
    try:
        sock.set_inheritable(True)
        Multiprocess(config, sockets=[sock]).run()
    finally:
        sock.close()
    return 0


def tune_garbage_collector() -> None:
    """Keep the cyclic collector off the server's permanent objects.

    Modules, the app and the compiled solver (numba brings some 140,000 objects) live as long as
    the process, yet every full collection walked them: under load, collections cost as much time
    as the requests themselves and made the slowest answers. Frozen objects are never walked again,
    and collecting young objects less often costs less in total.
    """
    gc.collect()
    gc.freeze()
    gc.set_threshold(20_000, 20, 20)


def _warm_solver() -> None:
    # Load the solver now so that the first hint does not wait for it, then freeze what it built.
    from twenty48.ai import warm_up

    warm_up()
    gc.freeze()


def _open_when_started(server: object, url: str) -> None:
    for _ in range(200):
        if getattr(server, "started", False):
            webbrowser.open(url)
            return
        time.sleep(0.05)
