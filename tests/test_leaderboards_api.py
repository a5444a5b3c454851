"""The leaderboard and public replay API over HTTP against the real app."""

from __future__ import annotations

import time
from datetime import UTC, datetime
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from test_leaderboards import finish
from twenty48.game import Game
from twenty48.rules import Board
from twenty48.store import Store, transfer
from twenty48.web import create_app
from twenty48.web.guard import COOKIE_NAME

# The app over HTTP (a TestClient): integration, not in `pytest -m unit`.
pytestmark = pytest.mark.integration

#: 2026-12-01 12:00 UTC.
NOON = datetime(2026, 12, 1, 12, tzinfo=UTC).timestamp()
DAY = "2026-12-01"


@pytest.fixture
def store(tmp_path: Path):
    with Store.open(tmp_path / "api.sqlite3") as s:
        yield s


@pytest.fixture
def clock() -> list[float]:
    return [NOON]


@pytest.fixture
def app(store: Store, clock: list[float]):
    return create_app(store, clock=lambda: clock[0])


def player(client: TestClient, store: Store, name: str) -> int:
    assert client.put("/api/me", json={"name": name}).status_code == 200
    return store.find_web_player(client.cookies[COOKIE_NAME]).id


def play_out(client: TestClient, state: dict) -> dict:
    """Play the game through the API until it is over, pushing up and left first."""
    while not state["over"]:
        legal = {d.value for d in Board.from_rows(state["board"]).legal_moves()}
        direction = next(d for d in ("up", "left", "right", "down") if d in legal)
        body = {"direction": direction, "revision": state["revision"]}
        state = client.post(f"/api/games/{state['id']}/move", json=body).json()["state"]
    return state


def test_two_players_finish_the_daily_game_and_the_board_orders_them(app, store: Store, clock) -> None:
    clock[0] = time.time()  # the daily challenge is today's, by the server's own clock
    with TestClient(app) as ada, TestClient(app) as bob, TestClient(app) as visitor:
        games = {}
        for client, name in ((ada, "Ada"), (bob, "Bob")):
            player(client, store, name)
            state = play_out(client, client.post("/api/games", json={"daily": True}).json())
            games[name] = (state["score"], state["id"])
        answer = bob.get("/api/leaderboard", params={"board": "daily"})
        assert answer.status_code == 200
        body = answer.json()
        assert body["board"] == "daily" and body["variant"] == "classic"
        expected = sorted(games, key=lambda n: -games[n][0])  # a tie: Ada, who finished first
        assert [e["name"] for e in body["entries"]] == expected
        assert [e["rank"] for e in body["entries"]] == [1, 2]
        assert [e["game_id"] for e in body["entries"]] == [games[n][1] for n in expected]
        fields = {"rank", "name", "score", "max_tile", "moves", "finished_at", "game_id"}
        assert set(body["entries"][0]) == fields
        assert body["me"]["name"] == "Bob" and body["me"]["rank"] == expected.index("Bob") + 1
        assert visitor.get("/api/leaderboard?board=daily").json()["me"] is None
        # Today's games are not public yet; after the day they are, for anyone.
        game_id = games["Ada"][1]
        assert visitor.get(f"/api/public/games/{game_id}/replay").status_code == 404
        assert visitor.get(f"/api/public/games/{game_id}/positions").status_code == 404
        day = body["date"]
        clock[0] += 24 * 3600
        replay = visitor.get(f"/api/public/games/{game_id}/replay")
        assert replay.status_code == 200 and replay.json()["id"] == game_id
        assert replay.json()["seed"] is not None
        positions = visitor.get(f"/api/public/games/{game_id}/positions", params={"from": 0, "count": 3})
        assert positions.status_code == 200 and len(positions.json()["positions"]) == 3
        that_day = visitor.get(f"/api/leaderboard?board=daily&date={day}").json()
        assert [e["name"] for e in that_day["entries"]] == expected


