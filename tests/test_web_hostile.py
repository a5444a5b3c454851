"""Hostile clients against the real server (`2048 serve` as a subprocess, raw sockets where httpx
would be too polite): huge request heads, hints that pile up or hang up, shutdown, bind addresses."""

from __future__ import annotations

import contextlib
import logging
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn
from fastapi import FastAPI

from twenty48 import ai
from twenty48.commands import serve
from twenty48.game import Game
from twenty48.rules import Board
from twenty48.store import Store
from twenty48.web import create_app
from twenty48.web.guard import CSP
from twenty48.web.limits import Limits
from twenty48.web.protocol import MAX_HEAD
from twenty48.web.server import server_config

pytestmark = pytest.mark.integration

START_TIMEOUT = 30


@contextmanager
def server(db: Path, *args: str) -> Iterator[tuple[subprocess.Popen[str], str, list[str]]]:
    """`2048 serve` with ``args``; yields the process, its printed URL and its stderr lines so far."""
    process = subprocess.Popen(
        [sys.executable, "-m", "twenty48", "serve", "--port", "0", "--db", str(db), "--no-browser", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    errors: list[str] = []
    threading.Thread(target=lambda: errors.extend(process.stderr), daemon=True).start()
    lines: list[str] = []
    reader = threading.Thread(target=lambda: lines.append(process.stdout.readline()), daemon=True)
    reader.start()
    reader.join(START_TIMEOUT)
    try:
        if not lines or not lines[0]:
            raise AssertionError(f"server did not start: {errors}")
        yield process, lines[0].split(" at ", 1)[1].split(" ", 1)[0].rstrip("/"), errors
    finally:
        if process.poll() is None:
            process.kill()
        process.wait(timeout=10)
        process.stdout.close()


def raw(url: str, request: bytes, chunk: int = 65536) -> bytes:
    """Send ``request`` (in chunks, stopping if the server closes) and read the whole answer."""
    host, port = url.removeprefix("http://").rsplit(":", 1)
    with socket.create_connection((host, int(port)), timeout=10) as sock:
        try:
            for start in range(0, len(request), chunk):
                sock.sendall(request[start : start + chunk])
        except (BrokenPipeError, ConnectionResetError):
            pass  # refused mid-way: the answer was sent before the close
        answer = b""
        try:
            while data := sock.recv(65536):
                answer += data
        except ConnectionResetError:
            pass
    return answer


def status_of(answer: bytes) -> int:
    return int(answer.split(b" ", 2)[1])


def test_request_heads_are_capped(tmp_path: Path) -> None:
    with server(tmp_path / "h.sqlite3", "--request-timeout", "2") as (process, url, errors):
        host = url.removeprefix("http://").encode()
        ok = raw(
            url,
            b"GET /api/best HTTP/1.1\r\nHost: "
            + host
            + b"\r\nX-Pad: "
            + b"a" * (MAX_HEAD - 200)
            + b"\r\nConnection: close\r\n\r\n",
        )
        assert status_of(ok) == 200
        for size in (MAX_HEAD + 100, 64 * 1024 * 1024):
            big = b"GET / HTTP/1.1\r\nHost: " + host + b"\r\nX-Pad: " + b"a" * size + b"\r\n\r\n"
            answer = raw(url, big)
            assert status_of(answer) == 431, size
            assert CSP.encode() in answer and b'"headers_too_large"' in answer
        long_url = raw(url, b"GET /?" + b"q" * (MAX_HEAD + 10) + b" HTTP/1.1\r\nHost: " + host + b"\r\n\r\n")
        assert status_of(long_url) == 414
        garbage = raw(url, b"NOT HTTP AT ALL\r\n\r\n")
        assert status_of(garbage) == 400 and CSP.encode() in garbage and b"nosniff" in garbage
        # And in time: --request-timeout reaches the server.
        stalled = connect(url)
        stalled.sendall(b"GET /api/best HTTP/1.1\r\nHost: " + host + b"\r\n")
        assert status_of(until_closed(stalled)) == 408
        # The server still answers everyone else.
        assert httpx.get(url + "/api/best", timeout=10).status_code == 200
        process.send_signal(signal.SIGINT)
        process.wait(timeout=15)
    assert sum("refused a request" in line for line in errors) == 4
    assert sum("dropped a request" in line and "within 2 s" in line for line in errors) == 1


@contextmanager
def in_process(app: FastAPI, **settings: Any) -> Iterator[str]:
    """``app`` served in a thread by uvicorn as ``2048 serve`` sets it up, with ``server_config``'s
    ``settings``; yields its URL."""
    sock = serve.bind("127.0.0.1", 0)
    server = uvicorn.Server(server_config(app, http=serve.HTTP_PROTOCOL, **settings))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + START_TIMEOUT
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "the server did not start"
        time.sleep(0.01)
    try:
        yield f"http://127.0.0.1:{sock.getsockname()[1]}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        sock.close()


def connect(url: str) -> socket.socket:
    host, port = url.removeprefix("http://").rsplit(":", 1)
    return socket.create_connection((host, int(port)), timeout=20)


def until_closed(sock: socket.socket) -> bytes:
    """Everything the server sends until it closes the connection."""
    answer = b""
    with sock:
        while data := sock.recv(65536):
            answer += data
    return answer


def test_requests_that_do_not_arrive_are_dropped(tmp_path: Path, caplog) -> None:
    db = tmp_path / "slow.sqlite3"
    with Store.open(db) as store, in_process(create_app(store), request_timeout=0.3) as url:
        silent, half_head, half_body, kept = connect(url), connect(url), connect(url), connect(url)
        half_head.sendall(b"GET /api/best HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        # A whole request, answered, then half of the next one on the same connection.
        kept.sendall(b"GET /api/best HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\nGET /api/best HTTP/1.1\r\n")
        # A whole new-game request's JSON, but 4,000 bytes announced: what came is no request.
        half_body.sendall(
            b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            b"Content-Length: 4000\r\n\r\n{}"
        )
        with caplog.at_level(logging.WARNING, logger="twenty48.web"):
            assert until_closed(silent) == b""  # it sent nothing: closed without an answer
            for sock, part in ((half_head, "head"), (half_body, "body")):
                answer = until_closed(sock)
                assert status_of(answer) == 408 and b'"request_timeout"' in answer, answer
                assert f"request's {part} did not arrive within 0.3 s".encode() in answer
                assert CSP.encode() in answer
            answers = until_closed(kept).split(b"HTTP/1.1 ")
            assert [int(a[:3]) for a in answers[1:]] == [200, 408], answers
        assert caplog.text.count("dropped a request") == 3
        # Nothing was stored, and everyone else is answered.
        assert httpx.get(url + "/api/best", timeout=10).status_code == 200
        with sqlite3.connect(db) as check:
            assert check.execute("SELECT count(*) FROM players").fetchone()[0] == 0
        # httptools hands both Host headers over; the guard refuses the request.
        twice = raw(url, b"GET /api/best HTTP/1.1\r\nHost: rebound.example\r\nHost: 127.0.0.1\r\n\r\n")
        assert status_of(twice) == 400 and b'"bad_request"' in twice


def test_a_process_answers_503_past_its_connections(tmp_path: Path) -> None:
    store = Store.open(tmp_path / "busy.sqlite3")
    with store, in_process(create_app(store), max_connections=4) as url:
        request = b"GET /api/best HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
        idle = [connect(url) for _ in range(2)]
        assert status_of(raw(url, request)) == 200  # the third connection of four
        idle.append(connect(url))
        busy = raw(url, request)
        assert status_of(busy) == 503 and b'"server_busy"' in busy and CSP.encode() in busy
        assert b"retry-after: 10\r\n" in busy  # the request timeout: idle connections are gone by then
        for sock in idle:
            sock.close()
        deadline = time.monotonic() + 10
        while status_of(raw(url, request)) != 200:
            assert time.monotonic() < deadline, "the closed connections were never let go"
            time.sleep(0.05)


def _hint(url: str, game: int, token: str, ms: int) -> httpx.Response:
    return httpx.post(
        f"{url}/api/games/{game}/hint?time_ms={ms}", cookies={"twenty48_player": token}, timeout=30
    )


#: A crowded position: a hint on it uses most of its time budget (an open board is searched to
#: the end in a few milliseconds, whatever the budget).
CROWDED = Board.from_rows([[2, 8, 2, 4], [16, 32, 64, 128], [4, 2, 8, 2], [0, 0, 2, 4]])


def _player(url: str, store: Store, board: Board | None = CROWDED) -> tuple[str, int]:
    """A new browser player (its cookie) and its current game: ``board``'s (added to ``store``, the
    server's database), or a new one if None."""
    answer = httpx.get(url + "/api/game", timeout=10)
    token = answer.cookies["twenty48_player"]
    if board is None:
        return token, answer.json()["id"]
    return token, store.add_game(store.web_player(token).id, Game.from_board(board, seed=1)).id


def wait_until(condition: Callable[[], bool], failure: str, seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, failure
        time.sleep(0.01)


def hints_asked(db: Path) -> int:
    """Hints counted in the players' games (a hint is counted before it queues)."""
    with sqlite3.connect(db) as check:
        return check.execute("SELECT coalesce(sum(hints), 0) FROM games").fetchone()[0]


def leases_held(db: Path) -> int:
    """Players whose one hint in flight is taken (the route holds it until the hint is answered)."""
    with sqlite3.connect(db) as check:
        return check.execute("SELECT count(*) FROM player_limits WHERE hint_lease IS NOT NULL").fetchone()[0]


def test_hints_are_bounded_and_hung_up_ones_dropped(tmp_path: Path, monkeypatch) -> None:
    # The real solver, seen by the test: each search is noted as it starts and waits while the
    # gate is shut, so the queue is ordered by the test instead of by how long a search takes.
    searched: list[Board] = []
    gate = threading.Event()
    search = ai.analyse

    def held(board: Board, *args: Any, **kwargs: Any) -> Any:
        searched.append(board)
        assert gate.wait(60), "the test never opened the gate"
        return search(board, *args, **kwargs)

    monkeypatch.setattr(ai, "analyse", held)
    db = tmp_path / "h.sqlite3"
    # Mirrored: the hints that are abandoned are on boards of their own.
    abandoned = Board.from_rows([list(reversed(row)) for row in CROWDED.rows])
    with Store.open(db) as store:
        app = create_app(store, limits=Limits(hint_queue=3))
        hints = app.state.web.hints
        with in_process(app) as url:
            players = [_player(url, store, board) for board in (CROWDED, abandoned, abandoned, CROWDED, None)]
            results: dict[int, httpx.Response] = {}

            def ask(i: int, ms: int) -> None:
                results[i] = _hint(url, players[i][1], players[i][0], ms)

            gate.set()
            ask(4, 10)  # the solver is loaded
            gate.clear()
            busy = threading.Thread(target=ask, args=(0, 3000))
            busy.start()
            wait_until(lambda: searched[-1:] == [CROWDED], "the first hint never started")
            assert _hint(url, players[0][1], players[0][0], 10).status_code == 429  # one per player
            # Two clients queue a hint behind it and hang up: their places and leases are freed.
            host, port = url.removeprefix("http://").rsplit(":", 1)
            with contextlib.ExitStack() as hang_ups:
                # Both stay connected until both are queued: a place freed early would hide a queuing.
                for queued, (token, game) in enumerate(players[1:3], start=hints.pending + 1):
                    request = f"POST /api/games/{game}/hint?time_ms=3000 HTTP/1.1\r\nHost: {host}:{port}\r\n"
                    request += f"Cookie: twenty48_player={token}\r\n\r\n"
                    sock = hang_ups.enter_context(socket.create_connection((host, int(port)), timeout=5))
                    sock.sendall(request.encode())
                    wait_until(lambda q=queued: hints.pending == q, "the hint was not queued")
            wait_until(lambda: hints.pending == 1 and leases_held(db) == 1, "the abandoned hints stayed")
            last = threading.Thread(target=ask, args=(4, 10))  # waits behind the running hint only
            last.start()
            wait_until(lambda: hints.pending == 2, "the last hint was not queued")
            gate.set()
            busy.join()
            last.join()
            assert results[0].status_code == 200 and results[4].status_code == 200
            assert searched[1:] == [CROWDED, searched[0]], "an abandoned hint was computed"
            # A full queue answers 503 with Retry-After, and queues nothing.
            gate.clear()
            threads = [threading.Thread(target=ask, args=(i, 2000)) for i in range(3)]
            for thread in threads:
                thread.start()
            wait_until(lambda: hints.pending == 3, "the queue never filled")
            full = _hint(url, players[3][1], players[3][0], 10)
            assert full.status_code == 503 and full.json()["error"] == "hints_busy"
            assert int(full.headers["retry-after"]) >= 1
            gate.set()
            for thread in threads:
                thread.join()
            assert sorted(results[i].status_code for i in range(3)) == [200, 200, 200]


def test_shutdown_with_queued_hints_is_quiet_and_prompt(tmp_path: Path) -> None:
    db = tmp_path / "h.sqlite3"
    # The server's database, opened beside it as the terminal does.
    with server(db, "--hint-queue", "20") as (process, url, errors), Store.open(db) as store:
        players = [_player(url, store) for _ in range(10)]
        warm = _player(url, store, None)
        assert _hint(url, warm[1], warm[0], 10).status_code == 200  # the solver is loaded
        answers: list[int] = []
        threads = [
            threading.Thread(target=lambda t=t, g=g: answers.append(_hint(url, g, t, 5000).status_code))
            for t, g in players
        ]
        for thread in threads:
            thread.start()
        # All ten are counted (one runs, the others wait: the queue holds 20), and some may be done.
        wait_until(lambda: hints_asked(db) == 11, "the hints were not all asked for")
        answered = len(answers)
        process.send_signal(signal.SIGINT)
        process.wait(timeout=20)
        for thread in threads:
            thread.join(10)
    assert len(answers) == 10 and set(answers[:answered]) <= {200}
    # Those still waiting or running are answered 503 at once, not computed first; one may have
    # ended as the signal came.
    stopped = answers[answered:]
    assert stopped.count(200) <= 1 and set(stopped) <= {200, 503}, answers
    assert not any("Traceback" in line or "CancelledError" in line for line in errors), errors


def test_a_loopback_address_answers_its_own_url(tmp_path: Path) -> None:
    with server(tmp_path / "h.sqlite3", "--host", "127.0.0.2") as (_, url, errors):
        assert url.startswith("http://127.0.0.2:")
        assert httpx.get(url + "/api/best", timeout=10).status_code == 200
        assert not any("warning" in line for line in errors)


def test_binding_every_interface_warns_and_keeps_the_host_check(tmp_path: Path) -> None:
    try:
        probe = socket.socket()
        probe.bind(("0.0.0.0", 0))
        probe.close()
    except OSError:
        pytest.skip("cannot bind 0.0.0.0 here")
    with server(tmp_path / "h.sqlite3", "--host", "0.0.0.0", "--allowed-host", "game.lan") as (
        _,
        url,
        errors,
    ):
        port = url.rsplit(":", 1)[1]
        assert httpx.get(url + "/api/best", timeout=10).status_code == 200
        lan = httpx.get(url + "/api/best", headers={"Host": f"game.lan:{port}"}, timeout=10)
        assert lan.status_code == 200
        rebound = httpx.get(url + "/api/best", headers={"Host": f"rebound.example:{port}"}, timeout=10)
        assert rebound.status_code == 421
        wait_until(lambda: any("warning" in line for line in errors), "no warning was printed")
    warnings = [line for line in errors if "warning" in line]
    assert len(warnings) == 1
    assert "reachable from the network" in warnings[0] and "--allowed-host" in warnings[0]
    assert "game.lan" in warnings[0]
