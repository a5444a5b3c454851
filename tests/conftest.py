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
import sqlite3
import subprocess
import tempfile
import uuid
from collections.abc import Iterator
from glob import glob
from pathlib import Path

import pytest

POSTGRES_VARIABLE = "TWENTY48_TEST_POSTGRES"
#: The ``pg_ctl`` command line (with ``-D``) that restarts that server, split by ``shlex``.
CTL_VARIABLE = "TWENTY48_TEST_POSTGRES_CTL"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    # Sync Playwright keeps an event loop running in the main thread; async tests (Textual's
    # pilot) that run after it fail. Browser tests therefore run last, in their collected order.
    items.sort(key=lambda item: item.get_closest_marker("browser") is not None)


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
        [*as_user, bin_dir / "initdb", "-D", data, "-U", "postgres", "-A", "trust", "-E", "UTF8"], **quiet
    )
    ctl = [*as_user, str(bin_dir / "pg_ctl"), "-D", str(data), "-l", str(root / "log")]
    options = ["-o", f"-k {root} -p 5432 -c listen_addresses=''"]
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
            cursor = conn.execute(translate(statement), params)
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
