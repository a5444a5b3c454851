"""What Ray costs on one machine: the same solver games played locally (``2048 bench --jobs 2``)
and as Ray tasks on a local Ray with 2 CPUs (what ``2048 bench --ray`` runs), in one run.

Prints one JSON line: ``local_games_per_s`` and ``ray_games_per_s`` (games over the wall time of
playing them, each side's worker start-up included: fresh processes for ``--jobs``, Ray's idle
workers importing the solver), ``ratio`` (Ray over local; the target is 0.9 or more),
``ray_start_s`` (starting the local Ray, until a worker per CPU answers), ``ray_task_ms`` (what a
task costs: the wall time of 100 empty ones, over 100), ``local_play_s`` and
``ray_play_s`` (the games' own seconds, added up: the playing without the start-up),
``local_cpu_s_per_game``, ``ray_cpu_s_per_game`` and ``cpu_ratio`` (local over Ray: the CPU time each
side's processes used a game, Ray's helpers included, which other programs' load does not inflate as
it does the wall clock), ``identical``
(the two sides played the same games, as they must) and the load average. With ``--rounds N`` each side
plays N times, alternating, each time on a fresh Ray, and the median of each side is taken.
``--per-task N`` groups N games a task (the command plays ``twenty48.ai.cluster.GAMES_PER_TASK``),
to measure what grouping saves:

    python bench/cluster.py                               # 8 games at depth 2
    python bench/cluster.py --depth 1 --games 32 --per-task 4
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import io
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from process_cpu import tree_cpu_s

#: Empty tasks timed for what one task costs Ray.
EMPTY_TASKS = 100


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=8)
    parser.add_argument("--depth", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--per-task", type=int, default=None)
    args = parser.parse_args(argv)
    import ray

    from twenty48.ai import cluster, results
    from twenty48.ai.play import play_game
    from twenty48.cli import main as cli

    per_task = args.per_task or cluster.GAMES_PER_TASK
    seeds = range(args.seed, args.seed + args.games)
    # Both sides load the compiled kernels from numba's cache, as every run after the first does.
    play_game(args.seed, depth=1, max_moves=5)
    play = functools.partial(play_game, depth=args.depth)
    command = ["bench", "--games", str(args.games), "--depth", str(args.depth), "--seed", str(args.seed)]
    local_rates, ray_rates, starts, same = [], [], [], True
    local_play, ray_play, task_ms, local_cpu, ray_cpu = [], [], [], [], []
    with tempfile.TemporaryDirectory() as folder:
        for round_ in range(args.rounds):
            out = Path(folder, f"local-{round_}.jsonl")
            with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
                began, cpu = time.perf_counter(), tree_cpu_s(os.getpid())
                cli([*command, "--jobs", "2", "--out", str(out)])
                local_rates.append(args.games / (time.perf_counter() - began))
                local_cpu.append((tree_cpu_s(os.getpid()) - cpu) / args.games)
            # A fresh Ray each round: its workers start cold, as the local processes do.
            before = _children()
            began = time.perf_counter()
            cluster.init_ray("local", num_cpus=2)
            # Started once a worker per CPU has answered: Ray's helper processes are up by then.
            ray.get([ray.remote(_ready).remote() for _ in range(2)])
            starts.append(time.perf_counter() - began)
            began = time.perf_counter()
            ray.get([ray.remote(_ready).remote() for _ in range(EMPTY_TASKS)])
            task_ms.append((time.perf_counter() - began) * 1000 / EMPTY_TASKS)
            began, cpu = time.perf_counter(), tree_cpu_s(os.getpid())
            games = list(cluster.play(seeds, play, cpus=2, per_task=per_task))
            ray_rates.append(args.games / (time.perf_counter() - began))
            ray_cpu.append((tree_cpu_s(os.getpid()) - cpu) / args.games)
            ray.shutdown()
            _wait_for_children(before)
            local_games = results.read(out).games
            same &= _outcomes(games) == _outcomes(local_games)
            local_play.append(sum(g.seconds for g in local_games))
            ray_play.append(sum(g.seconds for g in games))
    local_rate, ray_rate = statistics.median(local_rates), statistics.median(ray_rates)
    print(
        json.dumps(
            {
                "games": args.games,
                "depth": args.depth,
                "per_task": per_task,
                "rounds": args.rounds,
                "local_games_per_s": round(local_rate, 3),
                "ray_games_per_s": round(ray_rate, 3),
                "ratio": round(ray_rate / local_rate, 3),
                "ray_start_s": round(statistics.median(starts), 2),
                "local_cpu_s_per_game": round(statistics.median(local_cpu), 3),
                "ray_cpu_s_per_game": round(statistics.median(ray_cpu), 3),
                "cpu_ratio": round(statistics.median(local_cpu) / statistics.median(ray_cpu), 3),
                "ray_task_ms": round(statistics.median(task_ms), 2),
                "local_play_s": round(statistics.median(local_play), 1),
                "ray_play_s": round(statistics.median(ray_play), 1),
                "identical": same,
                "load_average": [round(x, 2) for x in os.getloadavg()],
            }
        )
    )
    return 0


def _ready() -> int:
    return os.getpid()


def _wait_for_children(before: set[int], deadline_s: float = 60.0) -> None:
    """Until the processes Ray started have exited (3-4 s after ``ray.shutdown``), so that they
    do not share the cores with the next local run."""
    end = time.monotonic() + deadline_s
    while _children() - before and time.monotonic() < end:
        time.sleep(0.1)


def _children() -> set[int]:
    """This process's live children (Linux's /proc)."""
    mine, found = str(os.getpid()), set()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError):
            state, parent = stat.read_text().rsplit(")", 1)[1].split()[:2]
            if parent == mine and state != "Z":
                found.add(int(stat.parent.name))
    return found


def _outcomes(games: list) -> list[tuple[int, int, int, int]]:
    return sorted((g.seed, g.score, g.moves, g.max_tile) for g in games)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
