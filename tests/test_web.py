"""HTTP tests of every endpoint and error against the real app (TestClient, real store on disk)."""

from __future__ import annotations

import logging
import re
import sqlite3
from datetime import datetime
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from twenty48.actions import TileMove
from twenty48.game import Game
from twenty48.rules import MAX_SIDE, Board, Direction
from twenty48.spawns import JSON_SAFE_SEED_MAX
from twenty48.store import Store, StoreError
from twenty48.store.backends import sqlite as sqlite_module
from twenty48.variants import VARIANTS
from twenty48.web import create_app
from twenty48.web.guard import COOKIE_NAME, CSP, MAX_BODY

# The app over HTTP (a TestClient): integration, not in `pytest -m unit`.
pytestmark = pytest.mark.integration

NEAR_WIN = Board.from_rows([[1024, 1024, 0, 0], [2, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]])
OVER = Board.from_rows([[2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4], [4, 2, 4, 2]])
OPEN = Board.from_rows([[2, 0, 0, 2], [0, 4, 0, 0], [0, 0, 0, 0], [8, 0, 0, 8]])


@pytest.fixture
def store(tmp_path: Path):
    with Store.open(tmp_path / "web.sqlite3") as s:
        yield s


@pytest.fixture
def app(store: Store):
    return create_app(store)


@pytest.fixture
def client(app):
    with TestClient(app) as c:
        yield c


def player_of(client: TestClient, store: Store) -> int:
    """The store's id of the player behind the client's cookie (made by a first request)."""
    client.get("/api/best")
    return store.web_player(client.cookies[COOKIE_NAME]).id


def legal(state: dict) -> str:
    return Board.from_rows(state["board"]).legal_moves()[0].value


def move(
    client: TestClient, state: dict, direction: str, revision: int | None = None, cell: int | None = None
):
    body = {"direction": direction, "revision": state["revision"] if revision is None else revision}
    if cell is not None:
        body["cell"] = cell
    return client.post(f"/api/games/{state['id']}/move", json=body)


def assert_error(response, status: int, code: str | None = None) -> dict:
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/json")
    body = response.json()
    assert isinstance(body["detail"], str) and body["detail"]
    if code is not None:
        assert body["error"] == code
    return body


# ---- players and cookies ---------------------------------------------------------------------------


def test_first_request_sets_a_strict_http_only_random_cookie(client: TestClient) -> None:
    first = client.get("/api/game")
    cookie = first.headers["set-cookie"]
    token = re.match(rf"{COOKIE_NAME}=([A-Za-z0-9_-]+);", cookie).group(1)
    assert len(token) * 6 >= 256  # base64 characters carry 6 bits each
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie and "Path=/" in cookie
    second = client.get("/api/game")
    assert "set-cookie" not in second.headers
    assert second.json() == first.json()


def test_each_visitor_is_a_different_player(app) -> None:
    with TestClient(app) as alice, TestClient(app) as bob:
        ids = []
        for visitor in (alice, bob):
            state = visitor.get("/api/game").json()
            ids.append(move(visitor, state, legal(state)).json()["state"]["id"])
        assert ids[0] != ids[1] and 0 not in ids


def test_a_malformed_cookie_is_replaced(client: TestClient) -> None:
    client.cookies.set(COOKIE_NAME, "forged")
    response = client.get("/api/game")
    assert response.status_code == 200
    assert "set-cookie" in response.headers


# ---- playing ---------------------------------------------------------------------------------------


def test_current_game_is_created_on_first_visit_and_kept(client: TestClient) -> None:
    state = client.get("/api/game").json()
    assert state["revision"] == 0 and state["moves"] == 0 and state["score"] == 0
    assert sum(1 for row in state["board"] for v in row if v) == 2
    assert state["current"] and not state["finished"] and not state["can_undo"]
    assert client.get(f"/api/games/{state['id']}").json() == state


