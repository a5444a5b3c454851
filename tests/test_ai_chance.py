"""The chance of reaching a tile (``twenty48.ai.chance``) and the continuations behind it
(``twenty48.ai.continuations``): the solver's own move, the spawns' sums, reuse that changes nothing,
threads that change nothing, the boards at the bitboard's limit."""

from __future__ import annotations

import random

import numpy as np
import pytest

from test_ai_review import random_game
from twenty48 import fast, spawns
from twenty48.ai import best_move, pools, search
from twenty48.ai.chance import CAP, CONTINUATIONS, Chances, chances_of, stream, target_tile
from twenty48.ai.continuations import count_reached, policy, stream_sums
from twenty48.ai.heuristic import DEFAULT
from twenty48.ai.review import positions
from twenty48.ai.solver import PROBABILITY_THRESHOLD
from twenty48.game import Game
from twenty48.rules import Board


def test_a_continuation_plays_the_solvers_move_at_depth_1() -> None:
    rng = random.Random(3)
    table = pools.heuristic_table(DEFAULT)
    control = search.new_control()
    no_table = np.zeros(0, dtype=search.ENTRY)
    boards = [b for seed in range(4) for b in positions(random_game(seed, 150))]
    for board in rng.sample(boards, 200):
        b = fast.to_bitboard(board)
        chosen = policy(b, PROBABILITY_THRESHOLD, table, DEFAULT.loss, no_table, control)
        expected = best_move(board, depth=1)
        assert chosen == (-1 if expected is None else expected.index), board


def test_the_sums_of_a_stream_are_those_of_the_tiles_it_spawns() -> None:
    streams = np.array([stream(k) for k in range(3)], dtype=np.uint64)
    sums = np.empty((3, 200), dtype=np.int64)
    stream_sums(streams, sums)
    for k in range(3):
        values = [spawns.spawn_choice(int(streams[k]), t, (0,))[1] for t in range(199)]
        assert list(sums[k]) == [sum(values[:t]) for t in range(200)]


def test_reusing_continuations_changes_no_chance() -> None:
    # The review asks from the last position back, each ending where the later ones' continuations
    # went; a fresh estimate of each position on its own, in any order, gives the same numbers.
    game = random_game(11, 120)
    boards = positions(game)
    target = target_tile(max(b.max_tile for b in boards))
    backwards = chances_of(boards, target)
    alone = [Chances(target, game.moves).chance(board, n) for n, board in enumerate(boards)]
    assert backwards == alone
    assert len(set(alone)) > 1 and all(0 <= c <= 100 for c in alone)
    forwards = Chances(target, game.moves)
    assert [forwards.chance(board, n) for n, board in enumerate(boards)] == alone


@pytest.mark.parametrize("threads", [1, 3])
def test_the_chance_is_the_same_on_any_number_of_threads(monkeypatch, threads: int) -> None:
    board = positions(random_game(12, 90))[-1]
    expected = Chances(256, 90).chance(board, 90)
    monkeypatch.setattr(pools, "THREADS", threads)
    assert Chances(256, 90).chance(board, 90) == expected
    # A share of the continuations, to one decimal.
    assert any(round(100 * k / CONTINUATIONS, 1) == expected for k in range(CONTINUATIONS + 1))


def test_a_target_the_spawns_cannot_bring_within_the_cap_has_chance_0() -> None:
    board = Game.new(4).board
    # 100 moves add at most 400 to the sum: never 512.
    assert Chances(512, 0, cap=100).chance(board, 0) == 0
    assert Chances(512, 0).chance(board, 0) > 90


def test_a_65536_ends_a_continuation_reaching_that_target_only() -> None:
    big = 32768
    board = Board.from_rows([[big, big, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4], [4, 2, 4, 0]])
    assert Chances(65536, 0).chance(board, 0) == 100
    # Within a cap long enough for the spawns to bring the sum to 131072, played, and ended at the 65536.
    assert Chances(131072, 0, cap=40_000).chance(board, 0) == 0
    beyond = Board.from_rows([[65536, 2, 0, 0], [0] * 4, [0] * 4, [0] * 4])
    assert Chances(131072, 0).chance(beyond, 0) == 0


def test_bad_targets_and_times_are_refused() -> None:
    for target in (0, 2, 6, 1000):
        with pytest.raises(ValueError, match="power of two"):
            Chances(target, 10)
    with pytest.raises(ValueError, match="time"):
        Chances(256, 10).chance(Game.new(1).board, 11)


def test_a_continuation_stopped_part_way_forgets_what_it_held() -> None:
    # The review stops its searches at once when cancelled; the memory of the streams must not keep
    # boards whose end was never learnt, or a later estimate meeting them would read a wrong end.
    game = random_game(13, 100)
    boards = [fast.to_bitboard(b) for b in positions(game)]
    exponent = 9  # 512: most continuations of these positions reach it, not all
    streams = np.array([stream(k) for k in range(CONTINUATIONS)], dtype=np.uint64)
    span = game.moves + CAP + 1
    sums = np.empty((CONTINUATIONS, span), dtype=np.int64)
    stream_sums(streams, sums)
    table = pools.heuristic_table(DEFAULT)
    no_table = np.zeros(0, dtype=search.ENTRY)
    later = np.zeros((CONTINUATIONS, span), dtype=np.uint64), np.zeros((CONTINUATIONS, span), dtype=np.int64)

    def count(n: int, rows: slice, memory: tuple[np.ndarray, np.ndarray], control: np.ndarray) -> int:
        seen, ends = memory[0][rows], memory[1][rows]
        args = (boards[n], n, CAP, exponent, streams[rows], sums[rows], seen, ends, PROBABILITY_THRESHOLD)
        return count_reached(*args, table, DEFAULT.loss, no_table, control)

    for n in range(70, 60, -1):
        count(n, slice(None), later, search.new_control())
    # Each stream's continuation of position 60 alone (their memories are their own): its end and
    # the chance nodes it takes; a stop half-way through one that does not reach the target.
    ends, nodes = [], []
    for k in range(CONTINUATIONS):
        control = search.new_control()
        ends.append(count(60, slice(k, k + 1), (later[0].copy(), later[1].copy()), control))
        nodes.append(int(control[search.NODES]))
    k = next(k for k in range(CONTINUATIONS) if ends[k] == 0 and nodes[k] > 10)
    stopped = search.new_control(limit=sum(nodes[:k]) + nodes[k] // 2)
    assert count(60, slice(None), later, stopped) == -1
    assert count(60, slice(None), later, search.new_control()) == sum(ends)
