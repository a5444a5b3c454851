"""``2048 hint``: rank the moves of a position with the built-in solver."""

from __future__ import annotations

import argparse
import json
import sys

from twenty48.rules import Board

HELP = "Rank the moves of a position with the built-in solver (best first)."


def positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {value}")
    return value


def add_setting_arguments(parser: argparse.ArgumentParser) -> None:
    """``--depth``, ``--time-ms`` or ``--nodes``; none means the solver's adaptive default."""
    setting = parser.add_mutually_exclusive_group()
    setting.add_argument(
        "--depth", type=positive_int, help="fixed search depth (default: adaptive to the position)"
    )
    setting.add_argument(
        "--time-ms", type=positive_int, help="time budget per move in milliseconds (iterative deepening)"
    )
    setting.add_argument(
        "--nodes",
        type=positive_int,
        help="chance nodes per move (iterative deepening; the same answer on any machine)",
    )


def solver_time_limit(args: argparse.Namespace) -> float | None:
    """``--time-ms`` in seconds, the unit the solver takes; None without a time budget."""
    return args.time_ms / 1000 if args.time_ms else None


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "board",
        help='the position: rows split by "/", cells by spaces, 0 or . for empty, '
        'e.g. "2 2 0 0/0 4 0 0/0 0 0 0/0 0 0 2"',
    )
    add_setting_arguments(parser)
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def run(args: argparse.Namespace) -> int:
    try:
        board = Board.parse(args.board)
    except ValueError as exc:
        print(f"2048 hint: invalid board: {exc}", file=sys.stderr)
        return 2
    # Imported here: the solver loads numba, which every other command (and --help) can do without.
    from twenty48.ai import analyse, warm_up
    from twenty48.ai.standing import standings

    # Loading the compiled kernels is not thinking time: keep it out of the budget and the timing.
    warm_up()
    analysis = analyse(board, depth=args.depth, time_limit=solver_time_limit(args), nodes=args.nodes)
    best = analysis.best
    ranked = standings(board, analysis.values)
    if args.json:
        print(
            json.dumps(
                {
                    "board": [list(row) for row in board.rows],
                    "best": best.value if best else None,
                    "moves": [
                        {"direction": d.value, "value": v, "standing": s.points, "grade": s.grade.value}
                        for (d, v), s in zip(analysis.values.items(), ranked.values(), strict=True)
                    ],
                    "depth": analysis.depth,
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
    print(
        f"best move: {best}  (depth {analysis.depth}, {analysis.nodes:,} nodes, "
        f"{analysis.seconds * 1000:.1f} ms)"
    )
    # The raw values are heuristic expectations (in --json); a reader gets each move's standing.
    for direction, standing in ranked.items():
        print(f"  {direction.value:<6} {standing.points:>3}/100  {standing.grade}")
    return 0
