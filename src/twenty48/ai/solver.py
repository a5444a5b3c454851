"""The solver's public face: rank the legal moves of any position, pick the best one.

The root is handled here, in Python: which moves are legal and what each produces comes
from the bitboard engine (or, when a tile is or would become 65536 or more, from
``twenty48.rules`` and a squeezed bitboard, see ``reduce``); each root move's board is then
valued by the compiled ``search.chance_value``. The search depth is one of

* fixed (``depth=D``: nneonneo/2048-ai's ``depth_limit = D``);
* a time budget (``time_limit`` seconds, with ``depth`` as an optional cap): iterative
  deepening from depth 1 until the next depth is not expected to finish in time; a watchdog
  timer aborts a depth that runs late, so the call returns within the budget plus well under
  a millisecond (depth 1 always completes);
* adaptive (the default): iterative deepening toward ``default_depth`` (deeper as the board
  holds more distinct tiles) within a budget of ``NODE_BUDGET`` chance nodes. Counting nodes
  instead of seconds keeps it fast and still deterministic: a seeded game replays exactly.

The kernel runs without the GIL; each concurrent search takes its own transposition table
from a small pool, so any number of threads may call ``rank_moves`` at once.
"""

from __future__ import annotations

import functools
import itertools
import math
import numbers
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import numpy as np

from twenty48 import fast
from twenty48.ai import search
from twenty48.ai.heuristic import DEFAULT, Heuristic
from twenty48.ai.reduce import squeeze
from twenty48.game import Game
from twenty48.rules import Board, Direction

#: Branches less likely than this to be reached are scored by the heuristic straight away.
PROBABILITY_THRESHOLD = 1e-4
#: Deepest search a time budget may reach (the tree is far too big beyond it anyway).
MAX_DEPTH = 12
#: Chance nodes the default setting may expand per move: at most about 0.1 s on one core of the
#: development machine (about 10 M nodes/s); most moves need far less.
NODE_BUDGET = 1_000_000
#: Transposition-table entries per concurrent search (24 bytes each).
TABLE_SIZE = 1 << 20


@dataclass(frozen=True, slots=True)
class Analysis:
    """A ranked position: each legal move's expected heuristic value, best first."""

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
    heuristic: Heuristic | None = None,
    threshold: float = PROBABILITY_THRESHOLD,
    transposition: bool = True,
) -> Analysis:
    """Search ``position`` and rank its legal moves; see the module docstring for the settings.

    ``heuristic``, ``threshold`` and ``transposition`` exist for tuning and tests: the default
    weights, the 1e-4 probability cut-off and the transposition table are what the solver plays.
    """
    start = time.perf_counter()
    board = _board_of(position)
    if depth is not None and (isinstance(depth, bool) or not isinstance(depth, int) or depth < 1):
        raise ValueError(f"depth must be a positive integer, got {depth!r}")
    if time_limit is not None and (
        isinstance(time_limit, bool)
        or not isinstance(time_limit, numbers.Real)
        or not 0 < time_limit < math.inf
    ):
        raise ValueError(f"time_limit must be a positive, finite number of seconds, got {time_limit!r}")
    roots = _root_moves(board)
    if not roots:
        return Analysis({}, 0, 0, time.perf_counter() - start)
    weights = heuristic or DEFAULT
    kernel = _Kernel(_table(weights), weights.loss, threshold, search.new_control())
    with _transposition_table(transposition) as tt:
        if time_limit is not None:
            values, reached = _deepen(roots, depth or MAX_DEPTH, kernel, tt, deadline=start + time_limit)
        elif depth is not None:
            values, reached = _search(roots, depth, kernel, tt), depth
        else:
            values, reached = _deepen(roots, default_depth(board), kernel, tt, node_budget=NODE_BUDGET)
    ranked = dict(sorted(values.items(), key=lambda item: -item[1]))
    return Analysis(ranked, reached, int(kernel.control[search.NODES]), time.perf_counter() - start)


def rank_moves(
    position: Board | Game, depth: int | None = None, time_limit: float | None = None
) -> dict[Direction, float]:
    """Every legal move of ``position`` with its expected heuristic value, best first."""
    return analyse(position, depth=depth, time_limit=time_limit).values


def best_move(
    position: Board | Game, depth: int | None = None, time_limit: float | None = None
) -> Direction | None:
    """The move the solver plays; None only when no move is legal (the game is over)."""
    return analyse(position, depth=depth, time_limit=time_limit).best


def default_depth(board: Board) -> int:
    """The depth the default setting aims for: nneonneo/2048-ai's rule, deeper as the board holds
    more distinct tiles. It deepens toward it while ``NODE_BUDGET`` lasts, so the late game, where
    the rule asks for more than a hint can afford, gets the deepest search that fits."""
    distinct = len({v for v in board.cells if v})
    return max(3, distinct - 2)


