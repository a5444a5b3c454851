"""What the command line makes of what a person types: numbers in decimal digits only, empty moves,
cells out of range, web addresses and standard input for files, mistyped database paths, huge
arguments, and one error prefix for every command. Real runs of ``main`` on real SQLite."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from twenty48.cli import main
from twenty48.game import Game
from twenty48.store import Store, transfer


def refused(capsys: pytest.CaptureFixture[str], argv: list[str]) -> str:
    """The one line ``argv`` is refused with (exit status 2), wherever it is refused."""
    try:
        status = main(argv)
    except SystemExit as exit_info:
        status = exit_info.code
    out, err = capsys.readouterr()
    assert status == 2 and out == "", (argv, out, err)
    assert len(err.splitlines()) == 1 and "Traceback" not in err, err
    return err


@pytest.mark.parametrize("spelling", ["0x10", "0b101", "1_000", "١٢", "+5", "1e3", "٣"])
@pytest.mark.parametrize(
    "argv",
    [
        ["replay", "--seed", "N"],
        ["review", "--seed", "N", "--actions", "up"],
        ["bench", "--seed", "N"],
        ["bench", "--games", "N"],
        ["history", "--limit", "N"],
        ["export", "N", "-o", "-"],
        ["serve", "--port", "N"],
    ],
)
def test_every_number_takes_decimal_digits_only(capsys, argv: list[str], spelling: str) -> None:
    err = refused(capsys, [spelling if word == "N" else word for word in argv])
    assert "decimal digits" in err


def test_a_seed_still_takes_decimal_digits_and_a_ranked_games_key(capsys) -> None:
    assert main(["replay", "--seed", "0016", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["seed"] == 16
    key = "ab" * 32
    assert main(["replay", "--seed", key.upper(), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["seed"] == key


@pytest.mark.parametrize("actions", ["up,,left", "up,", ",up", "up, ,left"])
def test_an_empty_move_is_refused_not_skipped(capsys, actions: str) -> None:
    err = refused(capsys, ["replay", "--seed", "7", "--actions", actions])
    assert "is empty (two commas in a row, or one at an end)" in err


def test_a_cell_out_of_range_names_the_range(capsys) -> None:
    err = refused(capsys, ["replay", "--seed", "7", "--variant", "merge", "--actions", "left,up@99"])
    assert "move 2 'up@99': the cell after @ is 0-15" in err
    err = refused(capsys, ["replay", "--seed", "7", "--variant", "merge", "--actions", "up@٣"])
    assert "the cell after @ is 0-15" in err


def test_a_huge_argument_is_cut_in_the_error(capsys, tmp_path: Path) -> None:
    huge = "9" * 100_000
    for argv in (
        ["replay", "--seed", huge],
        ["replay", "--seed", "1", "--actions", "x" * 100_000],
        ["history", "--variant", "x" * 100_000],
        ["hint", "2 2 " + "x" * 100_000],
        ["import", "y" * 100_000, "--db", str(tmp_path / "db.sqlite3")],
    ):
        err = refused(capsys, argv)
        assert len(err) < 500 and "100,00" in err, err[:600]


def test_import_refuses_a_web_address_by_name(capsys, tmp_path: Path) -> None:
    err = refused(capsys, ["import", "https://example.com/games.json", "--db", str(tmp_path / "db.sqlite3")])
    assert "'https://example.com/games.json' is a web address" in err
    assert "curl ADDRESS | 2048 import -" in err


def test_import_dash_reads_standard_input_bounded_as_files_are(capsys, tmp_path: Path, monkeypatch) -> None:
    from twenty48.commands import files

    game = Game.new(3)
    for _ in range(5):
        game.play(game.board.legal_moves()[0])
    text = json.dumps(transfer.export_game(game, True)).encode()
    db = tmp_path / "db.sqlite3"
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(text)))
    assert main(["import", "-", "--db", str(db)]) == 0
    assert "imported 1, skipped 0" in capsys.readouterr().out
    monkeypatch.setattr(files, "MAX_FILE_BYTES", len(text) - 1)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(text)))
    assert "standard input is over 0 MiB" in refused(capsys, ["import", "-", "--db", str(db)])
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"not json")))
    monkeypatch.setattr(files, "MAX_FILE_BYTES", 1 << 20)
    assert "standard input is not valid JSON" in refused(capsys, ["import", "-", "--db", str(db)])


@pytest.mark.integration
def test_export_to_standard_output_imports_from_standard_input(tmp_path: Path) -> None:
    source, target = tmp_path / "a.sqlite3", tmp_path / "b.sqlite3"
    with Store.open(source) as store:
        store.add_game(store.local_player().id, Game.replay(4, ["up", "left", "down"]))
    command = [sys.executable, "-m", "twenty48"]
    exported = subprocess.run(
        [*command, "export", "--all", "-o", "-", "--db", str(source)], capture_output=True, timeout=60
    )
    imported = subprocess.run(
        [*command, "import", "-", "--db", str(target)], input=exported.stdout, capture_output=True, timeout=60
    )
    assert imported.returncode == 0, imported.stderr
    assert b"imported 1, skipped 0" in imported.stdout


@pytest.mark.parametrize(
    "argv",
    [
        ["history"],
        ["stats"],
        ["export", "--all", "-o", "OUT"],
        ["review", "1"],
        ["admin", "players"],
        ["admin", "games", "1"],
    ],
)
def test_a_read_only_command_refuses_a_database_path_where_none_is(capsys, tmp_path: Path, argv) -> None:
    mistyped = tmp_path / "gmaes.sqlite3"
    out = tmp_path / "out.json"
    err = refused(capsys, [*[str(out) if w == "OUT" else w for w in argv], "--db", str(mistyped)])
    assert f"no database at {mistyped}: check --db" in err
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    ("argv", "command"),
    [
        (["replay", "--seed", "x"], "replay"),  # argparse
        (["hint", "2 2"], "hint"),  # the command itself
        (["hint", "0 0 0 0/0 0 0 0/0 0 0 0/0 0 0 0"], "hint"),
        (["review", "--actions", "up", "--file", "x.json"], "review"),
        (["copy", "--from", "NOWHERE", "--to", "postgresql://x@/y"], "copy"),
        (["history", "--db", "DB"], "history"),  # the store
        (["bench", "--seed", str(2**64 - 1), "--games", "2"], "bench"),
        (["admin", "players", "--db", "DB"], "admin players"),
    ],
)
def test_every_command_refuses_with_one_prefix(capsys, tmp_path: Path, argv, command: str) -> None:
    words = [str(tmp_path / "missing") if w in ("DB", "NOWHERE") else w for w in argv]
    assert refused(capsys, words).startswith(f"2048 {command}: error: ")
