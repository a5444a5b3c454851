"""Suite-wide pytest setup, and the databases the store's contract tests run against.

``location`` is parametrized over both backends: an SQLite file, and a fresh schema of a PostgreSQL
server. The server is ``$TWENTY48_TEST_POSTGRES`` (a URL whose role may create schemas; ``.ci/run``
sets it); without it, a throwaway cluster is started from the PostgreSQL binaries if the machine
has them (``initdb``, run as the ``postgres`` user when the tests run as root). Without either, the
PostgreSQL cases are skipped, except under ``CI=true``, where they fail: CI must test both.
"""

from __future__ import annotations

import os
import shlex
import shutil
import socket
import sqlite3
import subprocess
import sys
import tempfile
import uuid
from collections import Counter
from collections.abc import Callable, Iterator
from glob import glob
from multiprocessing.process import BaseProcess
from pathlib import Path
from typing import Any

import pytest

import twenty48

POSTGRES_VARIABLE = "TWENTY48_TEST_POSTGRES"
#: The ``pg_ctl`` command line (with ``-D``) that restarts that server, split by ``shlex``.
CTL_VARIABLE = "TWENTY48_TEST_POSTGRES_CTL"


#: Where the browser tests live: every test there is ``browser``.
BROWSER_TESTS = Path(__file__).parent / "browser"
#: Fixtures that start a server or reach one (PostgreSQL, a local Ray): a test using one is
#: ``integration``.
SERVER_FIXTURES = {"postgres_server", "postgres_url", "ray_session"}
#: The project's own code: a subprocess it starts counts against a unit test (library code may run
#: helpers on import: ctypes runs ldconfig).
PROJECT_CODE = (str(Path(__file__).parent), str(Path(twenty48.__file__).parent))
HTTP_CLIENT = "a client of the app over HTTP (TestClient)"

#: Where a test's temporary files go when this machine has room in memory for them (Linux's tmpfs).
MEMORY_TEMPROOT = Path("/dev/shm")
#: The room it must have: three runs' temporary files are kept, about 20 MB each.
MEMORY_ROOM = 1 << 30


def _temporary_files_in_memory() -> None:
    """Put pytest's temporary directories (``tmp_path``) and this process's (``tempfile``) in
    memory where the machine has room: the store fsyncs every commit as it must, and on a disk that
    is most of what a store test costs (the SQLite cases of test_history, test_leaderboards and
    test_store: 24 s on disk, 3 s in memory). What the store does is the same; only the machine's
    crash, which no test makes, would lose more. ``PYTEST_DEBUG_TEMPROOT`` set by
    hand wins (and ``--basetemp``, for ``tmp_path``)."""
    if "PYTEST_DEBUG_TEMPROOT" in os.environ or not os.access(MEMORY_TEMPROOT, os.W_OK):
        return
    room = os.statvfs(MEMORY_TEMPROOT)
    if room.f_bavail * room.f_frsize >= MEMORY_ROOM:
        os.environ["PYTEST_DEBUG_TEMPROOT"] = str(MEMORY_TEMPROOT)
        # And the directories a test makes itself (a store for each of hypothesis's examples).
        tempfile.tempdir = str(MEMORY_TEMPROOT)


_temporary_files_in_memory()


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        kind = _kind(item)
        if kind is not None:
            item.add_marker(kind)
    # Sync Playwright keeps an event loop running in the main thread; async tests (Textual's
    # pilot) that run after it fail. Browser tests therefore run last: the files with the most tests
    # first, so that the two workers end on short files together instead of one running a long file
    # alone while the other waits (a file stays on one worker; ties keep their collected order).
    per_file = Counter(item.path for item in items if item.get_closest_marker("browser"))
    items.sort(key=lambda item: (item.path in per_file, -per_file[item.path]))


def _kind(item: pytest.Item) -> str | None:
    """``browser`` (under tests/browser), ``integration`` (declared by the test or its file, or
    using a server: a ``SERVER_FIXTURES`` fixture or the ``location`` fixture's PostgreSQL case),
    nothing more for the other ``slow`` ones, else ``unit``. ``unit_tests_stay_in_process`` holds
    ``unit`` true."""
    if BROWSER_TESTS in Path(item.path).parents:
        return "browser"
    callspec = getattr(item, "callspec", None)
    on_postgres = callspec is not None and callspec.params.get("location") == "postgresql"
    names = set(getattr(item, "fixturenames", ()))
    if item.get_closest_marker("integration") or on_postgres or names & SERVER_FIXTURES:
        return "integration"
    return None if item.get_closest_marker("slow") else "unit"


