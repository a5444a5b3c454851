"""The compiled expectimax against a plain one written over ``rules.py``.

The reference below is the definition of the search: a chance node averages over every empty
cell and both spawns, a max node takes the best legal move (a move that would create a 65536
is not explored inside the tree), leaves are scored by summing the heuristic's line values
over rows and columns, and branches less likely than the threshold become leaves. With the
same arithmetic in the same order, the kernel must agree with it exactly.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from twenty48 import fast
from twenty48.ai import DEFAULT, Heuristic, analyse, search
from twenty48.game import Game
from twenty48.rules import Board, Direction


def rank(value: int) -> int:
    return value.bit_length() - 1 if value else 0


def reference_evaluate(board: Board, heuristic: Heuristic) -> float:
    rows = board.rows
    columns = tuple(tuple(rows[r][c] for r in range(4)) for c in range(4))
    total = 0.0
    for line in rows + columns:
        total += heuristic.line_value(tuple(rank(v) for v in line))
    return total


def reference_chance(board: Board, depth: int, cprob: float, threshold: float, heuristic: Heuristic) -> float:
    if depth <= 0 or cprob < threshold:
        return reference_evaluate(board, heuristic)
    empty = board.empty_cells()
    cprob /= len(empty)
    total = 0.0
    for cell in empty:
        for value, p in ((2, 0.9), (4, 0.1)):
            spawned = board.with_tile(cell, value)
            values = [
                reference_chance(result.board, depth - 1, cprob * p, threshold, heuristic)
                for result in (spawned.move(direction) for direction in Direction)
                if result.changed and result.board.max_tile <= 32768
            ]
            total += p * max(values, default=heuristic.loss)
    return total / len(empty)


def reference_rank(
    board: Board, depth: int, threshold: float, heuristic: Heuristic
) -> dict[Direction, float]:
    return {
        d: reference_chance(board.move(d).board, depth, 1.0, threshold, heuristic)
        for d in board.legal_moves()
    }


def played_position(seed: int, moves: int, most_empty: int = 16) -> Board:
    """A live position reached by random legal play; past half of ``moves`` it stops as soon as at
    most ``most_empty`` cells are empty (fewer empty cells keep the reference quick)."""
    rng = random.Random(seed)
    game = Game.new(seed)
    for i in range(moves):
        if i >= moves // 2 and len(game.board.empty_cells()) <= most_empty:
            break
        before = game.board
        game.move(rng.choice(before.legal_moves()))
        if game.over:
            return before
    return game.board


@pytest.mark.slow  # a pure-Python expectimax per seed
@pytest.mark.parametrize("seed", range(6))
def test_kernel_equals_plain_expectimax_at_depth_2(seed):
    board = played_position(seed, 40 + 37 * seed)
    got = analyse(board, depth=2, threshold=0.0)
    assert got.values == reference_rank(board, 2, 0.0, DEFAULT)
    assert got.depth == 2


@pytest.mark.parametrize("seed", range(4))
def test_probability_cutoff_matches_the_reference(seed):
    # Without the transposition table the cut-off is the only pruning, so the values are exact.
    # At depth 2 with a 0.05 cut-off, every branch that starts with a 4 becomes a leaf.
    board = played_position(100 + seed, 60 + 23 * seed, most_empty=6)
    got = analyse(board, depth=2, threshold=0.05, transposition=False).values
    assert got == reference_rank(board, 2, 0.05, DEFAULT)
    assert got != analyse(board, depth=2, threshold=0.0).values


def test_transposition_table_changes_nothing_without_cutoff():
    board = played_position(7, 120)
    with_table = analyse(board, depth=3, threshold=0.0).values
    without = analyse(board, depth=3, threshold=0.0, transposition=False).values
    assert with_table == without


@pytest.mark.slow  # a pure-Python expectimax per example
@given(
    st.lists(st.integers(1, 9), min_size=16, max_size=16),
    st.sets(st.integers(0, 15), min_size=1, max_size=5),
    st.integers(1, 2),
    st.sampled_from([Heuristic(), Heuristic(empty_weight=1000.0, sum_power=2.0, monotonicity_weight=5.0)]),
)
@settings(max_examples=30, deadline=None)
def test_kernel_equals_reference_on_arbitrary_boards(exponents, empty, depth, heuristic):
    # Few empty cells keep the reference quick at depth 2.
    board = Board.from_cells([0 if i in empty else 1 << e for i, e in enumerate(exponents)])
    got = analyse(board, depth=depth, threshold=0.0, heuristic=heuristic).values
    assert got == reference_rank(board, depth, 0.0, heuristic)


def test_evaluate_is_the_sum_of_line_values():
    board = Board.parse("2 4 8 16/32 64 128 256/512 1024 2048 4096/8192 16384 32768 0")
    assert search.evaluate(fast.to_bitboard(board), DEFAULT.table()) == reference_evaluate(board, DEFAULT)


def test_a_merge_into_65536_is_not_explored_inside_the_tree():
    # Up merges the two 32768 tiles at the root, which the solver handles through the rules; inside
    # the tree the same merge would overflow the 4-bit cell, so the reference and kernel both skip it.
    board = Board.parse("32768 2 4 2/32768 4 8 0/2 8 4 0/4 2 8 0")
    assert analyse(board, depth=2, threshold=0.0).values == pytest.approx(
        reference_rank_with_squeezed_root(board, 2)
    )


def reference_rank_with_squeezed_root(board: Board, depth: int) -> dict[Direction, float]:
    values = {}
    for d in board.legal_moves():
        after = board.move(d).board
        if after.max_tile > 32768:
            # The squeezed stand-in for a board holding one 65536 next to no 32768 is the same board
            # with 65536 written as 32768.
            after = Board.from_cells([min(v, 32768) for v in after.cells])
        values[d] = reference_chance(after, depth, 1.0, 0.0, DEFAULT)
    return values


def test_stop_flag_aborts_a_search():
    board = fast.to_bitboard(played_position(3, 200))
    control = search.new_control()
    control[search.STOP] = 1
    search.chance_value(
        np.uint64(board), 8, 1.0, 0.0, DEFAULT.table(), DEFAULT.loss, np.zeros(0, search.ENTRY), 1, control
    )
    assert control[search.NODES] == 0
