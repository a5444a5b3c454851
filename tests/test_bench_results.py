"""``2048 bench``'s results files (``--out``, ``--resume``, ``--report``) and the confidence
interval of its reach rates, played locally through the real command line entry point."""

from __future__ import annotations

import json
import re

import pytest

from twenty48.ai.play import summarize, wilson_interval
from twenty48.ai.results import read
from twenty48.cli import main
from twenty48.commands.bench import _pace

DEPTH_1 = ["--depth", "1"]


def bench(capsys, *args):
    code = main(["bench", "--json", *args])
    captured = capsys.readouterr()
    return code, json.loads(captured.out) if captured.out else None, captured.err


def played_seeds(err: str) -> list[int]:
    """The seeds the run played, from the line it logs per game when stderr is not a terminal."""
    return [int(seed) for seed in re.findall(r"^game seed (\d+):", err, re.MULTILINE)]


def outcomes(games):
    return sorted((g.seed, g.score, g.moves, g.max_tile) for g in games)


def test_wilson_interval_against_the_hand_computed_one():
    # 7 of 15, z = 1.9599640, z² = 3.8414588: centre (7/15 + z²/30) / (1 + z²/15) = 0.4734628,
    # half-width z·sqrt(7/15·8/15/15 + z²/900) / (1 + z²/15) = 0.2253674.
    low, high = wilson_interval(7, 15)
    assert low == pytest.approx(0.4734628 - 0.2253674, abs=1e-6)
    assert high == pytest.approx(0.4734628 + 0.2253674, abs=1e-6)
    # None of n: (0, z²/(n + z²)); all of n: (n/(n + z²), 1).
    assert wilson_interval(0, 10) == (0.0, pytest.approx(3.8414588 / 13.8414588, abs=1e-6))
    assert wilson_interval(15, 15) == (pytest.approx(15 / 18.8414588, abs=1e-6), 1.0)
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_every_reach_rate_carries_its_interval_and_games(capsys):
    code, data, _ = bench(capsys, "--games", "3", *DEPTH_1, "--seed", "40")
    assert code == 0
    for tile, reach in data["reach"].items():
        reached = sum(count for top, count in data["max_tile"].items() if int(top) >= int(tile))
        assert reach["games"] == reached
        assert reach["rate"] == reached / 3
        low, high = wilson_interval(reached, 3)
        assert (reach["low"], reach["high"]) == (round(low, 4), round(high, 4))
    assert main(["bench", "--games", "2", *DEPTH_1, "--seed", "40"]) == 0
    table = capsys.readouterr().out
    assert re.search(r"reached 2048 .* \(\d of 2; 95 % interval \d+-\d+ %\)", table)


def test_out_then_resume_plays_only_the_missing_seeds(capsys, tmp_path):
    out = tmp_path / "games.jsonl"
    code, _, err = bench(capsys, "--games", "2", *DEPTH_1, "--seed", "5", "--out", str(out))
    assert code == 0 and played_seeds(err) == [5, 6]
    assert [json.loads(line)["seed"] for line in out.read_text().splitlines()] == [5, 6]
    # A line cut off while being written (a crash) is dropped, not read and not kept.
    with out.open("a") as stream:
        stream.write('{"seed": 7, "score": 3')
    code, resumed, err = bench(capsys, "--games", "4", *DEPTH_1, "--seed", "5", "--out", str(out), "--resume")
    assert code == 0
    assert sorted(played_seeds(err)) == [7, 8]
    assert resumed["resumed"] == 2 and resumed["games"] == 4
    assert sorted(g.seed for g in read(out).games) == [5, 6, 7, 8]
    assert out.read_text().count("\n") == 4
    code, fresh, _ = bench(capsys, "--games", "4", *DEPTH_1, "--seed", "5")
    for key in ("avg_score", "moves", "max_tile", "reach"):
        assert resumed[key] == fresh[key]
    # Resuming a finished file plays nothing.
    code, again, err = bench(capsys, "--games", "4", *DEPTH_1, "--seed", "5", "--out", str(out), "--resume")
    assert code == 0 and played_seeds(err) == [] and again["games"] == 4


def test_report_prints_the_summary_of_a_file_without_playing(capsys, tmp_path):
    out = tmp_path / "games.jsonl"
    code, played, _ = bench(capsys, "--games", "3", *DEPTH_1, "--seed", "9", "--out", str(out))
    code, report, err = bench(capsys, "--report", str(out))
    assert code == 0 and err == ""
    assert report == summarize(sorted(read(out).games, key=lambda g: g.seed)) | {
        "depth": 1,
        "time_ms": None,
        "nodes": None,
        "solver": played["solver"],
        "size": "4x4",
        "max_moves": None,
        "seed": 9,
    }
    for key in ("games", "avg_score", "median_score", "reach", "max_tile", "moves", "ms_per_move_p50"):
        assert report[key] == played[key]
    assert main(["bench", "--report", str(out)]) == 0
    table = " ".join(capsys.readouterr().out.split())  # the title wraps on a narrow terminal
    assert "depth 1 (solver version" in table and "seeds 9-11" in table and "95 % interval" in table


