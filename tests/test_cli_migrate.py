"""``2048 migrate`` on SQLite files: from an old schema to the current one, and what it refuses."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from test_store import write_schema_1_database
from twenty48.cli import main
from twenty48.store import MIGRATIONS, Store


def test_migrate_brings_an_old_database_to_the_current_schema_once(tmp_path: Path, capsys) -> None:
    path = tmp_path / "old.sqlite3"
    games = write_schema_1_database(path)
    assert main(["migrate", "--db", str(path)]) == 0
    assert capsys.readouterr().out == f"{path}: schema version 1 -> {len(MIGRATIONS)}\n"
    assert main(["migrate", "--db", str(path)]) == 0
    assert capsys.readouterr().out == f"{path} is at schema version {len(MIGRATIONS)}: nothing to do\n"
    with Store.open(path) as store:
        player = store.local_player().id
        assert store.current_game(player).board == games[1].board


def test_migrate_creates_a_missing_database(tmp_path: Path, capsys) -> None:
    path = tmp_path / "new.sqlite3"
    assert main(["migrate", "--db", str(path)]) == 0
    assert capsys.readouterr().out == f"{path}: schema version 0 -> {len(MIGRATIONS)}\n"
    assert sqlite3.connect(path).execute("PRAGMA user_version").fetchone()[0] == len(MIGRATIONS)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (bytes(range(256)) * 20, "not an SQLite file at all"),
        (b"", "an empty file (0 bytes)"),
        (None, "is a directory"),
    ],
)
def test_migrate_refuses_what_is_no_twenty48_database_unchanged(
    tmp_path: Path, capsys, content: bytes | None, message: str
) -> None:
    path = tmp_path / "other"
    if content is None:
        path.mkdir()
    else:
        path.write_bytes(content)
    assert main(["migrate", "--db", str(path)]) == 1
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert content is None or path.read_bytes() == content


def test_migrate_refuses_a_newer_database(tmp_path: Path, capsys) -> None:
    path = tmp_path / "newer.sqlite3"
    Store.open(path).close()
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA user_version = 99")
    assert main(["migrate", "--db", str(path)]) == 1
    assert "newer than this program's" in capsys.readouterr().err
