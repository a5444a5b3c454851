"""The store thread's group commit: every answer waits for a flush that follows its commit."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path

from twenty48.store import Store
from twenty48.web.worker import StoreWorker


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
