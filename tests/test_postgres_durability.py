"""Group commit on PostgreSQL: each move commits without waiting for the disk, and ``flush`` makes the
batch durable with one synchronous commit, so a crash right after ``flush`` loses none of it.

The crash is PostgreSQL's immediate stop (its processes end at once, as if the machine failed them):
what sits in the server's write-ahead log buffers, not yet written out, is lost. Its WAL writer
would write those buffers within ``wal_writer_delay`` by itself, so the test sets that delay long:
then only ``flush``'s synchronous commit can have put the moves on disk before the crash.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

import psycopg
import pytest

from twenty48.game import Game
from twenty48.rules import Board
from twenty48.store import open_store

OPEN = Board.from_rows([[2, 0, 0, 0], [0] * 4, [0] * 4, [0, 0, 0, 4]])


@pytest.fixture
def slow_wal_writer(postgres_server) -> Iterator[None]:
    def delay(value: str) -> None:
        with psycopg.connect(postgres_server.url, autocommit=True) as conn:
            conn.execute(f"ALTER SYSTEM SET wal_writer_delay = '{value}'")
            conn.execute("SELECT pg_reload_conf()")

    delay("10s")
    yield
    delay("200ms")  # PostgreSQL's default, as every other test expects it


@pytest.mark.parametrize("guessed", [False, True], ids=["waited", "guessed"])
def test_a_flushed_batch_survives_a_crash_right_after(
    postgres_server, postgres_url: str, slow_wal_writer: None, guessed: bool
) -> None:
    with open_store(postgres_url, group_commit=True) as store:
        games = []
        for name in "abcd":
            player = store.local_player(name).id
            record = store.add_game(player, Game.from_board(OPEN, seed=len(games)))
            games.append((player, record.id))
        store.flush()
        played = {}
        guesses = 0
        for _ in range(5):  # a batch of twenty moves, as the server's store thread runs them
            for player, game_id in games:
                board = store.get_game(player, game_id).board
                direction = board.legal_moves()[0]
                # Guessed, as the server's store thread sends each move of a game it wrote last.
                with store.guessing() if guessed else contextlib.nullcontext() as guess:
                    played[game_id] = store.move(player, game_id, direction).game.revision
                guesses += guess is not None and guess.used
        store.flush()  # the moment the server acknowledges the batch
        # Every move but each game's first (the store had not written the game yet).
        assert guesses == (16 if guessed else 0)
        postgres_server.restart()
    with open_store(postgres_url) as store:
        for player, game_id in games:
            assert store.get_game(player, game_id).revision == played[game_id]
