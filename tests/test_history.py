"""The store's history: positions replayed from checkpoints, first reaches, assisted counts, deletion,
ownership, and migration 4 on a database written before it."""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from twenty48.game import Game, Turn
from twenty48.rules import Board, Direction
from twenty48.store import MAX_POSITIONS, GameNotFoundError, Store, open_store, schema
from twenty48.store.games import codec
from twenty48.store.games.checkpoints import CHECKPOINT_EVERY, reached

START = Board.from_rows([[1024, 512, 0, 0], [2, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 4]])


@pytest.fixture
def store(location: Path | str):
    # On SQLite and on PostgreSQL: the fixture ``location`` (conftest.py) is parametrized.
    with open_store(location) as s:
        yield s


def play_randomly(
    store: Store, player: int, game_id: int, rng: random.Random, moves: int, undo: float
) -> None:
    """Up to ``moves`` legal moves, each followed by an undo with probability ``undo``."""
    record = store.get_game(player, game_id)
    for _ in range(moves):
        if record.over:
            return
        direction = rng.choice(record.board.legal_moves())
        record = store.move(player, game_id, direction, revision=record.revision).game
        if rng.random() < undo and record.can_undo:
            record = store.undo(player, game_id, revision=record.revision)


def expected(game: Game) -> list[tuple[Board, int, Turn | None]]:
    """Board, score and the Turn that led there, after every move of ``game``'s line, by Game.replay."""
    replayed = Game.replay(game.seed, [], game.variant, game.start)
    found: list[tuple[Board, int, Turn | None]] = [(replayed.board, replayed.score, None)]
    for action in game.actions:
        turn = replayed.play(action)
        found.append((replayed.board, replayed.score, turn))
    return found


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    seed=st.integers(0, 2**32),
    moves=st.integers(0, 2 * CHECKPOINT_EVERY + 50),
    undo=st.sampled_from([0.0, 0.1, 0.4]),
    prepared=st.booleans(),
    variant=st.sampled_from(["classic", "merge"]),
    pages=st.lists(st.tuples(st.integers(0, 400), st.integers(1, 150)), max_size=4),
)
def test_every_position_equals_the_replay(
    store: Store, seed: int, moves: int, undo: float, prepared: bool, variant: str, pages: list
) -> None:
    player = store.local_player(f"p{seed}-{moves}").id
    if prepared:
        record = store.add_game(player, Game.from_board(START, seed=seed, score=3000, variant=variant))
    else:
        record = store.new_game(player, seed=seed, variant=variant)
    play_randomly(store, player, record.id, random.Random(seed), moves, undo)
    want = expected(store.load_game(player, record.id))
    whole = store.positions(player, record.id, 0, MAX_POSITIONS)
    assert whole.total == len(want)
    for position, (board, score, turn) in zip(whole.positions, want, strict=True):
        assert (position.board, position.score) == (board, score), position.move
        if turn is None:
            assert (position.slides, position.merges, position.spawn) == ((), (), None)
        else:
            assert (position.slides, position.merges, position.spawn) == (
                turn.slides,
                turn.merges,
                turn.spawn,
            )
    for first, count in pages:
        page = store.positions(player, record.id, first, count).positions
        assert page == whole.positions[first : first + count]


def test_positions_reject_a_negative_start_and_a_bad_count(store: Store) -> None:
    player = store.local_player().id
    game = store.current_game(player)
    with pytest.raises(ValueError):
        store.positions(player, game.id, -1, 10)
    for count in (0, MAX_POSITIONS + 1):
        with pytest.raises(ValueError):
            store.positions(player, game.id, 0, count)
    assert store.positions(player, game.id, 5, 10).positions == ()


def test_checkpoints_follow_the_current_line_through_undo(store: Store, raw_sql) -> None:
    player = store.local_player().id
    record = store.new_game(player, seed=11)
    play_randomly(store, player, record.id, random.Random(1), CHECKPOINT_EVERY, 0.0)
    record = store.get_game(player, record.id)
    assert record.moves == CHECKPOINT_EVERY
    record = store.undo(player, record.id, revision=record.revision)
    # A different move 100 than the one the undone checkpoint recorded.
    board = record.board
    other = [d for d in board.legal_moves()]
    store.move(player, record.id, other[-1], revision=record.revision)
    rows = raw_sql("SELECT move FROM game_checkpoints WHERE game_id = ?", (record.id,))
    assert rows == [(CHECKPOINT_EVERY,)]
    want = expected(store.load_game(player, record.id))
    last = store.positions(player, record.id, CHECKPOINT_EVERY, 1).positions[0]
    assert (last.board, last.score) == want[-1][:2]


def test_first_reaches_are_the_moves_the_tiles_first_appeared(store: Store, raw_sql) -> None:
    player = store.local_player().id
    record = store.new_game(player, seed=3)
    play_randomly(store, player, record.id, random.Random(3), 300, 0.2)
    game = store.load_game(player, record.id)
    replayed, want = Game.replay(game.seed, []), {}
    for tile in reached(0, replayed.board.max_tile):
        want[tile] = 0
    for move, action in enumerate(game.actions, start=1):
        before = replayed.board.max_tile
        replayed.play(action)
        want.update((tile, move) for tile in reached(before, replayed.board.max_tile))
    got = dict(raw_sql("SELECT tile, move FROM game_first_reach WHERE game_id = ?", (record.id,)))
    assert got == want
    assert max(got) == game.board.max_tile


