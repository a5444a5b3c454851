"""The store on both backends (``location``; SQLite-only tests use ``path``): exact reload,
revisions, ownership, finished games, migrations, damaged files."""

from __future__ import annotations

import json
import os
import sqlite3
import threading
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from twenty48.game import Game, TileMove
from twenty48.rules import Board, Direction
from twenty48.store import (
    APPLICATION_ID,
    ActionRejectedError,
    GameFinishedError,
    GameInProgressError,
    GameNotFoundError,
    StaleRevisionError,
    Store,
    StoreError,
    StoreUnreadableError,
    open_store,
    schema,
)
from twenty48.store.backends import sqlite_durability as durability
from twenty48.store.schema import migrations

NEAR_WIN = Board.from_rows([[1024, 1024, 0, 0], [2, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]])
OVER = Board.from_rows([[2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4], [4, 2, 4, 2]])


@pytest.fixture
def path(tmp_path: Path) -> Path:
    return tmp_path / "games.sqlite3"


@pytest.fixture
def store(location: Path | str):
    """The contract tests' store: each runs on SQLite and on PostgreSQL (``location``), opened as
    ``Store.open`` opens either (the other test modules go through ``open_store``)."""
    with Store.open(location) as s:
        yield s


@pytest.fixture
def sqlite_store(path: Path):
    """For the tests of what only SQLite has: its file, its header, its write-ahead log."""
    with Store.open(path) as s:
        yield s


def legal(record) -> Direction:
    return record.board.legal_moves()[0]


def test_open_creates_a_wal_database_with_the_current_schema(path: Path) -> None:
    Store.open(path).close()
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert db.execute("PRAGMA user_version").fetchone()[0] == len(schema.MIGRATIONS)
    assert db.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID


def test_only_the_default_location_gets_its_directories_made(tmp_path: Path, monkeypatch) -> None:
    with pytest.raises(StoreError, match="no directory"):
        Store.open(tmp_path / "a" / "b" / "games.sqlite3")
    assert not (tmp_path / "a").exists()
    monkeypatch.setattr(Store, "default_path", staticmethod(lambda: tmp_path / "a" / "b" / "games.sqlite3"))
    with Store.open() as s:
        assert s.local_player().id == 1


def test_default_path_is_in_the_user_data_directory() -> None:
    path = Store.default_path()
    assert path.name == "twenty48.sqlite3"
    assert "twenty48" in path.parent.parts[-1]


def test_players_are_created_once_and_tokens_are_not_stored(store: Store, location: Path | str) -> None:
    terminal = store.local_player()
    assert store.local_player("terminal") == terminal
    alice, bob = store.web_player("alice-token"), store.web_player("bob-token")
    assert len({terminal.id, alice.id, bob.id}) == 3
    assert store.web_player("alice-token").id == alice.id
    if isinstance(location, Path):
        assert b"alice-token" not in location.read_bytes() + Path(f"{location}-wal").read_bytes()
    with pytest.raises(ValueError):
        store.web_player("")


def test_current_game_is_created_once(store: Store) -> None:
    player = store.local_player()
    first = store.current_game(player.id)
    assert (first.revision, first.moves, first.score, first.current) == (0, 0, 0, True)
    assert len([c for c in first.board.cells if c]) == 2
    assert store.current_game(player.id) == first


def test_a_move_is_committed_and_bumps_the_revision(store: Store, location: Path | str) -> None:
    player = store.local_player()
    record = store.current_game(player.id)
    outcome = store.move(player.id, record.id, legal(record), revision=record.revision)
    assert outcome.turn.changed
    assert outcome.game.revision == record.revision + 1
    assert outcome.game.board == outcome.turn.board
    with open_store(location) as other:
        assert other.get_game(player.id, record.id) == outcome.game


def test_an_illegal_move_writes_nothing(store: Store) -> None:
    player = store.local_player()
    record = store.add_game(player.id, Game.from_board(NEAR_WIN, seed=3))
    outcome = store.move(player.id, record.id, "up", revision=record.revision)
    assert not outcome.turn.changed
    assert outcome.game == record


