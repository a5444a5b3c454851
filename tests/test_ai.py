"""The solver's public API: legal answers on every board, settings, threads, reproducible play."""

from __future__ import annotations

import threading
import time

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from twenty48 import fast
from twenty48.ai import DEFAULT, analyse, best_move, budget, default_depth, pools, rank_moves, search, solver
from twenty48.ai.budget import LATE_NODE_BUDGET, NODE_BUDGET, node_budget
from twenty48.ai.play import play_game
from twenty48.ai.reduce import squeeze
from twenty48.game import Game
from twenty48.rules import Board, Direction

OVER = Board.parse("2 4 2 4/4 2 4 2/2 4 2 4/4 2 4 2")
MIDGAME = Board.parse("2 0 0 0/4 2 0 0/16 64 8 2/1024 256 128 32")
# A crowded board whose tree stays big for many rounds, so that a deep search takes long.
CROWDED = Board.parse("2 4 8 16/4 8 16 32/0 2 4 8/0 0 2 1024")
# Beyond what the bitboard holds: every root is searched on a squeezed stand-in.
BEYOND = Board.parse("0 0 2 0/4 0 0 2/256 32 8 4/65536 32768 2048 512")

# Tile exponents 0 (empty) to 17 (131072): every legal value, including what a bitboard cannot hold.
boards = st.lists(st.integers(0, 17), min_size=16, max_size=16).map(
    lambda exponents: Board.from_cells([1 << e if e else 0 for e in exponents])
)


@given(boards)
@settings(max_examples=100, deadline=None)
def test_solver_only_ever_answers_legal_moves(board):
    try:
        for direction in board.legal_moves():
            board.move(direction)
    except ValueError:
        # Two 131072 tiles about to merge: no game reaches this board, and the rules refuse it.
        with pytest.raises(ValueError, match="131072"):
            rank_moves(board, depth=1)
        return
    ranked = rank_moves(board, depth=1)
    assert set(ranked) == set(board.legal_moves())
    assert list(ranked.values()) == sorted(ranked.values(), reverse=True)
    move = best_move(board, depth=1)
    if not board.legal_moves():
        assert move is None
    else:
        assert move in board.legal_moves()
        assert move == next(iter(ranked))


@given(boards)
@settings(max_examples=300, deadline=None)
def test_squeezing_keeps_the_legal_moves(board):
    squeezed = squeeze(board)
    mask = fast.legal_mask(squeezed)
    assert {d for d in Direction if mask >> d.index & 1} == set(board.legal_moves())
    if fast.representable(board):
        assert squeezed == fast.to_bitboard(board)


def test_squeezing_keeps_small_tiles_and_the_order_of_big_ones():
    board = Board.parse("131072 65536 2 4/8 0 0 0/0 0 0 0/0 0 0 0")
    assert fast.from_bitboard(squeeze(board)) == Board.parse("32768 16384 2 4/8 0 0 0/0 0 0 0/0 0 0 0")


def test_merging_two_32768_tiles_is_a_move_the_solver_can_rank():
    board = Board.parse("32768 32768 4 2/2 4 8 16/4 8 16 32/2 4 8 16")
    ranked = rank_moves(board, depth=2)
    assert set(ranked) == {Direction.LEFT, Direction.RIGHT}
    assert all(np.isfinite(v) for v in ranked.values())


@pytest.mark.parametrize(
    "text",
    [
        "65536 65536 0 0/0 0 0 0/0 0 0 0/131072 0 0 2",
        "131072 65536 32768 16384/8192 4096 2048 1024/512 256 128 64/32 16 8 8",
        "131072 2 4 8/2 4 8 16/4 8 16 32/8 16 32 0",
    ],
)
def test_boards_with_tiles_beyond_the_bitboard_get_a_legal_move(text):
    board = Board.parse(text)
    for setting in ({}, {"depth": 2}, {"time_limit": 0.02}):
        assert best_move(board, **setting) in board.legal_moves()


def test_game_over_has_no_move():
    assert rank_moves(OVER) == {}
    assert best_move(OVER) is None
    assert best_move(Game.from_board(OVER, seed=1)) is None


def test_a_game_and_its_board_rank_the_same():
    game = Game.new(11)
    for _ in range(30):
        game.move(best_move(game, depth=1))
    assert rank_moves(game, depth=2) == rank_moves(game.board, depth=2)


def test_bad_arguments_are_refused():
    with pytest.raises(ValueError, match="depth"):
        rank_moves(MIDGAME, depth=0)
    for bad in (0, -1.0, float("inf"), float("nan"), "1", True):
        with pytest.raises(ValueError, match="time_limit"):
            rank_moves(MIDGAME, time_limit=bad)
    for bad in (0, 2.0, "3", True):
        with pytest.raises(ValueError, match="depth"):
            rank_moves(MIDGAME, depth=bad)
        with pytest.raises(ValueError, match="nodes"):
            rank_moves(MIDGAME, nodes=bad)
    with pytest.raises(TypeError, match="Board or a Game"):
        rank_moves("2 2 0 0/0 0 0 0/0 0 0 0/0 0 0 0")


