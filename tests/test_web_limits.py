"""Hostile requests against the real app in-process: cross-site requests, what creates a player or a
game, the new-game rate limit, HEAD and OPTIONS, strict ids and integral floats."""

from __future__ import annotations

import logging
import re
import sqlite3
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from httpx import Response

from twenty48.rules import Board, Direction
from twenty48.spawns import JSON_SAFE_SEED_MAX
from twenty48.store import ID_LIMIT, Store
from twenty48.web import create_app
from twenty48.web.guard import CSP
from twenty48.web.limits import Limits, RateBuckets, address_key

# The app over HTTP (a TestClient): integration, not in `pytest -m unit`.
pytestmark = pytest.mark.integration


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "web.sqlite3"


@pytest.fixture
def store(db: Path):
    with Store.open(db) as s:
        yield s


@pytest.fixture
def client(store: Store):
    with TestClient(create_app(store, limits=Limits(new_games_per_minute=3))) as c:
        yield c


def rows(db: Path, table: str) -> int:
    with sqlite3.connect(db) as check:
        return check.execute(f"SELECT count(*) FROM {table}").fetchone()[0]


def play_one(client: TestClient, state: dict) -> dict:
    direction = Board.from_rows(state["board"]).legal_moves()[0].value
    answer = client.post(
        f"/api/games/{state['id']}/move", json={"direction": direction, "revision": state["revision"]}
    )
    assert answer.status_code == 200
    return answer.json()["state"]


# ---- what creates state ---------------------------------------------------------------------------


def test_reading_and_refused_requests_create_no_player(client: TestClient, db: Path) -> None:
    for path in ("/api/best", "/api/games", "/api/games/1", "/api/games/1/replay"):
        client.cookies.clear()
        assert client.get(path).status_code in (200, 404), path
    assert client.get("/api/best").json() == {"variant": "classic", "size": "4x4", "best": 0}
    assert client.get("/api/games").json()["games"] == []
    client.cookies.clear()
    assert client.post("/api/games", json={"variant": "hexagonal"}).status_code == 422
    assert client.post("/api/games/1/move", json={"direction": "up", "revision": 0}).status_code == 404
    assert client.post("/api/games/1/hint").status_code == 404
    assert rows(db, "players") == 0 and rows(db, "games") == 0


def test_visits_without_a_cookie_create_nothing(client: TestClient, db: Path) -> None:
    for _ in range(20):
        client.cookies.clear()
        state = client.get("/api/game").json()
        assert (state["id"], state["moves"], state["ranked"], state["seed"]) == (0, 0, True, None)
    assert rows(db, "players") == 0 and rows(db, "games") == 0


def test_a_visitors_game_is_the_same_on_reload_and_stored_at_its_first_move(
    client: TestClient, db: Path
) -> None:
    shown = client.get("/api/game").json()
    assert client.get("/api/game").json() == shown == client.get("/api/games/0").json()
    # Refused actions and a move that changes nothing store nothing.
    board = Board.from_rows(shown["board"])
    illegal = [d.value for d in Direction if not board.can_move(d)]
    for direction in illegal:
        answer = client.post("/api/games/0/move", json={"direction": direction, "revision": 0}).json()
        assert not answer["changed"] and answer["state"] == shown
    assert client.post("/api/games/0/undo", json={"revision": 0}).json()["error"] == "rejected"
    assert client.post("/api/games/0/keep-going", json={"revision": 0}).json()["error"] == "rejected"
    assert client.post("/api/games/0/move", json={"direction": "up", "revision": 3}).status_code == 409
    assert (
        client.post("/api/games/0/move", json={"direction": "up", "cell": 3, "revision": 0}).status_code
        == 409
    )
    assert rows(db, "players") == 0 and rows(db, "games") == 0
    after = play_one(client, shown)
    assert after["id"] >= 1 and after["moves"] == 1 and after["ranked"] and after["seed"] is None
    assert rows(db, "players") == 1 and rows(db, "games") == 1
    # A tab still showing it reaches it under 0 while it is the current game.
    assert client.get("/api/games/0").json() == after == client.get("/api/game").json()
    state = play_one(client, client.post("/api/games").json())
    assert client.get("/api/games/0").status_code == 404
    assert client.get("/api/game").json() == state