def test_a_move_answers_what_to_animate_and_is_stored(client: TestClient, store: Store) -> None:
    # A chosen seed (practice) shows it: a ranked game would not.
    state = client.post("/api/games", json={"seed": 77}).json()
    assert state["seed"] == 77 and not state["ranked"]
    direction = legal(state)
    reference = Game.new(state["seed"])
    turn = reference.move(direction)
    answer = move(client, state, direction).json()
    assert answer["direction"] == direction and answer["changed"]
    assert answer["points"] == turn.score
    assert answer["slides"] == [list(s) for s in turn.slides]
    assert answer["merges"] == list(turn.merges)
    assert answer["spawn"] == {"cell": turn.spawn[0], "value": turn.spawn[1]}
    assert (answer["won_now"], answer["over"]) == (False, False)
    after = answer["state"]
    assert after["board"] == [list(r) for r in reference.board.rows]
    assert (after["revision"], after["moves"], after["can_undo"]) == (1, 1, True)
    player = player_of(client, store)
    assert store.get_game(player, state["id"]).revision == 1


def test_an_illegal_move_changes_nothing_and_is_not_an_error(client: TestClient, store: Store) -> None:
    player = player_of(client, store)
    record = store.add_game(player, Game.from_board(NEAR_WIN, seed=4))
    state = client.get("/api/game").json()
    assert state["id"] == record.id
    answer = move(client, state, "up")
    assert answer.status_code == 200
    body = answer.json()
    assert not body["changed"] and body["spawn"] is None and body["points"] == 0
    assert body["state"] == state


def test_a_stale_revision_gets_409_with_the_current_state(client: TestClient) -> None:
    state = client.get("/api/game").json()
    after = move(client, state, legal(state)).json()["state"]
    body = assert_error(move(client, state, legal(after)), 409, "stale_revision")
    assert body["state"] == after
    assert client.get("/api/game").json() == after


def test_undo_then_move_again_does_not_reuse_a_revision(client: TestClient) -> None:
    start = client.get("/api/game").json()
    seen = move(client, start, legal(start)).json()["state"]  # what a second tab last saw
    back = client.post(f"/api/games/{start['id']}/undo", json={"revision": seen["revision"]}).json()
    assert back["moves"] == 0 and back["board"] == start["board"]
    moves = Board.from_rows(back["board"]).legal_moves()
    again = move(client, back, moves[-1].value).json()["state"]
    assert again["moves"] == seen["moves"] and again["revision"] != seen["revision"]
    assert_error(move(client, seen, legal(seen)), 409, "stale_revision")


def test_undo_with_nothing_to_undo_is_refused(client: TestClient) -> None:
    state = client.get("/api/game").json()
    body = assert_error(client.post(f"/api/games/{state['id']}/undo", json={"revision": 0}), 409, "rejected")
    assert body["state"] == state


def test_win_and_keep_going(client: TestClient, store: Store) -> None:
    player = player_of(client, store)
    store.add_game(player, Game.from_board(NEAR_WIN, seed=9))
    state = client.get("/api/game").json()
    answer = move(client, state, "left").json()
    assert answer["won_now"] and answer["points"] == 2048
    won = answer["state"]
    assert won["won"] and not won["keep_playing"] and won["best"] == 2048
    going = client.post(f"/api/games/{state['id']}/keep-going", json={"revision": won["revision"]})
    assert going.status_code == 200
    assert going.json()["keep_playing"] and going.json()["revision"] == won["revision"] + 1


def test_keep_going_before_a_win_is_refused(client: TestClient) -> None:
    state = client.get("/api/game").json()
    assert_error(client.post(f"/api/games/{state['id']}/keep-going", json={"revision": 0}), 409, "rejected")


