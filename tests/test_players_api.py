"""The players' API over HTTP against the real app: names, hiding, transfer codes and claims."""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from twenty48.store import Store
from twenty48.store.players.operations import TRANSFER_SECONDS
from twenty48.web import create_app
from twenty48.web.guard import COOKIE_NAME
from twenty48.web.limits import CLAIMS_PER_MINUTE

# The app over HTTP (a TestClient): integration, not in `pytest -m unit`.
pytestmark = pytest.mark.integration


@pytest.fixture
def store(tmp_path: Path):
    with Store.open(tmp_path / "api.sqlite3") as s:
        yield s


@pytest.fixture
def clock() -> list[float]:
    return [1_800_000_000.0]


@pytest.fixture
def app(store: Store, clock: list[float]):
    return create_app(store, clock=lambda: clock[0])


def client(app) -> TestClient:
    return TestClient(app)


def test_a_name_is_set_read_and_cleared(app) -> None:
    with client(app) as ada:
        assert ada.get("/api/me").json() == {"name": None, "hidden": False, "on_boards": False}
        answer = ada.put("/api/me", json={"name": "Ada"})
        assert answer.status_code == 200
        assert answer.json() == {"name": "Ada", "hidden": False, "on_boards": True}
        assert ada.get("/api/me").json()["name"] == "Ada"
        assert ada.put("/api/me", json={"hidden": True}).json() == {
            "name": "Ada",
            "hidden": True,
            "on_boards": False,
        }
        assert ada.put("/api/me", json={"name": None}).json()["name"] is None


@pytest.mark.parametrize(
    ("name", "code"),
    [
        ("<img src=x>", "name_character"),
        ("Ada\u202eevil", "name_character"),
        ("A\u200bda", "name_character"),
        ("", "name_empty"),
        ("x" * 25, "name_too_long"),
        ("two  spaces", "name_spaces"),
        ("Ada\u3000B", "name_character"),
        ("...", "name_no_letter"),
    ],
)
def test_a_refused_name_says_why_and_creates_no_player(app, store: Store, name: str, code: str) -> None:
    with client(app) as visitor:
        answer = visitor.put("/api/me", json={"name": name})
        assert answer.status_code == 422
        assert answer.json()["error"] == code
        assert store.find_web_player(visitor.cookies[COOKIE_NAME]) is None


@pytest.mark.parametrize(
    ("name", "character", "character_name"),
    [("ab\U0001f3ae", "\U0001f3ae", "VIDEO GAME"), ("Ada\u202eevil", "\u202e", "RIGHT-TO-LEFT OVERRIDE")],
)
def test_a_refused_character_is_given_apart_for_the_page_to_name(
    app, name: str, character: str, character_name: str
) -> None:
    with client(app) as visitor:
        answer = visitor.put("/api/me", json={"name": name}).json()
        assert (answer["character"], answer["character_name"]) == (character, character_name)
        # Only that refusal carries them.
        assert "character" not in visitor.put("/api/me", json={"name": ""}).json()


def test_a_case_twin_of_a_name_is_taken(app, store: Store) -> None:
    with client(app) as ada, client(app) as other:
        ada.put("/api/me", json={"name": "Ada"})
        answer = other.put("/api/me", json={"name": "aDA"})
        assert answer.status_code == 422 and answer.json()["error"] == "name_taken"
        assert store.find_web_player(other.cookies[COOKIE_NAME]) is None


@pytest.mark.parametrize("body", [{"name": 5}, {"hidden": "yes"}, {"nick": "x"}, {"name": "x" * 200}])
def test_a_malformed_body_is_refused(app, body: dict) -> None:
    with client(app) as visitor:
        assert visitor.put("/api/me", json=body).status_code == 422


def test_a_transfer_code_moves_the_player_once(app, store: Store, clock: list[float]) -> None:
    with client(app) as laptop, client(app) as phone, client(app) as third:
        laptop.put("/api/me", json={"name": "Ada"})
        laptop_game = laptop.get("/api/game").json()["id"]
        phone_game = phone.post("/api/games", json={}).json()["id"]
        old_phone = store.find_web_player(phone.cookies[COOKIE_NAME])
        made = laptop.post("/api/me/transfer")
        assert made.status_code == 201
        code = made.json()["code"]
        assert made.json()["expires_in"] == TRANSFER_SECONDS
        claimed = phone.post("/api/me/claim", json={"code": code})
        assert claimed.status_code == 200 and claimed.json()["name"] == "Ada"
        assert "HttpOnly" in claimed.headers["set-cookie"]
        # The phone is now the laptop's player; its own game stays with its old identity.
        assert phone.get("/api/me").json()["name"] == "Ada"
        assert phone.get("/api/game").json()["id"] == laptop_game
        assert phone.get(f"/api/games/{phone_game}").status_code == 404
        assert store.current_game(old_phone.id).id == phone_game
        again = third.post("/api/me/claim", json={"code": code})
        assert again.status_code == 410 and again.json()["error"] == "code_used"
        assert third.get("/api/me").json()["name"] is None


def test_a_device_whose_first_request_is_the_claim_becomes_that_player(app) -> None:
    with client(app) as laptop, client(app) as phone:
        laptop.put("/api/me", json={"name": "Ada"})
        code = laptop.post("/api/me/transfer").json()["code"]
        # No cookie yet: the claim's cookie must be the only one the phone is given.
        claimed = phone.post("/api/me/claim", json={"code": code})
        assert claimed.status_code == 200
        assert len(claimed.headers.get_list("set-cookie")) == 1
        assert phone.get("/api/me").json()["name"] == "Ada"


def test_a_transfer_code_expires(app, clock: list[float]) -> None:
    with client(app) as laptop, client(app) as phone:
        code = laptop.post("/api/me/transfer").json()["code"]
        clock[0] += TRANSFER_SECONDS
        answer = phone.post("/api/me/claim", json={"code": code})
        assert answer.status_code == 410 and answer.json()["error"] == "code_expired"
        unknown = phone.post("/api/me/claim", json={"code": "ABCD-EFGH-ABCD-EFGH-ABCD-EFGH-ABCD"})
        assert unknown.status_code == 404 and unknown.json()["error"] == "code_unknown"


def test_claims_are_rate_limited_per_address(app) -> None:
    with client(app) as guesser:
        for _ in range(CLAIMS_PER_MINUTE):
            assert guesser.post("/api/me/claim", json={"code": "nothing"}).status_code == 404
        refused = guesser.post("/api/me/claim", json={"code": "nothing"})
        assert refused.status_code == 429 and refused.json()["error"] == "too_many_claims"
        assert int(refused.headers["Retry-After"]) >= 1


def test_a_working_code_is_accepted_after_mistypes_from_the_same_address(app) -> None:
    # A classroom behind one address: others' (or one's own) mistypes must not lock the right code out.
    with client(app) as laptop, client(app) as phone, client(app) as classmate:
        laptop.put("/api/me", json={"name": "Ada"})
        code = laptop.post("/api/me/transfer").json()["code"]
        mistyped = code[:-1] + ("B" if code.endswith("A") else "A")
        for _ in range(CLAIMS_PER_MINUTE):
            assert classmate.post("/api/me/claim", json={"code": mistyped}).status_code == 404
        assert phone.post("/api/me/claim", json={"code": "nothing"}).status_code == 429
        claimed = phone.post("/api/me/claim", json={"code": code})
        assert claimed.status_code == 200 and claimed.json()["name"] == "Ada"
        # And the failures of that address are still refused.
        assert classmate.post("/api/me/claim", json={"code": code}).status_code == 429
