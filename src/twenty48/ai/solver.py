"""The solver's public face: rank the legal moves of any position, pick the best one.

The root is handled here, in Python: which moves are legal and what each produces comes
from the bitboard engine (or, when a tile is or would become 65536 or more, from
``twenty48.rules`` and a squeezed bitboard, see ``reduce``); each root move's board is then
valued by the compiled ``search.chance_value``. A board of another size than the 4x4 is played
the same way over the engine for every size: its root moves come from ``twenty48.rules``, and
``grid_search.chance_value`` values them with the same settings, budgets and control. The
search depth is one of

* fixed (``depth=D``: nneonneo/2048-ai's ``depth_limit = D``);
* a time budget (``time_limit`` seconds, with ``depth`` as an optional cap): iterative
  deepening from depth 1 until the next depth is not expected to finish in time; a watchdog
  timer aborts a depth that runs late, so the call returns within the budget plus well under
  a millisecond (depth 1 always completes);
* a node budget (``nodes`` chance nodes, with ``depth`` as an optional cap): iterative
  deepening from depth 1 until the next depth is not expected to fit in what is left; like a
  fixed depth, and unlike a time budget, it gives the same answer on any machine;
* adaptive (the default): iterative deepening within a budget of chance nodes. Until the board
  holds an 8192 it deepens toward nneonneo/2048-ai's depth rule (deeper as the board holds more
  distinct tiles) within ``NODE_BUDGET``; from then on as deep as a budget allows that doubles
  for each empty cell the board is short of ``CROWDED`` (``node_budget``; all three in
  ``budget``). Counting nodes instead of seconds keeps it fast and still deterministic: a seeded
  game replays exactly.

Each root move is searched with its own transposition table and node count, so its value
does not depend on the other roots or on the order they run in: a big search spreads its
roots over ``pools.THREADS`` threads (the kernel runs without the GIL) and still gives exactly
the values, and stops at exactly the depth, that one thread would. Threads and tables come
from ``pools``, so any number of threads may call ``rank_moves`` at once; a ``Pace`` (``pace``)
brakes a running search from another thread.
"""

from __future__ import annotations

import functools
import itertools
import math
import threading
import time
from dataclasses import dataclass

import numpy as np

from twenty48 import fast
from twenty48.ai import grid_search, pools, search
from twenty48.ai.budget import MAX_DEPTH, default_depth, node_budget
from twenty48.ai.heuristic import DEFAULT, Heuristic
from twenty48.ai.pace import Pace, paced
from twenty48.ai.reduce import squeeze
from twenty48.checks import is_int, is_real
from twenty48.compiling import announced
from twenty48.game import Game
from twenty48.rules import DEFAULT_SIZE, Board, BoardSize, Direction

#: The version of the search's answers. Bump it whenever a change gives any position different
#: values or a different depth under the same setting: stored game reviews name it, and one made
#: by another version is recomputed (tests/test_ai_review.py records a review per version).
SOLVER_VERSION = 1
#: Branches less likely than this to be reached are scored by the heuristic straight away.
PROBABILITY_THRESHOLD = 1e-4
#: A depth expected to expand fewer chance nodes than this runs on the calling thread: handing
#: roots to other threads would cost more than it saves (a thousand nodes take about 0.1 ms).
PARALLEL_NODES = 20_000


@dataclass(frozen=True, slots=True)
class Analysis:
    """A position analysed: each legal move's expected heuristic value, in the solver's order (best first)."""

    values: dict[Direction, float]
    #: The depth the values come from (0 when there is no legal move).
    depth: int
    #: Chance nodes expanded, over all depths searched.
    nodes: int
    seconds: float

    @property
    def best(self) -> Direction | None:
        return next(iter(self.values), None)