def test_moves_on_finished_games_are_refused(client: TestClient, store: Store) -> None:
    player = player_of(client, store)
    over = store.add_game(player, Game.from_board(OVER, seed=2))
    state = client.get("/api/game").json()
    assert state["id"] == over.id and state["over"] and state["finished"]
    body = assert_error(move(client, state, "left"), 409, "game_finished")
    assert body["state"] == state
    assert_error(client.post(f"/api/games/{over.id}/hint"), 409, "game_finished")
    fresh = client.post("/api/games").json()
    assert fresh["id"] != over.id
    old = client.get(f"/api/games/{over.id}").json()
    assert not old["current"] and old["finished"]
    assert_error(client.post(f"/api/games/{over.id}/undo", json={"revision": 0}), 409, "game_finished")


def test_new_game_from_a_seed(client: TestClient) -> None:
    response = client.post("/api/games", json={"seed": 12345})
    assert response.status_code == 201
    state = response.json()
    assert state["seed"] == 12345
    assert state["board"] == [list(r) for r in Game.new(12345).board.rows]
    assert client.get("/api/game").json() == state
    # When it began, which is how a player tells one game from another (the page's titles).
    assert datetime.fromisoformat(state["created_at"]).tzinfo is not None
    assert client.post("/api/games").status_code == 201
    assert client.post("/api/games", json={}).status_code == 201


def test_the_largest_seed_a_browser_holds_exactly_starts_a_game(client: TestClient) -> None:
    state = client.post("/api/games", json={"seed": JSON_SAFE_SEED_MAX}).json()
    assert state["seed"] == JSON_SAFE_SEED_MAX
    assert state["board"] == [list(r) for r in Game.new(JSON_SAFE_SEED_MAX).board.rows]


def test_replay_data_of_a_finished_game_rebuilds_it(client: TestClient) -> None:
    state = client.post("/api/games", json={"seed": 77}).json()
    for _ in range(5):
        state = move(client, state, legal(state)).json()["state"]
    assert_error(client.get(f"/api/games/{state['id']}/replay"), 409, "game_in_progress")
    client.post("/api/games")
    replay = client.get(f"/api/games/{state['id']}/replay").json()
    assert replay["seed"] == 77 and len(replay["actions"]) == 5
    rebuilt = Game.replay(replay["seed"], replay["actions"])
    assert [list(r) for r in rebuilt.board.rows] == state["board"]
    assert replay["score"] == state["score"] == rebuilt.score


def test_best_score_and_game_list(client: TestClient, store: Store) -> None:
    assert client.get("/api/best").json() == {"variant": "classic", "size": "4x4", "best": 0}
    player = player_of(client, store)
    store.add_game(player, Game.from_board(NEAR_WIN, seed=1))
    state = client.get("/api/game").json()
    move(client, state, "left")
    ids = []
    for _ in range(3):
        new = client.post("/api/games").json()
        move(client, new, Board.from_rows(new["board"]).legal_moves()[0].value)
        ids.append(new["id"])
    assert client.get("/api/best").json()["best"] >= 2048
    page = client.get("/api/games", params={"limit": 2}).json()
    assert [g["id"] for g in page["games"]] == ids[::-1][:2]
    assert page["games"][0]["current"] and page["next_before"] == ids[1]
    rest = client.get("/api/games", params={"limit": 2, "before": page["next_before"]}).json()
    assert [g["id"] for g in rest["games"]] == [ids[0], state["id"]]
    assert rest["games"][1]["score"] == 2048 and rest["games"][1]["max_tile"] == 2048


def test_hint_ranks_every_legal_move_best_first(client: TestClient) -> None:
    state = client.get("/api/game").json()
    response = client.post(f"/api/games/{state['id']}/hint", params={"time_ms": 50})
    assert response.status_code == 200
    hint = response.json()
    values = [m["value"] for m in hint["moves"]]
    assert values == sorted(values, reverse=True)
    assert hint["best"] == hint["moves"][0]["direction"]
    legal_moves = {d.value for d in Board.from_rows(state["board"]).legal_moves()}
    assert {m["direction"] for m in hint["moves"]} == legal_moves
    assert (hint["game_id"], hint["revision"]) == (state["id"], state["revision"])