def test_a_finished_daily_game_is_public_only_after_its_day(app, store: Store, clock: list[float]) -> None:
    with TestClient(app) as ada, TestClient(app) as visitor:
        me = player(ada, store, "Ada")
        game = store.daily_game(me, DAY)
        finish(store, me, game.id)
        assert visitor.get(f"/api/public/games/{game.id}/replay").status_code == 404
        clock[0] += 12 * 3600  # midnight UTC: the next day
        assert visitor.get(f"/api/public/games/{game.id}/replay").status_code == 200


def test_another_players_unranked_or_unfinished_game_stays_private(app, store: Store) -> None:
    with TestClient(app) as ada, TestClient(app) as visitor:
        me = player(ada, store, "Ada")
        practice = store.new_game(me, seed=5)
        finish(store, me, practice.id)
        playing = store.new_game(me, ranked=True)
        for game_id in (practice.id, playing.id, 10**6):
            for part in ("replay", "positions"):
                assert visitor.get(f"/api/public/games/{game_id}/{part}").status_code == 404
        # The player's own endpoints still answer the player.
        assert ada.get(f"/api/games/{practice.id}/replay").status_code == 200
        assert visitor.get(f"/api/public/games/{practice.id}").status_code == 404


def test_a_public_game_names_its_player_and_result(app, store: Store) -> None:
    with TestClient(app) as ada, TestClient(app) as visitor:
        me = player(ada, store, "Ada")
        game = store.new_game(me, ranked=True)
        finish(store, me, game.id)
        ended = store.get_game(me, game.id)
        answer = visitor.get(f"/api/public/games/{game.id}")
        assert answer.status_code == 200
        assert answer.json() == {
            "id": game.id,
            "name": "Ada",
            "variant": "classic",
            "size": "4x4",
            "score": ended.score,
            "max_tile": ended.max_tile,
            "moves": ended.moves,
            "daily": None,
            "finished_at": ended.finished_at,
        }


def test_the_all_time_board_and_me_off_the_page(app, store: Store) -> None:
    with TestClient(app) as ada, TestClient(app) as bob:
        for client, name in ((ada, "Ada"), (bob, "Bob")):
            me = player(client, store, name)
            finish(store, me, store.new_game(me, ranked=True).id)
        body = ada.get("/api/leaderboard", params={"board": "all-time", "limit": 1, "offset": 1}).json()
        assert len(body["entries"]) == 1 and body["entries"][0]["rank"] == 2
        assert body["me"]["name"] == "Ada" and body["date"] is None
        first = ada.get("/api/leaderboard?limit=1").json()["entries"][0]
        assert {first["name"], body["entries"][0]["name"]} == {"Ada", "Bob"}


@pytest.mark.parametrize(
    "query",
    [
        "board=weekly",
        "variant=chess",
        "board=daily&variant=merge",
        "board=daily&date=2026-02-30",
        "board=daily&date=12/01/2026",
        "board=daily&date=2026-12-02",  # tomorrow, UTC
        "board=all-time&date=2026-12-01",
        "limit=0",
        "limit=101",
        "limit=1.5",
        "offset=-1",
        "offset=100001",
    ],
)
def test_leaderboard_parameters_are_checked(app, query: str) -> None:
    with TestClient(app) as visitor:
        answer = visitor.get(f"/api/leaderboard?{query}")
        assert answer.status_code == 422, answer.json()
        assert answer.json()["detail"]


@pytest.mark.parametrize(
    ("link", "fragment"),
    [("/public/7", "/#/public/7"), ("/public/7/12", "/#/public/7/12"), ("/public/007/0", "/#/public/7/0")],
)
def test_a_shared_link_sends_the_browser_to_the_page(app, link: str, fragment: str) -> None:
    with TestClient(app) as visitor:
        answer = visitor.get(link, follow_redirects=False)
        assert answer.status_code == 307 and answer.headers["location"] == fragment


