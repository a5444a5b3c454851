"""Guessed moves on PostgreSQL (``Store.guessing``): a move on a game this process wrote last is sent
without waiting for its game's row, on the guess that the row is as this process left it. The
database checks the guess under the player's row lock; a wrong guess changes nothing, costs no
other transaction its commit, and the store thread makes the call again before it answers."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator

import psycopg
import pytest

from twenty48.game import Game
from twenty48.rules import Board
from twenty48.store import Store, open_store
from twenty48.store.backends.postgres import _SendingConnection
from twenty48.store.errors import StaleRevisionError, StoreError
from twenty48.store.games import operations
from twenty48.store.records import GameRecord
from twenty48.web.worker import StoreWorker

START = Board.from_rows([[2, 2, 0, 0], [0, 4, 0, 0], [0] * 4, [0, 0, 0, 2]])


@pytest.fixture
def store(postgres_url: str) -> Iterator[Store]:
    with open_store(postgres_url, group_commit=True) as opened:
        yield opened


def written_last(store: Store, name: str = "a", seed: int = 1) -> GameRecord:
    """A player's game that this store wrote last: a move played (and flushed) without guessing."""
    player = store.local_player(name).id
    record = store.add_game(player, Game.from_board(START, seed=seed))
    record = store.move(player, record.id, "left", revision=record.revision).game
    store.flush()
    return record


def stored(url: str, record: GameRecord) -> GameRecord:
    """The game as the database holds it, read by a store with nothing cached."""
    with open_store(url) as fresh:
        return fresh.get_game(record.player_id, record.id)


def guessed_move(store: Store, record: GameRecord, direction: str, revision: int | None = None):
    with store.guessing() as guess:
        try:
            outcome = store.move(record.player_id, record.id, direction, revision=revision)
        except StaleRevisionError as exc:
            outcome = exc
    return guess, outcome


def test_a_guessed_move_is_sent_without_waiting_for_the_database(store: Store, postgres_url: str) -> None:
    record = written_last(store)
    with psycopg.connect(postgres_url) as holder:
        # Another session holds the player's row lock: the database cannot answer yet.
        holder.execute("SELECT 1 FROM players WHERE id = %s FOR UPDATE", (record.player_id,))
        done = threading.Event()
        guesses = []

        def play() -> None:
            guesses.append(guessed_move(store, record, "down", record.revision))
            done.set()

        threading.Thread(target=play, daemon=True).start()
        assert done.wait(5), "the guessed move waited for the database"
        guess, outcome = guesses[0]
        assert guess.used and not guess.failed
        assert outcome.game.revision == record.revision + 1
        assert stored(postgres_url, record).revision == record.revision
        holder.commit()
    store.flush()
    assert not guess.failed
    assert stored(postgres_url, record) == outcome.game


def test_a_move_that_is_not_guessed_waits_for_the_row_lock(store: Store, postgres_url: str) -> None:
    record = written_last(store)
    with psycopg.connect(postgres_url) as holder:
        holder.execute("SELECT 1 FROM players WHERE id = %s FOR UPDATE", (record.player_id,))
        done = threading.Event()
        thread = threading.Thread(
            target=lambda: (store.move(record.player_id, record.id, "down"), done.set()), daemon=True
        )
        thread.start()
        assert not done.wait(0.5)
        holder.commit()
        assert done.wait(5)
    store.flush()
    assert stored(postgres_url, record).revision == record.revision + 1


def test_a_guess_another_process_made_wrong_changes_nothing(store: Store, postgres_url: str) -> None:
    record = written_last(store)
    with open_store(postgres_url) as other:
        moved = other.move(record.player_id, record.id, "down", revision=record.revision).game
    guess, _ = guessed_move(store, record, "right")
    store.flush()
    assert guess.used and guess.failed
    assert stored(postgres_url, record) == moved
    # Made again, without guessing, the move is played on the other process's game.
    legal = moved.board.legal_moves()[0].value
    again = store.move(record.player_id, record.id, legal).game
    store.flush()
    assert again.revision == moved.revision + 1 and again.moves == moved.moves + 1
    assert stored(postgres_url, record) == again
    game = store.load_game(record.player_id, record.id)
    replayed = Game.replay(game.seed, [str(a) for a in game.actions], game.variant.name, game.start)
    assert (replayed.board, replayed.score) == (game.board, game.score)


def test_a_wrong_guess_costs_no_other_transaction_its_commit(store: Store, postgres_url: str) -> None:
    wrong, right, after = (written_last(store, name, seed) for name, seed in (("a", 1), ("b", 2), ("c", 3)))
    with open_store(postgres_url) as other:
        other.move(wrong.player_id, wrong.id, "down", revision=wrong.revision)
    failed, _ = guessed_move(store, wrong, "right")
    # The next guess is sent at once, in the same batch: the first one's failure must not reach it.
    kept, outcome = guessed_move(store, right, "down", right.revision)
    # Neither a write that is not guessed (it reads their answers first).
    third = store.move(after.player_id, after.id, "down", revision=after.revision).game
    store.flush()
    assert failed.failed and not kept.failed
    assert stored(postgres_url, right) == outcome.game
    assert stored(postgres_url, after) == third