def test_the_hints_former_get_still_answers_and_counts(client: TestClient) -> None:
    state = client.get("/api/game").json()
    hint = client.get(f"/api/games/{state['id']}/hint", params={"time_ms": 50})
    assert hint.status_code == 200 and hint.json()["moves"]
    played = client.get("/api/games", params={"limit": 1}).json()["games"][0]
    assert played["hints"] == 1 and not client.get("/api/game").json()["ranked"]


# ---- the Merge 2048 variant -------------------------------------------------------------------------


def merge_game(client: TestClient, store: Store, board: Board = OPEN, seed: int = 4) -> dict:
    """Make a Merge 2048 game on ``board`` the client's current game; return its state."""
    store.add_game(player_of(client, store), Game.from_board(board, seed=seed, variant="merge"))
    state = client.get("/api/game").json()
    assert state["variant"] == "merge"
    return state


def test_new_game_with_a_variant(client: TestClient) -> None:
    classic = client.post("/api/games", json={"seed": 8}).json()
    assert classic["variant"] == "classic"
    response = client.post("/api/games", json={"seed": 8, "variant": "merge"})
    assert response.status_code == 201
    merge = response.json()
    # The classic game had no move: it is replaced where it stands, under the next revision.
    assert merge["variant"] == "merge" and merge["id"] == classic["id"]
    assert merge["revision"] == classic["revision"] + 1
    assert merge["board"] == [list(r) for r in Game.new(8, "merge").board.rows]
    assert client.get("/api/game").json() == merge
    assert client.post("/api/games", json={"variant": "classic"}).json()["variant"] == "classic"


@pytest.mark.parametrize("variant", ["hexagonal", "Merge", "", None, 1])
def test_an_unknown_variant_is_refused_clearly(client: TestClient, variant) -> None:
    before = client.get("/api/game").json()
    body = assert_error(client.post("/api/games", json={"variant": variant}), 422, "invalid_request")
    assert "variant" in body["detail"] and "'classic' or 'merge'" in body["detail"]
    assert client.get("/api/game").json() == before


def test_a_source_cell_moves_only_that_tile(client: TestClient, store: Store) -> None:
    state = merge_game(client, store)
    reference = Game.from_board(OPEN, seed=4, variant="merge")
    turn = reference.move("left", 3)
    answer = move(client, state, "left", cell=3).json()
    assert answer["changed"] and answer["cell"] == 3 and answer["points"] == 4 == turn.score
    assert answer["slides"] == [list(s) for s in turn.slides]
    assert [s for s in answer["slides"] if s[0] != s[1]] == [[3, 0]]  # that tile, and only it, moved
    assert answer["merges"] == [0]
    assert answer["state"]["board"] == [list(r) for r in reference.board.rows]
    after = answer["state"]
    # The whole board still moves without a cell: both 8s meet.
    whole = move(client, after, "left").json()
    reference.move("left")
    assert whole["cell"] is None and whole["state"]["board"] == [list(r) for r in reference.board.rows]
    stored = store.load_game(player_of(client, store), state["id"])
    assert stored.to_dict() == reference.to_dict()
    assert [str(a) for a in stored.actions] == ["left@3", "left"]


def test_a_source_cell_that_cannot_move_changes_nothing(client: TestClient, store: Store) -> None:
    state = merge_game(client, store)
    # At the edge, on an empty cell, at the edge again: illegal single-tile moves, not errors.
    for cell, direction in [(0, "left"), (1, "down"), (15, "right")]:
        answer = move(client, state, direction, cell=cell)
        assert answer.status_code == 200
        body = answer.json()
        assert not body["changed"] and body["spawn"] is None and body["state"] == state
    assert client.get("/api/game").json() == state


