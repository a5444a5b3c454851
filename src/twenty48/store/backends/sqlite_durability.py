"""When a commit is on disk (SQLite): write-ahead logging, group commit, and setting a file aside.

Every commit goes to the write-ahead log. With ``synchronous=FULL`` SQLite fsyncs the log at each
commit, so the commit is on disk when it returns. Group commit uses ``synchronous=NORMAL``: a
commit reaches the operating system at once (it survives a crash of the process) and ``GroupCommit.flush``
makes every commit since the previous flush durable with one fsync of the log.
"""

from __future__ import annotations

import os
import sqlite3
from datetime import UTC, datetime
from os import PathLike
from pathlib import Path

from twenty48.store.errors import StoreError, StoreUnreadableError


def use_wal(db: sqlite3.Connection, path: Path, group_commit: bool) -> None:
    """Put the connection in WAL mode, with the commit durability ``group_commit`` asks for."""
    if db.execute("PRAGMA journal_mode = WAL").fetchone()[0].lower() != "wal":
        raise StoreUnreadableError(f"{path}: the database cannot use write-ahead logging")
    # FULL: a commit is on disk before the action it records is acknowledged. NORMAL (group
    # commit) leaves that fsync to flush(), shared by every commit since the previous one.
    db.execute(f"PRAGMA synchronous = {'NORMAL' if group_commit else 'FULL'}")


class GroupCommit:
    """The commits not yet flushed to disk, and the fsync that flushes them."""

    def __init__(self, path: Path) -> None:
        self._path = path
        self._wal_path = Path(f"{path}-wal")
        #: Commits made since the last ``flush``.
        self._unflushed = False
        self._wal_fd: int | None = None

    def committed(self) -> None:
        """A commit that changed something reached the log (not yet the disk)."""
        self._unflushed = True

    def flush(self) -> None:
        """One fsync of the write-ahead log; at once when nothing was committed since the last."""
        if not self._unflushed:
            return
        try:
            fd = self._wal()
            if fd is not None:
                os.fsync(fd)
        except OSError as exc:
            raise StoreError(f"{self._path}: cannot flush the write-ahead log: {exc}") from exc
        self._unflushed = False

    def close(self) -> None:
        if self._wal_fd is not None:
            os.close(self._wal_fd)
            self._wal_fd = None

    def _wal(self) -> int | None:
        """A descriptor of the current write-ahead log file; None if there is none (all of it was
        checkpointed into the database, which the checkpoint synced)."""
        try:
            inode = self._wal_path.stat().st_ino
        except FileNotFoundError:
            return None
        if self._wal_fd is not None and os.fstat(self._wal_fd).st_ino != inode:
            os.close(self._wal_fd)
            self._wal_fd = None
        if self._wal_fd is None:
            self._wal_fd = os.open(self._wal_path, os.O_RDWR)
        return self._wal_fd


def set_aside(path: str | PathLike[str]) -> Path:
    """Rename an unreadable database file, with its ``-wal`` and ``-shm`` companions, to
    ``<name>.damaged-<UTC time>`` so that opening ``path`` starts afresh while nothing is deleted.
    Returns the new path. Raises OSError if ``path`` is not a file or cannot be renamed."""
    path = Path(path)
    if not path.is_file():
        raise OSError(f"{path} is not a file")
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S%fZ")
    target = path.with_name(f"{path.name}.damaged-{stamp}")
    path.rename(target)
    for suffix in ("-wal", "-shm"):
        companion = path.with_name(path.name + suffix)
        if companion.exists():
            # Kept beside the main file under the names SQLite looks for, so the set-aside copy
            # still opens with its last transactions.
            companion.rename(target.with_name(target.name + suffix))
    return target