@pytest.fixture(autouse=True)
def unit_tests_stay_in_process(
    request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> Iterator[None]:
    """A ``unit`` test that starts a process or a listening server, reaches the app over HTTP (a
    ``TestClient``) or drives the terminal app (Textual's pilot) fails, naming what it did: such a
    test is ``integration`` (``@pytest.mark.integration``, or ``pytestmark`` for its file), so that
    ``pytest -m unit`` stays the quick loop it says it is."""
    if request.node.get_closest_marker("unit") is None:
        yield
        return
    started: list[str] = []

    def noting(what: str, original: Callable[..., Any]) -> Callable[..., Any]:
        def noted(*args: Any, **kwargs: Any) -> Any:
            started.append(what)
            return original(*args, **kwargs)

        return noted

    def popen(self: subprocess.Popen[Any], args: Any, *rest: Any, **options: Any) -> None:
        if _called_from_project():
            started.append(f"a subprocess {args!r}")
        popen_init(self, args, *rest, **options)

    def listening(self: socket.socket, *args: Any) -> None:
        started.append(f"a server listening on {self.getsockname()!r}")
        listen(self, *args)

    popen_init, listen = subprocess.Popen.__init__, socket.socket.listen
    monkeypatch.setattr(subprocess.Popen, "__init__", popen)
    monkeypatch.setattr(socket.socket, "listen", listening)
    monkeypatch.setattr(BaseProcess, "start", noting("a process", BaseProcess.start))
    monkeypatch.setattr(os, "fork", noting("a process (fork)", os.fork))
    monkeypatch.setattr(os, "forkpty", noting("a process (forkpty)", os.forkpty))
    # Only what the test's modules imported can be used (and importing them here costs every run).
    client = getattr(sys.modules.get("starlette.testclient"), "TestClient", None)
    if client is not None:
        monkeypatch.setattr(client, "__init__", noting(HTTP_CLIENT, client.__init__))
    app = getattr(sys.modules.get("textual.app"), "App", None)
    if app is not None:
        monkeypatch.setattr(app, "run_test", noting("the terminal app (Textual's pilot)", app.run_test))
    yield
    # A client made for the whole module was made before this fixture looked.
    if client is not None and any(isinstance(value, client) for value in request.node.funcargs.values()):
        started.append(HTTP_CLIENT)
    if started:
        pytest.fail(
            f"this unit test started {', '.join(sorted(set(started)))}: mark it "
            "@pytest.mark.integration (pytestmark for a whole file) so that `pytest -m unit` stays quick",
            pytrace=False,
        )


def _called_from_project() -> bool:
    frame = sys._getframe(2)
    while frame is not None and frame.f_code.co_filename == subprocess.__file__:
        frame = frame.f_back
    return frame is not None and frame.f_code.co_filename.startswith(PROJECT_CODE)


class PostgresServer:
    """A PostgreSQL server the tests may create schemas on; each test gets its own schema."""

    def __init__(self, url: str, ctl: list[str] | None) -> None:
        self.url = url
        #: ``pg_ctl -D DATA`` (and the user to run it as): how a test restarts the server.
        self.ctl = ctl

    def restart(self) -> None:
        """Stop the server at once (its clients lose their connections) and start it again."""
        if self.ctl is None:
            pytest.fail(f"the server cannot be restarted: set {CTL_VARIABLE}")
        subprocess.run(
            [*self.ctl, "-m", "immediate", "-w", "restart"], check=True, cwd="/", capture_output=True
        )

    def fresh_url(self) -> str:
        """The server's URL with a new, empty schema first on the search path."""
        import psycopg

        name = f"t_{uuid.uuid4().hex[:12]}"
        with psycopg.connect(self.url, autocommit=True) as conn:
            conn.execute(f"CREATE SCHEMA {name}")
        separator = "&" if "?" in self.url else "?"
        return f"{self.url}{separator}options=-csearch_path%3D{name}"

    def drop(self, url: str) -> None:
        import psycopg

        name = url.rsplit("%3D", 1)[1]
        with psycopg.connect(self.url, autocommit=True) as conn:
            conn.execute(f"DROP SCHEMA IF EXISTS {name} CASCADE")


def _binaries() -> Path | None:
    found = shutil.which("initdb")
    if found:
        return Path(found).parent
    versions = sorted(glob("/usr/lib/postgresql/*/bin/initdb"))
    return Path(versions[-1]).parent if versions else None


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    url = os.environ.get(POSTGRES_VARIABLE)
    if url:
        ctl = os.environ.get(CTL_VARIABLE)
        yield PostgresServer(url, shlex.split(ctl) if ctl else None)
        return
    bin_dir = _binaries()
    missing = f"no PostgreSQL server: set {POSTGRES_VARIABLE} or install PostgreSQL (.ci/run does)"
    if bin_dir is None:
        if os.environ.get("CI") == "true":
            pytest.fail(missing)
        pytest.skip(missing)
    # Short, under /tmp: the socket's path must stay under 108 bytes, and the postgres user must
    # reach it when the tests run as root (initdb refuses root).
    root = Path(tempfile.mkdtemp(prefix="t48pg-", dir="/tmp"))
    as_user: list[str] = []
    if os.geteuid() == 0:
        shutil.chown(root, "postgres")
        as_user = ["runuser", "-u", "postgres", "--"]
    data = root / "data"
    quiet = {"check": True, "cwd": "/", "stdout": subprocess.DEVNULL, "stderr": subprocess.STDOUT}
    subprocess.run(
        [*as_user, bin_dir / "initdb", "-D", data, "-U", "postgres", "-A", "trust", "-E", "UTF8", "-N"],
        **quiet,
    )
    ctl = [*as_user, str(bin_dir / "pg_ctl"), "-D", str(data), "-l", str(root / "log")]
    # A throwaway cluster need not survive the machine's crash: no fsync (initdb's, -N, or the server's).
    # Every commit still waits for its log to be written (the store asks synchronous_commit=on), so
    # what a test commits survives the server's own crash, which is what a restart here makes.
    options = ["-o", f"-k {root} -p 5432 -c listen_addresses='' -c fsync=off"]
    subprocess.run([*ctl, *options, "-w", "start"], **quiet)
    try:
        yield PostgresServer(f"postgresql://postgres@/postgres?host={root}&port=5432", [*ctl, *options])
    finally:
        subprocess.run([*ctl, "-m", "immediate", "stop"], **{**quiet, "check": False})
        shutil.rmtree(root, ignore_errors=True)


@pytest.fixture
def postgres_url(postgres_server: PostgresServer) -> Iterator[str]:
    """A fresh, empty PostgreSQL schema's URL, dropped after the test."""
    url = postgres_server.fresh_url()
    yield url
    postgres_server.drop(url)


@pytest.fixture(params=["sqlite", "postgresql"])
def location(request: pytest.FixtureRequest, tmp_path: Path) -> Path | str:
    """Where a store's contract test keeps its database: each test runs once per backend."""
    if request.param == "sqlite":
        return tmp_path / "games.sqlite3"
    return request.getfixturevalue("postgres_url")


@pytest.fixture
def raw_sql(location: Path | str):
    """``raw_sql(statement, params)``: rows of one statement in the shared SQL, straight on the
    test's database (either backend), committed; for checking what the store wrote."""

    def run(statement: str, params: tuple[object, ...] = ()) -> list[tuple[object, ...]]:
        if isinstance(location, Path):
            with sqlite3.connect(location) as db:
                return db.execute(statement, params).fetchall()
        import psycopg

        from twenty48.store.backends.postgres_dialect import translate

        with psycopg.connect(location, autocommit=True) as conn:
            cursor = psycopg.RawCursor(conn).execute(translate(statement), params)
            return cursor.fetchall() if cursor.description else []

    return run


@pytest.fixture(scope="session")
def ray_session() -> Iterator[None]:
    """One local Ray with 2 CPUs for every Ray test: starting one takes seconds. ``2048 bench
    --ray`` run in this process plays on it. Ray is in the ``test`` extra: never skipped."""
    import ray

    from twenty48.ai.cluster import init_ray

    # A new Ray of its own, even where a cluster started by `ray start` runs on this machine; the
    # games' results are a few hundred bytes, where Ray's default object store takes gigabytes.
    init_ray("local", num_cpus=2, object_store_memory=100 << 20)
    yield
    ray.shutdown()
