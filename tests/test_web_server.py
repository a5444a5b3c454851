"""The real server as a subprocess: `2048 serve`, durability under SIGKILL, two clients on one game."""

from __future__ import annotations

import asyncio
import os
import random
import signal
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from functools import partial
from pathlib import Path

import httpx
import pytest

from twenty48 import cli
from twenty48.commands import serve
from twenty48.game import Game
from twenty48.rules import Board
from twenty48.store import Store
from twenty48.web.guard import COOKIE_NAME
from twenty48.web.limits import CLAIMS_PER_MINUTE

START_TIMEOUT = 30


@contextmanager
def running_server(db: Path) -> Iterator[tuple[subprocess.Popen[str], str]]:
    """`2048 serve` on a free port (--port 0); yields the process and its URL."""
    process = subprocess.Popen(
        [sys.executable, "-m", "twenty48", "serve", "--port", "0", "--db", str(db), "--no-browser"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        line = _first_line(process)
        url = line.split(" at ", 1)[1].split(" ", 1)[0].rstrip("/")
        assert url.startswith("http://127.0.0.1:"), line
        yield process, url
    finally:
        if process.poll() is None:
            process.terminate()
        process.wait(timeout=10)
        process.stdout.close()
        process.stderr.close()


def _first_line(process: subprocess.Popen[str]) -> str:
    lines: list[str] = []
    reader = threading.Thread(target=lambda: lines.append(process.stdout.readline()), daemon=True)
    reader.start()
    reader.join(START_TIMEOUT)
    if not lines or not lines[0]:
        process.kill()
        raise AssertionError(f"server did not start: {process.stderr.read()}")
    return lines[0]


def client_for(url: str, token: str | None = None) -> httpx.Client:
    cookies = {COOKIE_NAME: token} if token else None
    return httpx.Client(base_url=url, cookies=cookies, timeout=10)


def legal_moves(state: dict) -> list[str]:
    return [d.value for d in Board.from_rows(state["board"]).legal_moves()]


@pytest.mark.integration
def test_every_acknowledged_move_survives_sigkill(tmp_path: Path) -> None:
    db = tmp_path / "durable.sqlite3"
    rng = random.Random(2048)
    acknowledged: list[tuple[int, str, list[list[int]]]] = []
    with running_server(db) as (process, url), client_for(url) as client:
        state = client.post("/api/games", json={"seed": 99}).json()
        token = client.cookies[COOKIE_NAME]
        kill_after = rng.randrange(25, 45)
        killer_armed = threading.Event()

        def kill() -> None:
            killer_armed.wait(30)
            os.kill(process.pid, signal.SIGKILL)  # while the client keeps sending

        killer = threading.Thread(target=kill)
        killer.start()
        try:
            while True:
                direction = rng.choice(legal_moves(state))
                body = {"direction": direction, "revision": state["revision"]}
                try:
                    response = client.post(f"/api/games/{state['id']}/move", json=body)
                except httpx.TransportError:
                    break
                assert response.status_code == 200, response.text
                state = response.json()["state"]
                acknowledged.append((state["revision"], direction, state["board"]))
                assert not state["over"]
                if len(acknowledged) == kill_after:
                    killer_armed.set()
        finally:
            killer_armed.set()
            killer.join()
        assert process.wait(10) == -signal.SIGKILL
    assert len(acknowledged) >= kill_after

    with running_server(db) as (_, url), client_for(url, token) as client:
        after = client.get("/api/game").json()
        # The move in flight at the kill may or may not have been committed; none acknowledged is lost.
        assert after["revision"] in (len(acknowledged), len(acknowledged) + 1)
        if after["revision"] == len(acknowledged):
            assert after["board"] == acknowledged[-1][2]
        with Store.open(db) as store:
            player = store.web_player(token).id
            game = store.load_game(player, after["id"])
        assert [a.value for a in game.actions[: len(acknowledged)]] == [d for _, d, _ in acknowledged]
        assert game.to_dict() == Game.replay(99, game.actions).to_dict()
        # And the restarted server plays on.
        direction = legal_moves(after)[0]
        moved = client.post(
            f"/api/games/{after['id']}/move", json={"direction": direction, "revision": after["revision"]}
        )
        assert moved.status_code == 200 and moved.json()["state"]["revision"] == after["revision"] + 1


@pytest.mark.integration
def test_two_clients_on_one_game_never_lose_or_double_an_action(tmp_path: Path) -> None:
    with running_server(tmp_path / "shared.sqlite3") as (_, url):
        with client_for(url) as first:
            start = first.post("/api/games", json={"seed": 5}).json()
            token = first.cookies[COOKIE_NAME]
        accepted: list[tuple[int, str]] = []  # (revision after, action) of every 200
        conflicts = [0, 0]
        lock = threading.Lock()

        def play(index: int) -> None:
            rng = random.Random(index)
            with client_for(url, token) as client:
                state = client.get("/api/game").json()
                for _ in range(60):
                    if state["over"]:
                        return
                    if state["can_undo"] and rng.random() < 0.2:
                        action = "undo"
                        body: dict = {"revision": state["revision"]}
                        path = f"/api/games/{state['id']}/undo"
                    else:
                        action = rng.choice(legal_moves(state))
                        body = {"direction": action, "revision": state["revision"]}
                        path = f"/api/games/{state['id']}/move"
                    response = client.post(path, json=body)
                    answer = response.json()
                    if response.status_code == 409:
                        assert answer["error"] == "stale_revision"
                        conflicts[index] += 1
                        state = answer["state"]
                        continue
                    assert response.status_code == 200, response.text
                    state = answer["state"] if action != "undo" else answer
                    with lock:
                        accepted.append((state["revision"], action))

        threads = [threading.Thread(target=play, args=(i,)) for i in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()

        with client_for(url, token) as client:
            final = client.get("/api/game").json()
    revisions = sorted(r for r, _ in accepted)
    assert revisions == list(range(1, final["revision"] + 1)), "an action was lost or applied twice"
    assert sum(conflicts) > 0, "the two clients never raced; the test proved nothing"
    reference = Game.new(start["seed"])
    for _, action in sorted(accepted):
        if action == "undo":
            reference.undo()
        else:
            assert reference.move(action).changed
    assert final["board"] == [list(r) for r in reference.board.rows]
    assert (final["score"], final["moves"]) == (reference.score, reference.moves)


@pytest.mark.integration
def test_a_busy_port_is_a_one_line_error_and_exit_2(tmp_path: Path) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        result = subprocess.run(
            [
                sys.executable,
                "-m",
                "twenty48",
                "serve",
                "--port",
                str(port),
                "--no-browser",
                "--db",
                str(tmp_path / "x.sqlite3"),
            ],
            capture_output=True,
            text=True,
            timeout=60,
        )
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1 and f"port {port}" in result.stderr and "in use" in result.stderr
    assert not (tmp_path / "x.sqlite3").exists()


@pytest.mark.integration
def test_an_unreadable_database_is_a_clear_error(tmp_path: Path, capsys) -> None:
    db = tmp_path / "garbage.sqlite3"
    db.write_bytes(b"not a database" * 100)
    assert cli.main(["serve", "--port", "0", "--no-browser", "--db", str(db)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and str(db) in err


@pytest.mark.parametrize("port", ["x", "-1", "65536"])
def test_bad_ports_are_refused(port: str, capsys) -> None:
    with pytest.raises(SystemExit) as exit_info:
        cli.main(["serve", "--port", port])
    assert exit_info.value.code == 2
    assert "port" in capsys.readouterr().err


def test_bare_2048_serves_with_the_defaults(monkeypatch) -> None:
    seen = []
    monkeypatch.setattr(serve, "run", lambda args: seen.append(args) or 0)
    assert cli.main([]) == 0
    (args,) = seen
    assert (args.command, args.host, args.port, args.db, args.no_browser) == (
        "serve",
        "127.0.0.1",
        2048,
        None,
        False,
    )


def test_servers_answer_loopback_names_and_their_own_address() -> None:
    loopback = {"127.0.0.1", "localhost", "[::1]"}
    assert serve.allowed_hosts("127.0.0.1", [], []) == loopback
    assert serve.allowed_hosts("::1", [], []) == loopback
    assert serve.allowed_hosts("localhost", [], []) == loopback
    assert serve.allowed_hosts("127.0.0.2", [], []) == {*loopback, "127.0.0.2"}
    assert serve.allowed_hosts("192.168.1.5", ["game.lan"], []) == {"192.168.1.5", "game.lan"}
    # Every interface: still a Host check, over this machine's names and addresses.
    assert serve.allowed_hosts("0.0.0.0", [], ["mybox", "192.168.1.5"]) == {*loopback, "mybox", "192.168.1.5"}
    assert serve.allowed_hosts("::", ["[fe80::1]"], []) == {*loopback, "[fe80::1]"}
    assert serve.url_for("0.0.0.0", 8000) == "http://127.0.0.1:8000/"
    assert serve.url_for("::1", 8000) == "http://[::1]:8000/"
    assert serve.url_for("127.0.0.2", 8000) == "http://127.0.0.2:8000/"


def test_bare_2048_takes_the_serve_options(monkeypatch) -> None:
    seen = []
    monkeypatch.setattr(serve, "run", lambda args: seen.append(args) or 0)
    assert cli.main(["--port", "8000", "--no-browser"]) == 0
    (args,) = seen
    assert (args.command, args.port, args.no_browser) == ("serve", 8000, True)


def test_the_cookie_is_secure_only_behind_https_from_a_trusted_proxy(tmp_path: Path) -> None:
    """uvicorn applies X-Forwarded-Proto from the addresses of --forwarded-allow-ips only; the
    guard then marks the player cookie Secure."""
    from twenty48.web import create_app
    from twenty48.web.app import stop_work
    from twenty48.web.server import server_config

    with Store.open(tmp_path / "c.sqlite3") as store:
        for trusted, proto, secure in (
            ("127.0.0.1", "https", True),
            ("127.0.0.1", "http", False),
            ("10.0.0.9", "https", False),  # the request does not come from the proxy named
        ):
            app = create_app(store)
            config = server_config(
                app, http="h11", forwarded_allow_ips=trusted, on_shutdown=partial(stop_work, app)
            )
            config.load()
            transport = httpx.ASGITransport(app=config.loaded_app, client=("127.0.0.1", 5000))

            cookie = asyncio.run(_ask(transport, proto)).headers["set-cookie"]
            assert ("; Secure" in cookie) is secure, (trusted, proto, cookie)
    args = cli.build_parser().parse_args(["serve", "--forwarded-allow-ips", "10.0.0.0/8,::1"])
    assert args.forwarded_allow_ips == "10.0.0.0/8,::1"


async def _ask(transport: httpx.ASGITransport, proto: str) -> httpx.Response:
    async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as client:
        return await client.get("/api/best", headers={"X-Forwarded-Proto": proto})


def test_rotating_x_forwarded_for_resets_no_limit_unless_the_proxy_is_named(
    tmp_path: Path, monkeypatch
) -> None:
    """X-Forwarded-For names the client only when it comes from --forwarded-allow-ips: by default
    (uvicorn's: loopback) a local client naming itself anew at each try made 30 wrong claims of 30."""
    from twenty48.web import create_app
    from twenty48.web.app import stop_work
    from twenty48.web.server import server_config

    monkeypatch.delenv(serve.FORWARDED_VARIABLE, raising=False)
    with Store.open(tmp_path / "x.sqlite3") as store:
        for trusted, last in ((None, 429), ("127.0.0.1", 404)):
            app = create_app(store)
            config = server_config(
                app, http="h11", forwarded_allow_ips=trusted, on_shutdown=partial(stop_work, app)
            )
            config.load()
            transport = httpx.ASGITransport(app=config.loaded_app, client=("127.0.0.1", 5000))
            answers = asyncio.run(_wrong_claims(transport, CLAIMS_PER_MINUTE + 1))
            assert answers == [404] * CLAIMS_PER_MINUTE + [last], trusted


async def _wrong_claims(transport: httpx.ASGITransport, count: int) -> list[int]:
    async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as client:
        return [
            (
                await client.post(
                    "/api/me/claim", json={"code": "nothing"}, headers={"X-Forwarded-For": f"198.51.100.{n}"}
                )
            ).status_code
            for n in range(count)
        ]


@pytest.mark.parametrize("value", ["!!,::zz", "10.0.0.1/8", "*,10.0.0.1", "10.0.0.0/8,,::1", "localhost", ""])
def test_a_malformed_forwarded_allow_ips_is_one_line_and_exit_2(value: str, capsys) -> None:
    # uvicorn takes anything it cannot read for a name no client address matches, and says nothing.
    with pytest.raises(SystemExit) as exit_info:
        cli.main(["serve", "--forwarded-allow-ips", value])
    err = capsys.readouterr().err
    assert exit_info.value.code == 2 and err.count("\n") == 1 and "--forwarded-allow-ips" in err


def test_forwarded_allow_ips_may_come_from_the_environment(tmp_path: Path, monkeypatch, capsys) -> None:
    monkeypatch.delenv(serve.FORWARDED_VARIABLE, raising=False)
    assert serve.trusted_proxies(None) is None
    monkeypatch.setenv(serve.FORWARDED_VARIABLE, " 10.0.0.0/8, ::1 ")
    assert serve.trusted_proxies(None) == "10.0.0.0/8,::1"
    assert serve.trusted_proxies("*") == "*"  # the option wins
    monkeypatch.setenv(serve.FORWARDED_VARIABLE, "!!")
    db = tmp_path / "x.sqlite3"
    assert cli.main(["serve", "--port", "0", "--no-browser", "--db", str(db)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "$FORWARDED_ALLOW_IPS" in err and "'!!'" in err
    assert not db.exists()