@pytest.mark.parametrize("cell", [-1, 16, 2**63, "3", 1.5, True, [3]])
def test_bad_source_cells_are_refused_and_change_nothing(client: TestClient, store: Store, cell) -> None:
    state = merge_game(client, store)
    body = {"direction": "left", "revision": state["revision"], "cell": cell}
    answer = assert_error(client.post(f"/api/games/{state['id']}/move", json=body), 422, "invalid_request")
    assert "cell" in answer["detail"]
    assert client.get("/api/game").json() == state


def test_a_source_cell_on_a_classic_game_is_refused(client: TestClient, store: Store) -> None:
    store.add_game(player_of(client, store), Game.from_board(OPEN, seed=4))
    state = client.get("/api/game").json()
    assert state["variant"] == "classic"
    body = assert_error(move(client, state, "left", cell=3), 409, "rejected")
    assert "merge" in body["detail"] and body["state"] == state
    assert client.get("/api/game").json() == state
    assert move(client, state, "left", cell=None).json()["changed"]


def test_replay_data_of_a_merge_game_replays_exactly(client: TestClient, store: Store) -> None:
    state = client.post("/api/games", json={"seed": 99, "variant": "merge"}).json()
    played = 0
    for i in range(30):
        if state["over"]:
            break
        tiles = [c for c, v in enumerate(v for row in state["board"] for v in row) if v]
        direction = Direction.from_index(i % 4).value
        answer = move(client, state, direction, cell=tiles[i % len(tiles)] if i % 3 else None).json()
        state = answer["state"]
        played += answer["changed"]
    client.post("/api/games")
    replay = client.get(f"/api/games/{state['id']}/replay").json()
    assert replay["variant"] == "merge" and replay["seed"] == 99 and len(replay["actions"]) == played
    assert any("@" in a for a in replay["actions"])
    rebuilt = Game.replay(replay["seed"], replay["actions"], replay["variant"])
    stored = store.load_game(player_of(client, store), state["id"])
    assert rebuilt.to_dict() == stored.to_dict()
    assert [list(r) for r in rebuilt.board.rows] == state["board"] and rebuilt.score == replay["score"]
    listed = client.get("/api/games").json()["games"]
    assert [g["variant"] for g in listed[:2]] == ["classic", "merge"]


def test_best_scores_are_per_variant(client: TestClient, store: Store) -> None:
    player = player_of(client, store)
    store.add_game(player, Game.from_board(NEAR_WIN, seed=1))
    move(client, client.get("/api/game").json(), "left")
    merge = client.post("/api/games", json={"variant": "merge"}).json()
    assert merge["best"] == 0
    assert client.get("/api/best", params={"variant": "merge"}).json() == {
        "variant": "merge",
        "size": "4x4",
        "best": 0,
    }
    assert client.get("/api/best", params={"variant": "classic"}).json()["best"] == 2048
    assert client.post("/api/games").json()["best"] == 2048
    body = assert_error(client.get("/api/best", params={"variant": "hexagonal"}), 422, "invalid_request")
    assert "'classic' or 'merge'" in body["detail"]


def test_hint_on_a_merge_game_ranks_whole_board_moves(client: TestClient, store: Store) -> None:
    state = merge_game(client, store)
    hint = client.post(f"/api/games/{state['id']}/hint", params={"time_ms": 50}).json()
    assert {m["direction"] for m in hint["moves"]} == {d.value for d in OPEN.legal_moves()}


def test_the_api_names_the_engine_variants(client: TestClient) -> None:
    schemas = client.get("/openapi.json").json()["components"]["schemas"]
    assert set(schemas["NewGameRequest"]["properties"]["variant"]["enum"]) == set(VARIANTS)
    assert set(schemas["GameState"]["properties"]["variant"]["enum"]) == set(VARIANTS)
    cell = schemas["MoveRequest"]["properties"]["cell"]["anyOf"][0]
    # Any cell of the largest board; a cell past the game's own board is the move's 422.
    assert (cell["minimum"], cell["maximum"]) == (0, MAX_SIDE * MAX_SIDE - 1)


