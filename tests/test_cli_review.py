"""``2048 review`` through the real entry point: from the store, from a seed and moves, from a file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from test_ai_review import random_game
from twenty48.ai.review import REVIEW_SETTING, review_game
from twenty48.cli import main
from twenty48.commands.review import summary_lines
from twenty48.game import Game
from twenty48.rules import Board
from twenty48.store import Store

ENDING = Board.from_rows([[16, 4, 0, 64], [2, 16, 32, 8], [64, 32, 16, 32], [4, 2, 64, 2]])


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    try:
        status = main(list(argv))
    except SystemExit as exc:  # argparse's refusals
        status = int(exc.code or 0)
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return status, out, err


@pytest.fixture
def db(tmp_path: Path) -> tuple[Path, int]:
    path = tmp_path / "games.sqlite3"
    with Store.open(path) as store:
        record = store.add_game(store.local_player().id, random_game(3, 40))
    return path, record.id


def test_a_seed_and_moves_give_the_review_as_one_json_object(capsys) -> None:
    game = random_game(7, 30)
    actions = ",".join(a.value for a in game.actions)
    status, out, err = run(capsys, "review", "--seed", "7", "--actions", actions, "--json")
    assert status == 0 and err == ""  # no progress bar when stderr is not a terminal
    review = json.loads(out)
    assert review == review_game(game)
    assert review["setting"] == REVIEW_SETTING and len(review["moves"]) == 30


def test_a_stored_game_is_reviewed_from_the_store(capsys, db) -> None:
    path, game_id = db
    status, out, _ = run(capsys, "review", str(game_id), "--db", str(path), "--json")
    assert status == 0
    assert json.loads(out) == review_game(random_game(3, 40))
    status, out, _ = run(capsys, "review", str(game_id), "--db", str(path))
    assert status == 0 and out.startswith("accuracy: ") and "turning point" in out


def test_a_stored_games_review_is_kept_and_answered_at_once(capsys, db, monkeypatch) -> None:
    path, game_id = db
    assert run(capsys, "review", str(game_id), "--db", str(path), "--json")[0] == 0
    with Store.open(path) as store:
        status = store.review_status(store.local_player().id, game_id, REVIEW_SETTING)
        assert status.state == "done" and status.current
    # Asked again, it is read from the store: no search at all.
    import twenty48.ai.review as grading

    monkeypatch.setattr(grading, "review_game", None)
    status, out, _ = run(capsys, "review", str(game_id), "--db", str(path), "--json")
    assert status == 0 and json.loads(out) == review_game(random_game(3, 40))


def test_an_exported_file_is_reviewed(capsys, db, tmp_path) -> None:
    path, game_id = db
    exported = tmp_path / "game.json"
    assert run(capsys, "export", str(game_id), "--db", str(path), "-o", str(exported))[0] == 0
    status, out, _ = run(capsys, "review", "--file", str(exported), "--json")
    assert status == 0 and json.loads(out) == review_game(random_game(3, 40))


def test_the_text_lists_the_mistakes_and_blunders() -> None:
    game = Game.from_board(ENDING, seed=1)
    game.move("left")
    lines = summary_lines(review_game(game))
    assert lines[0] == "accuracy: 0.0 % over 1 graded move of 1"
    assert lines[2] == "chance of reaching 128 at the start: 83 %"
    assert lines[3].startswith("turning point: move 1, left, ") and lines[3].endswith("to 0 %")
    assert lines[-1].split() == ["1", "left", lines[-1].split()[2], "100", "blunder"]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--seed", "7", "--actions", "up,sideways"], "unknown move 'sideways'"),
        (["--seed", "2", "--actions", "up"], "move 1 (up) does not move the board"),
        (["--seed", "7", "--actions", "up@5"], "merge"),
        (["--file", "missing.json"], "cannot read"),
        (["999"], "999"),
        (["0"], "a game id is between"),
        (["--seed", "x"], "a seed (or a ranked game's 64 hex digits) is written in decimal digits"),
    ],
)
def test_bad_input_is_one_line_and_status_2(capsys, db, argv, message) -> None:
    path, _ = db
    status, out, err = run(capsys, "review", *argv, "--db", str(path))
    assert status == 2 and out == ""
    assert message in err and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1 and err.startswith("2048 review: ")


def test_moves_without_a_seed_are_refused(capsys, db) -> None:
    path, game_id = db
    status, _, err = run(capsys, "review", str(game_id), "--actions", "up", "--db", str(path))
    assert status == 2 and err == "2048 review: error: --actions, --variant and --size go with --seed\n"


def test_a_history_file_is_refused_by_name(capsys, db, tmp_path) -> None:
    path, _ = db
    every = tmp_path / "all.json"
    assert run(capsys, "export", "--all", "--db", str(path), "-o", str(every))[0] == 0
    status, _, err = run(capsys, "review", "--file", str(every))
    assert status == 2 and "review takes one game file" in err
