"""How hard the default setting searches a position: the depth it aims for and the chance nodes
it may expand (``default_depth``, ``node_budget``), and the deepest any budget may reach.

Every figure here shapes the search's answers: a change that gives any position different values
or a different depth under the same setting bumps ``solver.SOLVER_VERSION``."""

from __future__ import annotations

from twenty48.rules import DEFAULT_SIZE, Board

#: Deepest search a time or node budget may reach. Only a board with one or two empty cells gets
#: near it: a spawn there keeps most of its probability, so the cut-off prunes little, but each
#: round offers few spawns, so deep rounds stay cheap.
MAX_DEPTH = 20
#: Chance nodes the default setting may expand per move: at most about 0.15 s on the development
#: machine's two cores (about 14 M nodes/s together), which keeps mid-game hints under 100 ms at
#: the 95th percentile; most moves need far less. A count, not a time, so that the same seed
#: replays to the same game on any machine.
NODE_BUDGET = 2_000_000
#: From this tile on the game is long and crowded: about three moves in four of a game that
#: reaches 16384 are played here, and every game the solver has lost before 16384 was lost here.
#: So the search spends its nodes where games are lost: ``LATE_NODE_BUDGET`` with ``CROWDED`` or
#: more empty cells, doubled for each one fewer (8 M with none), and it deepens as far as they
#: last instead of stopping at the depth rule, since few spawns a round make deep rounds cheap.
#: Against a search four depths past the rule (``bench/move_quality.py``) its moves give up 28 %
#: less expected value than the rule within a flat 4 M nodes, for 17 % more nodes.
LATE_GAME_TILE = 8192
LATE_NODE_BUDGET = 1_000_000
CROWDED = 3
#: Boards of other sizes than the 4x4 search over the engine for every size (``grid_search``), whose
#: chance nodes cost 6 to 40 times a bitboard node (more on bigger boards: more children, longer
#: lines): they get this fraction of the 4x4's budgets. Less would stop the opening of a 5x5 or 6x6
#: at depth 2, where depth 3 costs about 20,000 nodes but the estimate from depth 2 says 120,000.
GRID_BUDGET_SHARE = 8


def default_depth(board: Board) -> int:
    """The depth the default setting aims for. Before the late game, nneonneo/2048-ai's rule:
    deeper as the board holds more distinct tiles; the search deepens toward it while
    ``node_budget`` lasts, so where the rule asks for more than a quick answer can afford, it
    gets the deepest depth that fits. In the late game the budget alone sets the depth."""
    return MAX_DEPTH if board.max_tile >= LATE_GAME_TILE else depth_rule(board)


def depth_rule(board: Board) -> int:
    """nneonneo/2048-ai's depth: ``max(3, distinct tiles - 2)``."""
    return max(3, len({v for v in board.cells if v}) - 2)


def node_budget(board: Board) -> int:
    """The chance nodes the default setting may expand on ``board``: more in the late game, and
    most on a crowded board, where one weak move loses the game; a ``GRID_BUDGET_SHARE``th of it
    on a board of another size than the 4x4."""
    if board.max_tile < LATE_GAME_TILE:
        budget = NODE_BUDGET
    else:
        budget = LATE_NODE_BUDGET << max(0, CROWDED - len(board.empty_cells()))
    return budget if board.size == DEFAULT_SIZE else budget // GRID_BUDGET_SHARE