def test_the_replay_schema_describes_the_engines_action_text(client: TestClient) -> None:
    schemas = client.get("/openapi.json").json()["components"]["schemas"]
    pattern = re.compile(schemas["ReplayAnswer"]["properties"]["actions"]["items"]["pattern"])
    cells = MAX_SIDE * MAX_SIDE
    written = [str(d) for d in Direction] + [str(TileMove(d, c)) for d in Direction for c in range(cells)]
    assert all(pattern.fullmatch(text) for text in written)
    assert not any(pattern.fullmatch(text) for text in (f"left@{cells}", "left@-1", "jump", "left@"))


# ---- ownership and bad input -----------------------------------------------------------------------


def test_another_players_game_is_not_found(app) -> None:
    with TestClient(app) as alice, TestClient(app) as mallory:
        shown = alice.get("/api/game").json()
        state = move(alice, shown, legal(shown)).json()["state"]
        game = f"/api/games/{state['id']}"
        mallory.get("/api/game")
        for response in (
            mallory.get(game),
            mallory.post(f"{game}/move", json={"direction": "left", "revision": 0}),
            mallory.post(f"{game}/undo", json={"revision": 0}),
            mallory.post(f"{game}/keep-going", json={"revision": 0}),
            mallory.post(f"{game}/hint"),
            mallory.get(f"{game}/replay"),
        ):
            assert_error(response, 404, "not_found")
        assert alice.get(game).json() == state


BAD_MOVES = [
    ({"direction": "sideways", "revision": 0}, 422),
    ({"direction": "LEFT", "revision": 0}, 422),
    ({"direction": 2, "revision": 0}, 422),
    ({"direction": None, "revision": 0}, 422),
    ({"direction": "left", "revision": "0"}, 422),
    ({"direction": "left", "revision": True}, 422),
    ({"direction": "left", "revision": 0.5}, 422),
    ({"direction": "left", "revision": -1}, 422),
    ({"direction": "left", "revision": 2**63}, 422),
    ({"direction": "left"}, 422),
    ({"revision": 0}, 422),
    ({"direction": "left", "revision": 0, "extra": 1}, 422),
    ([], 422),
    ("left", 422),
]


@pytest.mark.parametrize(("body", "status"), BAD_MOVES)
def test_bad_move_bodies_are_refused_and_change_nothing(client: TestClient, body, status) -> None:
    state = client.get("/api/game").json()
    assert_error(client.post(f"/api/games/{state['id']}/move", json=body), status, "invalid_request")
    assert client.get("/api/game").json() == state


@pytest.mark.parametrize(
    ("content", "content_type", "status", "code"),
    [
        (b'{"direction": "left", ', "application/json", 400, "malformed_json"),
        (b"\xff\xfe", "application/json", 400, "malformed_json"),
        (b"", "application/json", 422, "invalid_request"),
        (b'{"direction": "left", "revision": 0}', "text/plain", 422, "invalid_request"),
        (b"direction=left&revision=0", "application/x-www-form-urlencoded", 422, "invalid_request"),
    ],
)
def test_malformed_bodies_are_refused(client: TestClient, content, content_type, status, code) -> None:
    state = client.get("/api/game").json()
    response = client.post(
        f"/api/games/{state['id']}/move", content=content, headers={"content-type": content_type}
    )
    assert_error(response, status, code)
    assert client.get("/api/game").json() == state


def test_oversized_bodies_are_refused(client: TestClient) -> None:
    state = client.get("/api/game").json()
    url = f"/api/games/{state['id']}/move"
    padded = b'{"direction": "left", "revision": 0, "pad": "' + b"x" * MAX_BODY + b'"}'
    assert_error(client.post(url, content=padded), 413, "body_too_large")

    def chunks():  # no Content-Length: the cap must hold for streamed bodies too
        for _ in range(10):
            yield b"x" * 1000

    assert_error(client.post(url, content=chunks()), 413, "body_too_large")
    assert client.get("/api/game").json() == state