def analyse(
    position: Board | Game,
    depth: int | None = None,
    time_limit: float | None = None,
    nodes: int | None = None,
    heuristic: Heuristic | None = None,
    threshold: float = PROBABILITY_THRESHOLD,
    transposition: bool = True,
    pace: Pace | None = None,
) -> Analysis:
    """Search ``position`` and rank its legal moves; see the module docstring for the settings.
    With a ``pace``, the search pauses as long as it says, whenever it says so (``Pace``).

    ``heuristic``, ``threshold`` and ``transposition`` exist for tuning and tests: the default
    weights, the 1e-4 probability cut-off and the transposition table are what the solver plays.
    """
    if _warmer is not None and _warmer != threading.get_ident():
        # A warm-up is under way (``2048 serve`` starts one in the background): wait for its tables
        # instead of building a second set beside it, and keep the wait out of any time limit.
        with _warm_lock:
            pass
    start = time.perf_counter()
    board = _board_of(position)
    if depth is not None and (not is_int(depth) or depth < 1):
        raise ValueError(f"depth must be a positive integer, got {depth!r}")
    if time_limit is not None and (not is_real(time_limit) or not 0 < time_limit < math.inf):
        raise ValueError(f"time_limit must be a positive, finite number of seconds, got {time_limit!r}")
    if nodes is not None and (not is_int(nodes) or nodes < 1):
        raise ValueError(f"nodes must be a positive integer, got {nodes!r}")
    size = board.size
    on_grid = size != DEFAULT_SIZE
    roots = _grid_roots(board) if on_grid else _root_moves(board)
    if not roots:
        return Analysis({}, 0, 0, time.perf_counter() - start)
    if depth is None and time_limit is None and nodes is None:
        # The default is a node budget with a depth cap, both chosen for the position.
        depth, nodes = default_depth(board), node_budget(board)
    weights = heuristic or DEFAULT
    if on_grid:
        kernel = _Kernel(pools.grid_weights(weights), weights.loss, threshold, size)
    else:
        kernel = _Kernel(pools.heuristic_table(weights), weights.loss, threshold, None)
    with pools.transposition_tables(len(roots), transposition) as tables, paced(pace, len(roots)) as controls:
        tasks = [
            _Task(root, tt, control, grid_search.new_work(size.cells) if on_grid else None)
            for root, tt, control in zip(roots, tables, controls, strict=True)
        ]
        if depth is not None and time_limit is None and nodes is None:
            # A fixed depth has no earlier depth to predict its size from; from depth 4 on it is
            # big enough (tens of thousands of nodes and up) to be worth the threads.
            values, reached = _search(tasks, depth, kernel, parallel=depth >= 4), depth
        else:
            deadline = None if time_limit is None else start + time_limit
            values, reached = _deepen(tasks, depth or MAX_DEPTH, kernel, deadline=deadline, node_budget=nodes)
    ordered = dict(sorted(values.items(), key=lambda item: -item[1]))
    return Analysis(ordered, reached, sum(task.nodes for task in tasks), time.perf_counter() - start)


def rank_moves(
    position: Board | Game,
    depth: int | None = None,
    time_limit: float | None = None,
    nodes: int | None = None,
) -> dict[Direction, float]:
    """Every legal move of ``position`` with its expected heuristic value, best first."""
    return analyse(position, depth=depth, time_limit=time_limit, nodes=nodes).values


def best_move(
    position: Board | Game,
    depth: int | None = None,
    time_limit: float | None = None,
    nodes: int | None = None,
) -> Direction | None:
    """The move the solver plays; None only when no move is legal (the game is over)."""
    return analyse(position, depth=depth, time_limit=time_limit, nodes=nodes).best


def warm_up() -> None:
    """Get everything a first search would wait for ready, so that the first real request does not:
    the compiled kernels (from numba's cache after the first run), the heuristic table, a
    transposition table for each of the four root moves (written through, ~100 MB), the thread
    pool's threads, and a time-limited deepening search, which hands roots to those threads and
    runs the watchdog timer. The first call does the work (about 0.1 s once the kernels are cached,
    more on a busy machine; the first run after installing compiles them, which it says on standard
    error, see ``twenty48.compiling``); a call while it runs waits for it, and later calls return
    at once."""
    global _warm, _warmer
    with _warm_lock:
        if _warm:
            return
        _warmer = threading.get_ident()
        try:
            board = Board.from_rows([[2, 2, 0, 0], [0, 4, 0, 0], [0, 0, 0, 0], [0, 0, 0, 2]])
            with announced("the solver"):
                analyse(board, depth=1)
            list(pools.thread_pool().map(int, range(pools.THREADS)))
            analyse(board, time_limit=0.005)
            _warm = True
        finally:
            _warmer = None


_warm_lock = threading.Lock()
_warm = False
#: The thread running ``warm_up`` while it runs.
_warmer: int | None = None


# ---- internals ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Root:
    direction: Direction
    #: The board right after the move, before its spawn: a 4x4's bitboard (a squeezed stand-in when
    #: a tile above 32768 is involved: its own transposition table keeps its labels apart from plain
    #: boards'), or the exponents of a board of another size (``fast.to_grid``).
    after: np.uint64 | np.ndarray


def _board_of(position: Board | Game) -> Board:
    if isinstance(position, Game):
        return position.board
    if isinstance(position, Board):
        return position
    raise TypeError(f"expected a Board or a Game, got {type(position).__name__}")


def _root_moves(board: Board) -> list[_Root]:
    if not fast.representable(board):
        return [_Root(d, squeeze(board.move(d).board)) for d in board.legal_moves()]
    b = fast.to_bitboard(board)
    mask = fast.legal_mask(b)
    roots = []
    for d in Direction:
        if not mask >> d.index & 1:
            continue
        if fast.move_overflows(b, d.index):
            roots.append(_Root(d, squeeze(board.move(d).board)))
        else:
            roots.append(_Root(d, np.uint64(fast.move(b, d.index))))
    return roots


