"""``2048 serve`` (and bare ``2048``): the browser game on a local server."""

from __future__ import annotations

import argparse
import contextlib
import errno
import ipaddress
import math
import os
import socket
import sys
import threading
import time
import webbrowser
from collections.abc import Callable
from functools import partial

from twenty48.commands.database import add_db_argument
from twenty48.commands.messages import fail, shown
from twenty48.commands.numbers import bounded_int, decimal
from twenty48.web.limits import (
    HINT_QUEUE,
    MAX_CONNECTIONS,
    NEW_GAMES_PER_MINUTE,
    NEW_PLAYERS_PER_HOUR,
    REQUEST_TIMEOUT_S,
    Limits,
)

HELP = "Play in the browser: start the game server (the default command)."

#: More server processes than this only queue on the database and the cores.
MAX_WORKERS = 64
#: uvicorn's HTTP protocol: httptools with a cap on request heads (``twenty48.web.protocol``).
#: A name (``"h11"``, ``"httptools"``) also works: ``bench/web.py --http`` compares them.
HTTP_PROTOCOL: str | type = "twenty48.web.protocol:GuardedHttpToolsProtocol"


def parse_port(text: str) -> int:
    port = decimal(text, "a port")
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"port must be between 0 and 65535, got {shown(text)}")
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
    parser.add_argument(
        "--allowed-host",
        action="append",
        default=[],
        metavar="NAME",
        type=parse_host_name,
        help="a further host name (or address) to answer for, as a proxy or the LAN names this "
        "machine; repeatable (by default: the bound address, loopback names, and on an "
        "all-interfaces bind this machine's names and addresses)",
    )
    parser.add_argument(
        "--forwarded-allow-ips",
        type=parse_forwarded_allow_ips,
        default=None,
        metavar="ADDRESSES",
        help="comma-separated addresses or networks (or *) of the reverse proxies trusted with "
        "X-Forwarded-For and X-Forwarded-Proto, as uvicorn names them: the client address they "
        "name is the one the per-address limits count, and behind HTTPS the player cookie is "
        "marked Secure (default: $FORWARDED_ALLOW_IPS, else none)",
    )
    limits = parser.add_argument_group("limits")
    limits.add_argument(
        "--new-games-per-minute",
        type=bounded_int(1, 100_000),
        default=NEW_GAMES_PER_MINUTE,
        metavar="N",
        help="games one player may start through POST /api/games in a minute (default %(default)s)",
    )
    limits.add_argument(
        "--new-players-per-hour",
        type=bounded_int(1, 1_000_000),
        default=NEW_PLAYERS_PER_HOUR,
        metavar="N",
        help="new players (browsers without a cookie that start playing) one client address may "
        "create in an hour, per server process: a burst of N, then one every 60/N minutes "
        "(default %(default)s)",
    )
    limits.add_argument(
        "--request-timeout",
        type=bounded_seconds(0.01, 3600),
        default=REQUEST_TIMEOUT_S,
        metavar="SECONDS",
        help="seconds a request's line and headers may take to arrive, and then its body (as long "
        "again per further 64 KiB of it); a slower request answers 408 and its connection closes, "
        "a connection that sends nothing closes (default %(default)g)",
    )
    limits.add_argument(
        "--max-connections",
        type=bounded_int(2, 100_000),
        default=MAX_CONNECTIONS,
        metavar="N",
        help="connections one server process holds; one more lets go of the connection that has "
        "waited longest without a request running, or, when all of them run one, answers 503 and "
        "closes (default %(default)s; keep it under the process's limit of open files, ulimit -n)",
    )
    limits.add_argument(
        "--hint-queue",
        type=bounded_int(1, 1000),
        default=HINT_QUEUE,
        metavar="N",
        help="hints computed or waiting at once, over all players; more answer 503 "
        "(default %(default)s; each player has at most one)",
    )


#: Where ``--forwarded-allow-ips`` may also be given (uvicorn's name for it).
FORWARDED_VARIABLE = "FORWARDED_ALLOW_IPS"


def parse_forwarded_allow_ips(text: str) -> str:
    """``--forwarded-allow-ips``: ``*``, or addresses and networks separated by commas. uvicorn
    would take anything else for a name that no client address ever matches, and say nothing."""
    items = [item.strip() for item in text.split(",")]
    if items == ["*"]:
        return "*"
    for item in items:
        try:
            if "/" in item:
                # As uvicorn reads a network: without host bits (10.0.0.1/8 is a mistake, not 10/8).
                ipaddress.ip_network(item)
            else:
                ipaddress.ip_address(item)
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"expected * or IP addresses and networks separated by commas, got {item!r}"
            ) from None
    return ",".join(items)