@pytest.mark.parametrize(
    "path",
    [
        "/api/games/-1",
        "/api/games/abc",
        "/api/games/1.5",
        f"/api/games/{2**63}",
        "/api/games/99999",
    ],
)
def test_bad_game_ids(client: TestClient, path: str) -> None:
    response = client.get(path)
    assert response.status_code in (404, 422)
    assert_error(response, response.status_code)


@pytest.mark.parametrize(
    "query",
    [{"limit": 0}, {"limit": 101}, {"limit": "x"}, {"before": 0}, {"before": 2**63}],
)
def test_bad_list_queries(client: TestClient, query) -> None:
    assert_error(client.get("/api/games", params=query), 422, "invalid_request")


@pytest.mark.parametrize("body", [{"seed": -1}, {"seed": 2**53}, {"seed": "7"}, {"seed": 1.5}, {"x": 1}])
def test_bad_new_game_bodies(client: TestClient, body) -> None:
    before = client.get("/api/game").json()
    assert_error(client.post("/api/games", json=body), 422, "invalid_request")
    assert client.get("/api/game").json() == before


@pytest.mark.parametrize("time_ms", [0, 9, 5001, "fast"])
def test_bad_hint_budgets(client: TestClient, time_ms) -> None:
    state = client.get("/api/game").json()
    assert_error(client.post(f"/api/games/{state['id']}/hint", params={"time_ms": time_ms}), 422)


def test_unknown_routes_and_methods(client: TestClient) -> None:
    assert_error(client.get("/api/nothing"), 404, "not_found")
    assert_error(client.delete("/api/game"), 405, "method_not_allowed")
    assert_error(client.put("/api/games/1/move", json={}), 405, "method_not_allowed")


# ---- headers, page and documentation ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("GET", "/"),
        ("GET", "/static/app.js"),
        ("GET", "/api/game"),
        ("GET", "/api/nothing"),
        ("POST", "/api/games/1/move"),
        ("DELETE", "/api/game"),
        ("OPTIONS", "/api/game"),
        ("GET", "/docs"),
        ("GET", "/openapi.json"),
    ],
)
def test_security_headers_on_every_response_and_no_cors(client: TestClient, method: str, path: str) -> None:
    response = client.request(method, path, headers={"Origin": "https://elsewhere.example"})
    assert response.headers["content-security-policy"] == CSP
    assert "'self'" in CSP and "http" not in CSP and "unsafe" not in CSP
    assert response.headers["x-content-type-options"] == "nosniff"
    assert response.headers["referrer-policy"] == "no-referrer"
    assert not any(name.lower().startswith("access-control-") for name in response.headers)


def test_security_headers_on_a_refused_oversized_body(client: TestClient) -> None:
    response = client.post("/api/games", content=b"x" * (MAX_BODY + 1))
    assert response.status_code == 413
    assert response.headers["content-security-policy"] == CSP


def test_foreign_host_names_are_refused_on_loopback(store: Store) -> None:
    app = create_app(store, allowed_hosts=frozenset({"127.0.0.1", "localhost"}))
    with TestClient(app, base_url="http://localhost:2048") as ok:
        assert ok.get("/api/game").status_code == 200
    with TestClient(app, base_url="http://rebound.example") as rebound:
        assert_error(rebound.get("/api/game"), 421, "host_not_allowed")


