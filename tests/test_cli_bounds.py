"""Careless command lines: numbers out of range, too many jobs, URLs as --db, replacing a game,
replay's report."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from twenty48.ai import analyse
from twenty48.cli import main
from twenty48.commands import bench, play
from twenty48.game import Game
from twenty48.rules import Board
from twenty48.store import Store

BOARD = "2 2 0 0/0 4 0 0/0 0 0 0/0 0 0 2"


@pytest.mark.parametrize(
    "argv",
    [
        ["bench", "--depth", "9223372036854775808"],
        ["bench", "--depth", str(2**63 - 1)],
        ["bench", "--depth", "13"],
        ["bench", "--games", "100001"],
        ["bench", "--nodes", "1000000001"],
        ["bench", "--time-ms", "60001"],
        ["bench", "--time-ms", "0"],
        ["hint", BOARD, "--nodes", "36893488147419103232"],
        ["hint", BOARD, "--depth", str(2**63)],
        ["hint", BOARD, "--depth", "1000"],
        ["history", "--limit", "9223372036854775808"],
        ["history", "--limit", "0"],
    ],
)
def test_out_of_range_settings_are_one_line_errors(argv, capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err
    (message,) = [line for line in err.splitlines() if "error:" in line]
    assert "expected an integer from 1 to" in message


def test_help_states_the_bounds(capsys):
    with pytest.raises(SystemExit):
        main(["bench", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    for bound in ("1-12", "1-60,000", "1-1,000,000,000", "1-100,000"):
        assert bound in out


def test_hint_reports_the_depth_it_searched(capsys):
    # An open board is exhausted a few depths down: the 1e-4 cut-off prunes everything deeper.
    assert main(["hint", BOARD, "--depth", "12", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    searched = data["depth"]
    assert searched < 12
    shallow, deeper = (
        analyse(Board.parse(BOARD), depth=searched),
        analyse(Board.parse(BOARD), depth=searched + 1),
    )
    assert shallow.values == deeper.values and shallow.nodes == deeper.nodes == data["nodes"]
    assert analyse(Board.parse(BOARD), depth=searched - 1).nodes < shallow.nodes
    assert main(["hint", BOARD, "--depth", "2"]) == 0
    assert "(depth 2," in capsys.readouterr().out


def test_jobs_are_capped_at_the_cores(capsys, monkeypatch):
    monkeypatch.setattr(bench, "available_cores", lambda: 1)
    assert main(["bench", "--json", "--games", "2", "--depth", "1", "--jobs", "100"]) == 0
    captured = capsys.readouterr()
    assert "--jobs 100 capped at 1" in captured.err
    assert json.loads(captured.out)["jobs"] == 1


@pytest.mark.parametrize("command", ["serve", "play"])
@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("sqlite:///tmp/x.db", "sqlite:// URLs are not databases"),
        ("mysql://user:secret@db/app", "mysql:// URLs are not databases"),
    ],
)
def test_a_url_as_db_is_refused_by_name(command, url, message, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as exit_info:
        main([command, "--db", url])
    assert exit_info.value.code == 2
    assert message in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    "argv",
    [
        ["migrate", "--db", "postgresql://nobody@/x"],
        ["history", "--db", "postgresql://nobody@/x"],
        ["admin", "--db", "postgresql://nobody@/x", "players"],
        pytest.param(
            ["serve", "--db", "postgresql://nobody@/x", "--port", "0"], marks=pytest.mark.integration
        ),
        ["copy", "--from", "SOURCE", "--to", "postgresql://nobody@/x"],
    ],
)
def test_a_postgresql_url_without_psycopg_is_a_one_line_error(argv, tmp_path, monkeypatch, capsys):
    # As on an install without the postgres extra: importing psycopg fails.
    monkeypatch.setitem(sys.modules, "psycopg", None)
    for module in [name for name in sys.modules if name.startswith("twenty48.store.")]:
        if module.endswith((".postgres", ".copy", ".dialect")):
            monkeypatch.delitem(sys.modules, module)
    source = tmp_path / "games.sqlite3"
    Store.open(source).close()
    assert main([str(source) if word == "SOURCE" else word for word in argv]) == 1
    err = capsys.readouterr().err
    assert "PostgreSQL needs psycopg: pip install 'twenty48[postgres]'" in err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


@pytest.mark.integration
def test_serve_refuses_a_missing_directory_and_a_directory(tmp_path):
    for db, message in (
        (tmp_path / "no" / "dir" / "x.db", "no directory"),
        (tmp_path, "not a database file"),
    ):
        result = subprocess.run(
            [sys.executable, "-m", "twenty48", "serve", "--port", "0", "--no-browser", "--db", str(db)],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert result.returncode == 1
        assert message in result.stderr and "Traceback" not in result.stderr
    assert not (tmp_path / "no").exists()


def _game_in_progress(db: Path) -> int:
    with Store.open(db) as store:
        player = store.local_player()
        record = store.current_game(player.id)
        store.move(player.id, record.id, Board.from_rows(record.board.rows).legal_moves()[0])
        return record.id


class _Terminal:
    """What ``play`` needs of a terminal; the app itself is replaced by a recorder."""

    def __init__(self, monkeypatch, answer: str | None) -> None:
        self.started: list[dict] = []
        self.asked: list[str] = []
        monkeypatch.setattr(sys.stdin, "isatty", lambda: True, raising=False)
        monkeypatch.setattr(sys.stdout, "isatty", lambda: True, raising=False)

        def ask(prompt: str) -> str:
            self.asked.append(prompt)
            if answer is None:
                raise EOFError
            return answer

        monkeypatch.setattr("builtins.input", ask)
        import twenty48.tui

        outer = self

        class App:
            return_code = 0

            def __init__(self, **kwargs) -> None:
                outer.started.append(kwargs)

            def run(self) -> None:
                pass

        monkeypatch.setattr(twenty48.tui, "Twenty48App", App)


@pytest.mark.parametrize(("answer", "replaced"), [("y", True), ("", False), ("n", False), (None, False)])
def test_play_with_a_seed_asks_before_replacing_a_game(tmp_path, monkeypatch, answer, replaced):
    db = tmp_path / "games.sqlite3"
    _game_in_progress(db)
    terminal = _Terminal(monkeypatch, answer)
    code = play.run(play_args(db, seed=7))
    assert len(terminal.asked) == 1 and "in progress (1 move," in terminal.asked[0]
    assert (code, len(terminal.started)) == ((0, 1) if replaced else (1, 0))


def test_play_new_skips_the_question_and_nothing_to_lose_asks_nothing(tmp_path, monkeypatch):
    db = tmp_path / "games.sqlite3"
    _game_in_progress(db)
    terminal = _Terminal(monkeypatch, None)
    assert play.run(play_args(db, seed=7, new=True)) == 0
    assert play.run(play_args(tmp_path / "fresh.sqlite3", variant="merge")) == 0
    assert play.run(play_args(db)) == 0  # resuming asks nothing
    assert terminal.asked == [] and len(terminal.started) == 3


def play_args(db: Path, seed: int | None = None, variant: str | None = None, new: bool = False):
    from twenty48.cli import build_parser

    argv = ["play", "--db", str(db)]
    argv += ["--seed", str(seed)] if seed is not None else []
    argv += ["--variant", variant] if variant else []
    argv += ["--new"] if new else []
    return build_parser().parse_args(argv)


def test_replay_says_which_moves_were_illegal_and_which_came_after_the_end(capsys):
    game = Game.new(5)
    given: list[str] = []
    illegal: list[int] = []
    while not game.over:
        blocked = [d for d in ("up", "down", "left", "right") if not game.board.move(d).changed]
        if blocked and len(illegal) < 2:
            given.append(blocked[0])
            illegal.append(len(given))
        given.append(next(d for d in ("up", "left", "right", "down") if game.play(d).changed))
    played = len(given) - len(illegal)
    given += ["up", "left", "left"]
    assert main(["replay", "--seed", "5", "--actions", ",".join(given)]) == 0
    out = capsys.readouterr().out
    assert f"moves: {played} played of {len(given)} given" in out
    assert f"illegal (changed nothing): 2: #{illegal[0]}, #{illegal[1]}" in out
    assert f"after the game ended (not played): 3: #{len(given) - 2}-#{len(given)}" in out
    assert main(["replay", "--seed", "5", "--actions", ",".join(given), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert (data["illegal"], data["after_end"], data["given"]) == (illegal, 3, len(given))


def test_replay_help_names_single_tile_moves(capsys):
    with pytest.raises(SystemExit):
        main(["replay", "--help"])
    assert "up@5" in capsys.readouterr().out
