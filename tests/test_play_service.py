"""The play use cases (``twenty48.play_service``): each move is played once per request, by the
store, whichever front end asks, on both store backends (``location``).

The counts come from the real ``Game.play`` wrapped to count its calls (every move, the store's and
a front end's, goes through it) in real requests through the real app and the real terminal
session: nothing of the store is mocked."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from twenty48 import spawns
from twenty48.game import Game
from twenty48.play_service import PlayService, pending_refusal
from twenty48.rules import Board, Direction
from twenty48.store import ActionRejectedError, StaleRevisionError, Store, open_store
from twenty48.tui.session import Session
from twenty48.web import create_app
from twenty48.web.limits import Limits


@pytest.fixture
def store(location: Path | str) -> Iterator[Store]:
    with open_store(location) as s:
        yield s


@pytest.fixture
def client(store: Store) -> Iterator[TestClient]:
    with TestClient(create_app(store, limits=Limits(new_games_per_minute=1000))) as c:
        yield c


class Counted:
    """How many times each wrapped ``Game`` method ran since the last ``take``."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, *names: str) -> None:
        self.calls = dict.fromkeys(names, 0)
        for name in names:
            monkeypatch.setattr(Game, name, self._counting(name, getattr(Game, name)))

    def _counting(self, name: str, real: Callable[..., object]) -> Callable[..., object]:
        def counted(*args: object, **kwargs: object) -> object:
            self.calls[name] += 1
            return real(*args, **kwargs)

        # ``from_dict`` is a classmethod: wrapped as one, so that it still receives the class.
        return classmethod(lambda cls, *a, **k: counted(*a, **k)) if name == "from_dict" else counted

    def take(self) -> dict[str, int]:
        calls, self.calls = self.calls, dict.fromkeys(self.calls, 0)
        return calls


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> Counted:
    return Counted(monkeypatch, "play", "from_dict")


@pytest.fixture
def stored(raw_sql: Callable[[str], list[tuple[object, ...]]]) -> Callable[[], tuple[object, ...]]:
    """The players and games stored now."""
    return lambda: raw_sql("SELECT (SELECT count(*) FROM players), (SELECT count(*) FROM games)")[0]


def still_and_legal(board: Board) -> tuple[Direction, Direction] | None:
    """A direction that changes nothing on ``board`` and one that changes it; None when every
    direction changes it (a new board's two tiles may both stand clear of every edge)."""
    legal = board.legal_moves()
    still = [d for d in Direction if d not in legal]
    return (still[0], legal[0]) if still else None


def pending_with_a_still_move(client: TestClient) -> tuple[dict, Direction, Direction]:
    """A new visitor's game shown (id 0) on which some direction changes nothing."""
    for _ in range(100):
        client.cookies.clear()
        shown = client.get("/api/game").json()
        found = still_and_legal(Board.from_rows(shown["board"]))
        if found is not None:
            return shown, *found
    raise AssertionError("no new board with a direction that changes nothing in 100")


# ---- the browser ----------------------------------------------------------------------------------


@pytest.mark.integration
def test_a_new_visitors_first_move_is_stored_with_its_game_and_played_once(
    client: TestClient, counted: Counted, stored: Callable[[], tuple[object, ...]]
) -> None:
    shown, still, legal = pending_with_a_still_move(client)
    counted.take()
    # A move that changes nothing is answered from the game shown, which is asked, not played.
    answer = client.post("/api/games/0/move", json={"direction": still.value, "revision": 0})
    assert answer.status_code == 200 and not answer.json()["changed"]
    assert answer.json()["state"] == shown
    assert counted.take() == {"play": 0, "from_dict": 0} and stored() == (0, 0)
    # The first move that changes it stores the player, the game and the move: one play.
    answer = client.post("/api/games/0/move", json={"direction": legal.value, "revision": 0})
    assert answer.status_code == 200 and answer.json()["changed"]
    assert counted.take()["play"] == 1
    state = answer.json()["state"]
    assert state["id"] > 0 and state["moves"] == 1 and state["revision"] == 1 and stored() == (1, 1)
    # The next move, on the stored game: one play too.
    legal = Board.from_rows(state["board"]).legal_moves()[0]
    answer = client.post(
        f"/api/games/{state['id']}/move", json={"direction": legal.value, "revision": state["revision"]}
    )
    assert answer.status_code == 200 and answer.json()["state"]["moves"] == 2
    assert counted.take()["play"] == 1


@pytest.mark.integration
def test_a_pending_games_refusals_store_nothing_and_copy_nothing(
    client: TestClient, counted: Counted, stored: Callable[[], tuple[object, ...]]
) -> None:
    shown = client.get("/api/game").json()
    counted.take()
    for action in ("undo", "keep-going"):
        answer = client.post(f"/api/games/0/{action}", json={"revision": 0})
        assert answer.status_code == 409 and answer.json()["state"] == shown, action
    stale = client.post("/api/games/0/move", json={"direction": "left", "revision": 3})
    assert stale.status_code == 409 and stale.json()["error"] == "stale_revision"
    assert stale.json()["state"] == shown
    assert counted.take() == {"play": 0, "from_dict": 0} and stored() == (0, 0)


