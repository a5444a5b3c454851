"""Games stored with moves keep them, and databases where an older store lost them are repaired."""

from __future__ import annotations

import json
import logging
import sqlite3
from pathlib import Path

import pytest

from twenty48.game import Game
from twenty48.rules import Board
from twenty48.store import APPLICATION_ID, DamagedGame, GameNotFoundError, Store, schema

PLAYED = ["up", "left", "left", "down"]


@pytest.fixture
def path(tmp_path: Path) -> Path:
    return tmp_path / "games.sqlite3"


def test_a_played_game_added_to_the_store_keeps_its_moves_after_reopening(path: Path) -> None:
    game = Game.replay(7, PLAYED)
    with Store.open(path) as s:
        player = s.local_player()
        record = s.add_game(player.id, game)
        assert record.moves == game.moves == 4
    rows = sqlite3.connect(path).execute("SELECT ply, direction FROM game_moves ORDER BY ply").fetchall()
    assert rows == [(ply, d.value) for ply, d in enumerate(game.actions)]
    with Store.open(path) as s:
        assert s.load_game(player.id, record.id).to_dict() == game.to_dict()
        assert s.current_game(player.id).id == record.id
        s.undo(player.id, record.id)
        game.undo()
    with Store.open(path) as s:
        assert s.load_game(player.id, record.id).to_dict() == game.to_dict()


def old_state(game: Game) -> str:
    """The state as the version-2 store wrote it (``to_dict(actions=False)`` before ``start``)."""
    state = game.to_dict(actions=False)
    state["version"] = 2
    del state["spawns"], state["size"]
    return json.dumps(state)


def write_version_2_database(path: Path) -> dict[str, Game]:
    """A database exactly as the schema-2 store left it after ``add_game`` of a played game: the
    terminal player's current game has a state of 4 moves and no listed actions. Beside it, a game
    stored the right way, and a web player whose current game is beyond repair."""
    db = sqlite3.connect(path)
    for migration in schema.MIGRATIONS[:2]:
        migration(db)
    db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    db.execute("PRAGMA user_version = 2")
    db.execute("INSERT INTO players (id, key, created_at) VALUES (1, 'local:terminal', 'then')")
    db.execute("INSERT INTO players (id, key, created_at) VALUES (2, 'web:someone', 'then')")
    games = {"kept": Game.replay(11, ["left", "up"]), "lost": Game.replay(7, PLAYED)}
    rows = [(1, 1, games["kept"]), (2, 1, games["lost"]), (3, 2, Game.replay(5, ["up"]))]
    for game_id, player_id, game in rows:
        db.execute(
            "INSERT INTO games (id, player_id, revision, variant, score, moves, max_tile, won, over, "
            "state, created_at, updated_at) VALUES (?, ?, 0, 'classic', ?, ?, ?, 0, 0, ?, 'then', 'then')",
            (game_id, player_id, game.score, game.moves, game.board.max_tile, old_state(game)),
        )
        db.execute("UPDATE players SET current_game_id = ? WHERE id = ?", (game_id, player_id))
    # Game 1 was played move by move: its actions are listed.
    db.executemany(
        "INSERT INTO game_moves (game_id, ply, direction) VALUES (1, ?, ?)",
        [(ply, d.value) for ply, d in enumerate(games["kept"].actions)],
    )
    # Game 3's state was damaged as well as its log: nothing of it can be played.
    db.execute('UPDATE games SET state = \'{"version": 2, "board": 7}\' WHERE id = 3')
    db.execute("INSERT INTO best_scores VALUES (1, 'classic', ?)", (games["lost"].score,))
    db.commit()
    db.close()
    return games