@pytest.mark.parametrize("allowed", [frozenset({"localhost"}), None])
def test_a_request_with_two_host_headers_is_refused(store: Store, allowed, caplog) -> None:
    app = create_app(store, allowed_hosts=allowed)
    with TestClient(app, base_url="http://localhost") as client, caplog.at_level(logging.WARNING):
        # The host check read the last one, which a proxy or a client may not have meant.
        twice = client.get("/api/game", headers=[("Host", "rebound.example"), ("Host", "localhost")])
        assert_error(twice, 400, "bad_request")
        assert twice.headers["content-security-policy"] == CSP and "set-cookie" not in twice.headers
        assert "more than one Host" in caplog.text
        assert client.get("/api/game", headers=[("Host", "localhost")]).status_code == 200


def test_the_page_and_its_assets_are_local(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assets = re.findall(r'(?:src|href)="([^"]+)"', page.text)
    assert assets
    for asset in assets:
        assert asset.startswith("/"), asset
        assert client.get(asset).status_code == 200
    assert "<script>" not in page.text and "style=" not in page.text


def test_docs_are_served_offline(client: TestClient) -> None:
    docs = client.get("/docs")
    assert docs.status_code == 200
    assets = re.findall(r'(?:src|href)="([^"]+)"', docs.text)
    assert "/docs-assets/swagger-ui-bundle.js" in assets and "/docs/start.js" in assets
    for asset in assets:
        assert asset.startswith("/"), asset
        response = client.get(asset)
        assert response.status_code == 200 and response.content
    assert "<script>" not in docs.text  # the CSP allows no inline script


def test_openapi_documents_the_revision_guard_and_errors(client: TestClient) -> None:
    schema = client.get("/openapi.json").json()
    move_op = schema["paths"]["/api/games/{game_id}/move"]["post"]
    assert {"200", "404", "409", "422"} <= set(move_op["responses"])
    assert "revision" in schema["components"]["schemas"]["MoveRequest"]["properties"]
    assert set(schema["components"]["schemas"]["Direction"]["enum"]) == {d.value for d in Direction}


def test_even_an_unexpected_failure_answers_json_with_the_headers(store: Store) -> None:
    app = create_app(store)

    @app.get("/api/broken")
    async def broken() -> None:
        raise RuntimeError("a bug")

    with TestClient(app, raise_server_exceptions=False) as client:
        response = client.get("/api/broken")
    assert_error(response, 500, "internal_error")
    assert response.headers["content-security-policy"] == CSP


def test_healthz_says_unavailable_without_naming_the_database(
    client: TestClient, store: Store, monkeypatch, caplog
):
    assert client.get("/healthz").json() == {"status": "ok"}
    # The store's own one-line error when its server is gone, as PostgreSQL's backend words it.
    down = StoreError("the database postgresql://app@db.internal/games cannot be used: connection refused")

    def ping() -> None:
        raise down

    monkeypatch.setattr(store, "ping", ping)
    with caplog.at_level(logging.WARNING, logger="twenty48.web"):
        answer = client.get("/healthz")
    assert (answer.status_code, answer.json()) == (503, {"status": "unavailable"})
    assert "db.internal" not in answer.text and "db.internal" in caplog.text


def test_a_busy_database_answers_503_without_naming_it(tmp_path: Path, monkeypatch, caplog) -> None:
    db = tmp_path / "secret-name.sqlite3"
    monkeypatch.setattr(sqlite_module, "BUSY_TIMEOUT_MS", 50)
    with Store.open(db) as store, TestClient(create_app(store)) as client:
        state = client.get("/api/game").json()
        holder = sqlite3.connect(db, isolation_level=None)
        holder.execute("BEGIN EXCLUSIVE")  # another program holding the database
        try:
            with caplog.at_level(logging.WARNING, logger="twenty48.web"):
                answer = move(client, state, legal(state))
        finally:
            holder.execute("ROLLBACK")
            holder.close()
        body = assert_error(answer, 503, "store_unavailable")
        assert "secret-name" not in answer.text and "unavailable" in body["detail"]
        assert "secret-name" in caplog.text and "locked" in caplog.text
        assert move(client, state, legal(state)).status_code == 200