# ---- the terminal ---------------------------------------------------------------------------------


def test_the_terminal_plays_each_saved_move_once_and_shows_the_stored_game(
    store: Store, counted: Counted
) -> None:
    session = Session.resume(store, seed=12)
    player = store.local_player().id
    for _ in range(5):
        counted.take()
        turn = session.move(session.game.board.legal_moves()[0])
        assert turn.changed and counted.take()["play"] == 1
    stored_game = store.load_game(player, store.current_game(player).id)
    assert session.game.to_dict() == stored_game.to_dict()
    # The game shown is the session's own: playing it changes nothing stored.
    session.game.move(session.game.board.legal_moves()[0])
    assert store.load_game(player, store.current_game(player).id).to_dict() == stored_game.to_dict()


def test_an_illegal_terminal_move_plays_nothing_and_writes_nothing(store: Store, counted: Counted) -> None:
    session = Session.resume(store, game=Game.from_board(Board.from_rows([[2, 0, 0, 0], *[[0] * 4] * 3]), 1))
    revision = store.current_game(store.local_player().id).revision
    counted.take()
    turn = session.move(Direction.LEFT)
    assert not turn.changed and turn.slides == ((0, 0),) and counted.take()["play"] == 0
    assert store.current_game(store.local_player().id).revision == revision


def test_a_move_whose_save_fails_is_played_once_here_and_kept(store: Store, counted: Counted) -> None:
    session = Session.resume(store, seed=8)
    store.close()  # every later write fails
    before = session.game.to_dict()
    reference = Game.from_dict(before)
    direction = session.game.board.legal_moves()[0]
    counted.take()
    turn = session.move(direction)
    assert turn == reference.move(direction)
    assert counted.take()["play"] == 2  # the session's, once, and the reference's above
    assert session.game.to_dict() == reference.to_dict() and not session.saving
    assert session.take_save_error() is not None


# ---- the service over the store -------------------------------------------------------------------


def test_a_pending_games_first_move_is_one_transaction(store: Store) -> None:
    play = PlayService(store)
    player = store.web_player("p" * 43).id
    found = None
    while found is None:
        pending = Game.new(spawns.random_key())
        found = still_and_legal(pending.board)
    still, legal = found
    shown = pending.to_dict()
    assert pending_refusal(pending, 0, still) is not None
    assert pending_refusal(pending, 0, legal) is None
    outcome = play.move_pending(player, pending, legal, revision=0)
    assert pending.to_dict() == shown  # the store played its own copy
    reference = Game.from_dict(shown)
    assert outcome.turn == reference.move(legal)
    assert (outcome.game.moves, outcome.game.revision, outcome.game.ranked) == (1, 1, True)
    assert store.load_game(player, outcome.game.id).to_dict() == reference.to_dict()
    # The other tab's first move finds the game, now at revision 1.
    with pytest.raises(StaleRevisionError):
        play.move_pending(player, Game.from_dict(shown), legal, revision=0)


def test_a_refused_first_move_keeps_the_game_stored_and_a_failed_one_stores_nothing(store: Store) -> None:
    play = PlayService(store)
    refused_player = store.web_player("r" * 43).id
    pending = Game.new(spawns.random_key())
    with pytest.raises(ActionRejectedError) as refused:
        play.move_pending(refused_player, pending, "left", cell=0, revision=0)
    # As adopting it alone would have: the game is stored, unplayed, and the error carries it.
    assert refused.value.game.id == store.current_game(refused_player).id and refused.value.game.moves == 0
    failed_player = store.web_player("f" * 43).id
    with pytest.raises(ValueError):
        play.move_pending(failed_player, Game.new(spawns.random_key()), "left", cell=99, revision=0)
    assert store.games(failed_player) == []
    # The id the rolled-back game had is not answered from the cache for the game that gets it.
    later = Game.new(spawns.random_key())
    record = play.add_game(failed_player, later)
    assert store.load_game(failed_player, record.id).to_dict() == later.to_dict()


def test_a_stored_move_hands_back_a_copy_of_the_played_game(store: Store) -> None:
    play = PlayService(store)
    player = store.local_player().id
    record = play.new_game(player, 5)
    direction = record.board.legal_moves()[0]
    outcome = play.move(player, record.id, direction, revision=record.revision, game_copy=True)
    assert outcome.game_copy is not None
    assert outcome.game_copy.to_dict() == store.load_game(player, record.id).to_dict()
    outcome.game_copy.move(outcome.game_copy.board.legal_moves()[0])  # the caller's own
    assert store.load_game(player, record.id).moves == 1
    assert play.move(player, record.id, direction).game_copy is None