def trusted_proxies(given: str | None) -> str | None:
    """The proxies to trust: ``--forwarded-allow-ips``, else ``$FORWARDED_ALLOW_IPS``, else none.
    Raises ``argparse.ArgumentTypeError`` for a malformed variable."""
    if given is not None:
        return given
    variable = os.environ.get(FORWARDED_VARIABLE, "")
    return parse_forwarded_allow_ips(variable) if variable.strip() else None


def bounded_seconds(low: float, high: float) -> Callable[[str], float]:
    """An argparse type: seconds from ``low`` to ``high`` (a decimal number), else a one-line error."""

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            value = math.nan
        if not low <= value <= high:  # NaN included
            raise argparse.ArgumentTypeError(f"expected seconds from {low:g} to {high:g}, got {text!r}")
        return value

    parse.__name__ = "seconds"  # argparse names the type in its message
    return parse


def parse_workers(text: str) -> int:
    workers = decimal(text, "the number of workers")
    if not 1 <= workers <= MAX_WORKERS:
        raise argparse.ArgumentTypeError(f"workers must be between 1 and {MAX_WORKERS}, got {shown(text)}")
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


#: The names a loopback server answers to, as they appear in a Host header.
LOOPBACK_NAMES = frozenset({"127.0.0.1", "localhost", "[::1]"})
#: Addresses that bind every interface.
ALL_INTERFACES = frozenset({"0.0.0.0", "::", ""})


def parse_host_name(text: str) -> str:
    name = text.strip().lower()
    if not name or any(c in name for c in "/ @?#"):
        raise argparse.ArgumentTypeError(f"expected a host name or address, got {text!r}")
    return host_header_form(name)


def host_header_form(host: str) -> str:
    """``host`` as a Host header names it: an IPv6 address in brackets, lower case."""
    host = host.lower()
    return f"[{host}]" if ":" in host and not host.startswith("[") else host


def is_loopback(host: str) -> bool:
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return host == "localhost"


def machine_addresses() -> list[str]:
    """This machine's own names and non-loopback addresses, as others on the network may reach it."""
    names = [socket.gethostname(), socket.getfqdn()]
    found: list[str] = [n.lower() for n in names if n and n != "localhost"]
    for name in names:
        with contextlib.suppress(OSError):  # a name that does not resolve
            found += [str(info[4][0]) for info in socket.getaddrinfo(name, None)]
    try:
        # The address of the default route: connecting a UDP socket sends nothing.
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("192.0.2.1", 9))
            found.append(probe.getsockname()[0])
    except OSError:
        pass
    return list(dict.fromkeys(host_header_form(a) for a in found if not is_loopback(a)))


def allowed_hosts(host: str, extra: list[str], reachable: list[str]) -> frozenset[str]:
    """The Host names answered (a defence against DNS rebinding): loopback names on a loopback or
    all-interfaces bind, the bound address itself, ``reachable`` (this machine's names and
    addresses, on an all-interfaces bind) and the ``--allowed-host`` names."""
    names = {host_header_form(host), *extra}
    if is_loopback(host) or host in ALL_INTERFACES:
        names |= LOOPBACK_NAMES
    if host in ALL_INTERFACES:
        names |= set(reachable)
    return frozenset(names - {"", "[]", "[::]", "0.0.0.0"})


def url_for(host: str, port: int) -> str:
    shown = "127.0.0.1" if host in ("0.0.0.0", "") else ("[::1]" if host == "::" else host)
    return f"http://{host_header_form(shown)}:{port}/"


def network_warning(host: str, port: int, reachable: list[str], answered: frozenset[str]) -> str | None:
    """The one warning a server reachable from the network prints; None on loopback."""
    if is_loopback(host):
        return None
    shown = reachable if host in ALL_INTERFACES else [host_header_form(host)]
    urls = ", ".join(f"http://{name}:{port}/" for name in shown) or "this machine's addresses"
    return (
        f"2048: warning: listening on {host or 'all interfaces'}, so the game is reachable from the "
        f"network: {urls}. Anyone who can reach it can play (each browser is its own player). "
        f"Host names answered: {', '.join(sorted(answered))}; add others with --allowed-host NAME."
    )


