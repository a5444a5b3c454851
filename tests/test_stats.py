"""Statistics against a direct computation from the games themselves."""

from __future__ import annotations

import random
import statistics
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import Any

import pytest

from twenty48.game import Game
from twenty48.rules import Board, Direction
from twenty48.store import Store, open_store
from twenty48.store.backends.sqlite import SQLiteBackend

BIG = Board.from_rows([[1024, 1024, 0, 0], [512, 512, 0, 0], [0, 0, 0, 0], [0, 0, 0, 2]])
#: The tiles whose first reaches the statistics report: 128 and up.
TILES = tuple(128 * 2**k for k in range(11))


@pytest.fixture
def store(location: Path | str):
    # On SQLite and on PostgreSQL: the fixture ``location`` (conftest.py) is parametrized.
    with open_store(location) as s:
        yield s


def direct(games: list[Game], first: list[dict[int, int]]) -> dict:
    """The figures computed from finished games directly (every game here is finished)."""
    scores = [g.score for g in games]
    # 128 up to the tile above the largest reached.
    largest = max(g.board.max_tile for g in games)
    tiles = [128 * 2**k for k in range(max(1, largest.bit_length() - (128).bit_length() + 2))]
    runs, run = [0], 0
    for g in games:
        run = run + 1 if g.board.max_tile >= 2048 else 0
        runs.append(run)
    reach = {t: sum(g.board.max_tile >= t for g in games) / len(games) for t in tiles}
    firsts = {t: [f[t] for f in first if t in f] for t in tiles}
    return {
        "best": max(scores),
        "mean": statistics.fmean(scores),
        "median": statistics.median(scores),
        "reach": reach,
        "first": {t: (statistics.median(m), min(m)) if m else (None, None) for t, m in firsts.items()},
        "win_rate": sum(g.won for g in games) / len(games),
        "streak": (run, max(runs)),
        "recent": scores[-100:],
    }


def test_stats_equal_a_direct_computation(store: Store) -> None:
    player = store.local_player().id
    rng = random.Random(4)
    played: list[Game] = []
    firsts: list[dict[int, int]] = []
    for seed in range(40):
        # Some games start near a win so that 2048 and 4096 are reached at varying moves.
        prepared = seed % 3 != 0
        game = Game.from_board(BIG, seed=seed) if prepared else Game.new(seed)
        first: dict[int, int] = {t: 0 for t in TILES if game.board.max_tile >= t}
        limit = rng.randrange(1, 60)
        while not game.over and game.moves < limit:
            before = game.board.max_tile
            game.play(rng.choice(game.board.legal_moves()))
            for t in TILES:
                if before < t <= game.board.max_tile:
                    first[t] = game.moves
        store.add_game(player, game)
        played.append(game)
        firsts.append(first)
    store.new_game(player)  # the previous ones are now all finished; this one is not
    ended = [i for i, g in enumerate(played) if g.over or g.won]
    assert 0 < len(ended) < len(played)
    # By default over the games that ended; with abandoned=True over the abandoned ones too.
    for abandoned, covered in ((False, ended), (True, range(len(played)))):
        stats = store.stats(player, "classic", abandoned=abandoned)
        want = direct([played[i] for i in covered], [firsts[i] for i in covered])
        counts = (stats.games, stats.finished, stats.ended, stats.abandoned, stats.counted)
        assert counts == (41, 40, len(ended), 40 - len(ended), len(covered))
        assert stats.best == want["best"]
        assert stats.mean == pytest.approx(want["mean"])
        assert stats.median == want["median"]
        assert stats.reach == pytest.approx(want["reach"])
        assert {t: (r.median, r.best) for t, r in stats.first_reach.items()} == want["first"]
        assert stats.win_rate == pytest.approx(want["win_rate"])
        assert (stats.streak_current, stats.streak_best) == want["streak"]
        assert list(stats.recent) == want["recent"]


def test_a_game_ended_when_over_or_won_and_was_abandoned_when_left_before(store: Store) -> None:
    player = store.local_player().id
    over = Game.new(1)
    while not over.over:
        over.play(over.board.legal_moves()[0])
    won = Game.from_board(BIG, seed=2)
    won.play(Direction.LEFT)
    left = Game.new(3)
    left.play(left.board.legal_moves()[0])
    assert over.over and won.won and not won.over and not left.over
    ids = [store.add_game(player, game).id for game in (over, won, left)]
    current = store.add_game(player, Game.from_board(BIG, seed=4))
    store.move(player, current.id, Direction.LEFT)  # won, and still being played
    statuses = {g.id: g.status for g in store.games(player)}
    assert [statuses[i] for i in (*ids, current.id)] == ["ended", "ended", "abandoned", "playing"]
    stats = store.stats(player, "classic")
    assert (stats.ended, stats.abandoned, stats.counted) == (2, 1, 2)
    assert stats.mean == pytest.approx((over.score + won.score) / 2)
    assert stats.win_rate == pytest.approx(1 / 2)
    everything = store.stats(player, "classic", abandoned=True)
    assert (everything.counted, everything.recent) == (3, (over.score, won.score, left.score))


