"""Where a solver move's time goes: the search kernel against the work around it, per move.

Replays the first game of ``2048 bench --depth 3 --seed 1`` (up to ``--moves`` moves) and times,
in CPU seconds per move on the calling thread, each part of a depth-3 move: ``Game.move`` (the
rules and the spawn), the root moves (conversion to the bitboard, legal moves, the boards after
them), the set-up of a search (transposition tables from the pool, control blocks), the kernel
itself, and the rest of ``analyse`` (argument checks, ranking, the result), plus the cost of
handing a search's roots to the thread pool and back (used from depth 4 on). Prints one JSON line.

``--kernel-only N`` runs only the kernel, N times over the positions' roots, and prints nothing:
for instruction counts, which the machine's load does not disturb. Run it under callgrind once to
fill numba's cache for the CPU valgrind presents (otherwise that run compiles every kernel), then
with N = 0 (imports, replay) and N = 1, and subtract the first count from the second:

    valgrind --tool=callgrind --callgrind-out-file=/dev/null python bench/profile_solver.py --kernel-only 1
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable

from twenty48.ai import DEFAULT, analyse, pools, search, solver, warm_up
from twenty48.game import Game
from twenty48.rules import Board, Direction

SEED = 1
DEPTH = 3


def replay(moves: int) -> tuple[list[Board], list[Direction]]:
    """The positions and moves of the benchmark's first depth-3 game."""
    game = Game.new(SEED)
    boards, actions = [], []
    while not game.over and game.moves < moves:
        boards.append(game.board)
        best = analyse(game, depth=DEPTH).best
        assert best is not None
        actions.append(best)
        game.move(best)
    return boards, actions


def cpu_per_move(work: Callable[[], object], moves: int, repeat: int) -> float:
    """The best of ``repeat`` runs of ``work``, in CPU microseconds per move."""
    best = float("inf")
    for _ in range(repeat):
        started = time.process_time()
        work()
        best = min(best, time.process_time() - started)
    return best / moves * 1e6


def run_kernel(roots: list[list[solver._Root]], tables: list) -> int:
    """Search every root at depth 3 as ``analyse`` does, each with a fresh stamp; the nodes."""
    table = pools.heuristic_table(DEFAULT)
    nodes = 0
    for position in roots:
        for root, tt in zip(position, tables, strict=False):
            control = search.new_control()
            search.chance_value(
                root.after, DEPTH, 1.0, solver.PROBABILITY_THRESHOLD, table, DEFAULT.loss, tt,
                solver._next_stamp(), control,
            )  # fmt: skip
            nodes += int(control[search.NODES])
    return nodes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=3000, help="moves of the game to replay")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each part; the fastest counts")
    parser.add_argument("--kernel-only", type=int, metavar="N", help="only run the kernel N times")
    args = parser.parse_args()
    warm_up()
    boards, actions = replay(args.moves)
    roots = [solver._root_moves(b) for b in boards]
    with pools.transposition_tables(4, True) as tables:
        pass
    if args.kernel_only is not None:
        for _ in range(args.kernel_only):
            run_kernel(roots, tables)
        return
    n = len(boards)

    def play() -> None:
        game = Game.new(SEED)
        for action in actions:
            game.move(action)

    def set_up() -> None:
        for position in roots:
            solver._Kernel(pools.heuristic_table(DEFAULT), DEFAULT.loss, solver.PROBABILITY_THRESHOLD)
            with pools.transposition_tables(len(position), True) as tts:
                [solver._Task(root, tt, search.new_control()) for root, tt in zip(position, tts, strict=True)]

    def hand_off() -> None:
        pool = pools.thread_pool()
        for _ in range(n):
            list(pool.map(int, range(4)))

    parts = {
        "game_move": cpu_per_move(play, n, args.repeat),
        "root_moves": cpu_per_move(lambda: [solver._root_moves(b) for b in boards], n, args.repeat),
        "search_set_up": cpu_per_move(set_up, n, args.repeat),
        "kernel": cpu_per_move(lambda: run_kernel(roots, tables), n, args.repeat),
    }
    whole = cpu_per_move(lambda: [analyse(b, depth=DEPTH) for b in boards], n, args.repeat)
    parts["rest_of_analyse"] = whole - parts["root_moves"] - parts["search_set_up"] - parts["kernel"]
    # Wall time: the pool's threads run while this one waits, so CPU time would not see them.
    started = time.perf_counter()
    hand_off()
    thread_hand_off = (time.perf_counter() - started) / n * 1e6
    total = whole + parts["game_move"]
    nodes = run_kernel(roots, tables)
    print(
        json.dumps(
            {
                "moves": n,
                "depth": DEPTH,
                "us_per_move": {k: round(v, 1) for k, v in parts.items()},
                "share": {k: round(v / total, 3) for k, v in parts.items()},
                "cpu_moves_per_s": round(1e6 / total, 1),
                "nodes_per_move": round(nodes / n, 1),
                "ns_per_node": round(parts["kernel"] * 1000 / (nodes / n), 1),
                "thread_hand_off_us": round(thread_hand_off, 1),
            }
        )
    )


if __name__ == "__main__":
    main()
