"""Several ``serve`` processes on one PostgreSQL database, and the database going away under load.

Real processes (``python -m twenty48 serve``), real HTTP, a real server (conftest's
``postgres_server``): interleaved moves from two servers on one game, a server killed with
SIGKILL mid-load, the database restarted mid-load. After each, the stored actions replay to the
stored board and every acknowledged move is among them.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import psycopg
import pytest

from twenty48.game import Game
from twenty48.rules import Board
from twenty48.store import NameTakenError, open_store
from twenty48.store.backends.postgres import NAMES_LOCK

pytestmark = [pytest.mark.slow, pytest.mark.integration]


class Server:
    def __init__(self, url: str, *extra: str) -> None:
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "twenty48", "serve", "--port", "0", "--db", url, "--no-browser", *extra],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
        )
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        assert " at http://" in line, line + self.process.stderr.read()  # type: ignore[union-attr]
        self.base = line.split(" at ", 1)[1].split(" ", 1)[0].rstrip("/")

    def client(self, cookies: httpx.Cookies | None = None) -> httpx.Client:
        return httpx.Client(base_url=self.base, cookies=cookies, timeout=20)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            self.process.wait(10)


@pytest.fixture
def servers(postgres_url: str) -> Iterator[list[Server]]:
    started = [Server(postgres_url), Server(postgres_url)]
    yield started
    for server in started:
        server.stop()


def assert_replays(url: str, player_id: int, game_id: int) -> Game:
    """The stored actions, replayed from the seed and start, give the stored board."""
    with open_store(url) as store:
        game = store.load_game(player_id, game_id)
    replayed = Game.replay(game.seed, [str(a) for a in game.actions], game.variant.name, game.start)
    assert (replayed.board, replayed.score) == (game.board, game.score)
    return game


def wait_until(condition: Callable[[], bool], failure: str, seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, failure
        time.sleep(0.05)


def hints_counted(url: str, tokens: list[str]) -> int:
    """The hints the players of ``tokens`` asked for in their current games, as stored."""
    with open_store(url) as store:
        return sum(store.games(store.web_player(token).id, limit=1)[0].hints or 0 for token in tokens)


def waiting_on_a_lock(url: str) -> bool:
    """Whether a session of the server waits for an advisory lock."""
    with psycopg.connect(url, autocommit=True) as conn:
        waiting = conn.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND wait_event = 'advisory'"
        )
        return waiting.fetchone()[0] > 0


def move(client: httpx.Client, state: dict) -> httpx.Response:
    """A legal move of ``state``'s board, conditional on its revision."""
    legal = Board.from_rows(state["board"]).legal_moves()
    direction = legal[0].value if legal else "left"
    return client.post(
        f"/api/games/{state['id']}/move", json={"direction": direction, "revision": state["revision"]}
    )


def test_two_servers_interleave_moves_on_one_game_like_two_tabs(servers: list[Server], postgres_url: str):
    a = servers[0].client()
    first = a.get("/api/game").json()
    b = servers[1].client(a.cookies)
    assert b.get("/api/game").json()["id"] == first["id"]
    accepted = 0
    state = first
    for _ in range(15):
        # Both servers are sent the same revision at once: exactly one may apply its move.
        answers: list[httpx.Response] = []
        threads = [
            threading.Thread(target=lambda c=c, seen=state, out=answers: out.append(move(c, seen)))
            for c in (a, b)
        ]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        statuses = sorted(r.status_code for r in answers)
        changed = [r for r in answers if r.status_code == 200 and r.json()["changed"]]
        assert statuses in ([200, 409], [200, 200]), statuses
        if statuses == [200, 409]:
            stale = next(r for r in answers if r.status_code == 409).json()
            assert stale["error"] == "stale_revision"
        # Two 200s only for a move that changes nothing; never two changes from one revision.
        assert len(changed) <= 1
        accepted += len(changed)
        # Each server answers from the database's revision, not from a cached copy of its own.
        state = b.get(f"/api/games/{first['id']}").json()
        assert a.get(f"/api/games/{first['id']}").json() == state
        if state["over"]:
            break
    assert state["revision"] == accepted > 0
    # The first visit's game (id 0) was stored by the first move, under its own id.
    assert first["id"] == 0 < state["id"]
    game = assert_replays(postgres_url, 1, state["id"])
    assert game.moves == accepted


def play(server: Server, stop: threading.Event, acknowledged: list[tuple[int, int, int]]) -> None:
    """Play new players' games until ``stop``; note (game id, revision, moves) of each accepted move."""
    client = server.client()
    state = client.get("/api/game").json()
    while not stop.is_set():
        try:
            answer = move(client, state)
        except httpx.HTTPError:
            return  # the server is gone: nothing was acknowledged
        if answer.status_code != 200:
            return
        body = answer.json()
        if body["changed"]:
            state = body["state"] if "state" in body else client.get(f"/api/games/{state['id']}").json()
            acknowledged.append((state["id"], state["revision"], state["moves"]))
        if state["over"] or not body["changed"]:
            state = client.post("/api/games", json={}).json()