def _grid_roots(board: Board) -> list[_Root]:
    roots = []
    for d in board.legal_moves():
        roots.append(_Root(d, fast.to_grid(board.move(d).board)))
    return roots


_stamps = itertools.count(1)


def _next_stamp() -> int:
    return (next(_stamps) - 1) % 0xFFFFFFFF + 1


@dataclass(frozen=True, slots=True)
class _Kernel:
    """What every call of the kernel in one search shares."""

    #: The 4x4's heuristic table, or the weights of ``grid_search`` for a board of another size.
    table: np.ndarray
    lost: float
    threshold: float
    #: The size of a board searched by ``grid_search``; None for the 4x4's bitboard search.
    grid: BoardSize | None


@dataclass(frozen=True, slots=True)
class _Task:
    """One root move's share of a search: its own table, node count, limit and stop flag."""

    root: _Root
    tt: np.ndarray
    control: np.ndarray
    #: ``grid_search``'s scratch boards and line values; None on the bitboard.
    work: tuple[np.ndarray, np.ndarray] | None

    @property
    def nodes(self) -> int:
        return int(self.control[search.NODES])


def _search(tasks: list[_Task], depth: int, kernel: _Kernel, parallel: bool) -> dict[Direction, float]:
    def value(task: _Task, stamp: int) -> float:
        size = kernel.grid
        if size is not None:
            return grid_search.chance_value(
                task.root.after,
                size.rows,
                size.cols,
                depth,
                1.0,
                kernel.threshold,
                kernel.table,
                kernel.lost,
                task.tt,
                stamp,
                task.control,
                *task.work,
                0,
            )
        return search.chance_value(
            task.root.after,
            depth,
            1.0,
            kernel.threshold,
            kernel.table,
            kernel.lost,
            task.tt,
            stamp,
            task.control,
        )

    stamps = [_next_stamp() for _ in tasks]
    if parallel and pools.THREADS > 1 and len(tasks) > 1:
        at_priority = functools.partial(pools.at_niceness, pools.thread_niceness(), value)
        values = list(pools.thread_pool().map(at_priority, tasks, stamps))
    else:
        values = [value(task, stamp) for task, stamp in zip(tasks, stamps, strict=True)]
    return {task.root.direction: v for task, v in zip(tasks, values, strict=True)}


def _deepen(
    tasks: list[_Task],
    max_depth: int,
    kernel: _Kernel,
    deadline: float | None = None,
    node_budget: int | None = None,
) -> tuple[dict[Direction, float], int]:
    """Iterative deepening up to ``max_depth``, within a deadline (``time.perf_counter`` seconds)
    or a budget of chance nodes. A depth starts only if, growing as the last one did, it is
    expected to fit; one that overruns anyway is aborted and its values are not used.

    The budget is shared out among the roots in proportion to what each took at the last depth,
    so whether a depth completes depends on node counts alone, never on thread timing."""
    began = time.perf_counter()
    # Depth 1 always completes (well under a millisecond), so there is always an answer.
    values = _search(tasks, 1, kernel, parallel=False)
    reached = 1
    last = [task.nodes for task in tasks]
    last_seconds = time.perf_counter() - began
    # A first guess at how much dearer the next depth is; afterwards the last ratio seen.
    node_growth, time_growth = 64.0, 4.0
    watchdog = None
    if deadline is not None:
        watchdog = threading.Timer(max(0.0, deadline - time.perf_counter()), _stop, (tasks,))
        watchdog.daemon = True
        watchdog.start()
    try:
        while reached < max_depth:
            used, began = sum(task.nodes for task in tasks), time.perf_counter()
            expected = sum(last) * node_growth
            if deadline is not None and began + last_seconds * time_growth > deadline:
                break
            if node_budget is not None:
                left = node_budget - used
                if expected > left:
                    break
                shares = max(sum(last), 1)
                for task, share in zip(tasks, last, strict=True):
                    search.limit(task.control, task.nodes + left * share // shares)
            before = [task.nodes for task in tasks]
            deeper = _search(tasks, reached + 1, kernel, parallel=expected >= PARALLEL_NODES)
            if any(task.control[search.STOP] for task in tasks):
                break
            nodes = [task.nodes - b for task, b in zip(tasks, before, strict=True)]
            seconds = time.perf_counter() - began
            node_growth = max(2.0, sum(nodes) / max(sum(last), 1))
            time_growth = max(2.0, seconds / max(last_seconds, 1e-6))
            last, last_seconds = nodes, seconds
            values = deeper
            reached += 1
    finally:
        if watchdog is not None:
            watchdog.cancel()
    return values, reached


def _stop(tasks: list[_Task]) -> None:
    for task in tasks:
        task.control[search.STOP] = 1