def test_unknown_direction_is_refused(store: Store) -> None:
    player = store.local_player()
    record = store.current_game(player.id)
    with pytest.raises(ValueError):
        store.move(player.id, record.id, "sideways")
    assert store.get_game(player.id, record.id) == record


def test_a_stale_revision_is_refused_even_when_the_move_count_repeats(store: Store) -> None:
    player = store.local_player()
    start = store.current_game(player.id)
    seen = store.move(player.id, start.id, legal(start), revision=start.revision).game
    # Another client undoes and moves again: same move count as `seen`, different position.
    back = store.undo(player.id, start.id, revision=seen.revision)
    moves = back.board.legal_moves()
    again = store.move(player.id, start.id, moves[-1], revision=back.revision).game
    assert again.moves == seen.moves
    assert again.revision != seen.revision
    with pytest.raises(StaleRevisionError) as caught:
        store.move(player.id, start.id, legal(again), revision=seen.revision)
    assert caught.value.game == again
    assert store.get_game(player.id, start.id) == again


def test_foreign_and_unknown_games_are_not_found(store: Store) -> None:
    alice, bob = store.web_player("a"), store.web_player("b")
    game = store.current_game(alice.id)
    for call in (
        lambda: store.get_game(bob.id, game.id),
        lambda: store.move(bob.id, game.id, "left"),
        lambda: store.undo(bob.id, game.id),
        lambda: store.keep_going(bob.id, game.id),
        lambda: store.replay(bob.id, game.id),
        lambda: store.load_game(bob.id, 999),
        lambda: store.get_game(alice.id, 2**63),
        lambda: store.get_game(alice.id, 0),
    ):
        with pytest.raises(GameNotFoundError):
            call()
    assert store.get_game(alice.id, game.id) == game


def test_undo_and_keep_going_refusals(store: Store) -> None:
    player = store.local_player()
    record = store.current_game(player.id)
    with pytest.raises(ActionRejectedError, match="no move to undo"):
        store.undo(player.id, record.id)
    with pytest.raises(ActionRejectedError, match="not been won"):
        store.keep_going(player.id, record.id)
    assert store.get_game(player.id, record.id) == record


def test_win_then_keep_going(store: Store, location: Path | str) -> None:
    player = store.local_player()
    record = store.add_game(player.id, Game.from_board(NEAR_WIN, seed=5))
    won = store.move(player.id, record.id, "left", revision=record.revision)
    assert won.turn.won_now and won.game.won and not won.game.keep_playing
    going = store.keep_going(player.id, record.id, revision=won.game.revision)
    assert going.keep_playing and going.revision == won.game.revision + 1
    # Asking again is harmless and writes nothing.
    assert store.keep_going(player.id, record.id, revision=going.revision) == going
    with open_store(location) as other:
        assert (
            other.load_game(player.id, record.id).to_dict() == store.load_game(player.id, record.id).to_dict()
        )


def test_finished_games_refuse_actions_and_give_replays(store: Store) -> None:
    player = store.local_player()
    over = store.add_game(player.id, Game.from_board(OVER, seed=1))
    assert over.over and over.finished
    with pytest.raises(GameFinishedError, match="is over"):
        store.move(player.id, over.id, "left", revision=over.revision)
    first = store.new_game(player.id, seed=42)
    played = store.move(player.id, first.id, legal(first)).game
    with pytest.raises(GameInProgressError):
        store.replay(player.id, first.id)
    second = store.new_game(player.id)
    assert store.current_game(player.id) == second
    with pytest.raises(GameFinishedError, match="replaced"):
        store.move(player.id, first.id, legal(played))
    replay = store.replay(player.id, first.id)
    assert replay.seed == 42 and len(replay.actions) == 1
    assert Game.replay(replay.seed, replay.actions).board == played.board


def test_best_score_keeps_the_highest_score_reached(store: Store) -> None:
    player = store.local_player()
    record = store.add_game(player.id, Game.from_board(NEAR_WIN, seed=5))
    scored = store.move(player.id, record.id, "left").game
    assert scored.best_score == scored.score == 2048
    store.undo(player.id, record.id)
    fresh = store.new_game(player.id)
    assert fresh.best_score == store.best_score(player.id) == 2048
    assert store.best_score(store.web_player("other").id) == 0


