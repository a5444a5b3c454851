"""The store thread's group commit: every answer waits for a flush that follows its commit. The hint
thread: a bounded queue, abandoned hints dropped or stopped, a prompt close, a pause while the server is
busy."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from twenty48.ai import Pace, search
from twenty48.store import Store
from twenty48.web.worker import (
    BUSY_PAUSE_US,
    ClientGoneError,
    HintQueueFullError,
    HintWorker,
    StoreWorker,
)


def test_answers_wait_for_a_flush_and_bursts_share_one(tmp_path: Path) -> None:
    events: list[tuple[str, int]] = []
    lock = threading.Lock()

    def log(kind: str, n: int) -> None:
        with lock:
            events.append((kind, n))

    with Store.open(tmp_path / "w.sqlite3", group_commit=True) as store:
        real_flush = store.flush
        store.flush = lambda: (real_flush(), log("flush", -1))[0]  # type: ignore[method-assign]
        players = [store.local_player(f"p{i}").id for i in range(40)]
        worker = StoreWorker(store)

        def new_game(i: int) -> int:
            game_id = store.new_game(players[i], seed=i).id
            log("commit", i)
            return game_id

        async def one(i: int) -> int:
            game_id = await worker.run(new_game, i)
            log("answer", i)
            return game_id

        async def burst() -> list[int]:
            return await asyncio.gather(*(one(i) for i in range(40)))

        ids = asyncio.run(burst())
        worker.close()

    assert len(set(ids)) == 40
    for i in range(40):
        committed = events.index(("commit", i))
        answered = events.index(("answer", i))
        assert any(events[k][0] == "flush" for k in range(committed, answered)), f"call {i} answered early"
    assert sum(1 for kind, _ in events if kind == "flush") < 40, "no two calls shared a flush"


def test_errors_reach_their_caller_and_the_worker_goes_on(tmp_path: Path) -> None:
    with Store.open(tmp_path / "w.sqlite3", group_commit=True) as store:
        worker = StoreWorker(store)
        player = store.local_player().id

        async def calls() -> tuple[BaseException | None, int]:
            results = await asyncio.gather(
                worker.run(store.get_game, player, 999),
                worker.run(store.best_score, player),
                return_exceptions=True,
            )
            return results[0], results[1]

        error, best = asyncio.run(calls())
        assert isinstance(error, LookupError) and best == 0
        worker.close()
        # A closed worker starts again on demand.
        assert asyncio.run(worker.run(store.best_score, player)) == 0
        worker.close()


# ---- the hint worker --------------------------------------------------------------------------------


class Solver:
    """Stands in for the solver's budget: each call blocks until released, and is recorded."""

    def __init__(self) -> None:
        self.started: list[str] = []
        self.release = threading.Event()

    def call(self, name: str) -> Callable[[Pace], str]:
        def run(_pace: Pace) -> str:
            self.started.append(name)
            assert self.release.wait(10)
            return name

        return run


async def _until(condition: Callable[[], bool]) -> None:
    for _ in range(1000):
        if condition():
            return
        await asyncio.sleep(0.005)
    raise AssertionError("condition never held")


def test_a_bounded_queue() -> None:
    solver = Solver()

    async def scenario() -> None:
        hints = HintWorker(capacity=2)
        first = asyncio.ensure_future(hints.run(solver.call("a"), 0.5))
        await _until(lambda: solver.started == ["a"])
        second = asyncio.ensure_future(hints.run(solver.call("b"), 3.0))
        await asyncio.sleep(0)
        with pytest.raises(HintQueueFullError) as full:
            await hints.run(solver.call("c"), 0.5)
        assert full.value.retry_after == 4  # what is queued ahead: 0.5 s + 3 s
        solver.release.set()
        assert await asyncio.gather(first, second) == ["a", "b"]
        assert await hints.run(solver.call("c"), 0.5) == "c"  # room again
        hints.close()

    asyncio.run(scenario())
    assert solver.started == ["a", "b", "c"]