def test_assisted_counts_move_with_hints_auto_play_and_undo(store: Store) -> None:
    player = store.local_player().id
    record = store.new_game(player, seed=5)
    summary = store.games(player)[0]
    assert (summary.hints, summary.auto_moves, summary.undos, summary.assisted) == (0, 0, 0, False)
    store.note_hint(player, record.id, record.revision)
    store.note_hint(player, record.id, record.revision)  # the same position: counted once
    direction = record.board.legal_moves()[0]
    record = store.move(player, record.id, direction, revision=record.revision, auto=True).game
    store.note_hint(player, record.id, record.revision)
    record = store.move(player, record.id, record.board.legal_moves()[0], revision=record.revision).game
    record = store.undo(player, record.id, revision=record.revision)
    summary = store.games(player)[0]
    assert (summary.hints, summary.auto_moves, summary.undos, summary.assisted) == (2, 1, 1, True)
    # Counting a hint is not an action: the revision the page holds stays valid.
    assert store.get_game(player, record.id).revision == record.revision


def test_auto_plays_hint_counts_as_the_move_it_plays_never_as_a_hint(store: Store) -> None:
    player = store.web_player("auto").id
    record = store.new_game(player, seed=5)
    store.note_hint(player, record.id, record.revision)  # the player's own hint, then auto-play
    for _ in range(3):
        store.note_hint(player, record.id, record.revision, auto=True)
        store.note_hint(player, record.id, record.revision, auto=True)  # asked again: counted once
        record = store.move(player, record.id, record.board.legal_moves()[0], auto=True).game
    # An auto-played move whose hint was not asked through the store (the terminal's) counts too.
    record = store.move(player, record.id, record.board.legal_moves()[0], auto=True).game
    summary = store.games(player)[0]
    assert (summary.hints, summary.auto_moves, summary.undos, summary.assisted) == (1, 4, 0, True)


def test_migration_11_makes_the_double_counted_hints_of_browser_games_unknown(
    location: Path | str, raw_sql
) -> None:
    with open_store(location) as store:
        web, terminal = store.web_player("page").id, store.local_player().id
        ids = {}
        for name, player, auto in (("web auto", web, 1), ("web hints", web, 0), ("terminal", terminal, 1)):
            record = store.new_game(player, seed=len(ids) + 1)
            store.move(player, record.id, record.board.legal_moves()[0], auto=bool(auto))
            ids[name] = record.id
    # As the version before counted: the page's auto-play counted each move as a hint too.
    raw_sql("UPDATE games SET hints = 3 + auto_moves")
    raw_sql("ALTER TABLE games DROP COLUMN auto_hint_revision")
    # Migration 12 (the sizes) runs again after it: what it made, as version 10 had it.
    raw_sql("DROP INDEX games_stats")
    raw_sql(
        "CREATE INDEX games_stats ON games (player_id, variant, id, score, max_tile, won, over, set_aside, "
        "hints, auto_moves, undos, origin)"
    )
    raw_sql("ALTER TABLE games DROP COLUMN size")
    if isinstance(location, Path):
        raw_sql("PRAGMA user_version = 10")
    else:
        raw_sql("UPDATE twenty48_schema SET version = 10")
    with open_store(location) as store:
        counts = {
            name: next((g.hints, g.auto_moves, g.assisted) for g in store.games(p) if g.id == ids[name])
            for name, p in (("web auto", web), ("web hints", web), ("terminal", terminal))
        }
    # hints - auto_moves is not certain (a hint asked where auto-play then asked again was counted
    # once): unknown; the game stays assisted. The other games' counts were right.
    assert counts == {"web auto": (None, 1, True), "web hints": (3, 0, True), "terminal": (4, 1, True)}


def test_a_reused_unplayed_game_keeps_nothing_of_the_game_it_replaces(store: Store, raw_sql) -> None:
    player = store.local_player().id
    first = store.new_game(player, seed=1)
    store.note_hint(player, first.id, first.revision)
    rows = "SELECT tile, move FROM game_first_reach WHERE game_id = ? ORDER BY tile"
    seeds = [seed for seed in range(2, 200) if Game.new(seed).board.max_tile != first.board.max_tile]
    again = store.new_game(player, seed=seeds[0])  # the other start tile: its first reach differs
    assert again.id == first.id
    want = [(tile, 0) for tile in reached(0, again.board.max_tile)]
    assert raw_sql(rows, (again.id,)) == want
    summary = store.games(player)[0]
    assert (summary.hints, summary.auto_moves, summary.undos) == (0, 0, 0)
    # The next moves record their own first reaches (no duplicate of the replaced game's).
    play_randomly(store, player, again.id, random.Random(1), 40, 0.0)
    game = store.load_game(player, again.id)
    assert max(dict(raw_sql(rows, (again.id,)))) == game.board.max_tile


