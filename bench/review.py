"""Game review speed and agreement: how fast the review setting reviews a 5,000-move game, and how
often its best move is the default setting's.

The game: the first 5,000 moves of the first depth-3 solver game (seeds 0, 1, ...) that lasts that
long, reviewed whole by ``twenty48.ai.review.review_game`` (grading, the chance of every position and
the summary, exactly what ``2048 review`` and the background worker run) on every core the process
may use. ``seconds`` is that review's wall-clock time (target: 60 s on two cores) and
``positions_per_s`` the moves reviewed a second; ``cpu_seconds`` the process's CPU time meanwhile
(steadier when other programs load the machine). The chance's own cost is timed apart, by the
chances of the same positions estimated again as the review does (``chance_seconds``,
``chance_cpu_seconds``); ``grading_seconds`` is the difference. The game's target, its chance at the
start and its turning point are printed too.

The agreement: on the 1,403 late-game positions of ``bench/data/late_positions.jsonl`` (an 8192
or more on the board: where games are lost, and the dearest positions to search), the fraction
where the review setting's best move is the default setting's (``agree``), and the mean points
(``twenty48.ai.standing``, under the default setting's ranking) of the review setting's move
(``points``: 100 where they agree). Both settings are node budgets, so these figures are the same
on any machine. Prints one JSON line.

    python bench/review.py [--limit N] [--moves 5000]
"""

from __future__ import annotations

import argparse
import json
import os
import time
from pathlib import Path

from twenty48.ai import analyse, best_move, pools, solver
from twenty48.ai.chance import chances_of
from twenty48.ai.review import REVIEW_NODES, REVIEW_SETTING, positions, review_game
from twenty48.ai.standing import standings
from twenty48.game import Game
from twenty48.rules import Board

POSITIONS = Path(__file__).with_name("data") / "late_positions.jsonl"
TARGET_S = 60.0


def long_game(moves: int) -> Game:
    """The first ``moves`` moves of the first depth-3 solver game that lasts as long."""
    for seed in range(100):
        game = Game.new(seed)
        while not game.over and game.moves < moves:
            game.move(best_move(game, depth=3))
        if game.moves == moves:
            return game
    raise RuntimeError(f"no depth-3 game of seeds 0-99 lasts {moves} moves")


def chance_cost(game: Game, target: int) -> tuple[float, float]:
    """Wall-clock and CPU seconds of the chances of ``game``'s positions, estimated as the review
    does (last position first)."""
    boards = positions(game)
    started, cpu = time.perf_counter(), time.process_time()
    chances_of(boards, target)
    return time.perf_counter() - started, time.process_time() - cpu


def agreement(limit: int | None) -> dict[str, float | int]:
    lines = POSITIONS.read_text().splitlines()[:limit]
    agree, points = 0, 0
    for line in lines:
        board = Board(tuple(json.loads(line)["cells"]))
        reference = analyse(board)
        mine = analyse(board, nodes=REVIEW_NODES).best
        assert mine is not None
        agree += mine == reference.best
        points += standings(board, reference.values)[mine].points
    return {
        "positions": len(lines),
        "agree": round(agree / len(lines), 4),
        "points": round(points / len(lines), 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--moves", type=int, default=5000, help="moves of the reviewed game")
    parser.add_argument("--limit", type=int, default=None, help="only the first N late positions")
    args = parser.parse_args()
    game = long_game(args.moves)
    solver.warm_up()
    started, cpu = time.perf_counter(), time.process_time()
    review = review_game(game)
    seconds, cpu_seconds = time.perf_counter() - started, time.process_time() - cpu
    chance_seconds, chance_cpu_seconds = chance_cost(game, review["target"])
    result = {
        "setting": REVIEW_SETTING,
        "cores": pools.THREADS,
        "game_moves": game.moves,
        "game_max_tile": game.board.max_tile,
        "seconds": round(seconds, 2),
        "cpu_seconds": round(cpu_seconds, 2),
        "chance_seconds": round(chance_seconds, 2),
        "chance_cpu_seconds": round(chance_cpu_seconds, 2),
        "grading_seconds": round(seconds - chance_seconds, 2),
        "positions_per_s": round(game.moves / seconds, 1),
        "estimate_5000_moves_s": round(5000 * seconds / game.moves, 2),
        "target_s": TARGET_S,
        "accuracy_of_the_depth3_game": review["accuracy"],
        "target": review["target"],
        "start_chance": review["start_chance"],
        "turning_point": review["turning_point"],
        "agreement_with_default": agreement(args.limit),
        "loadavg": os.getloadavg()[0],
    }
    print(json.dumps(result), flush=True)


if __name__ == "__main__":
    main()