def test_a_guessed_move_that_raises_midway_writes_nothing(
    store: Store, postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    record = written_last(store)

    def broken(*args: object) -> None:
        raise RuntimeError("after the move's log was sent")

    monkeypatch.setattr(operations.checkpoints, "note_move", broken)
    with pytest.raises(RuntimeError), store.guessing() as guess:
        store.move(record.player_id, record.id, "down", revision=record.revision)
    assert guess.failed
    store.flush()
    assert stored(postgres_url, record) == record
    monkeypatch.undo()
    # The cached game was played before the error: it is not used again.
    again = store.move(record.player_id, record.id, "down", revision=record.revision).game
    store.flush()
    assert again.revision == record.revision + 1 == stored(postgres_url, record).revision


def test_a_guessed_refusal_is_made_again_to_be_told_from_the_database(store: Store) -> None:
    record = written_last(store)
    guess, refused = guessed_move(store, record, "down", record.revision - 1)
    assert isinstance(refused, StaleRevisionError) and guess.failed
    store.flush()


def test_the_store_thread_answers_a_wrong_guess_from_the_call_made_again(
    store: Store, postgres_url: str
) -> None:
    record = written_last(store)
    with open_store(postgres_url) as other:
        moved = other.move(record.player_id, record.id, "down", revision=record.revision).game
    worker = StoreWorker(store)

    async def both() -> tuple[object, object]:
        stale = worker.run(store.move, record.player_id, record.id, "up", revision=record.revision)
        current = worker.run(store.move, record.player_id, record.id, "right", revision=moved.revision)
        return tuple(await asyncio.gather(stale, current, return_exceptions=True))

    try:
        stale, current = asyncio.run(both())
    finally:
        worker.close()
    # Whichever of the two the batch guessed, each answer is the database's.
    assert isinstance(stale, StaleRevisionError)
    assert stale.game.revision >= moved.revision
    assert current.game.revision == moved.revision + 1
    assert stored(postgres_url, record) == current.game


def test_a_call_that_goes_on_after_its_wrong_guess_stops_there(store: Store, postgres_url: str) -> None:
    record = written_last(store)
    with open_store(postgres_url) as other:
        other.move(record.player_id, record.id, "down", revision=record.revision)
    with store.guessing() as guess:
        store.move(record.player_id, record.id, "right")
        # Its next transaction reads the guess's answer first: what it would build on did not happen.
        with pytest.raises(StoreError):
            store.get_game(record.player_id, record.id)
    assert guess.failed
    store.flush()


def test_a_wrong_guess_leaves_every_statement_usable(store: Store, postgres_url: str) -> None:
    # psycopg prepares a statement on the server in the same message as its sixth run: here the
    # guessed move's (after five moves), whose guess is wrong, so the server never makes what
    # psycopg then believes prepared ("prepared statement _pg3_6 does not exist" at the next move,
    # until a failed guess put its connection away).
    record = written_last(store)
    for _ in range(4):
        board = store.get_game(record.player_id, record.id).board
        record = store.move(record.player_id, record.id, board.legal_moves()[0].value).game
    store.flush()
    with open_store(postgres_url) as other:
        moved = other.move(record.player_id, record.id, record.board.legal_moves()[0].value).game
    guess, _ = guessed_move(store, record, record.board.legal_moves()[0].value)
    store.flush()
    assert guess.failed
    for _ in range(2):
        legal = moved.board.legal_moves()[0].value
        with store.guessing():
            moved = store.move(record.player_id, record.id, legal, revision=moved.revision).game
        store.flush()
    assert stored(postgres_url, record) == moved


def test_guessed_moves_are_sent_without_reading_any_answer(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    records = [written_last(store, name, seed) for name, seed in (("a", 1), ("b", 2), ("c", 3))]
    waits = []
    wait = psycopg.waiting.wait

    def counted(*args: object, **kwargs: object) -> object:
        waits.append(args)
        return wait(*args, **kwargs)  # type: ignore[arg-type]

    # psycopg's wait polls the socket, and reads what answers came, whenever it waits for anything.
    monkeypatch.setattr(psycopg.waiting, "wait", counted)
    guesses = [guessed_move(store, record, "down", record.revision)[0] for record in records]
    assert all(guess.used for guess in guesses)
    assert waits == []
    store.flush()
    assert waits and not any(guess.failed for guess in guesses)


def test_a_guessed_batch_larger_than_the_socket_holds_is_sent_whole(store: Store, postgres_url: str) -> None:
    player = store.local_player("a").id
    record = store.add_game(player, Game.new(7, "classic", "6x6"))
    record = store.move(player, record.id, record.board.legal_moves()[0].value).game
    store.flush()
    with psycopg.connect(postgres_url) as holder:
        # The database reads nothing more of this connection until the lock is let go: a few
        # hundred 6x6 moves (their states with their undo boards) fill the socket's buffers, and
        # libpq keeps the rest of what is sent.
        holder.execute("SELECT 1 FROM players WHERE id = %s FOR UPDATE", (player,))
        guesses = []
        for _ in range(300):
            legal = record.board.legal_moves()
            if not legal:
                break
            guess, outcome = guessed_move(store, record, legal[0].value, record.revision)
            guesses.append(guess)
            record = outcome.game
        threading.Timer(0.5, holder.commit).start()
        store.flush()
    assert len(guesses) > 100 and not any(guess.failed for guess in guesses)
    assert stored(postgres_url, record) == record


def test_a_sending_connection_still_waits_for_an_answer_it_cannot_go_on_without(postgres_url: str) -> None:
    # Outside a pipeline a statement's answer is read before it returns: "writable" cannot stand
    # in for it, and the connection waits as psycopg waits.
    with _SendingConnection.connect(postgres_url, autocommit=True) as conn:
        conn.sending = True
        assert conn.execute("SELECT pg_sleep(0.05), 7").fetchone() == ("", 7)
