"""The leaderboards and public games in the store, on both backends (``location``)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from twenty48.game import Game
from twenty48.rules import Direction
from twenty48.store import (
    ActionRejectedError,
    GameFinishedError,
    GameNotFoundError,
    StaleRevisionError,
    Store,
    open_store,
    schema,
    transfer,
)
from twenty48.store.games import codec

DAY = "2026-12-01"
NEXT_DAY = "2026-12-02"
#: A game ends soonest when most moves push the same way.
PREFERENCE = (Direction.UP, Direction.LEFT, Direction.RIGHT, Direction.DOWN)


def finish(store: Store, player_id: int, game_id: int, *, stop_at: int | None = None) -> int:
    """Play the game until it is over (or its score reaches ``stop_at``); returns its score."""
    record = store.get_game(player_id, game_id)
    while not record.over and (stop_at is None or record.score < stop_at):
        legal = record.board.legal_moves()
        direction = next(d for d in PREFERENCE if d in legal)
        record = store.move(player_id, game_id, direction, revision=record.revision).game
    return record.score


def named(store: Store, name: str) -> int:
    player = store.web_player(name).id
    store.set_name(player, name)
    return player


def ranked_game(store: Store, player_id: int) -> tuple[int, int]:
    """A ranked game played to its end: (id, score)."""
    game_id = store.new_game(player_id, ranked=True).id
    return game_id, finish(store, player_id, game_id)


def test_two_players_finish_the_daily_game_and_the_board_orders_them(location: Path | str) -> None:
    with open_store(location) as store:
        ada, bob = named(store, "Ada"), named(store, "Bob")
        scores = {}
        for player in (ada, bob):
            game = store.daily_game(player, DAY)
            scores[player] = (finish(store, player, game.id), game.id)
        board = store.leaderboard("daily", date=DAY, player_id=bob)
        order = (
            sorted(scores, key=lambda p: -scores[p][0]) if scores[ada][0] != scores[bob][0] else [ada, bob]
        )
        assert [e.player_id for e in board.entries] == order
        assert [e.rank for e in board.entries] == [1, 2]
        assert [e.game_id for e in board.entries] == [scores[p][1] for p in order]
        assert all(e.finished_at is not None for e in board.entries)
        assert board.me is not None and board.me.player_id == bob
        assert board.me.rank == order.index(bob) + 1
        # The player's own place, off the page too.
        last = order[-1]
        page = store.leaderboard("daily", date=DAY, limit=1, player_id=last)
        assert len(page.entries) == 1 and page.me is not None and page.me.rank == 2
        assert store.leaderboard("daily", date=NEXT_DAY).entries == ()


def test_a_daily_game_still_played_is_on_its_day_after_finished_ones(location: Path | str) -> None:
    with open_store(location) as store:
        ada, bob = named(store, "Ada"), named(store, "Bob")
        done = store.daily_game(ada, DAY)
        finish(store, ada, done.id)
        playing = store.daily_game(bob, DAY)
        finish(store, bob, playing.id, stop_at=8)
        board = store.leaderboard("daily", date=DAY, player_id=bob)
        mine = next(e for e in board.entries if e.player_id == bob)
        assert mine.finished_at is None and board.me == mine
        assert [e.player_id for e in board.entries] == [ada, bob]


def test_assisted_chosen_seed_imported_and_anonymous_games_never_rank(location: Path | str) -> None:
    with open_store(location) as store:
        ada = named(store, "Ada")
        undone = store.new_game(ada, ranked=True)
        moved = store.move(ada, undone.id, undone.board.legal_moves()[0], revision=undone.revision).game
        store.undo(ada, undone.id, revision=moved.revision)
        finish(store, ada, undone.id)
        hinted = store.new_game(ada, ranked=True)
        store.note_hint(ada, hinted.id, hinted.revision)
        finish(store, ada, hinted.id)
        chosen = store.new_game(ada, seed=7)
        finish(store, ada, chosen.id)
        game = Game.new(11)
        while not game.over:
            game.play(next(d for d in PREFERENCE if d in game.board.legal_moves()))
        data = transfer.export_game(game, True)
        store.import_games(ada, transfer.read_file(data))
        anonymous = store.web_player("nobody").id
        ranked_game(store, anonymous)
        assert store.leaderboard("all-time", player_id=ada).entries == ()
        assert store.leaderboard("all-time", player_id=ada).me is None
        for game_id in (undone.id, hinted.id, chosen.id):
            with pytest.raises(GameNotFoundError):
                store.public_owner(game_id, NEXT_DAY)


def test_the_all_time_board_holds_each_players_best_game(location: Path | str) -> None:
    with open_store(location) as store:
        ada, bob = named(store, "Ada"), named(store, "Bob")
        ada_games = [ranked_game(store, ada) for _ in range(2)]
        bob_game = ranked_game(store, bob)
        best = max(ada_games, key=lambda g: g[1])
        board = store.leaderboard("all-time", "classic", player_id=ada)
        by_player = {e.player_id: e for e in board.entries}
        assert set(by_player) == {ada, bob}
        assert (by_player[ada].game_id, by_player[ada].score) == best
        assert (by_player[bob].game_id, by_player[bob].score) == bob_game
        assert [e.score for e in board.entries] == sorted((e.score for e in board.entries), reverse=True)
        assert store.leaderboard("all-time", "merge").entries == ()
        # Only the game on the board is public: the player's other games stay private.
        other = next(g for g in ada_games if g != best)
        assert store.public_owner(best[0], DAY) == ada
        with pytest.raises(GameNotFoundError):
            store.public_owner(other[0], DAY)
        # A deleted best gives way to the player's next best, whose replay opens.
        store.delete_game(ada, best[0])
        again = {e.player_id: e for e in store.leaderboard("all-time").entries}
        assert (again[ada].game_id, again[ada].score) == other
        assert store.public_owner(other[0], DAY) == ada


def to_the_last_move(store: Store, player_id: int, game_id: int) -> tuple[int, Direction]:
    """Play the game until its next move ends it; returns the revision there and that move (found
    on a copy of the stored game, which knows its withheld key)."""
    record = store.get_game(player_id, game_id)
    while True:
        legal = record.board.legal_moves()
        direction = next(d for d in PREFERENCE if d in legal)
        trial = store.load_game(player_id, game_id)
        trial.play(direction)
        if trial.over:
            return record.revision, direction
        record = store.move(player_id, game_id, direction, revision=record.revision).game


@pytest.mark.parametrize("hint_first", [True, False])
def test_a_hint_and_the_last_move_come_in_one_order(location: Path | str, hint_first: bool) -> None:
    """Both orders of a hint racing the move that ends a ranked game, one after the other: the
    board and the game's assisted count always agree."""
    with open_store(location) as store:
        ada = named(store, "Ada")
        game_id = store.new_game(ada, ranked=True).id
        revision, last = to_the_last_move(store, ada, game_id)
        if hint_first:
            assert store.note_hint(ada, game_id).revision == revision
        ended = store.move(ada, game_id, last, revision=revision).game
        assert ended.over
        if not hint_first:
            # The hint was asked on the position before the last move, or on the game as it is now.
            with pytest.raises(StaleRevisionError):
                store.note_hint(ada, game_id, revision)
            with pytest.raises(GameFinishedError):
                store.note_hint(ada, game_id)
        (summary,) = store.games(ada)
        assert (summary.hints, summary.ranked) == (int(hint_first), not hint_first)
        entries = store.leaderboard("all-time").entries
        if hint_first:
            assert entries == ()
            with pytest.raises(GameNotFoundError):
                store.public_owner(game_id, DAY)
        else:
            assert [e.game_id for e in entries] == [game_id]
            assert store.public_replay(game_id, DAY).game_id == game_id