@pytest.mark.integration
def test_every_route_of_a_game_reaches_the_visitors_first_game_under_0(client: TestClient) -> None:
    # A client that kept the id it was shown (0) before its first move, as a script may.
    state = client.get("/api/game").json()
    for _ in range(3):
        state = play_one(client, state | {"id": 0})
    stored = state["id"]
    positions = client.get("/api/games/0/positions").json()
    assert positions == client.get(f"/api/games/{stored}/positions").json()
    assert positions["total"] == 4
    assert client.get("/api/games/0/replay").json()["error"] == "game_in_progress"
    assert client.post("/api/games/0/review").status_code == 202
    assert client.get("/api/games/0/review").json()["game_id"] == stored
    assert client.delete("/api/games/0/review").status_code == 200
    assert client.get("/api/games/0/export").json()["moves"] == 3  # unranked by the review
    assert client.delete("/api/games/0").status_code == 204
    assert client.get(f"/api/games/{stored}").status_code == 404


def test_a_visitor_who_never_played_has_empty_statistics_and_history(client: TestClient, db: Path) -> None:
    stats = client.get("/api/stats").json()
    assert (stats["games"], stats["finished"], stats["best"], stats["recent"]) == (0, 0, None, [])
    assert client.get("/api/export").json() == {"format": "twenty48-history/2", "games": []}
    assert rows(db, "players") == 0


def test_another_visitors_cookie_shows_another_game(client: TestClient) -> None:
    boards = set()
    for _ in range(8):
        client.cookies.clear()
        boards.add(str(client.get("/api/game").json()["board"]))
    assert len(boards) > 1


def test_starting_games_without_playing_them_stores_one(client: TestClient, db: Path) -> None:
    first = client.post("/api/games").json()
    for _ in range(2):
        again = client.post("/api/games").json()
        assert again["id"] == first["id"]
    assert client.get("/api/game").json() == again
    assert rows(db, "players") == 1 and rows(db, "games") == 1


def test_new_games_are_rate_limited_per_player(client: TestClient, caplog) -> None:
    state = client.get("/api/game").json()
    for _ in range(3):
        state = play_one(client, client.post("/api/games").json())
    with caplog.at_level(logging.WARNING, logger="twenty48.web"):
        refused = client.post("/api/games")
    assert refused.status_code == 429
    assert (
        refused.json()["error"] == "too_many_new_games" and "3 new games a minute" in refused.json()["detail"]
    )
    assert 1 <= int(refused.headers["retry-after"]) <= 20
    assert refused.headers["content-security-policy"] == CSP
    assert len([r for r in caplog.records if "too many" in r.getMessage()]) == 1
    assert client.get("/api/game").json()["id"] == state["id"]  # nothing changed
    client.cookies.clear()  # another player has a limit of its own
    assert client.post("/api/games").status_code == 201


def test_new_players_are_bounded_per_address(store: Store, db: Path, caplog) -> None:
    clock = [1_800_000_000.0]
    app = create_app(store, limits=Limits(new_players_per_hour=3), clock=lambda: clock[0])
    with TestClient(app) as school, TestClient(app, client=("192.0.2.7", 50000)) as home:
        for _ in range(3):  # a class behind one address: each browser its own player
            school.cookies.clear()
            play_one(school, school.get("/api/game").json())
        kept = dict(school.cookies)
        school.cookies.clear()
        state = school.get("/api/game").json()  # reading needs no player: still answered
        with caplog.at_level(logging.WARNING, logger="twenty48.web"):
            refused = school.post(  # a direction that moves: a move that changes nothing stores nothing
                "/api/games/0/move",
                json={
                    "direction": Board.from_rows(state["board"]).legal_moves()[0].value,
                    "revision": state["revision"],
                },
            )
        assert refused.status_code == 429 and refused.json()["error"] == "too_many_new_players"
        assert "3 new players an hour" in refused.json()["detail"]
        assert int(refused.headers["retry-after"]) == 1200  # one more every 60/3 minutes
        assert "--forwarded-allow-ips" in caplog.text
        for path in ("/api/games", "/api/me/transfer"):
            assert school.post(path).status_code == 429, path
        assert rows(db, "players") == 3
        # A stored player plays on, and another address has its own bound.
        school.cookies.clear()
        school.cookies.update(kept)
        assert school.post("/api/games").status_code == 201
        assert home.post("/api/games").status_code == 201
        clock[0] += 1200
        school.cookies.clear()
        assert school.post("/api/games").status_code == 201
        assert school.post("/api/games").status_code == 201  # that player again: no new one
        school.cookies.clear()
        assert school.post("/api/games").status_code == 429
    assert rows(db, "players") == 5