def test_a_game_whose_moves_were_lost_is_rebased_and_plays_on(path: Path, caplog) -> None:
    games = write_version_2_database(path)
    lost = games["lost"]
    with caplog.at_level(logging.WARNING, "twenty48.store"), Store.open(path) as s:
        player = s.local_player()
        record = s.current_game(player.id)
        assert record.id == 2 and record.current and not record.finished
        assert (record.board, record.score, record.won, record.seed) == (lost.board, lost.score, False, 7)
        # The moves that led here are lost: the game starts again from where it stands.
        assert record.moves == 0 and not record.can_undo
        game = s.load_game(player.id, 2)
        assert game.start is not None and game.start.board == lost.board and game.actions == ()
        assert s.damaged_games(player.id) == [
            DamagedGame(
                2, 1, "rebased", "moves is 4 but 0 actions are listed", s.damaged_games(1)[0].found_at
            )
        ]
        direction = record.board.legal_moves()[0]
        moved = s.move(player.id, 2, direction, revision=record.revision).game
        game.move(direction)
        assert moved.board == game.board and moved.moves == 1
        # The game stored the right way is untouched.
        assert s.load_game(player.id, 1).to_dict() == games["kept"].to_dict()
    assert [r.getMessage() for r in caplog.records] == [
        "game 2 of player 1 was damaged (moves is 4 but 0 actions are listed): rebased",
        "game 3 of player 2 was damaged (saved game lacks field(s): "
        "keep_playing, score, seed, undo, variant, won): set aside",
    ]
    with Store.open(path) as s:
        # Reported once: reopening repairs nothing more and the report stays.
        assert [d.game_id for d in s.damaged_games(1)] == [2]
        assert s.load_game(1, 2).to_dict() == game.to_dict()
        s.new_game(1)
        replay = s.replay(1, 2)
        rebuilt = Game.replay(replay.seed, replay.actions, replay.variant, replay.start)
        assert rebuilt.to_dict(actions=False)["board"] == game.to_dict(actions=False)["board"]
        assert rebuilt.score == game.score


def test_a_game_beyond_repair_is_set_aside_and_its_player_plays_on(path: Path) -> None:
    write_version_2_database(path)
    with Store.open(path) as s:
        web = s.web_player("someone-else")  # a player the repair did not concern
        assert s.damaged_games(web.id) == []
        (report,) = s.damaged_games(2)
        assert (report.game_id, report.repair) == (3, "set aside")
        with pytest.raises(GameNotFoundError):
            s.get_game(2, 3)
        assert s.games(2) == []
        fresh = s.current_game(2)
        assert fresh.id != 3 and fresh.moves == 0 and fresh.current
        assert s.local_player().current_game_id == 2
    db = sqlite3.connect(path)
    # Nothing is deleted: the report keeps the state as it was found, and its id is not reused.
    assert db.execute("SELECT state, actions FROM damaged_games WHERE game_id = 3").fetchone() == (
        '{"version": 2, "board": 7}',
        "[]",
    )


def test_the_repair_is_one_transaction_with_the_upgrade(path: Path, monkeypatch) -> None:
    write_version_2_database(path)

    def broken(db: sqlite3.Connection) -> None:
        raise sqlite3.OperationalError("disk I/O error")

    monkeypatch.setattr(schema, "MIGRATIONS", [*schema.MIGRATIONS, broken])
    with pytest.raises(Exception, match="disk I/O"):
        Store.open(path)
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA user_version").fetchone()[0] == 2
    assert db.execute("SELECT count(*) FROM games").fetchone()[0] == 3
    assert "damaged_games" not in {r[0] for r in db.execute("SELECT name FROM sqlite_schema")}


def test_a_prepared_game_replays_from_its_start(path: Path) -> None:
    board = Board.from_rows([[2, 2, 4, 0], [0, 8, 0, 0], [0, 0, 16, 0], [4, 0, 0, 2]])
    game = Game.from_board(board, seed=3, score=100)
    with Store.open(path) as s:
        player = s.local_player()
        record = s.add_game(player.id, game)
        for direction in ("left", "up", "right", "down", "left"):
            s.move(player.id, record.id, direction)
            game.move(direction)
        s.new_game(player.id)
    with Store.open(path) as s:
        replay = s.replay(player.id, record.id)
    assert replay.start is not None and replay.start.board == board and replay.start.score == 100
    rebuilt = Game.replay(replay.seed, replay.actions, replay.variant, replay.start)
    assert rebuilt.to_dict() == game.to_dict()
    # Without the start the same seed and moves make another game: the start is what rebuilds it.
    assert Game.replay(replay.seed, replay.actions, replay.variant).board != game.board
