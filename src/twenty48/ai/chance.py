"""The chance of reaching a tile: what a game review says of every position of a game.

The chance of a position is the probability, in percent, that the solver playing on from it at
the *chance setting* makes the target tile. It is estimated from ``CONTINUATIONS`` seeded
continuations (``twenty48.ai.continuations``): the solver at depth 1 (about a million moves a
second on one core; from a new game it reaches 1024 in about 95 % of games, 2048 in 73 %, 4096 in
18 %), classic spawns from fixed streams, each continuation at most ``CAP`` moves. The chance is the
share of them that reach the target, so it counts outcomes, never times: a game gets the same
chances on any machine and with any number of threads.

* **Streams.** Continuation ``k`` of every position draws its spawns from stream ``k``
  (``stream(k)``), by time (see ``continuations``): the continuations of neighbouring positions
  share their random numbers, so a difference between two chances comes more from the positions
  and less from the draws (common random numbers), and continuations of neighbouring positions
  merge, which saves playing them twice.
* **The cap.** A continuation still alive without the target after ``CAP`` moves counts as not
  reaching it. The solver at depth 1 rarely lives that long: from a new game 0.1 % of its games
  last 4,000 moves (longest of 1,000: 4,615), and from a crowded late position far fewer
  (``bench/chance_calibration.py`` measures what the cap costs against uncapped continuations).
  A position whose streams cannot bring the board's sum up to the target within the cap has
  chance 0 without a move played: the early positions of a long game with a far target.
* **Boards beyond the bitboard.** A continuation that would make a 65536 (which the bitboard does
  not hold) ends there: it reached a 65536 target and no other. A position that holds a tile of
  65536 or more (its target is 131072 or more, a sum the spawns of ``CAP`` moves can reach only
  from a board within 9,000 of it) has chance 0.

``Chances`` estimates the positions of one game; it reuses the continuations of the positions it
was asked about before, best when asked from the last position back to the first.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Sequence
from typing import Any

import numpy as np

from twenty48 import fast
from twenty48.ai import pools, search
from twenty48.ai.continuations import count_reached, stream_sums
from twenty48.ai.heuristic import DEFAULT
from twenty48.ai.pace import Pace, paced
from twenty48.ai.solver import PROBABILITY_THRESHOLD
from twenty48.rules import Board
from twenty48.spawns import mix64

#: Continuations played from every position.
CONTINUATIONS = 64
#: Moves a continuation may play.
CAP = 4000
#: The seed of the streams: stream ``k`` is SplitMix64 output ``k`` of it.
STREAMS_SEED = 0x2048

#: What a stored review names of the chance setting, to tell whether it is still current; ``depth``
#: is the depth of the continuations' solver (``continuations.policy``).
CHANCE_SETTING: dict[str, Any] = {
    "depth": 1,
    "continuations": CONTINUATIONS,
    "cap": CAP,
    "streams": STREAMS_SEED,
}


def target_tile(largest: int) -> int:
    """The tile a game is judged on: the next power of two above its largest tile."""
    return 2 * largest


def stream(k: int, seed: int = STREAMS_SEED) -> np.uint64:
    """The seed of stream ``k`` (of another family of streams with another ``seed``)."""
    return np.uint64(mix64((seed + k) & ((1 << 64) - 1)))


class ChanceCancelledError(Exception):
    """The estimate was told to stop."""


class Chances:
    """The chances of the positions of one game, judged on ``target``; a position is named by its
    board and its time, the moves of the game played before it (0 for the start). ``length`` is the
    game's number of moves (the latest time asked about). The other settings are the chance
    setting's unless given: ``bench/chance_calibration.py`` sets them to compare the chance with
    many more continuations on other streams."""

    def __init__(
        self,
        target: int,
        length: int,
        continuations: int = CONTINUATIONS,
        cap: int = CAP,
        seed: int = STREAMS_SEED,
    ) -> None:
        if target < 4 or target & (target - 1):
            raise ValueError(f"the target must be a power of two of at least 4, got {target}")
        self.target = target
        self.cap = cap
        self.length = length
        self._exponent = target.bit_length() - 1
        self._streams = np.array([stream(k, seed) for k in range(continuations)], dtype=np.uint64)
        span = length + cap + 1
        self._sums = np.empty((continuations, span), dtype=np.int64)
        stream_sums(self._streams, self._sums)
        self._boards = np.zeros((continuations, span), dtype=np.uint64)
        self._ends = np.zeros((continuations, span), dtype=np.int64)
        self._table = pools.heuristic_table(DEFAULT)

    def chance(self, board: Board, time: int, pace: Pace | None = None) -> float:
        """The chance (0-100, one decimal) of ``board`` at ``time``: the share of the continuations
        that reach the target."""
        return round(100.0 * self.reached(board, time, pace) / len(self._streams), 1)

    def reached(self, board: Board, time: int, pace: Pace | None = None) -> int:
        """How many of the continuations of ``board`` at ``time`` reach the target. Raises
        ``ChanceCancelledError`` when ``pace`` is stopped meanwhile."""
        if not 0 <= time <= self.length:
            raise ValueError(f"time must be within 0..{self.length}, got {time}")
        if board.max_tile >= self.target:
            return len(self._streams)
        if board.is_over() or not fast.representable(board):
            return 0
        b = fast.to_bitboard(board)
        groups = _groups(len(self._streams), pools.THREADS)
        with paced(pace, len(groups)) as controls:

            def count(group: slice, control: np.ndarray) -> int:
                return int(
                    count_reached(
                        b,
                        time,
                        self.cap,
                        self._exponent,
                        self._streams[group],
                        self._sums[group],
                        self._boards[group],
                        self._ends[group],
                        PROBABILITY_THRESHOLD,
                        self._table,
                        DEFAULT.loss,
                        _NO_TABLE,
                        control,
                    )
                )

            if len(groups) == 1:
                counts = [count(groups[0], controls[0])]
            else:
                at_priority = functools.partial(pools.at_niceness, pools.thread_niceness(), count)
                counts = list(pools.thread_pool().map(at_priority, groups, controls))
        if min(counts) < 0:
            raise ChanceCancelledError
        return sum(counts)


def chances_of(boards: Sequence[Board], target: int) -> list[float]:
    """The chance of each position of a game's line (``boards[n]`` after its ``n``-th move), judged
    on ``target``, estimated as a review does: the last position first."""
    chances = Chances(target, len(boards) - 1)
    found = [chances.chance(boards[n], n) for n in range(len(boards) - 1, -1, -1)]
    return found[::-1]


_NO_TABLE = np.zeros(0, dtype=search.ENTRY)


def _groups(count: int, threads: int) -> list[slice]:
    """``count`` streams in at most ``threads`` contiguous groups of nearly equal size."""
    parts = max(1, min(threads, count))
    bounds = [count * i // parts for i in range(parts + 1)]
    return [slice(a, b) for a, b in itertools.pairwise(bounds)]