def _played_game(store: Store, player: int, seed: int | None = None) -> int:
    record = store.new_game(player, seed)
    store.move(player, record.id, legal(record))
    return record.id


def test_games_lists_newest_first_and_pages(store: Store) -> None:
    player = store.local_player()
    ids = [_played_game(store, player.id) for _ in range(5)]
    listed = store.games(player.id, limit=3)
    assert [g.id for g in listed] == ids[::-1][:3]
    assert [g.current for g in listed] == [True, False, False]
    assert [g.id for g in store.games(player.id, limit=3, before=listed[-1].id)] == ids[1::-1]
    assert store.games(store.web_player("nobody").id) == []
    with pytest.raises(ValueError):
        store.games(player.id, limit=0)


def test_a_new_game_replaces_the_current_one_while_it_has_no_move(store: Store, raw_sql) -> None:
    player = store.local_player()
    first = store.new_game(player.id, seed=1)
    again = [
        store.new_game(player.id, seed=seed, variant=variant)
        for seed, variant in ((2, "merge"), (3, "classic"))
    ]
    assert [r.id for r in again] == [first.id, first.id]
    assert [r.revision for r in again] == [1, 2]  # a tab still showing the replaced game gets 409
    assert (again[-1].seed, again[-1].variant) == (3, "classic")
    assert store.load_game(player.id, first.id).to_dict() == Game.new(3).to_dict()
    store.move(player.id, first.id, legal(again[-1]))
    played_on = store.new_game(player.id, seed=4)
    assert played_on.id != first.id
    assert [g.id for g in store.games(player.id)] == [played_on.id, first.id]
    # Undone back to the start is as good as unplayed; a prepared position is kept.
    store.move(player.id, played_on.id, legal(played_on))
    store.undo(player.id, played_on.id)
    assert store.new_game(player.id, seed=5).id == played_on.id
    prepared = store.add_game(player.id, Game.from_board(NEAR_WIN, seed=6))
    assert store.new_game(player.id).id != prepared.id
    assert raw_sql("SELECT count(*) FROM games") == [(4,)]


def test_finding_a_web_player_creates_none(store: Store, raw_sql) -> None:
    assert store.find_web_player("some-token") is None
    assert raw_sql("SELECT count(*) FROM players") == [(0,)]
    created = store.web_player("some-token")
    assert store.find_web_player("some-token") == created


DIRECTIONS = ["up", "down", "left", "right"]
actions = st.lists(
    st.sampled_from([*DIRECTIONS, "undo"]) | st.tuples(st.sampled_from(DIRECTIONS), st.integers(0, 15)),
    max_size=60,
)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**64 - 1), variant=st.sampled_from(["classic", "merge"]), script=actions)
def test_a_stored_game_reloads_exactly(
    location: Path | str, seed: int, variant: str, script: list[str | tuple[str, int]]
) -> None:
    # One database for every example: each plays a new game of its own.
    reference = Game.new(seed, variant)
    with open_store(location) as s:
        player = s.local_player()
        record = s.new_game(player.id, seed=seed, variant=variant)
        for action in script:
            if reference.over:
                break
            if action == "undo":
                if reference.can_undo:
                    reference.undo()
                    s.undo(player.id, record.id)
            elif isinstance(action, tuple):
                direction, cell = action
                if variant == "classic":
                    with pytest.raises(ActionRejectedError, match="merge variant"):
                        s.move(player.id, record.id, direction, cell=cell)
                else:
                    turn = s.move(player.id, record.id, direction, cell=cell).turn
                    assert turn == reference.move(direction, cell)
            else:
                turn = s.move(player.id, record.id, action).turn
                assert turn == reference.move(action)
    with open_store(location) as s:
        loaded = s.load_game(player.id, record.id)
        assert loaded.to_dict() == reference.to_dict()
        assert s.get_game(player.id, record.id).variant == variant