def test_a_hint_whose_client_hung_up_is_never_computed() -> None:
    solver = Solver()

    async def scenario() -> None:
        hints = HintWorker(capacity=4)
        hung_up = asyncio.Event()
        running = asyncio.ensure_future(hints.run(solver.call("running"), 1))
        await _until(lambda: solver.started == ["running"])
        queued = asyncio.ensure_future(hints.run(solver.call("abandoned"), 1, hung_up.wait))
        await asyncio.sleep(0.01)
        hung_up.set()
        with pytest.raises(ClientGoneError):
            await queued
        # The player whose client left may ask again at once.
        later = asyncio.ensure_future(hints.run(solver.call("later"), 1))
        solver.release.set()
        assert await asyncio.gather(running, later) == ["running", "later"]
        hints.close()

    asyncio.run(scenario())
    assert solver.started == ["running", "later"]


def test_closing_answers_every_waiting_hint_at_once() -> None:
    solver = Solver()

    async def scenario() -> None:
        hints = HintWorker(capacity=8)
        waiting = [asyncio.ensure_future(hints.run(solver.call(str(p)), 5)) for p in range(5)]
        await _until(lambda: solver.started == ["0"])
        hints.close()
        results = await asyncio.wait_for(asyncio.gather(*waiting, return_exceptions=True), 1)
        assert all(isinstance(r, HintQueueFullError) and "shutting down" in str(r) for r in results)
        with pytest.raises(HintQueueFullError):
            await hints.run(solver.call("late"), 1)
        solver.release.set()

    asyncio.run(scenario())
    assert solver.started == ["0"]  # the one running was finished, the rest never started


def test_a_running_hint_pauses_while_the_event_loop_is_busy() -> None:
    paces: list[Pace] = []
    release = threading.Event()

    def hint(pace: Pace) -> str:
        paces.append(pace)
        assert release.wait(10)
        return "done"

    async def busy_until(condition: Callable[[], bool]) -> None:
        # Work on the event loop (as answering players does) until the condition holds.
        for _ in range(200):
            if condition():
                return
            spin_until = time.thread_time() + 0.02
            while time.thread_time() < spin_until:
                pass
            await asyncio.sleep(0)
        raise AssertionError("condition never held")

    async def scenario() -> None:
        hints = HintWorker(capacity=2)
        running = asyncio.ensure_future(hints.run(hint, 5))
        await _until(lambda: len(paces) == 1)
        assert paces[0] is hints.pace and hints.pace.pause_us == 0
        await busy_until(lambda: paces[0].pause_us == BUSY_PAUSE_US)
        await _until(lambda: paces[0].pause_us == 0)  # idle again: full speed
        release.set()
        assert await running == "done"
        hints.close()

    asyncio.run(scenario())


def test_a_running_hint_whose_client_hung_up_is_stopped() -> None:
    stopped: list[bool] = []

    def hint(pace: Pace) -> str:
        # Stands in for a search: it runs until its control block is told to stop (or 10 s pass).
        control = search.new_control()
        pace._join([control])
        try:
            for _ in range(2000):
                if control[search.STOP]:
                    break
                time.sleep(0.005)
            stopped.append(bool(control[search.STOP]))
        finally:
            pace._leave([control])
        return "answer"

    async def scenario() -> None:
        hints = HintWorker(capacity=2)
        hung_up = asyncio.Event()
        running = asyncio.ensure_future(hints.run(hint, 5, hung_up.wait))
        await asyncio.sleep(0.05)
        hung_up.set()
        with pytest.raises(ClientGoneError):
            await running
        await _until(lambda: len(stopped) == 1)
        assert stopped == [True]
        # The next hint's search is not touched by the stop of the one before.
        assert await hints.run(lambda pace: str(pace.pause_us), 1) == "0"
        hints.close()

    asyncio.run(scenario())
