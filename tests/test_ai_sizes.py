"""The solver on boards of every size: the kernel against a plain expectimax over ``rules.py``, its
heuristic against the 4x4's, legal answers on every size, and every setting."""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sized import ALL_SIZES, sized_boards
from twenty48 import Board, BoardSize, Direction, Game, fast
from twenty48.ai import DEFAULT, Heuristic, analyse, best_move, grid_search, rank_moves, search
from twenty48.ai.budget import node_budget
from twenty48.ai.play import play_game, summarize
from twenty48.ai.review import GRADES, positions, review_game
from twenty48.ai.standing import standings
from twenty48.rules import two_largest

OTHER_SIZES = tuple(size for size in ALL_SIZES if size != BoardSize(4, 4))


def rank(value: int) -> int:
    return value.bit_length() - 1 if value else 0


def reference_evaluate(board: Board, heuristic: Heuristic) -> float:
    """Every row's value from the top, then every column's from the left, each read from its first
    cell, with the 4x4's per-line formula written out for lines of any length."""
    rows = board.rows
    columns = tuple(tuple(row[c] for row in rows) for c in range(board.size.cols))
    total = 0.0
    for line in rows + columns:
        total += reference_line(tuple(rank(v) for v in line), heuristic)
    return total


def reference_line(ranks: tuple[int, ...], h: Heuristic) -> float:
    tiles = [r for r in ranks if r]
    merges = 0
    run = 0
    for before, after in itertools.pairwise(tiles):
        if after == before:
            run += 1
        elif run:
            merges += 1 + run
            run = 0
    merges += 1 + run if run else 0
    total = 0.0
    for r in tiles:
        total += float(r) ** h.sum_power
    increase = decrease = 0.0
    for before, after in itertools.pairwise(ranks):
        x, y = float(before) ** h.monotonicity_power, float(after) ** h.monotonicity_power
        if before > after:
            decrease += x - y
        else:
            increase += y - x
    return (
        h.empty_weight * (len(ranks) - len(tiles))
        + h.merge_weight * merges
        - h.monotonicity_weight * min(increase, decrease)
        - h.sum_weight * total
    )


def reference_chance(board: Board, depth: int, cprob: float, threshold: float, heuristic: Heuristic) -> float:
    if depth <= 0 or cprob < threshold:
        return reference_evaluate(board, heuristic)
    empty = board.empty_cells()
    if not empty:
        return reference_evaluate(board, heuristic)
    cprob /= len(empty)
    total = 0.0
    for cell in empty:
        for value, p in ((2, 0.9), (4, 0.1)):
            spawned = board.with_tile(cell, value)
            values = [
                reference_chance(result.board, depth - 1, cprob * p, threshold, heuristic)
                for result in (spawned.move(direction) for direction in Direction)
                if result.changed
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


def played_position(size: str, seed: int, most_empty: int) -> Board:
    """A live position of ``size`` reached by random legal play, with at most ``most_empty`` empty cells."""
    rng = random.Random(seed)
    game = Game.new(seed, size=size)
    while len(game.board.empty_cells()) > most_empty:
        before = game.board
        game.move(rng.choice(before.legal_moves()))
        if game.over:
            return before
    return game.board


@pytest.mark.parametrize(
    ("size", "seed"), [("2x3", 1), ("3x3", 2), ("2x4", 3), ("3x4", 4), ("4x3", 5), ("5x2", 6)]
)
def test_kernel_equals_plain_expectimax_on_every_shape(size, seed):
    board = played_position(size, seed, most_empty=3)
    got = analyse(board, depth=2, threshold=0.0)
    assert got.values == reference_rank(board, 2, 0.0, DEFAULT)
    assert got.depth == 2


@pytest.mark.parametrize("seed", range(3))
def test_probability_cutoff_and_table_match_the_reference(seed):
    board = played_position("3x4", 10 + seed, most_empty=5)
    got = analyse(board, depth=2, threshold=0.05, transposition=False).values
    assert got == reference_rank(board, 2, 0.05, DEFAULT)
    deep = analyse(board, depth=3, threshold=0.0).values
    assert deep == analyse(board, depth=3, threshold=0.0, transposition=False).values


@given(st.lists(st.integers(0, 37), min_size=2, max_size=6))
def test_lines_of_any_length_are_worth_what_the_formula_says(ranks):
    line = np.array(ranks, dtype=np.uint8)
    expected = reference_line(tuple(ranks), DEFAULT)
    assert grid_search.line_value(line, 0, 1, len(ranks), DEFAULT.grid_weights()) == expected
    assert DEFAULT.line_value(ranks) == expected


@given(st.lists(st.integers(0, 15), min_size=4, max_size=4))
def test_the_4x4_table_holds_the_value_of_every_row(ranks):
    row = sum(rank << (4 * i) for i, rank in enumerate(ranks))
    assert DEFAULT.table()[row] == reference_line(tuple(ranks), DEFAULT)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(0, 15), min_size=16, max_size=16))