def test_an_ipv6_host_counts_as_its_64(store: Store) -> None:
    assert address_key("2001:db8:1:2::1") == address_key("2001:db8:1:2:ffff::9") == "2001:db8:1:2::/64"
    assert address_key("2001:db8:1:3::1") != address_key("2001:db8:1:2::1")
    assert address_key("::ffff:192.0.2.1") == address_key("192.0.2.1") == "192.0.2.1"
    assert address_key("testclient") == "testclient"
    buckets = RateBuckets(2)
    assert [buckets.take(f"2001:db8::{n}", 0.0) for n in range(3)] == [0.0, 0.0, 30.0]


def test_the_limits_hold_for_another_server_on_the_same_database(client: TestClient, db: Path) -> None:
    # A second Store on the file is what a second server process holds: its counts are the app's.
    state = play_one(client, client.get("/api/game").json())
    with sqlite3.connect(db) as check:
        (player,) = check.execute("SELECT id FROM players").fetchone()
    with Store.open(db) as other:
        assert other.take_new_game(player, per_minute=3) == 0.0
        for _ in range(2):
            state = play_one(client, client.post("/api/games").json())
        assert client.post("/api/games").status_code == 429
        lease = other.claim_hint(player, seconds=60)
        assert lease is not None
        busy = client.post(f"/api/games/{state['id']}/hint", params={"time_ms": 50})
        assert (busy.status_code, busy.json()["error"]) == (429, "hint_in_progress")
        other.release_hint(player, lease)
    hinted = client.post(f"/api/games/{state['id']}/hint", params={"time_ms": 50})
    assert hinted.status_code == 200
    # The route released its own lease: another process may now claim one.
    with Store.open(db) as other:
        assert other.claim_hint(player, seconds=60) is not None


@pytest.mark.parametrize(
    "headers",
    [
        {"Sec-Fetch-Site": "cross-site"},
        {"Sec-Fetch-Site": "same-site"},  # another port of localhost: the cookie would go along
        {"Origin": "https://elsewhere.example"},
        {"Origin": "null"},
    ],
)
def test_other_sites_pages_are_refused_before_anything_is_created(client, db, caplog, headers) -> None:
    with caplog.at_level(logging.WARNING, logger="twenty48.web"):
        for method, path in (("GET", "/api/game"), ("POST", "/api/games"), ("GET", "/api/best")):
            response = client.request(method, path, headers=headers)
            assert response.status_code == 403, (method, path)
            assert response.json()["error"] == "cross_site"
    assert len(caplog.records) == 3
    assert rows(db, "players") == 0
    # The page itself may be linked from anywhere; its own requests are same-origin.
    assert client.get("/", headers=headers).status_code == 200
    own = {"Sec-Fetch-Site": "same-origin", "Origin": "http://testserver"}
    assert client.get("/api/game", headers=own).status_code == 200
    assert client.get("/api/game", headers={"Origin": "http://testserver"}).status_code == 200
    assert client.get("/api/game", headers={"Sec-Fetch-Site": "none"}).status_code == 200


# ---- protocol slips -------------------------------------------------------------------------------


