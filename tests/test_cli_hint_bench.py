"""``2048 hint`` and ``2048 bench`` through the real command line entry point."""

from __future__ import annotations

import _thread
import json
import threading

import pytest

from twenty48.ai import rank_moves
from twenty48.cli import main
from twenty48.rules import Board

BOARD = "2 2 0 0/0 4 0 0/0 0 0 0/0 0 0 2"


def test_hint_prints_the_ranked_moves(capsys):
    assert main(["hint", BOARD, "--depth", "2"]) == 0
    out = capsys.readouterr().out
    expected = list(rank_moves(Board.parse(BOARD), depth=2))
    assert f"best move: {expected[0]}" in out
    listed = [line.split()[0] for line in out.splitlines() if line.startswith("  ")]
    assert listed == [d.value for d in expected]


def test_hint_json(capsys):
    assert main(["hint", BOARD, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    ranked = rank_moves(Board.parse(BOARD))
    assert data["best"] == next(iter(ranked)).value
    assert [m["direction"] for m in data["moves"]] == [d.value for d in ranked]
    assert [m["value"] for m in data["moves"]] == list(ranked.values())
    assert data["board"] == [[2, 2, 0, 0], [0, 4, 0, 0], [0, 0, 0, 0], [0, 0, 0, 2]]
    assert data["depth"] >= 3


def test_hint_with_a_time_budget(capsys):
    assert main(["hint", BOARD, "--time-ms", "20", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["best"] in {"up", "down", "left", "right"}


def test_hint_with_a_node_budget(capsys):
    assert main(["hint", BOARD, "--nodes", "5000", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    ranked = rank_moves(Board.parse(BOARD), nodes=5000)
    assert [m["direction"] for m in data["moves"]] == [d.value for d in ranked]
    assert [m["value"] for m in data["moves"]] == list(ranked.values())
    assert data["nodes"] <= 5000


def test_hint_on_a_finished_game(capsys):
    assert main(["hint", "2 4 2 4/4 2 4 2/2 4 2 4/4 2 4 2", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["best"] is None and data["moves"] == []
    assert main(["hint", "2 4 2 4/4 2 4 2/2 4 2 4/4 2 4 2"]) == 0
    assert "game is over" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("board", "problem"),
    [
        ("2 2 0/0 4 0 0/0 0 0 0/0 0 0 2", "rows of lengths [3, 4, 4, 4]"),
        ("3 2 0 0/0 4 0 0/0 0 0 0/0 0 0 2", "got 3"),
        ("2 x 0 0/0 4 0 0/0 0 0 0/0 0 0 2", "'x' is not a tile value"),
        ("2 2 0 0/0 4 0 0/0 0 0 0/0 0 0 0/0 0 0 0/0 0 0 0/0 0 0 0", "rows of lengths [4, 4, 4, 4, 4, 4, 4]"),
        ("2 2 0 0 0 0 0/0 4 0 0 0 0 0", "R and C each from 2 to 6"),
        ("2048 0/0 2", "from 2 to 32 (on a 2x2 board)"),
        ("262144 0 0 0/0 0 0 0/0 0 0 0/0 0 0 0", "131072"),
        ("131072 131072 0 0/0 4 0 0/0 0 0 0/0 0 0 2", "no game reaches this board: it holds two 131072"),
        ("131072 0 0 0/0 4 0 0/0 0 0 0/0 0 0 131072", "no game reaches this board: it holds two 131072"),
        ("0 0 0 0/0 0 0 0/0 0 0 0/0 0 0 0", "no game reaches this board: it holds no tile"),
        ("", "invalid board: a board is R rows of C tile values"),
    ],
)
def test_hint_refuses_a_malformed_or_unreachable_board(capsys, board, problem):
    assert main(["hint", board]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.count("\n") == 1
    assert captured.err.startswith("2048 hint: error: ")
    assert problem in captured.err


def test_hint_refuses_a_bad_depth(capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["hint", BOARD, "--depth", "0"])
    assert exit_info.value.code == 2
    with pytest.raises(SystemExit):
        main(["hint", BOARD, "--depth", "2", "--time-ms", "5"])
    for bad in (["--nodes", "0"], ["--nodes", "many"], ["--nodes", "100", "--depth", "2"]):
        with pytest.raises(SystemExit) as exit_info:
            main(["hint", BOARD, *bad])
        assert exit_info.value.code == 2


def bench_json(capsys, *args):
    assert main(["bench", "--json", *args]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 1
    return json.loads(lines[0])


def test_bench_json_reports_the_games(capsys):
    data = bench_json(capsys, "--games", "3", "--depth", "1", "--seed", "40")
    assert data["games"] == 3
    assert data["depth"] == 1 and data["seed"] == 40 and not data["interrupted"]
    for key in ("avg_score", "median_score", "moves_per_s", "ms_per_move_p50", "ms_per_move_p99"):
        assert data[key] > 0
    assert set(data["reach"]) == {"2048", "4096", "8192", "16384", "32768", "65536"}
    assert sum(data["max_tile"].values()) == 3
    # Reproducible: the same seeds give the same games.
    again = bench_json(capsys, "--games", "3", "--depth", "1", "--seed", "40")
    assert (again["avg_score"], again["moves"], again["max_tile"]) == (
        data["avg_score"],
        data["moves"],
        data["max_tile"],
    )


@pytest.mark.integration
def test_bench_in_parallel_plays_the_same_games(capsys):
    alone = bench_json(capsys, "--games", "2", "--depth", "1", "--seed", "7")
    parallel = bench_json(capsys, "--games", "2", "--depth", "1", "--seed", "7", "--jobs", "2")
    assert (parallel["avg_score"], parallel["moves"]) == (alone["avg_score"], alone["moves"])


def test_bench_table(capsys):
    assert main(["bench", "--games", "2", "--depth", "1"]) == 0
    out = capsys.readouterr().out
    assert "depth 1" in out
    for label in ("mean score", "median score", "moves per second", "reached 2048", "largest tile"):
        assert label in out


def test_ctrl_c_prints_the_summary_of_finished_games(capsys):
    # interrupt_main delivers KeyboardInterrupt to the main thread exactly as Ctrl-C does.
    timer = threading.Timer(2.0, _thread.interrupt_main)
    timer.start()
    try:
        code = main(["bench", "--json", "--games", "100000", "--depth", "1"])
    finally:
        timer.cancel()
    assert code == 130
    data = json.loads(capsys.readouterr().out)
    assert data["interrupted"]
    assert 1 <= data["games"] < 100000
    assert sum(data["max_tile"].values()) == data["games"]


class _InterruptedWhileCollected:
    def __del__(self) -> None:
        _thread.interrupt_main()
        # The Ctrl-C is taken before this finalizer ends (the loop makes sure Python checks),
        # and there Python prints "Exception ignored" and drops the KeyboardInterrupt.
        for _ in range(1000):
            pass


@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")
def test_ctrl_c_lost_in_a_finalizer_still_stops_the_run(capsys, monkeypatch):
    from twenty48.ai import play

    real = play.play_game

    def play_game(seed: int, **setting: object) -> play.PlayedGame:
        if seed == 1:
            _InterruptedWhileCollected()  # dropped at once: its finalizer runs here
        return real(seed, **setting)

    monkeypatch.setattr(play, "play_game", play_game)
    code = main(["bench", "--json", "--games", "40", "--depth", "1"])
    assert code == 130
    data = json.loads(capsys.readouterr().out)
    assert data["interrupted"] and data["games"] == 2


@pytest.mark.integration
def test_ctrl_c_stops_parallel_games_at_once(capsys):
    # Depth-4 games take minutes; the summary must not wait for the first one to end.
    timer = threading.Timer(1.0, _thread.interrupt_main)
    timer.start()
    try:
        code = main(["bench", "--json", "--games", "2", "--depth", "4", "--jobs", "2"])
    finally:
        timer.cancel()
    assert code == 130
    # No game had ended: the summary came before the first one would have.
    data = json.loads(capsys.readouterr().out)
    assert data["interrupted"] and data["games"] == 0


@pytest.mark.slow  # plays games of thousands of moves
def test_bench_with_a_node_budget_replays_exactly(capsys):
    from twenty48.ai.play import play_game

    # A budget's games are thousands of moves long: 1,000 nodes plays them in half the time of 2,000.
    data = bench_json(capsys, "--games", "2", "--nodes", "1000", "--seed", "11")
    assert data["nodes"] == 1000 and data["depth"] is None and data["games"] == 2
    scores = [play_game(seed, nodes=1000).score for seed in (11, 12)]
    assert data["avg_score"] == sum(scores) / 2
    assert main(["bench", "--games", "1", "--nodes", "1000", "--seed", "12"]) == 0
    assert "1,000 nodes per move" in capsys.readouterr().out
