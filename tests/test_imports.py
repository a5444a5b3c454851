"""Imports on both backends: bounded numbers and boards, steps that never replay stored games, all or
nothing when stopped, what a killed import left, a second import racing the first."""

from __future__ import annotations

from pathlib import Path

import pytest

from twenty48.game import Game
from twenty48.rules import MAX_START_SCORE, MAX_TILE, Board
from twenty48.store import ImportBudget, ImportRefusedError, ImportStoppedError, Store, open_store, transfer
from twenty48.store.games import codec
from twenty48.store.transfer import imports

START = Board.from_rows([[512, 256, 0, 0], [2, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 4]])


@pytest.fixture
def store(location: Path | str):
    with open_store(location) as s:
        yield s


def one_move(seed: int) -> dict:
    """A game file of one move: what a 2 MiB file of 16,000 games was made of."""
    game = Game.new(seed)
    game.play(game.board.legal_moves()[0])
    return transfer.export_game(game, finished=True)


def history(games: list[dict]) -> dict:
    return transfer.export_history(games)


def test_every_number_and_board_is_bounded_before_use() -> None:
    prepared = transfer.export_game(Game.from_board(START, seed=1, score=100), finished=True)
    bounded = f"start_score must be an integer from 0 to {MAX_START_SCORE} "
    for change, words in (
        ({"start_score": 2**70, "score": 2**70}, bounded),
        ({"start_score": MAX_START_SCORE + 1}, "start_score must be"),
        ({"score": 2**70}, "score must be an integer from 0 to 9223372036854775807"),
        ({"moves": -1}, "moves must be"),
        ({"hints": 2**40}, "hints must be"),
        ({"undos": True}, "undos must be"),
        ({"created_at": "yesterday"}, "created_at must be an ISO 8601 time"),
        ({"created_at": "0001-01-01T00:00:00+05:00"}, "created_at must be"),
        ({"start_board": [[MAX_TILE] * 4] * 4}, f"two {MAX_TILE} tiles, which no game can reach"),
        ({"start_board": [[0] * 4] * 4}, "no tile"),
    ):
        with pytest.raises(ImportRefusedError, match=words) as refused:
            transfer.read_file(prepared | change)
        assert len(str(refused.value)) < 300
    # The largest start score still plays: every point a game can add fits.
    assert transfer.read_file(transfer.export_game(Game.from_board(START, 1, MAX_START_SCORE), True))


def test_a_file_past_the_bound_of_games_is_refused_before_any_replay() -> None:
    games = [one_move(seed) for seed in range(4)]
    games[3]["actions"] = ["sideways"]  # never reached: the count refuses the file first
    with pytest.raises(ImportRefusedError, match="holds 4 games; an import takes at most 3"):
        transfer.read_file(history(games), max_games=3)
    assert len(transfer.read_file(history(games[:3]), max_games=3)) == 3


def test_a_file_past_its_time_is_refused_and_stores_nothing(store: Store) -> None:
    player = store.local_player().id
    budget = ImportBudget(seconds=0.0)
    with pytest.raises(ImportRefusedError, match="took longer than its bound of 0 s"):
        transfer.read_file(history([one_move(1)]), check=budget.check)
    games = transfer.read_file(history([one_move(1)]))
    with pytest.raises(ImportRefusedError, match="took longer"):
        store.import_games(player, games, budget)
    assert store.games(player) == []


