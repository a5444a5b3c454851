"""The commands that take a board or a size: ``replay --size``, ``hint`` on any board, ``review --seed
--size`` and ``bench --size``."""

from __future__ import annotations

import json

import pytest

from twenty48 import Game
from twenty48.cli import main


def run(capsys, *argv):
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_replay_plays_the_game_of_its_size(capsys):
    actions = ["left", "up", "right", "down", "left", "up"]
    code, out, _ = run(
        capsys, "replay", "--seed", "3", "--size", "2x3", "--actions", ",".join(actions), "--json"
    )
    data = json.loads(out)
    game = Game.replay(3, actions, size="2x3")
    assert code == 0 and data["size"] == "2x3"
    assert data["board"] == [list(row) for row in game.board.rows] and data["score"] == game.score
    code, out, _ = run(capsys, "replay", "--seed", "3", "--actions", ",".join(actions), "--json")
    assert json.loads(out)["size"] == "4x4"


def test_replay_takes_single_tile_moves_of_cells_its_board_has(capsys):
    code, out, _ = run(
        capsys,
        "replay",
        "--seed",
        "4",
        "--size",
        "6x6",
        "--variant",
        "merge",
        "--actions",
        "up,left@35",
        "--json",
    )
    assert code == 0 and json.loads(out)["moves"] >= 1
    code, out, err = run(
        capsys, "replay", "--seed", "4", "--size", "2x3", "--variant", "merge", "--actions", "up@6"
    )
    assert code == 2 and out == ""
    assert err == "2048 replay: error: move #1: 'up@6': the cell after '@' must be 0-5 on a 2x3 board\n"


@pytest.mark.parametrize("size", ["7x3", "3", "1x1", "3x3x3", "big"])
def test_a_size_out_of_range_is_one_line_naming_the_range(capsys, size):
    commands = (["replay", "--seed", "1"], ["bench", "--games", "1"], ["review", "--seed", "1"], ["play"])
    for command in commands:
        with pytest.raises(SystemExit) as exit_info:
            main([*command, "--size", size])
        assert exit_info.value.code == 2
        err = capsys.readouterr().err
        (message,) = err.splitlines()
        assert "error:" in message and "R and C each from 2 to 6" in message


def test_hint_ranks_a_board_of_any_shape(capsys):
    code, out, _ = run(capsys, "hint", "--json", "--depth", "2", "2 4 ./. 2 ./. . 8")
    data = json.loads(out)
    assert code == 0 and data["size"] == "3x3" and data["best"] in ("up", "down", "left", "right")
    assert {move["direction"] for move in data["moves"]} == {"up", "down", "left", "right"}
    code, out, _ = run(capsys, "hint", "2 4 8 16 32/4 8 16 32 2")
    assert code == 0 and "no legal move: the game is over" in out


def test_hint_refuses_two_of_a_small_boards_largest_tile(capsys):
    code, out, err = run(capsys, "hint", "32 32/0 2")
    assert code == 2 and out == ""
    assert err == (
        "2048 hint: error: no game reaches this board: it holds two 32 tiles "
        "(building the second takes the room the first holds)\n"
    )


def test_review_of_a_seed_on_another_size(capsys):
    game = Game.new(2, size="3x3")
    for direction in ("up", "left", "down", "right"):
        game.move(direction)
    moves = ",".join(str(a) for a in game.actions)
    code, out, _ = run(capsys, "review", "--seed", "2", "--size", "3x3", "--actions", moves, "--json")
    review = json.loads(out)
    assert code == 0 and [m["played"] for m in review["moves"]] == [str(a) for a in game.actions]


def test_bench_reports_the_reach_rates_of_its_size(capsys, tmp_path):
    out = tmp_path / "games.jsonl"
    args = ("bench", "--size", "2x3", "--games", "2", "--depth", "1", "--json", "--out", str(out))
    code, printed, _ = run(capsys, *args)
    summary = json.loads(printed)
    assert code == 0 and summary["size"] == "2x3" and summary["games"] == 2
    assert list(summary["reach"]) == ["8", "16", "32", "64", "128"]
    assert all(json.loads(line)["size"] == "2x3" for line in out.read_text().splitlines())
    code, _, err = run(capsys, "bench", "--games", "3", "--depth", "1", "--out", str(out), "--resume")
    assert code == 2 and "on 2x3 (solver version" in err and err.count("\n") == 1
    code, printed, _ = run(capsys, "bench", "--report", str(out), "--json")
    assert json.loads(printed)["reach"] == summary["reach"]


def test_bench_stops_games_at_the_move_cap(capsys):
    code, printed, _ = run(
        capsys, "bench", "--size", "5x5", "--games", "2", "--depth", "1", "--max-moves", "30", "--json"
    )
    summary = json.loads(printed)
    assert code == 0 and summary["moves"] == 60 and summary["max_moves"] == 30