def test_merge_games_keep_single_tile_moves(store: Store, location: Path | str, raw_sql) -> None:
    player = store.local_player()
    board = Board.from_rows([[2, 0, 0, 2], [0, 4, 0, 0], [0, 0, 0, 0], [8, 0, 0, 8]])
    record = store.add_game(player.id, Game.from_board(board, seed=7, variant="merge"))
    assert record.variant == "merge"
    reference = Game.from_board(board, seed=7, variant="merge")
    outcome = store.move(player.id, record.id, "left", cell=3, revision=record.revision)
    assert outcome.turn == reference.move("left", 3)
    assert outcome.turn.cell == 3 and outcome.turn.score == 4
    # Only the tile on cell 3 moved: the 4 and both 8s stayed where they were.
    assert (
        outcome.game.board.cells[5] == 4 and outcome.game.board.cells[12] == outcome.game.board.cells[15] == 8
    )
    illegal = store.move(player.id, record.id, "left", cell=0, revision=outcome.game.revision)
    assert not illegal.turn.changed and illegal.game == outcome.game
    store.move(player.id, record.id, "down")
    reference.move("down")
    rows = raw_sql("SELECT direction, cell FROM game_moves ORDER BY ply")
    assert rows == [("left", 3), ("down", None)]
    with open_store(location) as other:
        assert other.load_game(player.id, record.id).to_dict() == reference.to_dict()
        assert other.load_game(player.id, record.id).actions == (TileMove(Direction.LEFT, 3), Direction.DOWN)


def test_single_tile_moves_are_refused_on_classic_games_and_bad_cells(store: Store) -> None:
    player = store.local_player()
    record = store.add_game(player.id, Game.from_board(NEAR_WIN, seed=3))
    with pytest.raises(ActionRejectedError, match="merge variant") as caught:
        store.move(player.id, record.id, "left", cell=1, revision=record.revision)
    assert caught.value.game == record
    assert store.get_game(player.id, record.id) == record
    merge = store.new_game(player.id, seed=3, variant="merge")
    for cell in (-1, 16, True, "3", 2.0):
        with pytest.raises(ValueError, match="cell"):
            store.move(player.id, merge.id, "left", cell=cell)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="unknown variant"):
        store.new_game(player.id, variant="hexagonal")
    assert store.get_game(player.id, merge.id) == merge
    assert store.current_game(player.id) == merge


def test_best_scores_are_kept_per_variant(store: Store) -> None:
    player = store.local_player()
    classic = store.add_game(player.id, Game.from_board(NEAR_WIN, seed=5))
    assert store.move(player.id, classic.id, "left").game.best_score == 2048
    merge = store.add_game(player.id, Game.from_board(NEAR_WIN, seed=5, variant="merge"))
    assert merge.best_score == 0  # the classic best does not count here
    scored = store.move(player.id, merge.id, "left", cell=1).game
    assert scored.score == scored.best_score == 2048
    small = store.new_game(player.id, variant="merge")
    first = store.move(player.id, small.id, legal(small)).game
    assert first.best_score == 2048 and first.score < 2048
    assert store.best_score(player.id, "classic") == store.best_score(player.id, "merge") == 2048
    other = store.web_player("other")
    assert store.best_score(other.id, "merge") == store.best_score(other.id) == 0
    with pytest.raises(ValueError, match="unknown variant"):
        store.best_score(player.id, "hexagonal")
    with pytest.raises(LookupError):
        store.best_score(999)


def test_games_list_and_replays_carry_the_variant(store: Store) -> None:
    player = store.local_player()
    merge = store.new_game(player.id, seed=21, variant="merge")
    reference = Game.new(21, "merge")
    for i in range(12):
        tiles = [c for c, v in enumerate(reference.board.cells) if v]
        direction = Direction.from_index(i % 4)
        cell = tiles[i % len(tiles)] if i % 2 else None
        store.move(player.id, merge.id, direction, cell=cell)
        reference.move(direction, cell)
    assert any(isinstance(a, TileMove) for a in reference.actions)
    classic = store.new_game(player.id, seed=21)
    assert [(g.id, g.variant) for g in store.games(player.id)] == [
        (classic.id, "classic"),
        (merge.id, "merge"),
    ]
    replay = store.replay(player.id, merge.id)
    assert replay.variant == "merge" and replay.actions == reference.actions
    again = Game.replay(replay.seed, [str(a) for a in replay.actions], replay.variant)
    assert again.to_dict() == reference.to_dict()


