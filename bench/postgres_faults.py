"""PostgreSQL going wrong under load: no acknowledged move lost, no answer but a clear one. One JSON line.

Starts ``2048 serve --workers 2`` on a throwaway PostgreSQL cluster (``postgres_cluster``) and has
``--clients`` players (default 20) move as fast as they are answered, each a new player on its own
keep-alive connection, while three faults hit in turn, ``--pause`` seconds apart (default 3):

1. a fast restart of the database (``pg_ctl restart -m fast``: its clients are disconnected);
2. the database's postmaster killed with SIGKILL, then started again once its old processes are
   gone (a crash: what it had not flushed to its write-ahead log is lost);
3. one of the server's worker processes killed with SIGKILL (uvicorn's supervisor starts another).

A move is acknowledged when its answer is 200 and says the board changed. After the load, every
game's stored moves must replay to its stored board, and hold every acknowledged move: ``lost`` counts
the acknowledged moves a game's stored revision does not reach. Any other answer is counted by its
status and error code (503 ``store_unavailable`` is the expected one while the database is away;
``5xx_other`` must stay 0), a broken connection as ``connection``, and no answer ever shows a traceback.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx

from twenty48.game import Game
from twenty48.rules import Board
from twenty48.store import open_store
from twenty48.web.guard import COOKIE_NAME

sys.path.insert(0, str(Path(__file__).parent))
from postgres_cluster import Postgres
from web import start_server


class Load:
    """What the players saw: acknowledged moves per game, and every other answer by kind."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        #: Game id -> (revision, moves) of its latest acknowledged move.
        self.acknowledged: dict[int, tuple[int, int]] = {}
        #: Game id -> its player's cookie token.
        self.owners: dict[int, str] = {}
        self.moves = 0
        self.answers: collections.Counter[str] = collections.Counter()
        self.tracebacks = 0

    def acknowledge(self, state: dict, token: str) -> None:
        with self.lock:
            self.moves += 1
            self.owners[state["id"]] = token
            seen = self.acknowledged.get(state["id"], (0, 0))
            self.acknowledged[state["id"]] = max(seen, (state["revision"], state["moves"]))

    def refused(self, kind: str, body: str = "") -> None:
        with self.lock:
            self.answers[kind] += 1
            self.tracebacks += "Traceback" in body


def player(port: int, stop: threading.Event, load: Load) -> None:
    client = httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30)
    state: dict | None = None
    while not stop.is_set():
        try:
            if state is None or state["over"]:
                answer = client.post("/api/games", json={}) if state else client.get("/api/game")
                if answer.status_code not in (200, 201):
                    load.refused(_kind(answer), answer.text)
                    time.sleep(0.05)
                    continue
                state = answer.json()
                # The game read again after a lost answer may be over already: look again.
                continue
            legal = Board.from_rows(state["board"]).legal_moves()
            answer = client.post(
                f"/api/games/{state['id']}/move",
                json={"direction": legal[0].value, "revision": state["revision"]},
            )
        except httpx.HTTPError:
            load.refused("connection")
            client.close()
            client = httpx.Client(base_url=f"http://127.0.0.1:{port}", cookies=client.cookies, timeout=30)
            state = None  # read again: the move may or may not have been made
            time.sleep(0.05)
            continue
        if answer.status_code == 200:
            body = answer.json()
            state = body["state"]
            if body["changed"]:
                load.acknowledge(state, client.cookies[COOKIE_NAME])
            continue
        load.refused(_kind(answer), answer.text)
        # A 409 carries the game as it stands; anything else: read it again.
        state = answer.json().get("state") if answer.status_code == 409 else None
        if answer.status_code >= 500:
            time.sleep(0.05)
    client.close()


def _kind(answer: httpx.Response) -> str:
    try:
        code = answer.json().get("error", "")
    except ValueError:
        code = ""
    return f"{answer.status_code} {code}".strip()


def postmaster_pid(data: Path) -> int:
    return int((data / "postmaster.pid").read_text().split("\n", 1)[0])


def restart_fast(postgres: Postgres) -> None:
    assert postgres.ctl is not None
    subprocess.run([*postgres.ctl, "-m", "fast", "-w", "restart"], check=True, capture_output=True, cwd="/")


def kill_postmaster(postgres: Postgres) -> None:
    assert postgres.data is not None and postgres.ctl is not None
    os.kill(postmaster_pid(postgres.data), signal.SIGKILL)
    # Its backends see their postmaster gone and end; a new one cannot start while they hold its
    # shared memory.
    deadline = time.monotonic() + 30
    while True:
        started = subprocess.run([*postgres.ctl, "-w", "start"], capture_output=True, cwd="/")
        if started.returncode == 0 or time.monotonic() > deadline:
            started.check_returncode()
            return
        time.sleep(0.5)


def kill_worker(server: subprocess.Popen[str]) -> None:
    """SIGKILL one of the supervisor's worker processes (not multiprocessing's resource tracker)."""
    for child in Path(f"/proc/{server.pid}/task/{server.pid}/children").read_text().split():
        command = Path(f"/proc/{child}/cmdline").read_bytes()
        if b"spawn_main" in command and b"resource_tracker" not in command:
            os.kill(int(child), signal.SIGKILL)
            return
    raise SystemExit("no worker process found under the server")


def check(url: str, load: Load) -> tuple[int, int]:
    """(games whose stored actions do not replay to their stored board, acknowledged actions lost)."""
    broken = lost = 0
    with open_store(url) as store:
        for game_id, (revision, _) in load.acknowledged.items():
            found = store.find_web_player(load.owners[game_id])
            assert found is not None, "an acknowledged move's player is not stored"
            owner = found.id
            game = store.load_game(owner, game_id)
            replayed = Game.replay(game.seed, [str(a) for a in game.actions], game.variant.name, game.start)
            broken += (replayed.board, replayed.score) != (game.board, game.score)
            # Every accepted action raises the revision by one: what is short of the acknowledged one
            # was lost.
            lost += max(0, revision - store.get_game(owner, game_id).revision)
    return broken, lost


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument(
        "--pause", type=float, default=3.0, help="seconds of load before each fault and after the last"
    )
    args = parser.parse_args()
    with Postgres.open("throwaway") as postgres:
        url = postgres.fresh()
        server, port = start_server(url, workers=2)
        load, stop = Load(), threading.Event()
        players = [threading.Thread(target=player, args=(port, stop, load)) for _ in range(args.clients)]
        for thread in players:
            thread.start()
        faults = []
        for name, fault in (
            ("fast restart", lambda: restart_fast(postgres)),
            ("postmaster SIGKILL", lambda: kill_postmaster(postgres)),
            ("worker SIGKILL", lambda: kill_worker(server)),
        ):
            time.sleep(args.pause)
            before = load.moves
            fault()
            faults.append({"fault": name, "acknowledged_before": before})
        time.sleep(args.pause)
        stop.set()
        for thread in players:
            thread.join(60)
        after = load.moves
        server.send_signal(signal.SIGTERM)
        server.wait(30)
        broken, lost = check(url, load)
    print(
        json.dumps(
            {
                "clients": args.clients,
                "workers": 2,
                "faults": faults,
                "acknowledged": after,
                "games": len(load.acknowledged),
                "lost": lost,
                "games_not_replaying": broken,
                "answers_other_than_200": dict(load.answers),
                "5xx_other": sum(
                    n
                    for kind, n in load.answers.items()
                    if kind[:1] == "5" and kind != "503 store_unavailable"
                ),
                "tracebacks": load.tracebacks,
                "loadavg": os.getloadavg()[0],
            }
        )
    )


if __name__ == "__main__":
    main()