def warm_up() -> None:
    """Load the compiled kernels (from numba's cache after the first run) and build the tables,
    so that the first real request is not the one that waits for them."""
    analyse(Board.from_rows([[2, 2, 0, 0], [0, 4, 0, 0], [0, 0, 0, 0], [0, 0, 0, 2]]), depth=1)


# ---- internals ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Root:
    direction: Direction
    #: The board right after the move, before its spawn.
    after: np.uint64
    #: Whether ``after`` is a squeezed stand-in (a tile above 32768 is involved).
    squeezed: bool


def _board_of(position: Board | Game) -> Board:
    if isinstance(position, Game):
        return position.board
    if isinstance(position, Board):
        return position
    raise TypeError(f"expected a Board or a Game, got {type(position).__name__}")


def _root_moves(board: Board) -> list[_Root]:
    if not fast.representable(board):
        return [_Root(d, squeeze(board.move(d).board), True) for d in board.legal_moves()]
    b = fast.to_bitboard(board)
    mask = fast.legal_mask(b)
    roots = []
    for d in Direction:
        if not mask >> d.index & 1:
            continue
        if fast.move_overflows(b, d.index):
            roots.append(_Root(d, squeeze(board.move(d).board), True))
        else:
            roots.append(_Root(d, np.uint64(fast.move(b, d.index)), False))
    return roots


_stamps = itertools.count(1)


def _next_stamp() -> int:
    return (next(_stamps) - 1) % 0xFFFFFFFF + 1


@dataclass(frozen=True, slots=True)
class _Kernel:
    """What every call of the kernel in one search shares."""

    table: np.ndarray
    lost: float
    threshold: float
    control: np.ndarray


def _search(roots: list[_Root], depth: int, kernel: _Kernel, tt: np.ndarray) -> dict[Direction, float]:
    stamp = _next_stamp()
    values = {}
    for root in roots:
        # A squeezed board's labels mean something else than a plain board's: keep their entries apart.
        root_stamp = _next_stamp() if root.squeezed else stamp
        values[root.direction] = search.chance_value(
            root.after,
            depth,
            1.0,
            kernel.threshold,
            kernel.table,
            kernel.lost,
            tt,
            root_stamp,
            kernel.control,
        )
    return values


def _deepen(
    roots: list[_Root],
    max_depth: int,
    kernel: _Kernel,
    tt: np.ndarray,
    deadline: float | None = None,
    node_budget: int | None = None,
) -> tuple[dict[Direction, float], int]:
    """Iterative deepening up to ``max_depth``, within a deadline (``time.perf_counter`` seconds)
    or a budget of chance nodes. A depth starts only if, growing as the last one did, it is
    expected to fit; one that overruns anyway is aborted and its values are not used."""
    control = kernel.control
    began = time.perf_counter()
    # Depth 1 always completes (well under a millisecond), so there is always an answer.
    values = _search(roots, 1, kernel, tt)
    reached = 1
    last_nodes, last_seconds = int(control[search.NODES]), time.perf_counter() - began
    # A first guess at how much dearer the next depth is; afterwards the last ratio seen.
    node_growth, time_growth = 64.0, 4.0
    watchdog = None
    if deadline is not None:
        watchdog = threading.Timer(
            max(0.0, deadline - time.perf_counter()), control.__setitem__, (search.STOP, 1)
        )
        watchdog.daemon = True
        watchdog.start()
    if node_budget is not None:
        control[search.LIMIT] = node_budget
    try:
        while reached < max_depth:
            nodes_before, began = int(control[search.NODES]), time.perf_counter()
            if deadline is not None and began + last_seconds * time_growth > deadline:
                break
            if node_budget is not None and nodes_before + last_nodes * node_growth > node_budget:
                break
            deeper = _search(roots, reached + 1, kernel, tt)
            if control[search.STOP]:
                break
            nodes, seconds = int(control[search.NODES]) - nodes_before, time.perf_counter() - began
            node_growth = max(2.0, nodes / max(last_nodes, 1))
            time_growth = max(2.0, seconds / max(last_seconds, 1e-6))
            last_nodes, last_seconds = nodes, seconds
            values = deeper
            reached += 1
    finally:
        if watchdog is not None:
            watchdog.cancel()
    return values, reached


_tables_lock = threading.Lock()
_free_tables: list[np.ndarray] = []
_NO_TABLE = np.zeros(0, dtype=search.ENTRY)


@functools.lru_cache(maxsize=8)
def _table(heuristic: Heuristic) -> np.ndarray:
    return heuristic.table()


@contextmanager
def _transposition_table(enabled: bool) -> Iterator[np.ndarray]:
    if not enabled:
        yield _NO_TABLE
        return
    with _tables_lock:
        tt = _free_tables.pop() if _free_tables else None
    if tt is None:
        tt = np.empty(TABLE_SIZE, dtype=search.ENTRY)
        # Write every byte now: the kernel touches the table at random, and faulting in a fresh
        # zero page at a time would cost the first searches milliseconds.
        tt.view(np.uint8).fill(0)
    try:
        yield tt
    finally:
        with _tables_lock:
            _free_tables.append(tt)
