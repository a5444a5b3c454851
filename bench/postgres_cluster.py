"""A PostgreSQL database for a bench: a given server (a fresh schema per run), or a throwaway
cluster of its own, started from the PostgreSQL binaries as ``tests/conftest.py`` starts one (as
the ``postgres`` user when run as root: ``initdb`` refuses root), on a Unix socket only."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from glob import glob
from pathlib import Path

import psycopg


class Postgres:
    def __init__(self, url: str, data: Path | None = None, ctl: list[str] | None = None) -> None:
        self.url = url
        #: The throwaway cluster's data directory; None for a server given by URL.
        self.data = data
        #: ``pg_ctl`` on the throwaway cluster, with its options (as its user): to stop and start it.
        self.ctl = ctl

    @classmethod
    @contextmanager
    def open(cls, url: str, statistics: bool = False) -> Iterator[Postgres]:
        """``url``, or a throwaway cluster for ``"throwaway"`` (stopped and removed afterwards);
        ``statistics``: the cluster loads ``pg_stat_statements``."""
        if url != "throwaway":
            yield cls(url)
            return
        found = shutil.which("initdb") or (sorted(glob("/usr/lib/postgresql/*/bin/initdb")) or [None])[-1]
        if found is None:
            raise SystemExit("no PostgreSQL binaries (initdb): install PostgreSQL or give a URL")
        bin_dir = Path(found).parent
        root = Path(tempfile.mkdtemp(prefix="b48pg-", dir="/tmp"))
        as_user: list[str] = []
        if os.geteuid() == 0:
            shutil.chown(root, "postgres")
            as_user = ["runuser", "-u", "postgres", "--"]
        quiet = {"check": True, "cwd": "/", "stdout": subprocess.DEVNULL, "stderr": subprocess.STDOUT}
        subprocess.run(
            [*as_user, bin_dir / "initdb", "-D", root / "data", "-U", "postgres", "-A", "trust"], **quiet
        )
        ctl = [*as_user, str(bin_dir / "pg_ctl"), "-D", str(root / "data"), "-l", str(root / "log")]
        # max_connections: 4 workers x a pool of 2, a hint client's store, with room to spare.
        options = f"-k {root} -p 5432 -c listen_addresses='' -c max_connections=100"
        if statistics:
            options += " -c shared_preload_libraries=pg_stat_statements"
        subprocess.run([*ctl, "-o", options, "-w", "start"], **quiet)
        try:
            yield cls(
                f"postgresql://postgres@/postgres?host={root}&port=5432", root / "data", [*ctl, "-o", options]
            )
        finally:
            subprocess.run([*ctl, "-m", "fast", "-w", "stop"], **{**quiet, "check": False})
            shutil.rmtree(root, ignore_errors=True)

    def fresh(self) -> str:
        """The URL of a new, empty schema (first on the search path)."""
        name = f"b_{uuid.uuid4().hex[:12]}"
        with psycopg.connect(self.url, autocommit=True) as conn:
            conn.execute(f"CREATE SCHEMA {name}")
        separator = "&" if "?" in self.url else "?"
        return f"{self.url}{separator}options=-csearch_path%3D{name}"

    def drop(self, url: str) -> None:
        with psycopg.connect(self.url, autocommit=True) as conn:
            conn.execute(f"DROP SCHEMA IF EXISTS {url.rsplit('%3D', 1)[1]} CASCADE")