@pytest.mark.parametrize(
    ("link", "fragment"),
    [
        ("/public/0", "/#/public/0"),
        ("/public/1_0", "/#/public/1_0"),
        ("/public/+1", "/#/public/%2B1"),
        ("/public/%EF%BC%91", "/#/public/%EF%BC%91"),  # a full-width 1
        ("/public/7/1.0", "/#/public/7/1.0"),
        ("/public/" + "9" * 25, "/#/public/" + "9" * 25),
        ("/public/7/" + "9" * 5000, "/#/public/7/" + "9" * 32),
        ("/public/%3Cscript%3E", "/#/public/%3Cscript%3E"),
    ],
)
def test_a_shared_link_that_names_no_game_still_opens_the_page(app, link: str, fragment: str) -> None:
    # The page says the link names no game, in the reader's language; the API's checks are its own.
    with TestClient(app) as visitor:
        answer = visitor.get(link, follow_redirects=False)
        assert answer.status_code == 307 and answer.headers["location"] == fragment, answer.text


def test_a_shared_link_takes_no_move_as_a_query(app) -> None:
    with TestClient(app) as visitor:
        assert visitor.get("/public/7?move=1_0", follow_redirects=False).headers["location"] == "/#/public/7"


def test_assisted_chosen_seed_and_imported_games_never_rank(app, store: Store, clock: list[float]) -> None:
    with TestClient(app) as ada, TestClient(app) as visitor:
        player(ada, store, "Ada")
        chosen = play_out(ada, ada.post("/api/games", json={"seed": 5}).json())
        assisted = ada.post("/api/games", json={}).json()
        direction = Board.from_rows(assisted["board"]).legal_moves()[0].value
        moved = ada.post(
            f"/api/games/{assisted['id']}/move",
            json={"direction": direction, "revision": assisted["revision"]},
        ).json()["state"]
        assisted = play_out(
            ada, ada.post(f"/api/games/{assisted['id']}/undo", json={"revision": moved["revision"]}).json()
        )
        game = Game.new(6)
        while not game.over:
            game.play(game.board.legal_moves()[0])
        imported = ada.post("/api/import", json=transfer.export_game(game, True)).json()["imported"]
        assert len(imported) == 1
        clock[0] += 2 * 24 * 3600
        board = ada.get("/api/leaderboard?board=all-time").json()
        assert board["entries"] == [] and board["me"] is None
        for game_id in (chosen["id"], assisted["id"], *imported):
            assert visitor.get(f"/api/public/games/{game_id}/replay").status_code == 404
        # A ranked game played out is on the board.
        ranked = play_out(ada, ada.post("/api/games", json={}).json())
        assert [e["game_id"] for e in ada.get("/api/leaderboard").json()["entries"]] == [ranked["id"]]


def test_a_daily_game_left_at_midnight_is_played_on_off_its_closed_board(
    app, store: Store, clock: list[float]
) -> None:
    with TestClient(app) as ada:
        player(ada, store, "Ada")
        state = ada.post("/api/games", json={"daily": True}).json()
        for _ in range(6):
            direction = Board.from_rows(state["board"]).legal_moves()[0].value
            body = {"direction": direction, "revision": state["revision"]}
            state = ada.post(f"/api/games/{state['id']}/move", json=body).json()["state"]
        that_day = {"board": "daily", "date": DAY}
        left = ada.get("/api/leaderboard", params=that_day).json()
        assert [e["score"] for e in left["entries"]] == [state["score"]]
        clock[0] += 12 * 3600  # midnight UTC: the tab still shows the game, and plays on
        ended = play_out(ada, ada.get("/api/game").json())
        assert ended["id"] == state["id"] and ended["over"] and ended["moves"] > state["moves"]
        assert not ended["ranked"] and ended["seed"] is not None
        assert ada.get("/api/leaderboard", params=that_day).json() == left
        assert ada.get("/api/leaderboard").json()["entries"] == []
        assert ada.get("/api/daily").json()["game_id"] is None  # today's is another game
