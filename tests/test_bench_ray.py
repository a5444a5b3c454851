"""``2048 bench --ray`` on a real local Ray with 2 CPUs (``ray_session``, one for the suite):
the same games as a local run, a killed worker's games played again and counted once, Ctrl-C
and ``--resume``, and the one-line errors of a missing Ray, a bad address, a cluster out of
reach."""

from __future__ import annotations

import _thread
import json
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time

import pytest

from twenty48.ai import cluster
from twenty48.ai.play import play_game
from twenty48.ai.results import read
from twenty48.cli import main

pytestmark = pytest.mark.integration  # a local Ray, and `2048 bench` in processes of its own


def outcomes(games):
    """What must match bit for bit wherever a game is played."""
    return sorted((g.seed, g.score, g.moves, g.max_tile) for g in games)


def played_seeds(err: str) -> list[int]:
    return [int(seed) for seed in re.findall(r"^game seed (\d+):", err, re.MULTILINE)]


@pytest.mark.parametrize(
    "address", ["nowhere", "ray://", "ray://host", "ray://host:99999", "http://host:10001", "ray://h:1/x"]
)
def test_an_address_of_the_wrong_form_is_one_line(capsys, address):
    with pytest.raises(SystemExit) as exit_info:
        main(["bench", "--games", "1", "--ray", address])
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "expected local, auto or ray://HOST:PORT" in err


def test_jobs_and_ray_are_one_or_the_other(capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["bench", "--games", "1", "--jobs", "2", "--ray"])
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "not allowed with argument --jobs" in err


def test_without_ray_installed_it_says_what_to_install(capsys, monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "ray", None)  # what `import ray` finds where Ray is not installed
    out = tmp_path / "games.jsonl"
    assert main(["bench", "--games", "1", "--depth", "1", "--ray", "--out", str(out)]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.count("\n") == 1
    assert "pip install 'twenty48[cluster]'" in captured.err
    assert not out.exists()


@pytest.mark.parametrize(
    ("address", "environment"),
    [("ray://127.0.0.1:{port}", {}), ("auto", {"RAY_ADDRESS": "127.0.0.1:{port}"})],
    ids=["ray-client", "auto-after-the-cluster-stopped"],
)
def test_a_cluster_out_of_reach_is_one_line_and_writes_nothing(tmp_path, address, environment):
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    address = address.format(port=port)
    env = os.environ | {name: value.format(port=port) for name, value in environment.items()}
    # Its own process: this one may have joined the suite's Ray, which `--ray` would play on.
    out = tmp_path / "games.jsonl"
    done = subprocess.run(
        [sys.executable, "-m", "twenty48", "bench", "--ray", address, "--out", str(out)],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1
    assert done.stderr.startswith(f"2048 bench: error: cannot reach the Ray cluster at {address}")
    assert "Connection refused" in done.stderr
    assert not out.exists()


def test_ray_alone_starts_a_ray_of_its_own_for_the_run_quietly(tmp_path):
    # Its own process, which has joined no Ray: `--ray` starts one on this machine's cores.
    done = subprocess.run(
        [sys.executable, "-m", "twenty48", "bench", "--ray", "--json", "--games", "2", "--depth", "1"],
        capture_output=True,
        text=True,
        timeout=300,
        env=os.environ | {"RAY_ADDRESS": ""},
    )
    assert done.returncode == 0
    summary = json.loads(done.stdout)
    assert summary["ray"] == "local" and summary["games"] == 2 and summary["jobs"] is None
    # Ray's own logging stays out of the way: stderr holds the games and nothing else.
    assert sorted(played_seeds(done.stderr)) == [0, 1]
    assert len(done.stderr.strip().splitlines()) == 2


def test_ray_plays_the_same_games_as_a_local_run(ray_session, capsys, tmp_path):
    args = ["bench", "--json", "--games", "4", "--depth", "1", "--seed", "20"]
    assert main([*args, "--out", str(tmp_path / "local.jsonl")]) == 0
    assert main([*args, "--ray", "--out", str(tmp_path / "ray.jsonl")]) == 0
    local, on_ray = (json.loads(line) for line in capsys.readouterr().out.splitlines())
    assert on_ray["ray"] == "local" and on_ray["games"] == 4
    for key in ("avg_score", "median_score", "moves", "max_tile", "reach"):
        assert on_ray[key] == local[key]
    expected = outcomes(read(tmp_path / "local.jsonl").games)
    assert outcomes(read(tmp_path / "ray.jsonl").games) == expected
    # Whatever the grouping: three games a task, then one.
    grouped = cluster.play(range(20, 24), lambda seed: play_game(seed, depth=1), cpus=2, per_task=3)
    assert outcomes(grouped) == expected


def test_a_killed_workers_games_are_played_again_and_counted_once(ray_session, tmp_path):
    marker = tmp_path / "killed"

    def play_or_die(seed):
        # The first attempt at the task of seeds 30 and 31 has finished 30 when its worker dies.
        if seed == 31 and not marker.exists():
            marker.touch()
            os.kill(os.getpid(), signal.SIGKILL)
        return play_game(seed, depth=1)

    games = list(cluster.play(range(30, 34), play_or_die, cpus=2, per_task=2))
    assert marker.exists()
    assert sorted(g.seed for g in games) == [30, 31, 32, 33]
    assert outcomes(games) == outcomes(play_game(seed, depth=1) for seed in range(30, 34))


def test_ctrl_c_keeps_the_finished_games_and_resume_plays_only_the_rest(ray_session, capsys, tmp_path):
    out = tmp_path / "games.jsonl"
    args = ["bench", "--json", "--ray", "--games", "12", "--depth", "1", "--seed", "40", "--out", str(out)]

    def finished():
        return out.read_text().count("\n") if out.exists() else 0

    def interrupt_after_two_games():
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and finished() < 2:
            time.sleep(0.02)
        # Exactly what Ctrl-C does: KeyboardInterrupt in the main thread.
        _thread.interrupt_main()

    watcher = threading.Thread(target=interrupt_after_two_games)
    watcher.start()
    code = main(args)
    watcher.join()
    assert code == 130
    captured = capsys.readouterr()
    first = json.loads(captured.out)
    kept = read(out).games
    # Every finished game is in the file; only the games in flight are lost.
    assert first["interrupted"] and 2 <= first["games"] == len(kept) < 12
    assert sorted(g.seed for g in kept) == sorted(played_seeds(captured.err))

    assert main([*args, "--resume"]) == 0
    captured = capsys.readouterr()
    resumed = json.loads(captured.out)
    assert sorted(played_seeds(captured.err)) == sorted(set(range(40, 52)) - {g.seed for g in kept})
    assert resumed["resumed"] == len(kept) and resumed["games"] == 12 and not resumed["interrupted"]
    assert sorted(g.seed for g in read(out).games) == list(range(40, 52))


def test_workers_load_the_solver_from_numbas_cache(ray_session):
    import ray

    play_game(0, depth=1, max_moves=3)  # the cache exists: this process compiled or loaded it

    def compiled_and_loaded(_):
        import numba

        from twenty48.ai import search

        play_game(0, depth=1, max_moves=3)
        kernels = [f for f in vars(search).values() if isinstance(f, numba.core.registry.CPUDispatcher)]
        compiled = sum(sum(kernel.stats.cache_misses.values()) for kernel in kernels)
        return compiled, sum(sum(kernel.stats.cache_hits.values()) for kernel in kernels)

    for compiled, loaded in ray.get([ray.remote(compiled_and_loaded).remote(task) for task in range(4)]):
        assert compiled == 0 and loaded > 0