def test_exclude_keeps_only_games_known_unassisted(store: Store) -> None:
    player = store.local_player().id
    clean = store.new_game(player, seed=1)
    clean = store.move(player, clean.id, clean.board.legal_moves()[0], revision=clean.revision).game
    # Each game keeps a move: an unplayed current game is replaced by the next new game, not kept.
    hinted = store.new_game(player, seed=2)
    store.note_hint(player, hinted.id, hinted.revision)
    store.move(player, hinted.id, hinted.board.legal_moves()[0], revision=hinted.revision)
    undone = store.new_game(player, seed=3)
    for _ in range(2):
        undone = store.move(player, undone.id, undone.board.legal_moves()[0], revision=undone.revision).game
    store.undo(player, undone.id, revision=undone.revision)
    store.new_game(player, seed=4)
    everything = store.stats(player, "classic", abandoned=True)
    unassisted = store.stats(player, "classic", assisted=False, abandoned=True)
    assert everything.finished == 3
    assert unassisted.finished == 1
    assert unassisted.recent == (clean.score,)


def test_no_finished_game_gives_empty_figures(store: Store) -> None:
    player = store.local_player().id
    store.current_game(player)
    stats = store.stats(player, "merge")
    assert (stats.games, stats.finished, stats.best, stats.mean, stats.reach) == (0, 0, None, None, {})
    assert store.stats(player, "classic").games == 1
    with pytest.raises(ValueError):
        store.stats(player, "chess")


def test_a_player_below_2048_sees_the_tiles_from_128_to_the_one_above_the_best(store: Store) -> None:
    player = store.local_player().id
    for top in (64, 256, 128):
        board = Board.from_rows([[top, 0, 0, 0], [0] * 4, [0] * 4, [0, 0, 0, 2]])
        store.add_game(player, Game.from_board(board))
    store.new_game(player)
    # Games left where they were prepared: abandoned, so counted on request.
    stats = store.stats(player, "classic", abandoned=True)
    assert stats.reach == pytest.approx({128: 2 / 3, 256: 1 / 3, 512: 0.0})
    assert list(stats.first_reach) == [128, 256, 512]
    assert (stats.first_reach[256].median, stats.first_reach[512].median) == (0, None)


def test_streak_breaks_on_a_game_below_2048(store: Store) -> None:
    player = store.local_player().id
    near = Board.from_rows([[1024, 1024, 0, 0], [0] * 4, [0] * 4, [0, 0, 0, 2]])
    for wins in (True, True, False, True):
        game = Game.from_board(
            near if wins else Board.from_rows([[1024, 0, 0, 0], [0] * 4, [0] * 4, [0, 0, 0, 2]]), seed=1
        )
        if wins:
            game.play(Direction.LEFT)
        store.add_game(player, game)
    store.new_game(player)
    stats = store.stats(player, "classic", abandoned=True)
    assert (stats.streak_current, stats.streak_best) == (1, 2)


class _WriterBetweenStatements:
    """A real SQLite backend whose reads are each followed, after their first statement and before
    the next one, by another process-like writer (a second ``Store`` on the same file) adding a
    finished game."""

    def __init__(self, path: Path, writer: Store, player: int) -> None:
        self._backend = SQLiteBackend.open(path, group_commit=False)
        self.location = self._backend.location
        self._writer, self._player = writer, player
        self.interleaved = 0

    @contextmanager
    def read(self) -> Iterator[object]:
        with self._backend.read() as db:
            yield _Interleaving(db, self)

    def write(self) -> AbstractContextManager[object]:
        return self._backend.write()

    def flush(self) -> None:
        self._backend.flush()

    def close(self) -> None:
        self._backend.close()

    def interleave(self) -> None:
        self.interleaved += 1
        self._writer.add_game(self._player, Game.from_board(BIG, seed=self.interleaved))


class _Interleaving:
    """A read transaction's connection that lets the writer in after its first statement."""

    def __init__(self, db: Any, owner: _WriterBetweenStatements) -> None:
        self._db, self._owner = db, owner
        self._first = True

    def __getattr__(self, name: str) -> object:
        return getattr(self._db, name)

    def execute(self, *args: object) -> object:
        found = self._db.execute(*args)
        if self._first:
            self._first = False
            self._owner.interleave()
        return found


def test_a_statistic_reads_one_snapshot_while_another_process_writes(tmp_path: Path) -> None:
    path = tmp_path / "shared.sqlite3"
    with Store.open(path) as writer:
        player = writer.local_player().id
        for seed in range(3):
            writer.add_game(player, Game.from_board(BIG, seed=seed))
        backend = _WriterBetweenStatements(path, writer, player)
        with Store(backend) as reader:
            seen = reader.stats(player, "classic", abandoned=True)
            assert backend.interleaved == 1
            # The game added after the read's first statement is in none of the figures: the totals
            # say 3 games, 2 finished (the newest is current), and so do the rest.
            assert (seen.games, seen.finished, len(seen.recent)) == (3, 2, 2)
            after = reader.stats(player, "classic", abandoned=True)
            assert (after.games, after.finished, len(after.recent)) == (4, 3, 3)
