"""Board sizes in the store, on both backends (``location``): games, best scores, statistics and
all-time boards per variant and size, moves on any cell of a 6x6, exports and imports of any size,
and schema migration 12 on a database that had no sizes."""

from __future__ import annotations

from pathlib import Path

import pytest

from test_leaderboards import PREFERENCE, finish, named, older_database
from twenty48.game import Game, TileMove
from twenty48.rules import DEFAULT_SIZE, Board, BoardSize, Direction
from twenty48.store import PlayerNotFoundError, Store, open_store, transfer
from twenty48.store.games import codec

THREE = BoardSize.parse("3x3")
FIVE = BoardSize.parse("5x5")


@pytest.fixture
def store(location: Path | str):
    with open_store(location) as s:
        yield s


def test_a_game_of_any_size_is_stored_played_and_listed_with_its_size(store: Store) -> None:
    player = store.local_player().id
    record = store.new_game(player, seed=5, size="3x3")
    assert (record.size, record.board.size, len(record.board.rows)) == (THREE, THREE, 3)
    played = store.move(player, record.id, record.board.legal_moves()[0], revision=record.revision).game
    assert played.size == THREE and played.moves == 1
    assert store.load_game(player, record.id).size == THREE
    assert [(g.id, g.size) for g in store.games(player)] == [(record.id, THREE)]
    # An unplayed game replaced where it stands takes the new game's size with its row.
    rectangle = store.new_game(player, seed=6, size=(2, 4))
    unplayed = store.new_game(player, seed=7)
    assert unplayed.id == rectangle.id and unplayed.size == DEFAULT_SIZE
    assert [g.size for g in store.games(player)] == [DEFAULT_SIZE, THREE]
    # The current game the store starts by itself is the official board.
    assert store.current_game(store.web_player("fresh").id).size == DEFAULT_SIZE


@pytest.mark.parametrize("size", ["7x7", "4x", "0x4", "1x1", (4, 7), "x"])
def test_a_size_out_of_range_is_refused_and_stores_nothing(store: Store, size: object) -> None:
    player = store.local_player().id
    with pytest.raises(ValueError, match="from 2 to 6"):
        store.new_game(player, seed=1, size=size)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="from 2 to 6"):
        store.best_score(player, "classic", size)  # type: ignore[arg-type]
    assert store.games(player) == []


def test_a_single_tile_move_takes_any_cell_of_its_board(store: Store) -> None:
    player = store.local_player().id
    board = Board.from_cells([0] * 24 + [2], FIVE)
    record = store.add_game(player, Game.from_board(board, seed=3, variant="merge"))
    outcome = store.move(player, record.id, Direction.UP, cell=24, revision=record.revision)
    assert outcome.turn.changed and outcome.game.board.cells[4] == 2
    # A cell past the game's board is refused before anything is written.
    three = store.add_game(player, Game.from_board(Board.from_cells([2] + [0] * 8, THREE), 3, 0, "merge"))
    with pytest.raises(ValueError, match="0-8 on a 3x3 board"):
        store.move(player, three.id, Direction.UP, cell=9, revision=three.revision)
    assert store.get_game(player, three.id).revision == three.revision
    (position,) = store.positions(player, record.id, 1, 1).positions
    assert position.board == outcome.game.board


def test_best_scores_and_statistics_are_per_size(store: Store) -> None:
    player = store.local_player().id
    small = store.new_game(player, seed=2, size="3x3")
    small_score = finish(store, player, small.id)
    assert store.best_score(player, "classic", "3x3") == small_score > 0
    assert store.best_score(player) == 0 == store.best_score(player, "classic", FIVE)
    # A 4x4 game answers with the 4x4 best, the 3x3 game with its own.
    official = store.new_game(player, seed=3)
    assert official.best_score == 0 and store.get_game(player, small.id).best_score == small_score
    official_score = finish(store, player, official.id)
    assert store.best_score(player, "classic", DEFAULT_SIZE) == official_score
    stats = store.stats(player, "classic", size="3x3")
    assert (stats.size, stats.games, stats.counted, stats.best) == (THREE, 1, 1, small_score)
    assert store.stats(player, "classic").best == official_score
    assert store.stats(player, "classic", size=FIVE).counted == 0
    # The reach rates begin as far below the 3x3's win tile (256) as 128 is below 2048.
    assert min(stats.reach) == 16 and min(store.stats(player, "classic").reach) == 128
    won = store.get_game(player, small.id).max_tile >= THREE.win_tile
    assert stats.win_rate == (1.0 if won else 0.0)


def test_the_all_time_boards_are_per_variant_and_size(store: Store) -> None:
    ada, bob = named(store, "Ada"), named(store, "Bob")
    small = store.new_game(ada, ranked=True, size="3x3")
    score = finish(store, ada, small.id)
    big = store.new_game(bob, ranked=True)
    finish(store, bob, big.id)
    three = store.leaderboard("all-time", size="3x3", player_id=ada)
    assert three.size == THREE and [(e.game_id, e.score) for e in three.entries] == [(small.id, score)]
    assert three.me is not None and three.me.rank == 1
    official = store.leaderboard("all-time", player_id=ada)
    assert [e.game_id for e in official.entries] == [big.id] and official.me is None
    assert store.leaderboard("all-time", "merge", size="3x3").entries == ()
    assert store.public_replay(small.id, "2026-12-01").size == THREE
    store.delete_game(ada, small.id)
    assert store.leaderboard("all-time", size="3x3").entries == ()
    with pytest.raises(ValueError, match="4x4"):
        store.leaderboard("daily", date="2026-12-01", size="3x3")


