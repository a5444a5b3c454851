"""Export and import: round trip, prepared starts, tampered files, duplicates, never ranked."""

from __future__ import annotations

import copy
import random
import time
from pathlib import Path

import pytest

from twenty48.game import Game
from twenty48.rules import Board, Direction
from twenty48.store import ImportRefusedError, Store, transfer
from twenty48.store.games import checkpoints

START = Board.from_rows([[512, 256, 0, 0], [2, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 4]])


@pytest.fixture
def store(tmp_path: Path):
    with Store.open(tmp_path / "export.sqlite3") as s:
        yield s


def played(seed: int, moves: int, start: Board | None = None, score: int = 0) -> Game:
    game = Game.new(seed) if start is None else Game.from_board(start, seed=seed, score=score)
    rng = random.Random(seed)
    while not game.over and game.moves < moves:
        game.play(rng.choice(game.board.legal_moves()))
    return game


def test_a_history_round_trips_into_another_database(store: Store, tmp_path: Path) -> None:
    player = store.local_player().id
    for game in (played(1, 40), played(2, 90, START, 1500), played(3, 10)):
        store.add_game(player, game)
    exported = store.export_history(player)
    assert exported["format"] == "twenty48-history/2"
    assert [g["format"] for g in exported["games"]] == ["twenty48-game/2"] * 3
    assert "start_board" in exported["games"][1] and exported["games"][1]["start_score"] == 1500
    assert "start_board" not in exported["games"][0]
    assert [g["finished"] for g in exported["games"]] == [True, True, False]
    with Store.open(tmp_path / "other.sqlite3") as other:
        them = other.local_player().id
        result = other.import_games(them, transfer.read_file(exported))
        assert len(result.imported) == 3 and result.skipped == 0
        # Every field comes back: when each game began, its counts, the game in progress (the
        # player had none, so it goes on where it was left).
        assert other.export_history(them) == exported
        assert result.resumed == result.imported[-1] == other.current_game(them).id
        summaries = other.games(them)
        assert all(s.origin == "imported" and s.assisted is False for s in summaries)
        # The counts are the file's word: the unassisted statistics do not take them.
        assert other.stats(them, "classic").finished == 2
        assert other.stats(them, "classic", assisted=False).finished == 0
        # Never ranked: an import does not raise the best score.
        assert other.best_score(them) == 0


def test_games_alike_are_kept_apart_and_a_second_import_adds_nothing(store: Store, tmp_path: Path) -> None:
    # Four games of one seed and the same moves, told apart by when they began and their counts.
    player = store.local_player().id
    for hints in range(4):
        # Each begins in a millisecond of its own (a start time is kept to the millisecond): on a
        # fast disk the four would otherwise begin in one, and be one game to an import.
        time.sleep(0.002)
        record = store.new_game(player, seed=5)
        # A hint counts once per position: the first ``hints`` of the three positions get one.
        for move, direction in enumerate(("up", "left", "down")):
            if move < hints:
                store.note_hint(player, record.id, record.revision)
            outcome = store.move(player, record.id, direction, revision=record.revision)
            assert outcome.turn.changed
            record = outcome.game
    exported = store.export_history(player)
    assert [g["hints"] for g in exported["games"]] == [0, 1, 2, 3]
    with Store.open(tmp_path / "other.sqlite3") as other:
        them = other.local_player().id
        result = other.import_games(them, transfer.read_file(exported))
        assert (len(result.imported), result.skipped) == (4, 0)
        assert other.export_history(them) == exported
        again = other.import_games(them, transfer.read_file(exported))
        assert (again.imported, again.skipped, again.resumed) == ((), 4, None)
        # A version 1 file does not say when its games began: its four games match any four alike.
        old = {"format": "twenty48-history/1", "games": [_version_1(g) for g in exported["games"]]}
        assert other.import_games(them, transfer.read_file(old)).skipped == 4
        fresh = other.local_player("fresh").id
        assert len(other.import_games(fresh, transfer.read_file(old)).imported) == 4


def _version_1(game: dict) -> dict:
    kept = {
        k: v for k, v in game.items() if k not in ("created_at", "status", "hints", "auto_moves", "undos")
    }
    return kept | {"format": "twenty48-game/1"}