def test_a_4x4_board_is_worth_the_same_on_either_engine(exponents):
    board = Board.from_cells([1 << e if e else 0 for e in exponents])
    grid_value = grid_search.evaluate(fast.to_grid(board), 4, 4, DEFAULT.grid_weights())
    assert grid_value == search.evaluate(fast.to_bitboard(board), DEFAULT.table())
    assert grid_value == reference_evaluate(board, DEFAULT)


@settings(max_examples=60, deadline=None)
@given(sized_boards(st.sampled_from(OTHER_SIZES)))
def test_solver_answers_legal_moves_on_every_size(board):
    if two_largest(board):
        return
    ranked = rank_moves(board, depth=1)
    assert set(ranked) == set(board.legal_moves())
    assert list(ranked.values()) == sorted(ranked.values(), reverse=True)
    assert best_move(board, depth=1) == next(iter(ranked), None)
    assert set(standings(board, ranked)) == set(ranked)


@pytest.mark.parametrize("size", ["2x2", "2x4", "3x3", "3x4", "5x5", "6x6", "6x2"])
def test_the_default_setting_plays_every_size_within_its_budget_and_replays(size):
    game = Game.new(7, size=size)
    for _ in range(6):
        analysis = analyse(game)
        assert analysis.best in game.board.legal_moves()
        assert analysis.nodes <= node_budget(game.board)
        again = analyse(game)
        assert (again.values, again.depth, again.nodes) == (analysis.values, analysis.depth, analysis.nodes)
        game.move(analysis.best)


def test_node_and_time_budgets_work_on_other_sizes():
    board = played_position("5x5", 3, most_empty=8)
    by_nodes = analyse(board, nodes=3_000)
    assert by_nodes.nodes <= 3_000 and by_nodes.depth >= 1
    assert analyse(board, nodes=3_000).values == by_nodes.values
    timed = analyse(board, time_limit=0.02)
    assert timed.best in board.legal_moves()


def test_a_board_without_a_move_has_no_answer_on_any_size():
    over = Board.from_rows([[2, 4, 2], [4, 2, 4]])
    assert analyse(over).values == {} and best_move(over) is None


def test_whole_small_games_are_played_to_their_end():
    size = BoardSize(2, 3)
    played = play_game(5, depth=1, size=size)
    assert played.moves > 0 and played.max_tile <= size.max_tile
    again = play_game(5, depth=1, size=size)
    assert (again.score, again.moves, again.max_tile) == (played.score, played.moves, played.max_tile)
    summary = summarize([played], size)
    assert summary["size"] == "2x3" and set(summary["reach"]) == {"8", "16", "32", "64", "128"}
    reach = summary["reach"]["16"]
    assert 0 <= reach["low"] <= reach["rate"] <= reach["high"] <= 1


def test_a_review_grades_the_moves_of_a_game_of_another_size():
    game = Game.new(2, size="3x3")
    for direction in ("up", "left", "down", "right") * 3:
        game.move(direction)
    review = review_game(game)
    assert [m["played"] for m in review["moves"]] == [str(a) for a in game.actions]
    assert all(m["grade"] in GRADES for m in review["moves"])
    assert review["target"] == 2 * game.board.max_tile
    assert positions(game)[-1] == game.board
