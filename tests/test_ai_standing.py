"""The hint's standing of each move (``twenty48.ai.standing``): properties of the one formula."""

from __future__ import annotations

import math

from hypothesis import given
from hypothesis import strategies as st

from twenty48.ai import rank_moves
from twenty48.ai.heuristic import DEFAULT
from twenty48.ai.standing import (
    OPENING_SCALE,
    TIE,
    Grade,
    loses_at_once,
    points_for,
    standings,
)
from twenty48.rules import Board, Direction

#: Every direction legal, nothing close to the end: standings come from the values alone.
OPEN = Board.from_rows([[2, 0, 0, 2], [0, 4, 0, 0], [0, 0, 0, 0], [8, 0, 0, 8]])
# Up, left and right are legal; after left the one gap is in the top right corner, between a 64
# and an 8, and whatever spawns there nothing can merge.
ENDING = Board.from_rows([[16, 4, 0, 64], [2, 16, 32, 8], [64, 32, 16, 32], [4, 2, 64, 2]])

values = st.floats(min_value=-3e6, max_value=3e6, allow_nan=False)
move_values = st.dictionaries(st.sampled_from(list(Direction)), values, min_size=1)


@given(move_values)
def test_the_best_value_gets_100_points_and_the_best_grade(ranking: dict[Direction, float]) -> None:
    result = standings(OPEN, ranking)
    top = max(ranking.values())
    for direction, standing in result.items():
        assert 0 <= standing.points <= 100
        tied = (top - ranking[direction]) / max(abs(top), OPENING_SCALE) <= TIE
        assert (standing.grade is Grade.BEST) == tied
        if tied:
            assert standing.points == 100 and standing.loss == 0


def test_mirror_image_moves_share_the_best_grade() -> None:
    # Every move of a lone tile, and the two moves along the diagonal of two corner tiles, are
    # the same position mirrored: the solver's values differ only by floating-point rounding.
    for board, tied in [
        (Board.parse("0 0 0 0/0 2 0 0/0 0 0 0/0 0 0 0"), set(Direction)),
        (Board.parse("2 0 0 0/0 0 0 0/0 0 0 0/0 0 0 2"), {Direction.UP, Direction.DOWN}),
    ]:
        ranked = rank_moves(board, depth=2)
        result = standings(board, ranked)
        assert {d for d, standing in result.items() if standing.grade is Grade.BEST} >= tied
        assert all(result[d].points == 100 for d in tied)


@given(move_values)
def test_a_better_value_never_stands_lower(ranking: dict[Direction, float]) -> None:
    result = standings(OPEN, ranking)
    order = list(Grade)
    for a in ranking:
        for b in ranking:
            if ranking[a] >= ranking[b]:
                assert result[a].points >= result[b].points
                assert result[a].loss <= result[b].loss
                assert order.index(result[a].grade) <= order.index(result[b].grade)


@given(move_values, st.floats(min_value=1.0, max_value=1e3))
def test_standing_ignores_the_scale_of_the_values(ranking: dict[Direction, float], k: float) -> None:
    # Exactly invariant once the values are past the opening's floor of the scale.
    if abs(max(ranking.values())) < OPENING_SCALE:
        ranking = {d: v - 2 * OPENING_SCALE for d, v in ranking.items()}
    scaled = {d: v * k for d, v in ranking.items()}
    a, b = standings(OPEN, ranking), standings(OPEN, scaled)
    for direction in ranking:
        assert a[direction].points == b[direction].points
        assert a[direction].grade == b[direction].grade
        assert math.isclose(a[direction].loss, b[direction].loss, rel_tol=1e-9, abs_tol=1e-12)


def test_the_same_raw_slip_weighs_more_in_the_opening_than_in_an_endgame() -> None:
    opening = standings(OPEN, {Direction.LEFT: -6_000.0, Direction.UP: -9_000.0})
    endgame = standings(OPEN, {Direction.LEFT: -600_000.0, Direction.UP: -603_000.0})
    assert opening[Direction.UP].grade is Grade.MISTAKE
    assert endgame[Direction.UP].grade is Grade.GOOD and endgame[Direction.UP].points >= 90
    # The same relative slip grades alike at both scales.
    a = standings(OPEN, {Direction.LEFT: -9_000.0, Direction.UP: -12_000.0})
    b = standings(OPEN, {Direction.LEFT: -600_000.0, Direction.UP: -800_000.0})
    assert a[Direction.UP].points == b[Direction.UP].points and a[Direction.UP].grade is b[Direction.UP].grade


def test_a_move_that_ends_the_game_at_once_is_a_blunder_whatever_its_value() -> None:
    assert set(ENDING.legal_moves()) == {Direction.UP, Direction.LEFT, Direction.RIGHT}
    assert loses_at_once(ENDING, Direction.LEFT)
    assert not any(loses_at_once(ENDING, d) for d in (Direction.UP, Direction.RIGHT, Direction.DOWN))
    # Even where the values (a heuristic) put the ending move first.
    result = standings(ENDING, {Direction.LEFT: -1.6e6, Direction.UP: -1.7e6, Direction.RIGHT: -1.8e6})
    assert result[Direction.LEFT].grade is Grade.BLUNDER and result[Direction.LEFT].points == 0
    assert result[Direction.UP].grade is Grade.BEST and result[Direction.UP].points == 100
    assert result[Direction.RIGHT].grade is not Grade.BLUNDER
    assert math.isinf(result[Direction.LEFT].loss)


def test_when_every_move_ends_the_game_the_values_decide() -> None:
    # Up, down and right each leave one gap that no spawn can save.
    board = Board.from_rows([[16, 32, 64, 32], [64, 2, 4, 2], [32, 16, 64, 0], [64, 2, 8, 32]])
    assert all(loses_at_once(board, d) for d in board.legal_moves())
    result = standings(board, dict.fromkeys(board.legal_moves(), -1.6e6))
    assert all(s.grade is Grade.BEST for s in result.values())


def test_points_fall_from_100_to_0_and_half_at_the_documented_loss() -> None:
    assert points_for(0.0) == 100 and points_for(0.05) == 50 and points_for(1e9) == 0
    assert standings(OPEN, {}) == {}


def test_the_opening_scale_is_an_empty_boards_empty_cell_bonus_under_the_default_weights() -> None:
    assert 8 * 4 * DEFAULT.empty_weight == OPENING_SCALE


def test_the_solvers_own_ranking_reads_as_the_module_promises() -> None:
    board = Board.from_rows([[0, 0, 0, 2], [0, 0, 4, 8], [0, 2, 32, 64], [2, 16, 256, 512]])
    ranking = rank_moves(board, depth=2)
    result = standings(board, ranking)
    assert list(result) == list(ranking)
    assert result[next(iter(ranking))].grade is Grade.BEST


def test_2048_hint_prints_standings_and_keeps_raw_values_in_json(capsys) -> None:
    import json

    from twenty48.cli import main

    board = "2 4 8 16/0 2 32 64/0 0 128 256/0 0 512 2048"
    assert main(["hint", board, "--depth", "2"]) == 0
    lines = capsys.readouterr().out.splitlines()
    table = [line.split() for line in lines if line.split()[0] in {d.value for d in Direction}]
    assert table[0][1:] == ["100/100", "best"]
    assert all(row[2] in {g.value for g in Grade} for row in table)
    assert not any("-" in cell for row in table for cell in row)  # no raw (negative) values
    assert main(["hint", board, "--depth", "2", "--json"]) == 0
    moves = json.loads(capsys.readouterr().out)["moves"]
    assert moves[0]["grade"] == "best" and moves[0]["standing"] == 100 and moves[0]["value"] < 0
