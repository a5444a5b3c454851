"""Late-game move quality: how much expected value the default setting's moves give up against a
far deeper search, on positions from solver games.

``bench/data/late_positions.jsonl`` holds 1,403 positions with an 8192 or more on the board,
from three solver games: seed 1001 (an earlier default setting, traced to move 16,297 and a
32768) and seeds 1010 and 1013, which the previous default lost at 8192 (every position of
their last 150 moves and about 300 more each). ``split`` tells the 901 positions the late-game
budget was chosen on (``tuning``) from the 502 it was checked on afterwards (``held-out``).

The reference deepens toward nneonneo/2048-ai's depth rule plus four within 80,000,000 chance
nodes. For each setting, ``regret`` is the reference's value of its own best move minus its
value of the setting's move (0 where they agree), averaged; ``agree`` is the fraction of
positions where both pick the same move and ``mnodes`` the mean chance nodes, in millions.
Settings: ``default`` (the solver's default) and ``rule_4m`` (the depth rule within 4,000,000
nodes, the late-game default before). Every search is bounded by nodes, not time, so the
figures are the same on any machine. Prints one JSON line.

    python bench/move_quality.py --jobs 2 [--limit N]
"""

from __future__ import annotations

import argparse
import json
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from twenty48.ai import analyse, pools
from twenty48.ai.budget import depth_rule
from twenty48.rules import Board

POSITIONS = Path(__file__).with_name("data") / "late_positions.jsonl"
REFERENCE_EXTRA_DEPTH = 4
REFERENCE_NODES = 80_000_000
PREVIOUS_NODES = 4_000_000
#: The positions of a lost game's last moves, reported apart: the moves that lost it.
LAST_MOVES = 150


def judge(cells: list[int]) -> dict[str, tuple[float, bool, int]]:
    """Each setting's regret, agreement and nodes on one position."""
    board = Board(tuple(cells))
    rule = depth_rule(board)
    reference = analyse(board, depth=rule + REFERENCE_EXTRA_DEPTH, nodes=REFERENCE_NODES)
    best = max(reference.values.values())
    settings = {"default": analyse(board), "rule_4m": analyse(board, depth=rule, nodes=PREVIOUS_NODES)}
    return {
        name: (best - reference.values[a.best], a.best == reference.best, a.nodes)
        for name, a in settings.items()
    }


def near_the_end(position: dict[str, Any]) -> bool:
    # Game 1001's trace stops before its end, so its positions have no count of moves left.
    left = position["moves_to_end"]
    return left is not None and left <= LAST_MOVES


def one_thread() -> None:
    # Worker processes share the cores out among themselves.
    pools.THREADS = 1


def summary(results: list[dict[str, tuple[float, bool, int]]]) -> dict[str, Any]:
    out: dict[str, Any] = {"positions": len(results)}
    for name in ("default", "rule_4m"):
        rows = [r[name] for r in results]
        out[name] = {
            "regret": round(sum(r[0] for r in rows) / len(rows), 1),
            "agree": round(sum(r[1] for r in rows) / len(rows), 3),
            "mnodes": round(sum(r[2] for r in rows) / len(rows) / 1e6, 2),
        }
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (each searches on one core)")
    parser.add_argument("--limit", type=int, help="only the first N positions")
    args = parser.parse_args()
    positions = [json.loads(line) for line in POSITIONS.read_text().splitlines()][: args.limit]
    start = time.perf_counter()
    if args.jobs > 1:
        with ProcessPoolExecutor(args.jobs, initializer=one_thread) as pool:
            results = list(pool.map(judge, [p["cells"] for p in positions], chunksize=4))
    else:
        results = [judge(p["cells"]) for p in positions]
    groups = {
        "all": range(len(positions)),
        "tuning": [i for i, p in enumerate(positions) if p["split"] == "tuning"],
        "held-out": [i for i, p in enumerate(positions) if p["split"] == "held-out"],
        "last_moves_of_lost_games": [i for i, p in enumerate(positions) if near_the_end(p)],
    }
    report = {name: summary([results[i] for i in idx]) for name, idx in groups.items() if idx}
    report["seconds"] = round(time.perf_counter() - start, 1)
    print(json.dumps(report))


if __name__ == "__main__":
    main()