def test_default_depth_grows_with_the_board():
    assert default_depth(Board.parse("2 2 0 0/0 0 0 0/0 0 0 0/0 0 0 0")) == 3
    assert default_depth(MIDGAME) > default_depth(Board.parse("2 4 0 0/8 0 0 0/0 0 0 0/0 0 0 0"))


def test_time_limit_bounds_the_search():
    # A budget a quarter of what depth 8 takes here, whatever the machine's speed: without it the
    # search would deepen to MAX_DEPTH; with it, it stops short of the work depth 8 alone takes.
    full = analyse(CROWDED, depth=8)
    bounded = analyse(CROWDED, time_limit=full.seconds / 4)
    assert 1 <= bounded.depth < 8
    assert bounded.nodes < full.nodes
    assert set(bounded.values) == set(CROWDED.legal_moves())


def test_a_tiny_time_limit_still_answers():
    assert best_move(CROWDED, time_limit=1e-6) in CROWDED.legal_moves()


def test_search_releases_the_gil():
    board = np.uint64(fast.move(fast.to_bitboard(CROWDED), Direction.LEFT.index))
    table = np.zeros(0, search.ENTRY)
    weights = DEFAULT.table()
    control = search.new_control()
    started = threading.Event()

    def work():
        started.set()
        search.chance_value(board, 6, 1.0, 1e-4, weights, DEFAULT.loss, table, 1, control)

    worker = threading.Thread(target=work)
    worker.start()
    started.wait()
    spins = 0
    while worker.is_alive():
        spins += 1
    worker.join()
    assert control[search.NODES] > 10_000
    # Holding the GIL, the kernel would stall this loop until it returned.
    assert spins > 100_000


def test_concurrent_searches_agree_with_sequential_ones():
    positions = [MIDGAME, CROWDED, Board.parse("2 2 0 0/0 4 0 0/0 0 0 0/0 0 0 2")] * 2
    expected = [rank_moves(b, depth=3) for b in positions]
    results: list[dict[Direction, float] | None] = [None] * len(positions)

    def work(i):
        results[i] = rank_moves(positions[i], depth=3)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(len(positions))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == expected


def test_fixed_seed_games_are_reproducible():
    def play(seed):
        game = Game.new(seed)
        for _ in range(120):
            game.move(best_move(game, depth=2))
        return game

    first, second = play(5), play(5)
    assert first.actions == second.actions
    assert first.score == second.score > 0
    assert Game.replay(5, first.actions).board == first.board
    assert play_game(5, depth=2, max_moves=120).score == first.score


def test_solver_games_run_to_the_end():
    record = play_game(3, depth=1)
    assert record.moves > 100
    assert 0 < record.ms_per_move_p50 <= record.ms_per_move_p99
    final = Game.new(3)
    assert record.max_tile >= 256
    assert final.seed == record.seed


def test_default_setting_is_a_fixed_depth_search_within_the_node_budget():
    for board in (MIDGAME, CROWDED, Board.parse("2 2 0 0/0 4 0 0/0 0 0 0/0 0 0 2")):
        adaptive = analyse(board)
        assert 3 <= adaptive.depth <= default_depth(board)
        assert adaptive.nodes <= node_budget(board) == NODE_BUDGET
        # Each depth is a fresh search, so the last one is exactly a fixed-depth search.
        assert adaptive.values == analyse(board, depth=adaptive.depth).values
        assert analyse(board).values == adaptive.values


def test_the_late_game_budget_doubles_for_each_empty_cell_short_of_crowded():
    roomy = Board.parse("128 512 8192 16384/4 8 16 32/2 0 4 2/0 0 0 2")
    assert node_budget(roomy) == LATE_NODE_BUDGET
    assert node_budget(Board.parse("128 512 8192 16384/4 8 16 32/2 0 4 2/0 8 32 2")) == 2 * LATE_NODE_BUDGET
    assert node_budget(Board.parse("128 512 8192 16384/4 8 16 32/2 0 4 2/4 2 32 2")) == 4 * LATE_NODE_BUDGET
    assert node_budget(Board.parse("128 512 8192 16384/4 8 16 32/2 8 4 2/4 2 32 2")) == 8 * LATE_NODE_BUDGET


