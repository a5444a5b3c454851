"""The built-in solver: expectimax search over the bitboard engine.

    from twenty48.ai import best_move, rank_moves
    rank_moves(board)               # {Direction.LEFT: 1.53e6, Direction.UP: 1.49e6, ...}, best first
    best_move(game, time_limit=0.05)

``rank_moves`` and ``best_move`` take a ``Board`` or a ``Game``, an optional fixed ``depth``
and an optional ``time_limit`` in seconds; ``analyse`` also reports the depth reached.
"""

from twenty48.ai.budget import default_depth, node_budget
from twenty48.ai.heuristic import DEFAULT, Heuristic
from twenty48.ai.pace import Pace
from twenty48.ai.solver import Analysis, analyse, best_move, rank_moves, warm_up

__all__ = [
    "DEFAULT",
    "Analysis",
    "Heuristic",
    "Pace",
    "analyse",
    "best_move",
    "default_depth",
    "node_budget",
    "rank_moves",
    "warm_up",
]