def test_hidden_players_leave_the_boards_and_their_replays_close(location: Path | str) -> None:
    with open_store(location) as store:
        ada = named(store, "Ada")
        game_id, _ = ranked_game(store, ada)
        assert store.public_owner(game_id, DAY) == ada
        for by_host in (False, True):
            store.set_hidden(ada, True, by_host=by_host)
            assert store.leaderboard("all-time", player_id=ada).entries == ()
            with pytest.raises(GameNotFoundError):
                store.public_owner(game_id, DAY)
            store.set_hidden(ada, False, by_host=by_host)
        store.set_name(ada, None)
        assert store.leaderboard("all-time").entries == ()
        store.set_name(ada, "Ada")
        assert [e.game_id for e in store.leaderboard("all-time").entries] == [game_id]


def test_a_finished_daily_game_is_public_only_after_its_day(location: Path | str) -> None:
    with open_store(location) as store:
        ada = named(store, "Ada")
        game = store.daily_game(ada, DAY)
        finish(store, ada, game.id, stop_at=8)
        with pytest.raises(GameNotFoundError):
            store.public_owner(game.id, NEXT_DAY)  # not over yet
        finish(store, ada, game.id)
        with pytest.raises(GameNotFoundError):
            store.public_owner(game.id, DAY)
        assert store.public_owner(game.id, NEXT_DAY) == ada
        replay = store.public_replay(game.id, NEXT_DAY)
        assert replay.game_id == game.id and replay.seed is not None
        assert store.public_positions(game.id, NEXT_DAY, 0, 5).total == len(replay.actions) + 1


