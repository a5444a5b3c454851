"""Where the default setting's time goes: nodes per CPU second, and how much of a move's wall time
both cores search, against the depth-3 kernel's pace (``profile_solver.py``).

Replays the first game of ``2048 bench --depth 3 --seed 1`` (``--moves`` moves, which reach the
8192 tile) and runs the default setting (``analyse(board)``: deepening to the depth rule within
the node budget, the root moves on the thread pool from depth 4 on) on every ``--every``-th
position. Per stage of the game (largest tile below 2048, below 8192, from 8192 on) it reports the
wall milliseconds a move, the chance nodes a move, nanoseconds of CPU a node, and ``busy``: CPU
seconds over wall seconds (2.0 would be both cores searching the whole move). Prints one JSON line.
"""

from __future__ import annotations

import argparse
import json
import time

from profile_solver import replay
from twenty48.ai import analyse, pools, warm_up
from twenty48.rules import Board

STAGES = {"to_2048": 2048, "to_8192": 8192, "from_8192": None}


def stage_of(board: Board) -> str:
    return next(name for name, below in STAGES.items() if below is None or board.max_tile < below)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=6000, help="moves of the game to replay")
    parser.add_argument("--every", type=int, default=20, help="search every N-th position")
    args = parser.parse_args()
    warm_up()
    boards, _ = replay(args.moves)
    totals = {name: {"moves": 0, "wall": 0.0, "cpu": 0.0, "nodes": 0, "depth": 0} for name in STAGES}
    for board in boards[:: args.every]:
        cpu, wall = time.process_time(), time.perf_counter()
        analysis = analyse(board)
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        total = totals[stage_of(board)]
        total["moves"] += 1
        total["wall"] += wall
        total["cpu"] += cpu
        total["nodes"] += analysis.nodes
        total["depth"] += analysis.depth
    print(
        json.dumps(
            {
                "positions": sum(t["moves"] for t in totals.values()),
                "threads": pools.THREADS,
                **{
                    name: {
                        "moves": t["moves"],
                        "ms_per_move": round(t["wall"] / t["moves"] * 1e3, 1),
                        "nodes_per_move": round(t["nodes"] / t["moves"]),
                        "mean_depth": round(t["depth"] / t["moves"], 2),
                        "cpu_ns_per_node": round(t["cpu"] / t["nodes"] * 1e9, 1),
                        "busy": round(t["cpu"] / t["wall"], 2),
                    }
                    for name, t in totals.items()
                    if t["moves"]
                },
            }
        )
    )


if __name__ == "__main__":
    main()