def test_an_illegal_auto_move_counts_nothing(store: Store) -> None:
    player = store.local_player().id
    record = store.add_game(player, Game.from_board(Board.from_rows([[2, 0, 0, 0]] + [[0] * 4] * 3), seed=1))
    store.move(player, record.id, Direction.LEFT, revision=record.revision, auto=True)
    assert store.games(player)[0].auto_moves == 0


def test_another_players_game_is_invisible(store: Store) -> None:
    mine, theirs = store.local_player("a").id, store.local_player("b").id
    game = store.new_game(theirs, seed=1)
    for call in (
        lambda: store.positions(mine, game.id, 0, 10),
        lambda: store.note_hint(mine, game.id, game.revision),
        lambda: store.delete_game(mine, game.id),
        lambda: store.export_game(mine, game.id),
    ):
        with pytest.raises(GameNotFoundError):
            call()
    assert store.games(mine, sort="score") == [] or all(g.id != game.id for g in store.games(mine))
    assert store.games(theirs)[0].hints == 0


def test_a_deleted_game_is_gone_and_its_id_never_returns(store: Store) -> None:
    player = store.local_player().id
    old = store.new_game(player, seed=1)
    store.move(player, old.id, old.board.legal_moves()[0])  # played, so the next game is a new row
    current = store.new_game(player, seed=2)
    store.delete_game(player, current.id)
    assert [g.id for g in store.games(player)] == [old.id]
    with pytest.raises(GameNotFoundError):
        store.get_game(player, current.id)
    fresh = store.current_game(player)
    assert fresh.id > current.id
    store.delete_game(player, old.id)
    assert [g.id for g in store.games(player)] == [fresh.id]


def test_sorted_and_filtered_pages(store: Store) -> None:
    player = store.local_player().id
    rng = random.Random(9)
    for seed in range(12):
        record = store.new_game(player, seed=seed, variant="merge" if seed % 3 == 0 else "classic")
        play_randomly(store, player, record.id, rng, rng.randrange(0, 120), 0.0)
    every = store.games(player, limit=100)
    for sort, key in (("score", lambda g: (g.score, g.id)), ("max_tile", lambda g: (g.max_tile, g.id))):
        for variant in (None, "classic", "merge"):
            for finished in (None, True, False):
                want = sorted(
                    (
                        g
                        for g in every
                        if (variant is None or g.variant == variant) and finished in (None, g.finished)
                    ),
                    key=key,
                    reverse=True,
                )
                got, before = [], None
                while True:
                    page = store.games(
                        player, limit=5, before=before, sort=sort, variant=variant, finished=finished
                    )
                    got += page
                    if len(page) < 5:
                        break
                    before = page[-1].id
                assert got == want, (sort, variant, finished)
    with pytest.raises(ValueError):
        store.games(player, sort="moves")


def test_migration_4_backfills_old_games_and_marks_their_counts_unknown(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    db = sqlite3.connect(path, isolation_level=None)
    for migration in schema.MIGRATIONS[:3]:
        migration(db)
    db.execute(f"PRAGMA application_id = {schema.APPLICATION_ID}")
    db.execute("PRAGMA user_version = 3")
    game = Game.new(21)
    # A corner strategy outlives random play, past the first checkpoint.
    order = [Direction.DOWN, Direction.LEFT, Direction.RIGHT, Direction.UP]
    while game.moves < CHECKPOINT_EVERY + 5 and not game.over:
        game.play(next(d for d in order if game.board.can_move(d)))
    assert game.moves > CHECKPOINT_EVERY and not game.over
    db.execute("INSERT INTO players (key, created_at) VALUES ('local:terminal', 'then')")
    columns = codec.columns(game)
    db.execute(
        "INSERT INTO games (player_id, revision, variant, score, moves, max_tile, won, over, state, "
        "created_at, updated_at) VALUES (1, 5, ?, ?, ?, ?, ?, ?, ?, 'then', 'then')",
        # The columns of schema 3: no spawn scheme yet.
        (*columns[:6], codec.encode(game)),
    )
    db.executemany(
        "INSERT INTO game_moves (game_id, ply, direction) VALUES (1, ?, ?)",
        [(ply, str(a)) for ply, a in enumerate(game.actions)],
    )
    db.execute("UPDATE players SET current_game_id = 1")
    db.close()
    with Store.open(path) as store:
        player = store.local_player().id
        summary = store.games(player)[0]
        assert (summary.hints, summary.auto_moves, summary.undos, summary.assisted) == (
            None,
            None,
            None,
            None,
        )
        checkpoints = sqlite3.connect(path).execute("SELECT count(*) FROM game_checkpoints").fetchone()[0]
        assert checkpoints == 1
        last = store.positions(player, 1, game.moves, 1).positions[0]
        assert (last.board, last.score) == (game.board, game.score)
        # Unknown stays unknown: counting from now on would claim a false total.
        record = store.undo(player, 1, revision=5)
        assert store.games(player)[0].undos is None
        assert record.moves == game.moves - 1