def test_sigkill_of_one_server_mid_load_loses_no_acknowledged_move(servers: list[Server], postgres_url: str):
    stop = threading.Event()
    acked: dict[int, list[tuple[int, int, int]]] = {0: [], 1: []}
    threads = [
        threading.Thread(target=play, args=(servers[i % 2], stop, acked[i % 2]), daemon=True)
        for i in range(4)
    ]
    for t in threads:
        t.start()
    deadline = time.monotonic() + 20
    while len(acked[0]) < 40 and time.monotonic() < deadline:
        time.sleep(0.05)
    servers[0].process.send_signal(signal.SIGKILL)
    servers[0].process.wait(10)
    # The other server goes on serving.
    before = len(acked[1])
    wait_until(lambda: len(acked[1]) >= before + 10, "the other server stopped serving")
    stop.set()
    for t in threads:
        t.join(20)
    assert len(acked[0]) >= 40
    check_acknowledged(postgres_url, acked[0] + acked[1])


def check_acknowledged(url: str, acknowledged: list[tuple[int, int, int]]) -> None:
    latest: dict[int, tuple[int, int]] = {}
    for game_id, revision, moves in acknowledged:
        latest[game_id] = max(latest.get(game_id, (0, 0)), (revision, moves))
    with open_store(url) as store:
        owners = {s.id: p for p in range(1, 10) for s in _games(store, p)}
    for game_id, (revision, moves) in latest.items():
        game = assert_replays(url, owners[game_id], game_id)
        assert game.moves >= moves
        with open_store(url) as store:
            assert store.get_game(owners[game_id], game_id).revision >= revision


def _games(store, player_id: int):
    try:
        return store.games(player_id, limit=1000)
    except LookupError:
        return []


def test_the_database_restarted_mid_load_gives_clear_errors_then_recovers(
    postgres_server, postgres_url: str
) -> None:
    server = Server(postgres_url)
    try:
        client = server.client()
        assert client.get("/healthz").status_code == 200
        state = client.get("/api/game").json()
        acknowledged: list[tuple[int, int, int]] = []
        errors: list[dict] = []

        def step() -> None:
            nonlocal state
            answer = move(client, state)
            if answer.status_code == 200 and answer.json()["changed"]:
                state = client.get(f"/api/games/{state['id']}").json()
                acknowledged.append((state["id"], state["revision"], state["moves"]))
            elif answer.status_code != 200:
                errors.append(answer.json())
                state = client.get(f"/api/games/{state['id']}").json() if answer.status_code == 409 else state
            if state["over"] or (answer.status_code == 200 and not answer.json()["changed"]):
                state = client.post("/api/games", json={}).json()

        for _ in range(10):
            step()
        postgres_server.restart()
        # The first call after the restart may find a dead connection: a clear 503, never a 500.
        for _ in range(3):
            with contextlib.suppress(httpx.HTTPError):
                step()
        deadline = time.monotonic() + 20
        while client.get("/healthz").status_code != 200 and time.monotonic() < deadline:
            time.sleep(0.2)
        count = len(acknowledged)
        for _ in range(10):
            step()
        assert len(acknowledged) > count, errors
        for error in errors:
            assert error["error"] in ("store_unavailable", "stale_revision"), error
            assert "Traceback" not in error.get("detail", "")
        check_acknowledged(postgres_url, acknowledged)
    finally:
        server.stop()


def test_workers_above_one_need_postgresql(tmp_path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "twenty48", "serve", "--db", str(tmp_path / "x.db"), "--workers", "2"],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
        timeout=60,
    )
    assert result.returncode == 2
    assert "--workers above 1 needs a PostgreSQL database" in result.stderr
    assert not (tmp_path / "x.db").exists()


def test_serve_with_workers_answers_from_several_processes(postgres_url: str) -> None:
    server = Server(postgres_url, "--workers", "2")
    try:
        client = server.client()
        deadline = time.monotonic() + 30
        while client.get("/healthz").status_code != 200 and time.monotonic() < deadline:
            time.sleep(0.2)
        state = client.get("/api/game").json()
        for _ in range(5):
            answer = move(client, state)
            assert answer.status_code == 200
            state = client.get(f"/api/games/{state['id']}").json()
        children = subprocess.run(
            ["pgrep", "-P", str(server.process.pid)], capture_output=True, text=True
        ).stdout.split()
        assert len(children) >= 2
        # The supervisor only supervises: FastAPI (pydantic's compiled core) and the solver
        # (llvmlite) are loaded by the workers alone (its children: the two workers, one of which
        # may still be starting, and multiprocessing's resource tracker).
        mapped = Path(f"/proc/{server.process.pid}/maps").read_text()
        assert "pydantic_core" not in mapped and "llvmlite" not in mapped
        wait_until(
            lambda: sum("pydantic_core" in Path(f"/proc/{c}/maps").read_text() for c in children) == 2,
            "the workers did not load the app",
        )
    finally:
        server.stop()