@pytest.mark.parametrize("path", ["/", "/api/game", "/docs", "/static/app.js"])
def test_head_answers_as_get_without_a_body(client: TestClient, path: str) -> None:
    get = client.get(path)
    head = client.head(path)
    assert head.status_code == get.status_code == 200
    assert head.content == b""
    assert head.headers["content-length"] == get.headers["content-length"]
    assert head.headers["content-security-policy"] == CSP


def test_options_and_405_name_every_method_of_the_path(client: TestClient) -> None:
    options = client.options("/api/games")
    assert options.status_code == 204
    assert set(options.headers["allow"].split(", ")) == {"GET", "HEAD", "OPTIONS", "POST"}
    refused = client.delete("/api/games")
    assert refused.status_code == 405 and refused.json()["error"] == "method_not_allowed"
    assert set(refused.headers["allow"].split(", ")) == {"GET", "HEAD", "OPTIONS", "POST"}
    assert set(client.put("/api/games/1/move").headers["allow"].split(", ")) == {"OPTIONS", "POST"}


@pytest.mark.parametrize("spelling", ["+1", "%201", "1.0", "1_0", "01x", "\u0661"])
def test_game_ids_are_plain_digits(client: TestClient, spelling: str) -> None:
    game = play_one(client, client.get("/api/game").json())
    assert game["id"] == 1
    assert client.get("/api/games/1").status_code == 200
    response = client.get(f"/api/games/{spelling}")
    assert response.status_code == 422, spelling
    assert client.get("/api/games", params={"limit": "+2"}).status_code == 422
    assert client.post("/api/games/1/hint", params={"time_ms": "1_000"}).status_code == 422
    parameters = client.get("/openapi.json").json()["paths"]["/api/games/{game_id}"]["get"]["parameters"]
    # 0 is a new visitor's game (twenty48.web.pending).
    assert parameters[0]["schema"]["minimum"] == 0 and parameters[0]["schema"]["type"] == "integer"


#: Every integer parameter of a GET route and of the hint (the others share GameId with them), as
#: (route, name).
INTEGER_PARAMETERS = [
    ("/api/games", "limit"),
    ("/api/games", "before"),
    ("/api/games/{game_id}", "game_id"),
    ("/api/games/{game_id}/hint", "game_id"),
    ("/api/games/{game_id}/hint", "time_ms"),
    ("/api/games/{game_id}/replay", "game_id"),
    ("/api/games/{game_id}/positions", "game_id"),
    ("/api/games/{game_id}/positions", "from"),
    ("/api/games/{game_id}/positions", "count"),
    ("/api/games/{game_id}/export", "game_id"),
    ("/api/games/{game_id}/review", "game_id"),
    ("/api/leaderboard", "limit"),
    ("/api/leaderboard", "offset"),
    ("/api/public/games/{game_id}", "game_id"),
    ("/api/public/games/{game_id}/replay", "game_id"),
    ("/api/public/games/{game_id}/positions", "game_id"),
    ("/api/public/games/{game_id}/positions", "from"),
    ("/api/public/games/{game_id}/positions", "count"),
]
#: The one route above that is not a GET: a hint counts itself (a POST without a body).
POSTED = "/api/games/{game_id}/hint"


def ask(client: TestClient, route: str, url: str) -> Response:
    return client.request("POST" if route == POSTED else "GET", url)


def integer_url(route: str, name: str, number: str) -> tuple[str, str]:
    """The URL with ``number`` as parameter ``name`` (game 1 elsewhere), and the error's name for it."""
    if "{" + name + "}" in route:
        return route.replace("{" + name + "}", number), f"path.{name}"
    return route.replace("{game_id}", "1") + f"?{name}={number}", f"query.{name}"


@pytest.mark.parametrize(("route", "name"), INTEGER_PARAMETERS)
@pytest.mark.parametrize("spelling", ["1_0", "+1", "%201", "1.0", "0x1", "\uff11", "-1"])
def test_every_integer_parameter_is_plain_digits(
    client: TestClient, route: str, name: str, spelling: str
) -> None:
    url, where = integer_url(route, name, spelling)
    answer = ask(client, route, url)
    assert answer.status_code == 422
    assert answer.json() == {
        "error": "invalid_request",
        "detail": f"{where}: Value error, expected decimal digits only",
    }


