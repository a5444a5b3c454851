"""Ranked games and the daily challenge through the HTTP API, on both store backends (``location``)."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from twenty48.game import Game
from twenty48.rules import Board
from twenty48.store import Store, open_store
from twenty48.web import create_app
from twenty48.web.days import seconds_to_midnight
from twenty48.web.guard import COOKIE_NAME
from twenty48.web.limits import Limits

# The app over HTTP (a TestClient): integration, not in `pytest -m unit`.
pytestmark = pytest.mark.integration

OVER = Board.from_rows([[2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4], [4, 2, 4, 2]])


@pytest.fixture
def store(location: Path | str):
    with open_store(location) as s:
        yield s


@pytest.fixture
def app(store: Store):
    return create_app(store, limits=Limits(new_games_per_minute=1000))


@pytest.fixture
def client(app):
    with TestClient(app) as c:
        yield c


def legal(state: dict) -> str:
    return Board.from_rows(state["board"]).legal_moves()[0].value


def move(client: TestClient, state: dict, direction: str | None = None, **extra) -> dict:
    body = {"direction": direction or legal(state), "revision": state["revision"], **extra}
    answer = client.post(f"/api/games/{state['id']}/move", json=body)
    assert answer.status_code == 200, answer.text
    return answer.json()


def player_of(client: TestClient, store: Store) -> int:
    return store.web_player(client.cookies[COOKIE_NAME]).id


def play_out(client: TestClient, state: dict) -> dict:
    while not state["over"]:
        state = move(client, state)["state"]
    return state


def test_a_ranked_game_shows_no_seed_until_it_is_over(client: TestClient, store: Store) -> None:
    state = client.post("/api/games").json()
    assert (state["ranked"], state["spawns"], state["seed"]) == (True, "blake2b", None)
    answer = move(client, state)
    assert answer["state"]["seed"] is None
    stale = client.post(f"/api/games/{state['id']}/move", json={"direction": "up", "revision": 0})
    assert stale.status_code == 409 and stale.json()["state"]["seed"] is None
    assert "seed" in stale.json()["state"]
    refused = client.get(f"/api/games/{state['id']}/export")
    assert refused.status_code == 409 and "cannot be exported" in refused.json()["detail"]
    assert refused.json()["error"] == "game_in_progress"
    documented = client.get("/openapi.json").json()["paths"]["/api/games/{game_id}/export"]["get"]
    assert "game_in_progress" in documented["responses"]["409"]["description"]
    # The history says so beforehand, so the page offers no export it would be refused.
    assert [g["exportable"] for g in client.get("/api/games").json()["games"]] == [False]
    assert client.get("/api/export").json()["games"] == []
    assert client.get(f"/api/games/{state['id']}/replay").status_code == 409
    ended = play_out(client, answer["state"])
    key = store.load_game(player_of(client, store), state["id"]).seed
    assert ended["ranked"] and ended["seed"] == key.hex()
    replay = client.get(f"/api/games/{state['id']}/replay").json()
    assert (replay["seed"], replay["spawns"]) == (key.hex(), "blake2b")
    assert Game.replay(bytes.fromhex(replay["seed"]), replay["actions"]).board == Board.from_rows(
        ended["board"]
    )
    exported = client.get(f"/api/games/{state['id']}/export").json()
    assert (exported["spawns"], exported["seed"]) == ("blake2b", key.hex())
    assert [g["exportable"] for g in client.get("/api/games").json()["games"]] == [True]
    # Imported elsewhere it replays exactly, and never ranks.
    with TestClient(client.app) as other:
        imported = other.post("/api/import", json=exported).json()["imported"]
        copy = other.get(f"/api/games/{imported[0]}").json()
        assert (copy["ranked"], copy["board"], copy["seed"]) == (False, ended["board"], key.hex())


def test_a_new_visitors_first_game_is_ranked_and_keeps_its_key(client: TestClient) -> None:
    shown = client.get("/api/game").json()
    assert (shown["id"], shown["ranked"], shown["seed"]) == (0, True, None)
    after = move(client, shown)["state"]
    assert after["ranked"] and after["seed"] is None and after["id"] > 0


def test_a_chosen_seed_and_a_prepared_board_never_rank(client: TestClient, store: Store) -> None:
    practice = client.post("/api/games", json={"seed": 99}).json()
    assert (practice["ranked"], practice["seed"], practice["spawns"]) == (False, 99, "splitmix64")
    player = player_of(client, store)
    store.add_game(player, Game.from_board(OVER, seed=2))
    assert not client.get("/api/game").json()["ranked"]


def test_the_terminal_game_never_ranks(store: Store) -> None:
    record = store.current_game(store.local_player().id)
    assert not record.ranked and record.seed is not None


@pytest.mark.parametrize("assist", ["undo", "hint", "auto"])
def test_an_assisted_action_unranks_the_game(client: TestClient, assist: str) -> None:
    state = move(client, client.post("/api/games").json())["state"]
    game = f"/api/games/{state['id']}"
    if assist == "undo":
        state = client.post(f"{game}/undo", json={"revision": state["revision"]}).json()
    elif assist == "hint":
        assert client.post(f"{game}/hint", params={"time_ms": 20}).status_code == 200
        state = client.get(game).json()
    else:
        state = move(client, state, auto=True)["state"]
    # Unranked for good, and its key no longer secret: knowing it changes nothing now.
    assert not state["ranked"] and isinstance(state["seed"], str)
    assert not move(client, state)["state"]["ranked"]


def test_a_visitor_who_chooses_a_name_first_plays_on_the_game_shown(client: TestClient) -> None:
    shown = client.get("/api/game").json()
    assert shown["id"] == 0
    assert client.put("/api/me", json={"name": "Ada"}).status_code == 200
    stored = move(client, shown)["state"]
    assert stored["id"] > 0 and stored["ranked"] and stored["moves"] == 1


def test_a_hint_on_a_new_visitors_game_stores_it_unranked(client: TestClient) -> None:
    shown = client.get("/api/game").json()
    hint = client.post("/api/games/0/hint", params={"time_ms": 20}).json()
    assert (hint["game_id"], hint["revision"]) == (0, 0)
    stored = client.get("/api/game").json()
    assert stored["id"] > 0 and stored["board"] == shown["board"] and not stored["ranked"]
    # The tab still showing id 0 plays on the stored game.
    assert move(client, shown)["state"]["id"] == stored["id"]


def test_the_daily_game_starts_resumes_and_counts_once(client: TestClient, store: Store) -> None:
    today = datetime.now(UTC).date().isoformat()
    before = client.get("/api/daily").json()
    assert (before["date"], before["game_id"], before["rank"]) == (today, None, None)
    assert 0 < before["seconds_left"] <= 86_400
    # The day's entry of a name is the game started under it: the name comes first.
    assert client.put("/api/me", json={"name": "Ada"}).status_code == 200
    daily = client.post("/api/games", json={"daily": True})
    assert daily.status_code == 201
    daily = daily.json()
    assert (daily["daily"], daily["ranked"], daily["seed"], daily["variant"]) == (
        today,
        True,
        None,
        "classic",
    )
    daily = move(client, daily)["state"]
    assert client.get("/api/daily").json()["game_id"] == daily["id"]
    # The rank is the place on the day's board, where only named players stand; with it, the score
    # there, so that the page shows a place only once it means something (a score above 0).
    assert client.get("/api/daily").json()["rank"] == 1
    assert client.put("/api/me", json={"name": None}).status_code == 200
    assert client.get("/api/daily").json()["rank"] is None
    assert client.put("/api/me", json={"name": "Ada"}).status_code == 200
    placed = client.get("/api/daily").json()
    assert (placed["rank"], placed["score"]) == (1, daily["score"])
    # A practice game in between; the daily game comes back as it was left, its key still secret.
    practice = move(client, client.post("/api/games", json={"seed": 5}).json())["state"]
    left = client.get(f"/api/games/{daily['id']}").json()
    assert left["finished"] and left["seed"] is None
    assert client.get(f"/api/games/{daily['id']}/replay").status_code == 409
    resumed = client.post("/api/games", json={"daily": True}).json()
    assert (resumed["id"], resumed["moves"], resumed["current"]) == (daily["id"], 1, True)
    assert client.get(f"/api/games/{practice['id']}").json()["finished"]
    ended = play_out(client, resumed)
    assert isinstance(ended["seed"], str)
    again = client.post("/api/games", json={"daily": True}).json()
    assert again["id"] == daily["id"] and again["over"]
    assert client.get("/api/daily").json()["rank"] == 1


def test_two_players_daily_games_have_their_own_seeds(app, store: Store) -> None:
    keys = []
    for _ in range(2):
        with TestClient(app) as visitor:
            game = visitor.post("/api/games", json={"daily": True}).json()
            keys.append(store.load_game(player_of(visitor, store), game["id"]).seed)
    assert keys[0] != keys[1] and all(isinstance(k, bytes) for k in keys)


def test_the_days_board_places_each_player(app) -> None:
    with TestClient(app) as first, TestClient(app) as second:
        for client, name in ((first, "Ada"), (second, "Grace")):
            assert client.put("/api/me", json={"name": name}).status_code == 200
        games = [c.post("/api/games", json={"daily": True}).json() for c in (first, second)]
        for client, game in zip((first, second), games, strict=True):
            while game["score"] == 0:
                game = move(client, game)["state"]
        now = [c.get(f"/api/games/{g['id']}").json() for c, g in zip((first, second), games, strict=True)]
        # Best score first; at equal scores (neither finished) the earlier game.
        order = sorted(range(2), key=lambda i: (-now[i]["score"], now[i]["id"]))
        ranks = [c.get("/api/daily").json()["rank"] for c in (first, second)]
        assert [ranks[i] for i in order] == [1, 2]


@pytest.mark.parametrize(
    "body",
    [{"daily": True, "seed": 3}, {"daily": True, "variant": "merge"}, {"daily": "yes"}],
)
def test_a_daily_game_takes_no_seed_and_no_other_variant(client: TestClient, body: dict) -> None:
    assert client.post("/api/games", json=body).status_code == 422


def test_reading_the_daily_challenge_creates_nothing(client: TestClient, store: Store) -> None:
    client.get("/api/daily")
    assert store.find_web_player(client.cookies[COOKIE_NAME]) is None


def test_seconds_left_count_down_to_the_next_utc_midnight() -> None:
    assert seconds_to_midnight(datetime(2026, 12, 1, 23, 59, 30, tzinfo=UTC).timestamp()) == 30
    assert seconds_to_midnight(datetime(2026, 12, 1, 0, 0, 0, tzinfo=UTC).timestamp()) == 86_400
    assert seconds_to_midnight(datetime(2026, 12, 1, 12, 0, 0, 500_000, tzinfo=UTC).timestamp()) == 43_200


def test_the_daily_challenge_follows_the_server_clock_and_time_time(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    now = [datetime(2031, 1, 1, 23, 59, 30, tzinfo=UTC).timestamp()]
    monkeypatch.setattr("time.time", lambda: now[0])
    with TestClient(create_app(store, limits=Limits(new_games_per_minute=1000))) as client:
        before = client.get("/api/daily").json()
        assert (before["date"], before["seconds_left"]) == ("2031-01-01", 30)
        daily = client.post("/api/games", json={"daily": True}).json()
        assert daily["daily"] == "2031-01-01"
        now[0] += 60
        after = client.get("/api/daily").json()
        assert (after["date"], after["game_id"], after["seconds_left"]) == ("2031-01-02", None, 86_370)
        board = client.get("/api/leaderboard", params={"board": "daily"}).json()
        assert board["date"] == "2031-01-02"


def test_only_a_keyless_request_creates_a_ranked_game(client: TestClient) -> None:
    assert client.post("/api/games", json={"variant": "merge"}).json()["ranked"]


def test_no_get_stores_a_player_or_a_game(client: TestClient, raw_sql) -> None:
    """Every GET of the API with game 0, from visitors with nothing stored, then from a player who
    chose a name before playing (stored, without a game): nothing is stored until a move is."""
    schema = client.get("/openapi.json").json()
    # The hint's deprecated GET is the POST's former form, a write by design (it counts the hint).
    gets = [
        path.replace("{game_id}", "0")
        for path, methods in schema["paths"].items()
        if "get" in methods and not methods["get"].get("deprecated")
    ]

    def stored() -> tuple[object, ...]:
        return raw_sql("SELECT (SELECT count(*) FROM players), (SELECT count(*) FROM games)")[0]

    for path in gets:
        client.cookies.clear()
        assert client.get(path).status_code in (200, 404, 422), path  # 422: public ids start at 1
    assert stored() == (0, 0)
    client.cookies.clear()
    assert client.put("/api/me", json={"name": "Ada"}).status_code == 200
    for path in gets:
        assert client.get(path).status_code in (200, 404, 422), path
    assert stored() == (1, 0)
    assert any(path.endswith("/hint") for path in schema["paths"])
    assert not any(path.endswith("/hint") for path in gets)
    shown = client.get("/api/game").json()
    assert (shown["id"], shown["ranked"]) == (0, True) and client.get("/api/games/0").json() == shown
    played = move(client, shown)["state"]
    assert played["id"] > 0 and played["moves"] == 1 and stored() == (1, 1)
    assert client.get("/api/games/0").json() == played == client.get("/api/game").json()
    # Deleting the current game starts the next one: the GET that shows it stores nothing.
    assert client.delete(f"/api/games/{played['id']}").status_code == 204
    after = stored()
    assert client.get("/api/game").json()["id"] > played["id"] and stored() == after