@pytest.mark.parametrize(
    "arguments",
    [
        {"board": "weekly"},
        {"board": "daily"},
        {"board": "daily", "date": "2026-13-01"},
        {"board": "daily", "date": DAY, "variant": "merge"},
        {"board": "all-time", "date": DAY},
        {"board": "all-time", "variant": "chess"},
        {"board": "all-time", "limit": 0},
        {"board": "all-time", "offset": -1},
    ],
)
def test_what_cannot_be_asked_of_a_board(tmp_path: Path, arguments: dict) -> None:
    with Store.open(tmp_path / "boards.sqlite3") as store, pytest.raises(ValueError):
        store.leaderboard(**arguments)


def older_database(path: Path, version: int) -> sqlite3.Connection:
    """An SQLite database as schema ``version`` made it, open for a test to fill."""
    db = sqlite3.connect(path, isolation_level=None)
    for migration in schema.MIGRATIONS[:version]:
        migration(db)
    db.execute(f"PRAGMA application_id = {schema.APPLICATION_ID}")
    db.execute(f"PRAGMA user_version = {version}")
    return db


def test_migration_7_puts_ranked_games_already_over_on_the_board(tmp_path: Path) -> None:
    path = tmp_path / "six.sqlite3"
    db = older_database(path, 6)
    db.execute("INSERT INTO players (key, created_at) VALUES ('web:x', 'then')")
    games = []
    for seed in (1, 2):
        game = Game.new(seed)
        while not game.over:
            game.play(next(d for d in PREFERENCE if d in game.board.legal_moves()))
        games.append(game)
        db.execute(
            "INSERT INTO games (player_id, revision, variant, score, moves, max_tile, won, over, state, "
            "created_at, updated_at, ranked, finished_at) VALUES (1, 0, ?, ?, ?, ?, ?, ?, ?, 'then', 'then', "
            "TRUE, ?)",
            (*codec.columns(game)[:6], codec.encode(game), f"2026-11-30T1{seed}:00:00.000+00:00"),
        )
    db.close()
    best = max((1, 2), key=lambda i: (games[i - 1].score, -i))
    with Store.open(path) as store:
        assert store.leaderboard("all-time").entries == ()  # nobody has a name yet
        store.set_name(1, "Ada")
        (entry,) = store.leaderboard("all-time", player_id=1).entries
        assert (entry.game_id, entry.score, entry.rank) == (best, games[best - 1].score, 1)