def test_every_integer_parameter_states_a_bound_within_the_store_ids(client: TestClient) -> None:
    # Digits passes a number of 20 digits or more on as 10**19, for the parameter's bound to refuse.
    schema = client.get("/openapi.json").json()
    bounds, read = {}, set()
    for path, methods in schema["paths"].items():
        for method, operation in methods.items():
            for parameter in operation.get("parameters", []):
                types = parameter["schema"].get("anyOf", [parameter["schema"]])
                for integer in (t for t in types if t.get("type") == "integer"):
                    bounds[path, parameter["name"]] = integer.get("maximum")
                    if method == "get" or path == POSTED:
                        read.add((path, parameter["name"]))
    assert all(bound is not None and bound <= ID_LIMIT for bound in bounds.values()), bounds
    assert bounds["/api/games/{game_id}/positions", "from"] == ID_LIMIT
    assert read == set(INTEGER_PARAMETERS)


def test_the_schemas_integer_bounds_are_exact_integers(client: TestClient) -> None:
    # FastAPI's OpenAPI model holds bounds as floats: 2**63 - 1 became 9.223372036854776e+18 (2**63).
    text = client.get("/openapi.json").text
    assert re.search(r'"(maximum|minimum|exclusiveMaximum|exclusiveMinimum)":-?[0-9]+[.eE]', text) is None
    schemas = client.get("/openapi.json").json()["components"]["schemas"]
    for model in ("ActionRequest", "MoveRequest"):
        revision = schemas[model]["properties"]["revision"]
        assert (revision["minimum"], revision["maximum"]) == (0, ID_LIMIT), model
        assert type(revision["maximum"]) is int
    assert schemas["MoveRequest"]["properties"]["cell"]["anyOf"][0]["maximum"] == 35  # the 6x6's last cell
    assert schemas["NewGameRequest"]["properties"]["seed"]["anyOf"][0]["maximum"] == JSON_SAFE_SEED_MAX


@pytest.mark.parametrize(("route", "name"), INTEGER_PARAMETERS)
@pytest.mark.parametrize("number", ["9" * 20, "1" + "0" * 24])
def test_a_number_of_20_digits_or_more_is_refused_by_its_bound(
    client: TestClient, route: str, name: str, number: str
) -> None:
    # As ID_LIMIT + 1 is, the smallest number past every bound: "less than or equal to <bound>".
    past = ask(client, route, integer_url(route, name, str(ID_LIMIT + 1))[0])
    answer = ask(client, route, integer_url(route, name, number)[0])
    assert answer.status_code == past.status_code == 422
    assert answer.json() == past.json()
    assert "less than or equal to" in answer.json()["detail"]


def test_leading_zeros_do_not_make_a_number_long(client: TestClient) -> None:
    assert client.get("/api/games", params={"limit": "0" * 30 + "2"}).status_code == 200
    assert client.get("/api/leaderboard", params={"offset": "0" * 30}).status_code == 200


def test_integral_floats_are_integers(client: TestClient) -> None:
    created = client.post("/api/games", json={"seed": 66750.0})
    assert created.status_code == 201 and created.json()["seed"] == 66750
    state = created.json()
    direction = Board.from_rows(state["board"]).legal_moves()[0].value
    moved = client.post(
        f"/api/games/{state['id']}/move", json={"direction": direction, "revision": 1.0 * state["revision"]}
    )
    assert moved.status_code == 200
    for seed in (66750.5, True, "66750", 1e300):
        assert client.post("/api/games", json={"seed": seed}).status_code == 422, seed
    # The schema still states the bounds (a validator placed before them would hide them).
    schemas = client.get("/openapi.json").json()["components"]["schemas"]
    seed_schema = schemas["NewGameRequest"]["properties"]["seed"]["anyOf"][0]
    assert (seed_schema["type"], seed_schema["minimum"]) == ("integer", 0)
    assert schemas["ActionRequest"]["properties"]["revision"]["minimum"] == 0
