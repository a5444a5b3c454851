"""Ranked games, daily challenges, pending games, the pace flag and the server's secrets, on both
store backends (``location``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from twenty48 import spawns
from twenty48.game import Game
from twenty48.rules import Board, Direction
from twenty48.store import (
    GameInProgressError,
    GameNotFoundError,
    Store,
    open_store,
    transfer,
)
from twenty48.store.games.rows import MAX_ACTIONS_PER_S, PACE_WINDOW
from twenty48.store.ranking.operations import DAILY_SECRET, daily_key
from twenty48.store.records import Daily

OVER = Board.from_rows([[2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4], [4, 2, 4, 2]])


@pytest.fixture
def store(location: Path | str):
    with open_store(location) as s:
        yield s


def legal(record) -> Direction:
    return record.board.legal_moves()[0]


def roomy(record) -> Direction:
    """The legal move that leaves the most empty cells: it keeps a game (whose spawns come from a
    random key) going for many more moves than always the first legal one, which ended one in 41."""
    return max(record.board.legal_moves(), key=lambda d: len(record.board.move(d).board.empty_cells()))


def play_to_the_end(store: Store, player: int, game_id: int) -> None:
    record = store.get_game(player, game_id)
    while not record.over:
        record = store.move(player, game_id, legal(record), revision=record.revision).game


def test_a_ranked_game_withholds_its_key_until_it_is_over(store: Store) -> None:
    player = store.web_player("a" * 43).id
    record = store.new_game(player, ranked=True)
    assert (record.ranked, record.spawns, record.seed, record.secret) == (True, "blake2b", None, True)
    record = store.move(player, record.id, legal(record), revision=record.revision).game
    assert record.seed is None and record.ranked
    with pytest.raises(GameInProgressError, match="cannot be exported"):
        store.export_game(player, record.id)
    assert store.export_history(player)["games"] == []
    assert store.games(player)[0].finished_at is None
    play_to_the_end(store, player, record.id)
    ended = store.get_game(player, record.id)
    assert ended.ranked and ended.finished_at is not None
    summary = store.games(player)[0]
    assert (summary.ranked, summary.finished_at, summary.daily) == (True, ended.finished_at, None)
    key = store.load_game(player, record.id).seed
    assert isinstance(key, bytes) and ended.seed == key
    # The file names the scheme and holds the key; it imports (never ranked) and replays exactly.
    data = store.export_game(player, record.id)
    assert (data["spawns"], data["seed"]) == ("blake2b", key.hex())
    other = store.web_player("b" * 43).id
    imported = store.import_games(other, transfer.read_file(data)).imported
    copy = store.get_game(other, imported[0])
    assert (copy.ranked, copy.board, copy.seed) == (False, ended.board, key)
    replay = store.replay(player, record.id)
    assert Game.replay(replay.seed, replay.actions, replay.variant).board == ended.board


def test_a_ranked_game_replaced_by_a_newer_one_is_finished_and_shows_its_key(store: Store) -> None:
    player = store.web_player("a" * 43).id
    first = store.new_game(player, ranked=True)
    first = store.move(player, first.id, legal(first), revision=first.revision).game
    store.new_game(player, ranked=True)
    replaced = store.get_game(player, first.id)
    assert replaced.finished and isinstance(replaced.seed, bytes)


def test_chosen_seeds_terminal_prepared_and_imported_games_never_rank(store: Store) -> None:
    web = store.web_player("a" * 43).id
    assert not store.new_game(web, seed=5).ranked
    with pytest.raises(ValueError, match="practice"):
        store.new_game(web, seed=5, ranked=True)
    terminal = store.local_player().id
    played = store.current_game(terminal)
    assert (played.ranked, played.spawns, played.seed is not None) == (False, "splitmix64", True)
    assert not store.add_game(terminal, Game.from_board(OVER, seed=3)).ranked
    data = store.export_game(terminal, played.id)
    (imported,) = store.import_games(web, transfer.read_file(data)).imported
    assert not store.get_game(web, imported).ranked


@pytest.mark.parametrize("assist", ["undo", "hint", "auto"])
def test_any_assisted_action_unranks_for_good_and_reveals_the_seed(store: Store, assist: str) -> None:
    player = store.web_player("a" * 43).id
    record = store.new_game(player, ranked=True)
    record = store.move(player, record.id, legal(record), revision=record.revision).game
    if assist == "undo":
        record = store.undo(player, record.id, revision=record.revision)
    elif assist == "hint":
        store.note_hint(player, record.id, record.revision)
        record = store.get_game(player, record.id)
    else:
        record = store.move(player, record.id, legal(record), revision=record.revision, auto=True).game
    assert not record.ranked and isinstance(record.seed, bytes)
    record = store.move(player, record.id, legal(record), revision=record.revision).game
    assert not store.get_game(player, record.id).ranked


def test_the_daily_game_is_each_players_own_resumes_and_is_played_once(store: Store) -> None:
    one, two = store.web_player("a" * 43).id, store.web_player("b" * 43).id
    day = "2026-12-01"
    mine = store.daily_game(one, day)
    theirs = store.daily_game(two, day)
    assert (mine.daily, mine.ranked, mine.seed, mine.variant) == (day, True, None, "classic")
    assert store.load_game(one, mine.id).seed != store.load_game(two, theirs.id).seed
    secret = store.server_secret(DAILY_SECRET)
    assert store.load_game(one, mine.id).seed == daily_key(secret, day, one)
    # Another day's key is another key.
    assert daily_key(secret, "2026-12-02", one) != daily_key(secret, day, one)
    mine = store.move(one, mine.id, legal(mine), revision=mine.revision).game
    # A practice game replaces it for now; it keeps its key, and asking again resumes it.
    practice = store.new_game(one, seed=9)
    store.move(one, practice.id, legal(practice), revision=practice.revision)
    left = store.get_game(one, mine.id)
    assert left.finished and left.seed is None
    with pytest.raises(GameInProgressError):
        store.replay(one, mine.id)
    again = store.daily_game(one, day)
    assert (again.id, again.current, again.moves, again.seed) == (mine.id, True, 1, None)
    assert store.get_game(one, practice.id).finished
    play_to_the_end(store, one, mine.id)
    # Over: asking again shows it as it ended, and starts nothing.
    ended = store.daily_game(one, day)
    assert ended.id == mine.id and ended.over and isinstance(ended.seed, bytes)


def test_the_daily_game_takes_the_row_of_an_unplayed_game_and_drops_one_on_resuming(store: Store) -> None:
    player = store.web_player("a" * 43).id
    fresh = store.new_game(player, ranked=True)
    daily = store.daily_game(player, "2026-12-01")
    assert daily.id == fresh.id and daily.daily == "2026-12-01"
    daily = store.move(player, daily.id, legal(daily), revision=daily.revision).game
    unplayed = store.new_game(player, ranked=True)
    assert unplayed.id != daily.id
    store.daily_game(player, "2026-12-01")
    # The unplayed game left no trace in the player's games.
    assert [g.id for g in store.games(player)] == [daily.id]


def _named(store: Store, letters: str) -> list[int]:
    players = [store.web_player(c * 43).id for c in letters]
    for player, letter in zip(players, letters, strict=True):
        store.set_name(player, f"Player {letter}")
    return players


def test_the_days_rank_orders_by_score_then_who_finished_first(store: Store) -> None:
    day = "2026-12-01"
    players = _named(store, "abc")
    games = [store.daily_game(p, day) for p in players]
    assert [store.daily(p, day).rank for p in players] == [1, 2, 3]  # all 0 points, by id
    # b scores, c scores the same later: b leads, c is second, a (unplayed) last.
    for player, game in zip(players[1:], games[1:], strict=True):
        record = game
        while record.score == 0:
            record = store.move(player, game.id, legal(record), revision=record.revision).game
    scores = [store.get_game(p, g.id).score for p, g in zip(players, games, strict=True)]
    order = sorted(range(3), key=lambda i: (-scores[i], i))
    ranks = [store.daily(p, day).rank for p in players]
    assert [ranks[i] for i in order] == [1, 2, 3]
    assert store.daily(players[0], day).game_id == games[0].id
    assert store.daily(players[0], "2026-12-02") == Daily("2026-12-02", None, None)
    # An assisted daily game leaves the board.
    first = order[0]
    record = store.get_game(players[first], games[first].id)
    store.note_hint(players[first], record.id, record.revision)
    assert store.daily(players[first], day).rank is None
    assert sorted(r for r in (store.daily(p, day).rank for p in players) if r is not None) == [1, 2]


def test_ties_go_to_who_finished_first_and_unfinished_games_come_last(store: Store, raw_sql) -> None:
    day = "2026-12-01"
    players = _named(store, "abc")
    games = [store.daily_game(p, day).id for p in players]
    finished = [None, "2026-12-01T10:00:02.000+00:00", "2026-12-01T10:00:01.000+00:00"]
    for game_id, at in zip(games, finished, strict=True):
        raw_sql("UPDATE games SET score = 100, finished_at = ? WHERE id = ?", (at, game_id))
    assert [store.daily(p, day).rank for p in players] == [3, 2, 1]


def test_the_days_rank_is_the_place_on_the_days_board(store: Store) -> None:
    day = "2026-12-01"
    named, anonymous, hiding = (store.web_player(c * 43).id for c in "abc")
    store.set_name(named, "Ada")
    store.set_name(hiding, "Grace")
    store.set_hidden(hiding, True)
    for player in (named, anonymous, hiding):
        store.daily_game(player, day)
    # Anonymous and hidden players are not on the board, so they have no place on it either.
    assert [store.daily(p, day).rank for p in (named, anonymous, hiding)] == [1, None, None]
    board = store.leaderboard("daily", "classic", date=day, player_id=named)
    assert [e.game_id for e in board.entries] == [store.daily(named, day).game_id]


def test_pending_games_are_adopted_once(store: Store) -> None:
    player = store.web_player("a" * 43).id
    pending = Game.new(spawns.random_key())
    record = store.adopt_pending(player, pending)
    assert (record.ranked, record.board, record.moves, record.seed) == (True, pending.board, 0, None)
    # The other tab's first move finds the same game.
    assert store.adopt_pending(player, Game.from_dict(pending.to_dict())).id == record.id
    with pytest.raises(GameNotFoundError):
        store.adopt_pending(player, Game.new(spawns.random_key()))
    # Played to its end (its key shown) and deleted, it never comes back as a new ranked game.
    play_to_the_end(store, player, record.id)
    store.delete_game(player, record.id)
    with pytest.raises(GameNotFoundError):
        store.adopt_pending(player, Game.from_dict(pending.to_dict()))


def test_an_unplayed_daily_game_keeps_its_row_when_a_new_game_starts(store: Store) -> None:
    player = store.web_player("a" * 43).id
    daily = store.daily_game(player, "2026-12-01")
    store.note_hint(player, daily.id, daily.revision)  # unranked: its key is shown now
    key = store.get_game(player, daily.id).seed
    assert isinstance(key, bytes)
    fresh = store.new_game(player, ranked=True)
    assert fresh.id != daily.id
    # The day's key cannot start a second, ranked game: asking again gives the same, unranked one.
    again = store.daily_game(player, "2026-12-01")
    assert (again.id, again.ranked, again.seed) == (daily.id, False, key)


def test_play_faster_than_a_person_flags_the_game_for_the_host(store: Store) -> None:
    player = store.web_player("a" * 43).id
    now = [1000.0]
    store.clock = lambda: now[0]
    slow = store.new_game(player, ranked=True)
    record = slow
    for _ in range(PACE_WINDOW + 1):
        if record.over:
            break
        now[0] += 1 / MAX_ACTIONS_PER_S * 1.5
        record = store.move(player, slow.id, legal(record), revision=record.revision).game
    assert record.flagged is None
    fast = store.new_game(player, ranked=True)
    record = fast
    for _ in range(PACE_WINDOW):
        now[0] += 1 / MAX_ACTIONS_PER_S / 2
        record = store.move(player, fast.id, roomy(record), revision=record.revision).game
    assert record.flagged == f"{PACE_WINDOW} actions in 1.50 s"
    # Flagged, not hidden: it stays ranked and listed, with the reason, for the host.
    assert record.ranked and store.get_game(player, fast.id).flagged == record.flagged
    listed = {g.id: g for g in store.games(player)}
    assert (listed[fast.id].flagged, listed[fast.id].ranked) == (record.flagged, True)
    assert listed[slow.id].flagged is None


def test_server_secrets_are_made_once_and_kept(location: Path | str) -> None:
    with open_store(location) as store:
        daily = store.server_secret("daily")
        assert len(daily) == 32 and store.server_secret("pending") != daily
    with open_store(location) as store:
        assert store.server_secret("daily") == daily


def test_migration_6_leaves_older_games_unranked_and_dates_the_ended_ones(tmp_path: Path) -> None:
    import json
    import sqlite3

    from twenty48.store import schema
    from twenty48.store.games import codec

    path = tmp_path / "old.sqlite3"
    db = sqlite3.connect(path, isolation_level=None)
    for migration in schema.MIGRATIONS[:5]:
        migration(db)
    db.execute(f"PRAGMA application_id = {schema.APPLICATION_ID}")
    db.execute("PRAGMA user_version = 5")
    db.execute("INSERT INTO players (key, created_at) VALUES ('web:x', 'then')")
    over, playing = Game.from_board(OVER, seed=3), Game.new(4)
    for game, updated in (
        (over, "2026-11-30T10:00:00.000+00:00"),
        (playing, "2026-11-30T11:00:00.000+00:00"),
    ):
        state = game.to_dict(actions=False)
        # The state as version 3 of the saved-game format wrote it: no spawn scheme, no size.
        state["version"] = 3
        del state["spawns"], state["size"]
        db.execute(
            "INSERT INTO games (player_id, revision, variant, score, moves, max_tile, won, over, state, "
            "created_at, updated_at) VALUES (1, 0, ?, ?, ?, ?, ?, ?, ?, 'then', ?)",
            (*codec.columns(game)[:6], json.dumps(state), updated),
        )
    db.close()
    with Store.open(path) as store:
        games = {g.id: g for g in store.games(1)}
        assert (games[1].ranked, games[1].finished_at) == (False, "2026-11-30T10:00:00.000+00:00")
        assert (games[2].ranked, games[2].finished_at, games[2].daily) == (False, None, None)
        assert store.get_game(1, 2).spawns == "splitmix64" and store.get_game(1, 2).seed == 4