def test_an_import_never_loads_or_replays_the_games_it_is_compared_with(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Many stored games of one result (one move each): the old duplicate check loaded every one
    # of them for each game of the file.
    player = store.local_player().id
    store.import_games(player, transfer.read_file(history([one_move(seed) for seed in range(60)])))
    for seed in range(60, 64):
        store.add_game(player, Game.replay(seed, [Game.new(seed).board.legal_moves()[0]]))
    loaded = []
    decode = codec.decode
    monkeypatch.setattr(codec, "decode", lambda *a: loaded.append(a) or decode(*a))
    file = history([one_move(seed) for seed in range(40, 100)])
    result = store.import_games(player, transfer.read_file(file))
    assert (len(result.imported), result.skipped) == (36, 24)
    assert loaded == []


def test_a_stopped_import_stores_nothing_and_deletes_what_it_staged(store: Store, raw_sql) -> None:
    player = store.local_player().id
    games = transfer.read_file(history([one_move(seed) for seed in range(30)]))
    budget = ImportBudget()
    job = store.import_job(player, games)
    with pytest.raises(ImportStoppedError, match="the client hung up"):
        for step in job.steps():
            budget.check()
            step()
            if job.progress[0] >= 10:
                assert raw_sql("SELECT count(*) FROM games WHERE import_token IS NOT NULL")[0][0] >= 10
                budget.stop("the client hung up")
    for step in job.abandon():
        step()
    assert raw_sql("SELECT count(*) FROM games")[0][0] == 0
    assert store.games(player) == [] and store.stats(player, "classic").games == 0


def test_what_a_killed_import_left_goes_with_the_next_import(
    store: Store, raw_sql, monkeypatch: pytest.MonkeyPatch
) -> None:
    player = store.local_player().id
    killed = store.import_job(player, transfer.read_file(history([one_move(seed) for seed in range(5)])))
    for step in killed.steps():
        step()
        if killed.progress[0] == 5:
            break  # the process dies here, before the games are shown
    assert store.games(player) == []
    # Younger than the bound: perhaps still running elsewhere, so kept.
    store.import_games(player, transfer.read_file(one_move(99)))
    assert raw_sql("SELECT count(*) FROM games WHERE import_token IS NOT NULL")[0][0] == 5
    monkeypatch.setattr(imports, "ABANDONED_AFTER_S", -10.0)
    store.import_games(player, transfer.read_file(one_move(98)))
    assert raw_sql("SELECT count(*) FROM games WHERE import_token IS NOT NULL")[0][0] == 0
    assert len(store.games(player)) == 2


def test_two_imports_of_one_file_store_it_once(store: Store, raw_sql) -> None:
    player = store.local_player().id
    games = transfer.read_file(history([one_move(seed) for seed in range(8)]))
    first = store.import_job(player, games)
    steps = first.steps()
    for step in steps:
        step()
        if first.progress[0] == 8:
            break  # staged, not shown yet
    assert len(store.import_games(player, games).imported) == 8
    for step in steps:
        step()
    assert first.result is not None and (first.result.imported, first.result.skipped) == ((), 8)
    assert raw_sql("SELECT count(*) FROM games")[0][0] == 8


def test_a_game_played_on_after_an_import_is_compared_as_it_now_is(store: Store) -> None:
    player = store.local_player().id
    record = store.new_game(player, seed=4)
    record = store.move(player, record.id, "up", revision=record.revision).game
    file = store.export_game(player, record.id)
    assert store.import_games(player, transfer.read_file(file)).skipped == 1
    # The game moves on: the file no longer describes it (its digest is forgotten and found anew).
    game = store.load_game(player, record.id)
    store.move(player, record.id, game.board.legal_moves()[0], revision=record.revision)
    assert len(store.import_games(player, transfer.read_file(file)).imported) == 1
    assert store.import_games(player, transfer.read_file(store.export_game(player, record.id))).skipped == 1


def test_unseen_matches_one_stored_game_to_one_game_of_the_file() -> None:
    games = transfer.read_file(history([one_move(1)] * 3))
    assert transfer.unseen(games, []) == [True, True, True]
    digest = games[0].digest
    assert transfer.unseen(games, [(digest, "2026-01-01T00:00:00.000+00:00")]) == [False, True, True]
    file = [one_move(1) | {"created_at": f"2026-01-0{day}T00:00:00+00:00"} for day in (1, 2, 2)]
    timed = transfer.read_file(history(file))
    assert transfer.unseen(timed, []) == [True, True, False]
    assert transfer.unseen(timed, [(digest, "2026-01-02T00:00:00.000+00:00")]) == [True, False, False]