def test_the_late_game_searches_as_deep_as_its_budget_allows(monkeypatch):
    # A crowded board from a solver game: few spawns a round make deep rounds cheap, so the
    # search goes past the depth rule (7 here) within the budget.
    late = Board.parse("4 512 8192 16384/2 8 16 32/8 64 4 2/0 2 4 16")
    rule = budget.depth_rule(late)
    deeper = analyse(late)
    assert rule < deeper.depth <= default_depth(late) == budget.MAX_DEPTH
    assert deeper.nodes <= node_budget(late)
    assert deeper.values == analyse(late, depth=deeper.depth).values
    same = analyse(late, nodes=node_budget(late))
    assert (same.values, same.depth, same.nodes) == (deeper.values, deeper.depth, deeper.nodes)
    monkeypatch.setattr(budget, "LATE_NODE_BUDGET", LATE_NODE_BUDGET // 8)
    assert analyse(late).depth < deeper.depth


def test_a_node_budget_deepens_as_far_as_it_lasts():
    small, large = analyse(MIDGAME, nodes=20_000), analyse(MIDGAME, nodes=2_000_000)
    assert small.nodes <= 20_000 and large.nodes <= 2_000_000
    assert 1 <= small.depth < large.depth
    assert large.values == analyse(MIDGAME, depth=large.depth).values
    capped = analyse(MIDGAME, depth=2, nodes=2_000_000)
    assert capped.depth == 2 and capped.values == analyse(MIDGAME, depth=2).values
    # A count, not a clock: the same answer every time, and the same as best_move's.
    assert analyse(MIDGAME, nodes=20_000).values == small.values
    assert best_move(MIDGAME, nodes=20_000) == small.best


@pytest.mark.parametrize("depth", [None, 4])
def test_threads_do_not_change_the_answer(monkeypatch, depth):
    monkeypatch.setattr(solver, "PARALLEL_NODES", 0)
    answers = []
    for threads in (1, 4):
        monkeypatch.setattr(pools, "THREADS", threads)
        answers.append([analyse(board, depth=depth) for board in (MIDGAME, CROWDED, BEYOND)])
    for one, many in zip(*answers, strict=True):
        assert (one.values, one.depth, one.nodes) == (many.values, many.depth, many.nodes)
        assert list(one.values) == list(many.values)


def test_time_limit_with_a_depth_cap():
    capped = analyse(MIDGAME, depth=2, time_limit=5.0)
    assert capped.depth == 2
    assert capped.values == analyse(MIDGAME, depth=2).values


def test_another_thread_can_stop_a_search():
    # Depth 12 with no cut-off and no table would run for ages: only the stop flag ends it.
    board = np.uint64(fast.move(fast.to_bitboard(CROWDED), Direction.LEFT.index))
    control = search.new_control()
    done = threading.Event()

    def work():
        search.chance_value(
            board, 12, 1.0, 0.0, DEFAULT.table(), DEFAULT.loss, np.zeros(0, search.ENTRY), 1, control
        )
        done.set()

    worker = threading.Thread(target=work)
    worker.start()
    deadline = time.monotonic() + 30
    while control[search.NODES] == 0:
        assert time.monotonic() < deadline, "the search never started"
        time.sleep(0.001)
    control[search.STOP] = 1
    at_stop = int(control[search.NODES])
    assert done.wait(30)
    worker.join()
    # Promptly, not at the end of the tree: the kernel reads the flag before each node it expands.
    assert int(control[search.NODES]) - at_stop <= 1, int(control[search.NODES]) - at_stop


def test_a_search_during_the_warm_up_waits_for_it_and_builds_no_tables_of_its_own(monkeypatch):
    # A fresh process's state: not warmed, no table in the pool, no thread in it.
    monkeypatch.setattr(solver, "_warm", False)
    monkeypatch.setattr(pools, "_free_tables", [])
    monkeypatch.setattr(pools, "_executor", None)
    built = []
    make_array = np.empty

    def counting_empty(shape, dtype=float):
        if dtype is search.ENTRY:
            built.append(shape)
        return make_array(shape, dtype=dtype)

    monkeypatch.setattr(pools.np, "empty", counting_empty)
    # The warm-up stops where it starts the pool's threads, after its first search, until released.
    reached, release = threading.Event(), threading.Event()
    make_pool = pools.thread_pool

    def held_pool():
        reached.set()
        release.wait()
        return make_pool()

    monkeypatch.setattr(pools, "thread_pool", held_pool)
    warming = threading.Thread(target=solver.warm_up)
    warming.start()
    assert reached.wait(10)
    assert len(built) == 4
    searching = threading.Thread(target=analyse, args=(MIDGAME,), kwargs={"depth": 2})
    searching.start()
    time.sleep(0.05)
    assert searching.is_alive()
    release.set()
    warming.join()
    searching.join()
    assert solver._warm and solver._warmer is None
    assert len(built) == 4 and len(pools._free_tables) == 4
    assert pools._executor is not None and len(pools._executor._threads) >= 1
    # Once warm, a call does nothing: no search, so no table and no thread either.
    monkeypatch.setattr(solver, "analyse", lambda *args, **kwargs: pytest.fail("searched again"))
    monkeypatch.setattr(pools, "thread_pool", lambda: pytest.fail("started the pool again"))
    solver.warm_up()
    assert len(built) == 4