#: A crowded position: a hint on it uses most of its budget (see tests/test_web_hostile.py).
CROWDED = Board.from_rows([[2, 8, 2, 4], [16, 32, 64, 128], [4, 2, 8, 2], [0, 0, 2, 4]])


def test_workers_run_the_single_process_setup(postgres_url: str) -> None:
    """Each worker caps request heads, drops a request that does not arrive in time, bounds new
    players per address, marks the cookie Secure behind a trusted HTTPS proxy, and stops its hints
    at once on shutdown, as single-process ``serve`` does."""
    server = Server(
        postgres_url,
        *("--workers", "2", "--hint-queue", "20", "--forwarded-allow-ips", "127.0.0.1"),
        *("--request-timeout", "2", "--new-players-per-hour", "1"),
    )
    errors: list[str] = []
    threading.Thread(target=lambda: errors.extend(server.process.stderr), daemon=True).start()  # type: ignore[arg-type]
    try:
        client = server.client()
        deadline = time.monotonic() + 30
        while client.get("/healthz").status_code != 200 and time.monotonic() < deadline:
            time.sleep(0.2)
        huge = client.get("/api/best", headers={"X-Padding": "x" * 20_000})
        assert huge.status_code == 431
        port = int(server.base.rsplit(":", 1)[1])
        with socket.create_connection(("127.0.0.1", port), timeout=20) as stalled:
            stalled.sendall(b"GET /api/best HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            assert stalled.recv(100).startswith(b"HTTP/1.1 408 ")
        # One new player an hour per process: of three from one address, two processes refuse one.
        new = [httpx.post(server.base + "/api/games", timeout=10) for _ in range(3)]
        assert "too_many_new_players" in {a.json().get("error") for a in new}, [a.status_code for a in new]
        secure = httpx.get(server.base + "/api/best", headers={"X-Forwarded-Proto": "https"}, timeout=10)
        assert "; Secure" in secure.headers["set-cookie"]
        assert "Secure" not in httpx.get(server.base + "/api/best", timeout=10).headers["set-cookie"]
        players = []
        for _ in range(6):
            token = httpx.get(server.base + "/api/game", timeout=10).cookies["twenty48_player"]
            with open_store(postgres_url) as store:
                game = store.add_game(store.web_player(token).id, Game.from_board(CROWDED, seed=1))
            players.append((token, game.id))
        answers: list[int] = []

        def hint(token: str, game_id: int) -> None:
            url = f"{server.base}/api/games/{game_id}/hint?time_ms=5000"
            answers.append(httpx.post(url, cookies={"twenty48_player": token}, timeout=30).status_code)

        threads = [threading.Thread(target=hint, args=p) for p in players]
        for thread in threads:
            thread.start()
        # Every hint is counted before it queues: each process computes one and holds the rest
        # (some may be done).
        tokens = [token for token, _ in players]
        wait_until(lambda: hints_counted(postgres_url, tokens) == 6, "the hints were not all asked for")
        answered = len(answers)
        server.process.send_signal(signal.SIGINT)
        server.process.wait(20)
        for thread in threads:
            thread.join(10)
    finally:
        server.stop()
    assert len(answers) == 6 and set(answers[:answered]) <= {200}, answers
    # Those still waiting or running are answered 503 at once, not computed first; in each process
    # one may have ended as the signal came.
    stopped = answers[answered:]
    assert stopped.count(200) <= 2 and set(stopped) <= {200, 503}, answers
    assert not any("Traceback" in line or "CancelledError" in line for line in errors), errors


def test_two_players_taking_one_name_at_once_are_told_it_is_taken(postgres_url: str) -> None:
    with open_store(postgres_url) as store:
        ada, other = (store.web_player(c * 43).id for c in "ab")
        # Another server process is half-way through giving the name to `other`: it holds the
        # names' lock and has written the name, not yet committed.
        with psycopg.connect(postgres_url) as racer:
            racer.execute("SELECT pg_advisory_xact_lock(%s)", (NAMES_LOCK,))
            racer.execute("UPDATE players SET name = 'Ada', name_key = 'ada' WHERE id = %s", (other,))
            outcome: list[BaseException | None] = []

            def take() -> None:
                try:
                    store.set_name(ada, "ADA")
                    outcome.append(None)
                except BaseException as exc:  # the test reads what happened below
                    outcome.append(exc)

            thread = threading.Thread(target=take)
            thread.start()
            # It must wait there, not write.
            wait_until(lambda: waiting_on_a_lock(postgres_url), "it never reached the names' lock")
            assert thread.is_alive()
            racer.commit()
            thread.join(10)
        assert len(outcome) == 1 and isinstance(outcome[0], NameTakenError), outcome
        assert store.profile(ada).name is None and store.profile(other).name == "Ada"
