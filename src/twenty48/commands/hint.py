"""``2048 hint``: rank the moves of a position with the built-in solver."""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING

from twenty48.commands.messages import fail
from twenty48.commands.solver_arguments import add_setting_arguments, solver_time_limit
from twenty48.rules import Board, unreachable

if TYPE_CHECKING:
    from twenty48.ai import Analysis

HELP = "Rank the moves of a position with the built-in solver (best first)."


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "board",
        help='the position: rows split by "/", cells by spaces, 0 or . for empty, '
        'e.g. "2 2 0 0/0 4 0 0/0 0 0 0/0 0 0 2"; any board of R rows of C cells, each 2-6 '
        '(e.g. "2 4 ./. 2 ./. . 8" is a 3x3)',
    )
    add_setting_arguments(parser)
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def run(args: argparse.Namespace) -> int:
    try:
        board = Board.parse(args.board)
    except ValueError as exc:
        return fail("hint", f"invalid board: {exc}")
    why = unreachable(board)
    if why is not None:
        # No game is ever in this position (two of the board's largest tiles, which the rules would
        # not even merge).
        return fail("hint", f"no game reaches this board: {why}")
    # Imported here: the solver loads numba, which every other command (and --help) can do without.
    from twenty48.compiling import announced

    # Loading the compiled kernels is not thinking time: keep it out of the budget and the timing.
    # The first run after installing compiles them, and says so on one line.
    with announced("the solver", live=True):
        from twenty48.ai import analyse, warm_up

        warm_up()
    from twenty48.ai.standing import standings

    if args.depth is not None:
        analysis, depth = searched_depth(board, args.depth)
    else:
        analysis = analyse(board, time_limit=solver_time_limit(args), nodes=args.nodes)
        depth = analysis.depth
    best = analysis.best
    ranked = standings(board, analysis.values)
    if args.json:
        print(
            json.dumps(
                {
                    "size": str(board.size),
                    "board": [list(row) for row in board.rows],
                    "best": best.value if best else None,
                    "moves": [
                        {"direction": d.value, "value": v, "standing": s.points, "grade": s.grade.value}
                        for (d, v), s in zip(analysis.values.items(), ranked.values(), strict=True)
                    ],
                    "depth": depth,
                    "nodes": analysis.nodes,
                    "ms": round(analysis.seconds * 1000, 3),
                }
            )
        )
        return 0
    print(board)
    if best is None:
        print("no legal move: the game is over" if board.is_over() else "no legal move")
        return 0
    print(f"best move: {best}  (depth {depth}, {analysis.nodes:,} nodes, {analysis.seconds * 1000:.1f} ms)")
    # The raw values are heuristic expectations (in --json); a reader gets each move's standing.
    for direction, standing in ranked.items():
        print(f"  {direction.value:<6} {standing.points:>3}/100  {standing.grade}")
    return 0


def searched_depth(board: Board, depth: int) -> tuple[Analysis, int]:
    """The analysis at fixed ``depth`` and the depth it really searched. Below a probability of
    1e-4 the solver stops expanding, so past some depth a deeper search is the same search (an
    open board is exhausted at about 6). Deepening one depth at a time finds where: once a depth
    expands no more nodes than the one before, nothing deeper changes. It costs little extra, each
    depth being several times dearer than the one before, and saves the rest when it stops early."""
    from twenty48.ai import analyse

    previous = analyse(board, depth=1)
    if not previous.values:
        return previous, previous.depth  # no legal move: nothing was searched
    for next_depth in range(2, depth + 1):
        analysis = analyse(board, depth=next_depth)
        if analysis.nodes == previous.nodes and analysis.values == previous.values:
            return previous, next_depth - 1
        previous = analysis
    return previous, depth
