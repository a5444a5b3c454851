"""What one move costs PostgreSQL: the statements it sends and the round trips it waits for, read
from libpq's own trace of every message the store's connection sends and receives. An ordinary move
first; then guessed moves, which wait for nothing until the flush; then a new visitor's first move,
which also stores the game."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO, Any

import psycopg
import pytest

from twenty48.game import Game
from twenty48.rules import Board
from twenty48.store import Store, open_store

#: A merge of two 1024s: the player's best becomes 2048, which the small games below never reach.
BIG = Board.from_rows([[1024, 1024, 0, 0], [0] * 4, [0] * 4, [0, 0, 0, 2]])
SMALL = Board.from_rows([[2, 2, 0, 0], [0] * 4, [0] * 4, [0, 0, 0, 4]])
#: BEGIN, the player's row lock, the game's row (with the best score), the move's log, the game's
#: new state, COMMIT: a move that does not raise the player's best score.
MOVE_STATEMENTS = 6
#: A guessed move, a transaction of its own between two Syncs: the player's row lock, the check
#: that the game's row is as this process left it, the move's log and the game's new state (sent
#: on a cursor of its own: its answer says the transaction committed). Nothing is waited for.
GUESSED_STATEMENTS = 4
#: A new visitor's first move (``Store.move_pending``), in one transaction: BEGIN, the player's row
#: lock, the player's current game and whether they have any, the game's row, its ranking, the first
#: reach of each of its two starting tiles, the player's current game set, the game's row read, the
#: move's log, the game's new state, the best score (the first), COMMIT.
FIRST_MOVE_STATEMENTS = 14


class Trace:
    """The messages of every connection made while it is installed, as libpq traces them."""

    def __init__(self, directory: Path) -> None:
        self._directory = directory
        self._traced: list[tuple[psycopg.Connection[Any], Path]] = []
        self._streams: list[IO[str]] = []
        self._seen: dict[Path, int] = {}
        #: ``Pipeline.sync`` calls since the last look.
        self.synced = 0

    def attach(self, conn: psycopg.Connection[Any]) -> None:
        path = self._directory / f"{len(self._traced)}.trace"
        self._traced.append((conn, path))
        self._start(conn, path)

    def _start(self, conn: psycopg.Connection[Any], path: Path) -> None:
        # libpq writes through a stream of its own on this file's descriptor: kept open.
        self._streams.append(path.open("a"))
        conn.pgconn.trace(self._streams[-1].fileno())
        conn.pgconn.set_trace_flags(psycopg.pq.Trace.SUPPRESS_TIMESTAMPS | psycopg.pq.Trace.REGRESS_MODE)

    def close(self) -> None:
        for stream in self._streams:
            stream.close()

    def since_last(self) -> tuple[int, int]:
        """(statements executed, round trips) since the last call: an Execute message is one
        statement; a round trip is a wait for the server's answers, a Flush message (psycopg asking
        for an answer it needs) or a ``Pipeline.sync``. (A guessed transaction's answers come back
        unasked, at its own Sync, which nothing waits for.)"""
        statements, trips = 0, self.synced
        self.synced = 0
        for conn, path in self._traced:
            if not conn.closed:
                # Stopping the trace flushes libpq's stream; it starts again below.
                conn.pgconn.untrace()
            lines = path.read_text().splitlines()
            for line in lines[self._seen.get(path, 0) :]:
                direction, _, message = [*line.split("\t"), "", ""][:3]
                if direction == "F":
                    statements += message.split(" ")[0] == "Execute"
                    trips += message.split(" ")[0] == "Flush"
            self._seen[path] = len(lines)
            if not conn.closed:
                self._start(conn, path)
        return statements, trips


@pytest.fixture
def traced(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[Trace]:
    trace = Trace(tmp_path)
    # The classmethod's function: the connection made is of the class asked for (the pool's own).
    connect: Callable[..., psycopg.Connection[Any]] = psycopg.Connection.connect.__func__  # type: ignore[attr-defined]

    def connect_traced(
        cls: type[psycopg.Connection[Any]], *args: Any, **kwargs: Any
    ) -> psycopg.Connection[Any]:
        conn = connect(cls, *args, **kwargs)
        trace.attach(conn)
        return conn

    sync = psycopg.Pipeline.sync

    def sync_counted(pipeline: psycopg.Pipeline) -> None:
        trace.synced += 1
        sync(pipeline)

    monkeypatch.setattr(psycopg.Connection, "connect", classmethod(connect_traced))
    monkeypatch.setattr(psycopg.Pipeline, "sync", sync_counted)
    yield trace
    trace.close()


def _small_game(store: Store, player: int) -> tuple[int, int]:
    store.add_game(player, Game.from_board(BIG, seed=1))
    record = store.current_game(player)
    store.move(player, record.id, "left", revision=record.revision)
    record = store.add_game(player, Game.from_board(SMALL, seed=2))
    return record.id, record.revision


def test_a_move_is_six_statements_in_two_round_trips(postgres_url: str, traced: Trace) -> None:
    with open_store(postgres_url) as store:
        player = store.local_player().id
        game_id, revision = _small_game(store, player)
        traced.since_last()
        store.move(player, game_id, "left", revision=revision)
        # The game's row read under the lock, then the writes and their COMMIT's answer.
        assert traced.since_last() == (MOVE_STATEMENTS, 2)


def test_with_group_commit_a_batch_of_moves_waits_once_each_and_once_more(
    postgres_url: str, traced: Trace
) -> None:
    with open_store(postgres_url, group_commit=True) as store:
        games = []
        for name in ("a", "b", "c"):
            player = store.local_player(name).id
            games.append((player, *_small_game(store, player)))
        store.flush()
        traced.since_last()
        for player, game_id, revision in games:
            store.move(player, game_id, "left", revision=revision)
        # Each move waits for its game's row only (which brings the answers of the moves before
        # it); the flush sends its synchronous commit (``DURABLE``) and reads its answer, and the
        # last move's, before anything is acknowledged.
        assert traced.since_last() == (3 * MOVE_STATEMENTS, 3)
        store.flush()
        assert traced.since_last() == (1, 1)


def test_a_batch_of_guessed_moves_waits_only_at_its_flush(postgres_url: str, traced: Trace) -> None:
    with open_store(postgres_url, group_commit=True) as store:
        games = []
        for name in ("a", "b", "c"):
            player = store.local_player(name).id
            game_id, revision = _small_game(store, player)
            # This process writes the game last: its next move can be guessed.
            store.move(player, game_id, "right", revision=revision)
            games.append((player, game_id, revision + 1))
        store.flush()
        traced.since_last()
        guesses = []
        for player, game_id, revision in games:
            with store.guessing() as guess:
                store.move(player, game_id, "left", revision=revision)
            guesses.append(guess)
        # Their answers come back on their own (each ends with a Sync), but nothing waits for them
        # (test_postgres_guesses: a guessed move returns while its row lock is still held elsewhere).
        assert traced.since_last() == (3 * GUESSED_STATEMENTS, 0)
        # The synchronous commit, and the guessed moves' answers read with its own.
        store.flush()
        assert traced.since_last() == (1, 1)
        assert [(guess.used, guess.failed) for guess in guesses] == [(True, False)] * 3
        for player, game_id, revision in games:
            assert store.get_game(player, game_id).revision == revision + 1


def test_a_new_visitors_first_move_stores_the_game_and_the_move_in_one_transaction(
    postgres_url: str, traced: Trace
) -> None:
    with open_store(postgres_url) as store:
        pending = Game.from_board(SMALL, seed=3)
        apart = store.web_player("a" * 43).id
        traced.since_last()
        record = store.adopt_pending(apart, pending)
        store.move(apart, record.id, "left", revision=0)
        two_steps = traced.since_last()
        at_once = store.web_player("b" * 43).id
        traced.since_last()
        store.move_pending(at_once, pending, "left", revision=0)
        # One transaction instead of two: four statements fewer (the second BEGIN, row lock, game
        # row and COMMIT), and fewer waits (adopting, then moving, waited 7 times on an idle
        # machine, and 9 once under load).
        assert traced.since_last() == (FIRST_MOVE_STATEMENTS, 5)
        assert two_steps[0] == FIRST_MOVE_STATEMENTS + 4 and two_steps[1] >= 7