def test_a_5x5_game_exports_and_imports_with_its_size(store: Store) -> None:
    player = store.local_player().id
    record = store.new_game(player, seed=11, variant="merge", size="5x5")
    for direction in PREFERENCE * 5:
        record = store.move(player, record.id, direction, revision=record.revision).game
    record = store.move(player, record.id, Direction.LEFT, cell=24, revision=record.revision).game
    store.new_game(player, seed=12)  # the 5x5 game is finished: left for a new one
    exported = store.export_game(player, record.id)
    assert exported["size"] == "5x5" and len(exported["board"]) == 5 == len(exported["board"][0])
    assert "size" not in store.export_game(player, store.current_game(player).id)
    other = store.web_player("other").id
    imported = store.import_games(other, transfer.read_file(exported)).imported
    copy = store.get_game(other, imported[0])
    assert (copy.size, copy.board, copy.score, copy.variant) == (FIVE, record.board, record.score, "merge")
    assert [g.size for g in store.games(other)] == [FIVE]
    assert store.positions(other, copy.id, record.moves, 1).positions[0].board == record.board
    # The same file again is the same game; the same moves on another size are not.
    assert store.import_games(other, transfer.read_file(exported)).skipped == 1
    history = store.export_history(player)
    assert [g.get("size", "4x4") for g in history["games"]] == ["5x5", "4x4"]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"size": "7x7"}, "from 2 to 6"),
        ({"size": "4x4"}, "does not move the board|its replay gives"),
        ({"size": "3x3", "start_board": [[2, 0], [0, 0]]}, "start_board is 2x2 but size says 3x3"),
    ],
)
def test_an_import_whose_size_does_not_fit_is_refused(store: Store, change: dict, message: str) -> None:
    player = store.local_player().id
    record = store.new_game(player, seed=4, size="5x5")
    finish(store, player, record.id)
    data = {**store.export_game(player, record.id), **change}
    with pytest.raises(transfer.ImportRefusedError, match=message):
        transfer.read_file(data)


def test_migration_12_sizes_every_game_and_keeps_the_best_scores_and_boards(tmp_path: Path) -> None:
    path = tmp_path / "eleven.sqlite3"
    db = older_database(path, 11)
    db.execute("INSERT INTO players (key, created_at, name, name_key) VALUES ('web:x', 'then', 'Ada', 'ada')")
    official = Game.new(1)
    while not official.over:
        official.play(next(d for d in PREFERENCE if d in official.board.legal_moves()))
    merged = Game.from_board(Board.from_cells([2, 2] + [0] * 14), seed=2, variant="merge")
    merged.move(Direction.LEFT, cell=1)
    small = Game.replay(3, ["up", "left"], size="3x3")  # stored through add_game before the sizes
    for game_id, game in enumerate((official, merged, small), start=1):
        db.execute(
            "INSERT INTO games (player_id, revision, variant, score, moves, max_tile, won, over, spawns, "
            "state, created_at, updated_at, ranked, finished_at) "
            "VALUES (1, 0, ?, ?, ?, ?, ?, ?, ?, ?, 'then', 'then', ?, ?)",
            (*codec.columns(game)[:7], codec.encode(game), game_id == 1, "then" if game.over else None),
        )
        db.executemany(
            "INSERT INTO game_moves (game_id, ply, direction, cell) VALUES (?, ?, ?, ?)",
            [
                (game_id, ply, *((a.direction.value, a.cell) if isinstance(a, TileMove) else (a.value, None)))
                for ply, a in enumerate(game.actions)
            ],
        )
    db.execute("UPDATE players SET current_game_id = 3")
    db.execute("INSERT INTO best_scores VALUES (1, 'classic', ?)", (official.score,))
    db.execute("INSERT INTO board_bests VALUES ('classic', 1, 1, ?, 'then', TRUE)", (official.score,))
    db.close()
    with Store.open(path) as store:
        assert [g.size for g in store.games(1)] == [THREE, DEFAULT_SIZE, DEFAULT_SIZE]
        assert store.best_score(1) == official.score and store.best_score(1, "classic", "3x3") == 0
        (entry,) = store.leaderboard("all-time").entries
        assert (entry.game_id, entry.score) == (1, official.score)
        assert store.leaderboard("all-time", size="3x3").entries == ()
        assert store.load_game(1, 2).actions == merged.actions
        assert store.get_game(1, 3).board == small.board
        # What the new schema holds: a move on the cells of a 6x6.
        six = Board.from_cells([0] * 35 + [2], "6x6")
        record = store.add_game(1, Game.from_board(six, seed=9, variant="merge"))
        assert store.move(1, record.id, Direction.UP, cell=35, revision=0).turn.changed
    with Store.open(path) as store:
        assert store.get_game(1, record.id).board.cells[5] == 2


def test_an_unknown_players_best_score_of_any_size_is_refused(store: Store) -> None:
    with pytest.raises(PlayerNotFoundError):
        store.best_score(999, "classic", "3x3")