def test_two_stores_on_one_file_see_each_others_actions(store: Store, location: Path | str) -> None:
    player = store.local_player()
    record = store.current_game(player.id)
    with open_store(location) as other:
        assert other.get_game(player.id, record.id) == record  # fills its cache
        moved = store.move(player.id, record.id, legal(record), revision=record.revision).game
        with pytest.raises(StaleRevisionError):
            other.move(player.id, record.id, legal(moved), revision=record.revision)
        after = other.move(player.id, record.id, legal(moved), revision=moved.revision).game
        assert after.moves == 2
    assert store.load_game(player.id, record.id).moves == 2


def test_threads_sharing_a_store_never_lose_or_double_a_move(store: Store) -> None:
    player = store.local_player()
    game_id = store.current_game(player.id).id
    accepted: list[int] = []

    def client() -> None:
        for _ in range(40):
            record = store.get_game(player.id, game_id)
            if record.over:
                return
            try:
                result = store.move(player.id, game_id, legal(record), revision=record.revision)
            except (StaleRevisionError, GameFinishedError):
                continue
            accepted.append(result.game.revision)

    threads = [threading.Thread(target=client) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    final = store.get_game(player.id, game_id)
    assert sorted(accepted) == list(range(1, final.revision + 1))
    assert final.moves == final.revision


def test_migrations_run_in_order_on_an_older_database(path: Path, monkeypatch) -> None:
    with Store.open(path) as s:
        player = s.local_player()
        record = s.current_game(player.id)
        moved = s.move(player.id, record.id, legal(record)).game

    def add_note(db: sqlite3.Connection) -> None:
        db.execute("ALTER TABLE games ADD COLUMN note TEXT NOT NULL DEFAULT ''")

    versions = len(schema.MIGRATIONS)
    monkeypatch.setattr(schema, "MIGRATIONS", [*schema.MIGRATIONS, add_note])
    with Store.open(path) as s:
        assert s.get_game(player.id, record.id) == moved
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA user_version").fetchone()[0] == versions + 1
    assert db.execute("SELECT note FROM games").fetchall() == [("",)]


def write_schema_1_database(path: Path) -> tuple[Game, Game]:
    """A database as the first schema's store wrote it: a finished game and a current one (saved in
    the version-1 format, which predates variants), a best score on the player row."""
    db = sqlite3.connect(path)
    migrations.schema_1(db)
    db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    db.execute("PRAGMA user_version = 1")
    db.execute(
        "INSERT INTO players (id, key, best_score, created_at) VALUES (1, 'local:terminal', 0, 'then')"
    )
    games = (Game.replay(11, ["left", "up", "right", "down"]), Game.replay(12, ["up", "left"]))
    for game_id, game in enumerate(games, start=1):
        state = game.to_dict()
        state["version"] = 1
        del state["variant"], state["actions"], state["spawns"], state["size"]
        db.execute(
            "INSERT INTO games VALUES (?, 1, ?, ?, ?, ?, 0, 0, ?, 'then', 'then')",
            (game_id, game.moves, game.score, game.moves, game.board.max_tile, json.dumps(state)),
        )
        db.executemany(
            "INSERT INTO game_moves VALUES (?, ?, ?)",
            [(game_id, ply, d.value) for ply, d in enumerate(game.actions)],
        )
        db.execute(
            "UPDATE players SET current_game_id = ?, best_score = max(best_score, ?)", (game_id, game.score)
        )
    db.commit()
    db.close()
    return games


def test_a_schema_1_database_opens_and_its_games_are_classic(path: Path) -> None:
    finished, current = write_schema_1_database(path)
    with Store.open(path) as s:
        player = s.local_player()
        assert player.id == 1 and player.current_game_id == 2
        assert [(g.id, g.variant) for g in s.games(player.id)] == [(2, "classic"), (1, "classic")]
        for game_id, game in ((1, finished), (2, current)):
            loaded = s.load_game(player.id, game_id)
            assert loaded.variant.name == "classic" and loaded.to_dict() == game.to_dict()
        best = max(finished.score, current.score)
        assert s.best_score(player.id, "classic") == best and s.best_score(player.id, "merge") == 0
        assert s.current_game(player.id).best_score == best
        replay = s.replay(player.id, 1)
        assert (
            replay.variant == "classic" and Game.replay(replay.seed, replay.actions).board == finished.board
        )
        # The old game plays on, and its new moves are stored the new way.
        direction = legal(s.get_game(player.id, 2))
        s.move(player.id, 2, direction)
        current.move(direction)
        with pytest.raises(ActionRejectedError):
            s.move(player.id, 2, direction, cell=0)
    with Store.open(path) as s:
        assert s.load_game(1, 2).to_dict() == current.to_dict()
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA user_version").fetchone()[0] == len(schema.MIGRATIONS)
    assert "best_score" not in [c[1] for c in db.execute("PRAGMA table_info(players)")]


def test_a_failing_migration_changes_nothing(path: Path, monkeypatch) -> None:
    Store.open(path).close()

    def broken(db: sqlite3.Connection) -> None:
        db.execute("ALTER TABLE games ADD COLUMN note TEXT")
        db.execute("THIS IS NOT SQL")

    versions = len(schema.MIGRATIONS)
    monkeypatch.setattr(schema, "MIGRATIONS", [*schema.MIGRATIONS, broken])
    with pytest.raises(StoreUnreadableError):
        Store.open(path)
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA user_version").fetchone()[0] == versions
    assert "note" not in [c[1] for c in db.execute("PRAGMA table_info(games)")]


def test_a_newer_database_is_refused(path: Path) -> None:
    Store.open(path).close()
    sqlite3.connect(path).execute("PRAGMA user_version = 99")
    with pytest.raises(StoreUnreadableError, match="newer"):
        Store.open(path)


def test_a_file_that_is_not_a_database_is_refused(path: Path) -> None:
    path.write_bytes(b"this is not SQLite at all" * 100)
    with pytest.raises(StoreUnreadableError):
        Store.open(path)


def test_a_foreign_sqlite_database_is_refused(path: Path) -> None:
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE notes (text TEXT)")
    db.commit()
    db.close()
    with pytest.raises(StoreUnreadableError, match="not a twenty48"):
        Store.open(path)


def test_a_damaged_game_row_is_reported(sqlite_store: Store, path: Path) -> None:
    player = sqlite_store.local_player()
    record = sqlite_store.current_game(player.id)
    db = sqlite3.connect(path)
    db.execute("UPDATE games SET state = '{\"version\": 1}', revision = 7")
    db.commit()
    with pytest.raises(StoreUnreadableError, match="damaged"):
        sqlite_store.get_game(player.id, record.id)


def test_group_commit_commits_at_once_and_flushes_the_log_once(path: Path, monkeypatch) -> None:
    synced: list[int] = []
    real_fsync = durability.os.fsync

    def fsync(fd: int) -> None:
        synced.append(os.fstat(fd).st_ino)
        real_fsync(fd)

    monkeypatch.setattr(durability.os, "fsync", fsync)
    with Store.open(path, group_commit=True) as s, Store.open(path) as reader:
        player = s.local_player()
        record = s.current_game(player.id)
        for _ in range(3):
            record = s.move(player.id, record.id, legal(record)).game
        # Committed: another connection sees the moves before any flush.
        assert reader.get_game(player.id, record.id).moves == 3
        s.flush()
        assert synced == [Path(f"{path}-wal").stat().st_ino]
        s.flush()
        s.get_game(player.id, record.id)
        s.flush()
        assert len(synced) == 1  # nothing committed since: no disk wait
        s.move(player.id, record.id, legal(record))
        s.flush()
        assert len(synced) == 2