def test_a_duplicate_is_skipped_not_stored_twice(store: Store) -> None:
    player = store.local_player().id
    record = store.add_game(player, played(5, 30))
    file = store.export_game(player, record.id)
    assert store.import_games(player, transfer.read_file(file)).skipped == 1
    twice = transfer.export_history([file, file])
    other = store.local_player("other").id
    result = store.import_games(other, transfer.read_file(twice))
    assert (len(result.imported), result.skipped) == (1, 1)


def test_one_changed_action_refuses_the_file_naming_the_game(store: Store) -> None:
    player = store.local_player().id
    game = played(7, 60)
    record = store.add_game(player, game)
    good = store.export_game(player, record.id)
    first = transfer.export_game(played(8, 20), True)
    caught = indistinguishable = 0
    for ply, original in enumerate(game.actions):
        for direction in Direction:
            if direction == original:
                continue
            actions = [*game.actions[:ply], direction, *game.actions[ply + 1 :]]
            tampered = copy.deepcopy(good) | {"actions": [str(a) for a in actions]}
            same = Game.replay(7, actions)
            if same.moves == game.moves and same.board == game.board and same.score == game.score:
                # Every action still moves and the boards meet again before the end (early moves of a
                # near-empty board): the file describes the same result, and is accepted.
                indistinguishable += 1
                continue
            with pytest.raises(ImportRefusedError, match=r"game 2 \(seed 7\)"):
                transfer.read_file(transfer.export_history([first, tampered]))
            caught += 1
    assert caught > 150 and indistinguishable < 10


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"score": 1}, "score"),
        ({"moves": 3}, "moves"),
        ({"max_tile": 4}, "max_tile"),
        ({"board": [[2, 0, 0, 0]] * 4}, "board"),
        ({"finished": "yes"}, "finished"),
        ({"variant": "chess"}, "variant"),
        ({"seed": -1}, "seed"),
        ({"format": "other"}, "format"),
        ({"actions": ["sideways"]}, "sideways"),
        ({"extra": 1}, "unknown"),
        ({"status": "over"}, "status must be one of playing, ended, abandoned"),
        ({"status": "ended"}, "status ended but finished false"),
        ({"start_score": 5}, "start_score"),
    ],
)
def test_a_malformed_game_is_refused(store: Store, change: dict, message: str) -> None:
    player = store.local_player().id
    record = store.add_game(player, played(9, 20))
    file = store.export_game(player, record.id) | change
    with pytest.raises(ImportRefusedError, match=message):
        transfer.read_file(file)


def test_an_over_game_recorded_unfinished_is_refused() -> None:
    game = played(11, 10_000)
    assert game.over
    file = transfer.export_game(game, False)
    with pytest.raises(ImportRefusedError, match="unfinished"):
        transfer.read_file(file)


def test_not_a_file_is_refused() -> None:
    for data in ([], {"format": "twenty48-history/1"}, {"format": "twenty48-history/1", "games": {}}):
        with pytest.raises(ImportRefusedError):
            transfer.read_file(data)


def test_a_file_in_the_issues_format_without_board_imports(store: Store) -> None:
    player = store.local_player().id
    game = played(12, 50, START, 300)
    file = transfer.export_game(game, True)
    del file["board"], file["status"]
    assert set(file) == {
        "format", "seed", "variant", "start_board", "start_score", "actions", "score", "moves",
        "max_tile", "finished",
    }  # fmt: skip
    (imported,) = transfer.read_file(file)
    assert imported.game.board == game.board and imported.index == checkpoints.index(game)
    (game_id,) = store.import_games(player, [imported]).imported
    assert store.load_game(player, game_id).to_dict() == game.to_dict()
    # Without the board the other fields are still checked.
    with pytest.raises(ImportRefusedError, match="score"):
        transfer.read_file(file | {"score": game.score + 4})


def test_a_status_the_replay_contradicts_is_refused() -> None:
    left, over = played(13, 20), played(14, 10_000)
    assert not left.over and not left.won and over.over
    assert transfer.export_game(left, True)["status"] == "abandoned"
    assert transfer.export_game(left, False)["status"] == "playing"
    assert transfer.export_game(over, True)["status"] == "ended"
    for game, claimed in ((left, "ended"), (over, "abandoned")):
        file = transfer.export_game(game, True) | {"status": claimed}
        with pytest.raises(ImportRefusedError, match=f"the file says the game was {claimed}, its replay"):
            transfer.read_file(file)
    assert [i.game.board for i in transfer.read_file(transfer.export_game(left, True))] == [left.board]