def has_display() -> bool:
    if sys.platform in ("win32", "darwin"):
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def run(args: argparse.Namespace) -> int:
    # Loaded here, not at the top: building `2048 --help` imports every command's module, and it
    # need not load FastAPI, uvicorn, the store and the solver.
    import uvicorn

    from twenty48.store import StoreError, is_postgres, open_store
    from twenty48.web.server import server_config

    try:
        args.forwarded_allow_ips = trusted_proxies(args.forwarded_allow_ips)
    except argparse.ArgumentTypeError as exc:
        return fail("serve", f"${FORWARDED_VARIABLE}: {exc}")
    if args.workers > 1 and not is_postgres(args.db):
        return fail(
            "serve",
            "--workers above 1 needs a PostgreSQL database (--db postgresql://...): an SQLite "
            "file takes one writer at a time, so more processes would only queue on its lock",
        )
    try:
        sock = bind(args.host, args.port)
    except OSError as exc:
        if exc.errno == errno.EADDRINUSE:
            return fail("serve", f"port {args.port} on {args.host} is already in use (try --port)")
        return fail("serve", f"cannot listen on {args.host}:{args.port}: {exc.strerror or exc}")
    try:
        # Group commit: the server's store thread flushes once per batch of actions (web/worker.py).
        store = open_store(args.db, group_commit=True)
    except StoreError as exc:
        sock.close()
        return fail("serve", str(exc), 1)

    port = sock.getsockname()[1]
    url = url_for(args.host, port)
    reachable = machine_addresses() if args.host in ALL_INTERFACES else []
    answered = allowed_hosts(args.host, args.allowed_host, reachable)
    limits = Limits(
        new_games_per_minute=args.new_games_per_minute,
        new_players_per_hour=args.new_players_per_hour,
        hint_queue=args.hint_queue,
    )
    if args.workers > 1:
        # Opened above to migrate it and report a problem once; each worker opens its own.
        store.close()
        return _run_workers(args, sock, url, answered, limits)
    # Only here: with --workers this process supervises, and each worker loads the app itself.
    from twenty48.web import create_app
    from twenty48.web.app import stop_work
    from twenty48.web.startup import prepare_process

    app = create_app(store, allowed_hosts=answered, limits=limits)
    prepare_process()
    config = server_config(
        app,
        forwarded_allow_ips=args.forwarded_allow_ips,
        request_timeout=args.request_timeout,
        max_connections=args.max_connections,
        http=HTTP_PROTOCOL,
        on_shutdown=partial(stop_work, app),
    )
    server = uvicorn.Server(config)
    print(f"2048 is being served at {url} (database {store.path}); Ctrl+C stops it.", flush=True)
    warning = network_warning(args.host, port, reachable, answered)
    if warning is not None:
        print(warning, file=sys.stderr, flush=True)
    if not args.no_browser and has_display():
        threading.Thread(target=_open_when_started, args=(server, url), daemon=True).start()
    try:
        server.run(sockets=[sock])
    finally:
        store.close()
        sock.close()
    return 0


def _run_workers(
    args: argparse.Namespace, sock: socket.socket, url: str, hosts: frozenset[str] | None, limits: Limits
) -> int:
    """``args.workers`` processes answering on ``sock``, each with its own store on the database;
    uvicorn's supervisor starts them, and starts a new one when one dies."""
    from twenty48.store import parse_location, redact
    from twenty48.web import served
    from twenty48.web.server import run_workers, server_config

    os.environ[served.DB_VARIABLE] = str(args.db)
    os.environ[served.HOSTS_VARIABLE] = ",".join(sorted(hosts)) if hosts is not None else ""
    os.environ[served.LIMITS_VARIABLE] = served.limits_variable(limits)
    config = server_config(
        served.APP_FACTORY,
        workers=args.workers,
        forwarded_allow_ips=args.forwarded_allow_ips,
        request_timeout=args.request_timeout,
        max_connections=args.max_connections,
        http=HTTP_PROTOCOL,
        on_shutdown=served.stop_work_here,
    )
    location = redact(str(parse_location(args.db)))
    print(
        f"2048 is being served at {url} by {args.workers} processes (database {location}); Ctrl+C stops it.",
        flush=True,
    )
    try:
        run_workers(config, sock)
    finally:
        sock.close()
    return 0


def _open_when_started(server: object, url: str) -> None:
    for _ in range(200):
        if getattr(server, "started", False):
            webbrowser.open(url)
            return
        time.sleep(0.05)