def game_line(seed: int = 1, **changes) -> str:
    record = {
        "seed": seed,
        "score": 1234,
        "moves": 100,
        "max_tile": 128,
        "seconds": 0.5,
        "ms_per_move_p50": 0.1,
        "ms_per_move_p99": 1.0,
        "depth": 1,
        "time_ms": None,
        "nodes": None,
        "solver": 1,
    }
    return json.dumps(record | changes) + "\n"


BAD_FILES = {
    "not JSON": ("not json at all\n", "line 1 is not JSON"),
    "not UTF-8": ("\udcff\n", "line 1 is not JSON"),
    "a list": ("[1, 2]\n", "line 1 is not a game's results line"),
    "a field missing": ('{"seed": 1, "score": 2}\n', "line 1 is not a game's results line"),
    "a tile no game has": (game_line(max_tile=3), "impossible max_tile"),
    "a negative seed": (game_line(seed=-1), "impossible seed"),
    "a score that is text": (game_line(score="12"), "impossible score"),
    "two settings": (game_line(1) + game_line(2, depth=2), "line 2 was played at depth 2"),
    "a seed twice": (game_line(1) + game_line(1), "line 2: seed 1 is already in the file"),
}


@pytest.mark.parametrize("case", BAD_FILES)
@pytest.mark.parametrize("mode", ["report", "resume"])
def test_a_file_that_is_not_a_results_file_is_one_line_and_left_alone(capsys, tmp_path, case, mode):
    text, problem = BAD_FILES[case]
    path = tmp_path / "games.jsonl"
    path.write_bytes(text.encode("utf-8", "surrogateescape"))
    before = path.read_bytes()
    if mode == "report":
        code = main(["bench", "--report", str(path)])
    else:
        code = main(["bench", "--games", "1", *DEPTH_1, "--out", str(path), "--resume"])
    captured = capsys.readouterr()
    assert code == 2 and captured.out == ""
    assert captured.err.count("\n") == 1 and captured.err.startswith("2048 bench: error:")
    assert problem in captured.err
    assert path.read_bytes() == before


@pytest.mark.parametrize(
    ("line", "problem"),
    [
        (game_line(depth=2), "was played at depth 2 (solver version 1), this run at depth 1"),
        (game_line(solver=99), "(solver version 99), this run at depth 1 (solver version 1)"),
        (game_line(depth=None, nodes=500), "500 nodes per move"),
    ],
)
def test_resume_refuses_a_file_of_another_setting_or_solver_version(capsys, tmp_path, line, problem):
    path = tmp_path / "games.jsonl"
    path.write_text(line)
    assert main(["bench", "--games", "1", *DEPTH_1, "--out", str(path), "--resume"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and problem in err
    assert path.read_text() == line


@pytest.mark.parametrize(
    ("args", "problem"),
    [
        (["--out", "{file}"], "already holds results: add --resume"),
        (["--resume"], "--resume continues the --out FILE"),
        (["--report", "{file}", "--out", "{file}"], "--report reads a results file"),
        (["--report", "{file}", "--ray"], "--report reads a results file"),
        (["--report", "{missing}"], "no such file"),
        (["--report", "{empty}"], "holds no finished game"),
        (["--report", "{folder}"], "is not a regular file"),
        (["--out", "{folder}", "--resume"], "is not a regular file"),
    ],
)
def test_bad_file_options_are_one_line(capsys, tmp_path, args, problem):
    file = tmp_path / "games.jsonl"
    file.write_text(game_line(0))
    (tmp_path / "empty.jsonl").touch()
    names = {"file": file, "missing": tmp_path / "none.jsonl", "empty": tmp_path / "empty.jsonl"}
    names["folder"] = tmp_path
    words = [word.format(**names) for word in args]
    assert main(["bench", "--games", "1", *DEPTH_1, *words]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.count("\n") == 1 and problem in captured.err
    assert file.read_text() == game_line(0)
    assert not names["missing"].exists()


def test_pace_reads_as_a_rate_and_the_time_left():
    assert _pace(3, 60.0, 6) == "3.0 games/min, 0:02:00 left"
    assert _pace(10, 2.0, 5) == "5.0 games/s, 0:00:01 left"
    assert _pace(1, 1800.0, 1000) == "2.0 games/h, 20 days, 20:00:00 left"
