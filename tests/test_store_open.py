"""Opening a database: nothing is written to a file before it is known to be a sound twenty48 database."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from twenty48.store import (
    ForeignDatabaseError,
    NewerDatabaseError,
    Store,
    StoreError,
    StoreUnreadableError,
    database_path,
)


@pytest.fixture
def path(tmp_path: Path) -> Path:
    return tmp_path / "games.sqlite3"


def _foreign(path: Path) -> None:
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE notes (text TEXT)")
    db.execute("INSERT INTO notes VALUES ('mine')")
    db.commit()
    db.close()


def test_a_foreign_sqlite_file_is_refused_unchanged(path: Path) -> None:
    _foreign(path)
    before = path.read_bytes()
    assert before[18:20] == b"\x01\x01"  # rollback journal, not WAL
    with pytest.raises(ForeignDatabaseError, match="not a twenty48"):
        Store.open(path)
    assert path.read_bytes() == before


def test_a_newer_database_is_refused_unchanged(path: Path) -> None:
    Store.open(path).close()
    db = sqlite3.connect(path)
    db.execute("PRAGMA journal_mode = DELETE")
    db.execute("PRAGMA user_version = 99")
    db.close()
    before = path.read_bytes()
    with pytest.raises(NewerDatabaseError, match="upgrade twenty48"):
        Store.open(path)
    assert path.read_bytes() == before


def test_a_file_that_is_not_sqlite_is_foreign(path: Path) -> None:
    path.write_bytes(b"just some notes\n" * 64)
    with pytest.raises(ForeignDatabaseError, match="not an SQLite file"):
        Store.open(path)
    assert path.read_bytes() == b"just some notes\n" * 64


def test_an_empty_file_is_not_taken_for_a_new_database(path: Path) -> None:
    path.touch()
    with pytest.raises(StoreUnreadableError, match="0 bytes") as info:
        Store.open(path)
    assert not isinstance(info.value, ForeignDatabaseError)
    assert path.stat().st_size == 0


def test_a_directory_is_not_a_file(tmp_path: Path) -> None:
    with pytest.raises(ForeignDatabaseError, match="is a directory, not a database file"):
        Store.open(tmp_path)


def test_a_missing_directory_is_not_created(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="no directory") as info:
        Store.open(tmp_path / "nonexistent" / "dir" / "x.db")
    assert not isinstance(info.value, StoreUnreadableError)
    assert not (tmp_path / "nonexistent").exists()


def test_damage_inside_the_file_is_found_at_open(path: Path) -> None:
    with Store.open(path) as s:
        player = s.local_player()
        for seed in range(400):  # some pages of games beyond the schema's
            s.new_game(player.id, seed)
            s.move(player.id, s.current_game(player.id).id, "left")
    db = sqlite3.connect(path)
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()
    size = path.stat().st_size
    page = 4096
    assert size > 8 * page
    with path.open("r+b") as file:  # random bytes in the middle: the header stays intact
        file.seek((size // page // 2) * page)
        file.write(bytes(range(256)) * 16)
    with pytest.raises(StoreUnreadableError, match="damaged") as info:
        Store.open(path)
    assert not isinstance(info.value, ForeignDatabaseError | NewerDatabaseError)


@pytest.mark.parametrize(
    ("location", "message"),
    [
        ("postgresql://app@/app?host=/run/postgresql", "needs an SQLite file, not a PostgreSQL URL"),
        ("postgres://user:secret@db/app", "needs an SQLite file, not a PostgreSQL URL"),
        ("mysql://user:secret@db/app", "mysql:// URLs are not databases"),
    ],
)
def test_a_url_is_refused_by_name(tmp_path: Path, monkeypatch, location: str, message: str) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(StoreError, match=message) as info:
        database_path(location)
    assert "secret" not in str(info.value)
    if location.startswith("mysql"):
        with pytest.raises(StoreError, match=message):
            Store.open(location)
    assert list(tmp_path.iterdir()) == []


def test_store_open_takes_a_postgresql_url_as_a_postgresql_database(tmp_path: Path) -> None:
    # Nothing listens on this socket: the answer is PostgreSQL's one-line error, not a file made here.
    url = f"postgresql://nobody@/none?host={tmp_path}&port=1&connect_timeout=2"
    with pytest.raises(StoreError, match=r"the database postgresql://nobody@/none\?.* cannot be used"):
        Store.open(url)
    assert list(tmp_path.iterdir()) == []


def test_paths_that_merely_contain_a_colon_are_paths() -> None:
    assert database_path("games:2024.sqlite3") == Path("games:2024.sqlite3")
    assert database_path(Path("a/b.db")) == Path("a/b.db")
