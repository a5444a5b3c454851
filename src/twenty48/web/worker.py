"""The one thread that talks to the store, with group commit.

Store calls queue up in arrival order. The thread takes every call waiting, runs each (each action
its own committed transaction), then flushes the store once, and only then hands the results back:
no answer leaves before the commit it reports is on disk, and a burst of players shares one disk
flush instead of queueing behind one each.
"""

from __future__ import annotations

import asyncio
import contextlib
import queue
import threading
from collections.abc import Callable
from functools import partial
from typing import Any, TypeVar

from twenty48.store import Store

T = TypeVar("T")

_Job = tuple[asyncio.AbstractEventLoop, "asyncio.Future[Any]", Callable[[], Any]]


class StoreWorker:
    def __init__(self, store: Store) -> None:
        self.store = store
        self._jobs: queue.SimpleQueue[_Job | None] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._starting = threading.Lock()

    async def run(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """``fn(*args, **kwargs)`` on the store thread; returns once its writes are durable."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[T] = loop.create_future()
        self._start()
        self._jobs.put((loop, future, partial(fn, *args, **kwargs)))
        return await future

    def close(self) -> None:
        """Finish the queued calls, then stop the thread (a later ``run`` starts a new one)."""
        with self._starting:
            thread, self._thread = self._thread, None
            if thread is not None:
                self._jobs.put(None)
                thread.join()

    def _start(self) -> None:
        with self._starting:
            if self._thread is None:
                self._thread = threading.Thread(target=self._serve, name="twenty48-store", daemon=True)
                self._thread.start()

    def _serve(self) -> None:
        while True:
            job = self._jobs.get()
            if job is None:
                return
            batch = [job]
            while True:
                try:
                    job = self._jobs.get_nowait()
                except queue.Empty:
                    break
                if job is None:
                    self._jobs.put(None)  # stop after this batch
                    break
                batch.append(job)
            outcomes: list[tuple[Any, BaseException | None]] = []
            for _, _, call in batch:
                try:
                    outcomes.append((call(), None))
                except Exception as exc:
                    outcomes.append((None, exc))
            try:
                self.store.flush()
            except Exception as exc:
                # Not known to be durable: no call of the batch may be reported as done.
                outcomes = [(None, exc)] * len(batch)
            for (loop, future, _), (result, error) in zip(batch, outcomes, strict=True):
                # RuntimeError: that caller's event loop has closed, nobody waits for the answer.
                with contextlib.suppress(RuntimeError):
                    loop.call_soon_threadsafe(_settle, future, result, error)


def _settle(future: asyncio.Future[Any], result: Any, error: BaseException | None) -> None:
    if future.cancelled():
        return
    if error is not None:
        future.set_exception(error)
    else:
        future.set_result(result)