def test_a_daily_game_played_on_after_its_day_keeps_that_days_entry(location: Path | str) -> None:
    with open_store(location) as store:
        ada, bob = named(store, "Ada"), named(store, "Bob")
        game = store.daily_game(ada, DAY)
        finish(store, ada, game.id, stop_at=16)
        # Played on within its day (the server passes the date), it stays ranked and moves.
        record = store.get_game(ada, game.id)
        legal = record.board.legal_moves()
        record = store.move(ada, game.id, legal[0], revision=record.revision, today=DAY).game
        assert record.ranked
        (entry,) = store.leaderboard("daily", date=DAY).entries
        assert (entry.score, entry.moves, entry.finished_at) == (record.score, record.moves, None)
        # The next day: what changes nothing, or is refused, closes nothing.
        board = store.load_game(ada, game.id).board
        for still in (d for d in Direction if not board.can_move(d)):
            store.move(ada, game.id, still, revision=record.revision, today=NEXT_DAY)
        with pytest.raises(StaleRevisionError):
            store.move(ada, game.id, legal[0], revision=record.revision - 1, today=NEXT_DAY)
        with pytest.raises(ActionRejectedError):
            store.keep_going(ada, game.id, revision=record.revision, today=NEXT_DAY)  # not won
        assert store.get_game(ada, game.id).ranked
        # Played on: unranked from then on; the day's board keeps the game as the day left it.
        later = store.move(
            ada, game.id, record.board.legal_moves()[0], revision=record.revision, today=NEXT_DAY
        ).game
        assert not later.ranked and later.seed is not None and later.moves == record.moves + 1
        while not later.over:
            direction = next(d for d in PREFERENCE if d in later.board.legal_moves())
            later = store.move(ada, game.id, direction, revision=later.revision, today=NEXT_DAY).game
        (kept,) = store.leaderboard("daily", date=DAY, player_id=ada).entries
        assert (kept.game_id, kept.score, kept.max_tile, kept.moves, kept.finished_at) == (
            game.id,
            record.score,
            record.board.max_tile,
            record.moves,
            None,
        )
        assert store.daily(ada, DAY).rank == 1
        assert store.leaderboard("all-time").entries == ()
        with pytest.raises(GameNotFoundError):
            store.public_owner(game.id, NEXT_DAY)
        # A hint on a daily game the next day closes its day the same way.
        other = store.daily_game(bob, DAY)
        finish(store, bob, other.id, stop_at=8)
        shown = store.get_game(bob, other.id)
        assert not store.note_hint(bob, other.id, today=NEXT_DAY).ranked
        entries = {e.player_id: e for e in store.leaderboard("daily", date=DAY).entries}
        assert (entries[bob].score, entries[bob].moves) == (shown.score, shown.moves)


def test_a_names_daily_entry_is_the_one_game_started_under_it(location: Path | str) -> None:
    with open_store(location) as store:
        ada = named(store, "Ada")
        first = store.daily_game(ada, DAY)
        finish(store, ada, first.id, stop_at=16)
        store.set_name(ada, None)
        assert store.leaderboard("daily", date=DAY).entries == ()
        # Throwaway players play the day anonymously; the best takes the freed name.
        tries = [store.web_player(f"throwaway {i}").id for i in range(3)]
        scores = {p: finish(store, p, store.daily_game(p, DAY).id) for p in tries}
        best = max(scores, key=scores.__getitem__)
        store.set_name(best, "Ada")
        assert store.leaderboard("daily", date=DAY).entries == ()
        assert store.daily(best, DAY).rank is None
        # Taking the name before playing does not give it a second game that day either.
        store.set_name(best, None)
        other = named(store, "ada")
        finish(store, other, store.daily_game(other, DAY).id)
        assert store.leaderboard("daily", date=DAY).entries == ()
        # Back with the name it was started under, the first game is the name's entry again.
        store.set_name(other, "Other")
        store.set_name(ada, "Ada")
        assert [e.game_id for e in store.leaderboard("daily", date=DAY).entries] == [first.id]
        # Another day is another game under the name.
        store.set_name(ada, None)
        store.set_name(other, "Ada")
        fresh = store.daily_game(other, NEXT_DAY)
        assert [e.game_id for e in store.leaderboard("daily", date=NEXT_DAY).entries] == [fresh.id]


def test_migration_9_keeps_the_daily_games_already_played_on_their_boards(tmp_path: Path) -> None:
    path = tmp_path / "eight.sqlite3"
    db = older_database(path, 8)
    for player, name in ((1, "Ada"), (2, None)):
        db.execute(
            "INSERT INTO players (key, created_at, name, name_key) VALUES (?, 'then', ?, lower(?))",
            (f"web:{player}", name, name),
        )
        game = Game.new(player)
        db.execute(
            "INSERT INTO games (player_id, revision, variant, score, moves, max_tile, won, over, state, "
            "created_at, updated_at, ranked, daily) "
            "VALUES (?, 0, ?, ?, ?, ?, ?, ?, ?, 'then', 'then', TRUE, ?)",
            (player, *codec.columns(game)[:6], codec.encode(game), DAY),
        )
    db.close()
    with Store.open(path) as store:
        assert [e.player_id for e in store.leaderboard("daily", date=DAY).entries] == [1]
        # The player without a name takes one: the day's game was not played under it.
        store.set_name(2, "Bob")
        assert [e.player_id for e in store.leaderboard("daily", date=DAY).entries] == [1]
