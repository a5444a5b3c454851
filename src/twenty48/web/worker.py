"""The one thread that talks to the store, with group commit; the one thread that computes hints.

``StoreWorker``: store calls queue up in arrival order. The thread takes every call waiting, runs
each (each action its own committed transaction), then flushes the store once, and only then hands
the results back: no answer leaves before the commit it reports is on disk, and a burst of players
shares one disk flush instead of queueing behind one each. Each call may guess its write
(``Store.guessing``): a call whose guess the flush found wrong is made again, and flushed again,
before its answer leaves.

``HintWorker``: the solver, one hint at a time (a hint may take every core for its whole budget),
with a bounded queue overall (per process: it bounds this process's solver; the one hint per
player is a lease in the database, taken by the route, so that it holds across processes). A hint
whose client has gone is dropped before it starts, or stopped where it is if it runs. Closing
(the server's shutdown) answers every waiting hint at once. While a hint runs, a pump on the
event loop watches how busy the loop is and, while it serves players, has the search pause between
slices of its nodes (``twenty48.ai.Pace``): on this kind of machine nice 19 alone does not keep
moves fast (see ``BUSY_SHARE``).
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import os
import queue
import sys
import threading
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING, Any, TypeVar

from twenty48.store import Store

if TYPE_CHECKING:
    from twenty48.ai import Pace

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
            guesses = []
            for _, _, call in batch:
                with self.store.guessing() as guess:
                    outcomes.append(_outcome(call))
                guesses.append(guess)
            try:
                self.store.flush()
            except Exception as exc:
                # Not known to be durable: no call of the batch may be reported as done.
                outcomes = [(None, exc)] * len(batch)
            else:
                # A call whose guessed write did not happen is made again, waiting this time.
                again = [i for i, guess in enumerate(guesses) if guess.failed]
                for i in again:
                    outcomes[i] = _outcome(batch[i][2])
                if again:
                    try:
                        self.store.flush()
                    except Exception as exc:
                        for i in again:
                            outcomes[i] = (None, exc)
            for (loop, future, _), (result, error) in zip(batch, outcomes, strict=True):
                # RuntimeError: that caller's event loop has closed, nobody waits for the answer.
                with contextlib.suppress(RuntimeError):
                    loop.call_soon_threadsafe(_settle, future, result, error)


def _outcome(call: Callable[[], Any]) -> tuple[Any, Exception | None]:
    try:
        return call(), None
    except Exception as exc:
        return None, exc


def _settle(future: asyncio.Future[Any], result: Any, error: BaseException | None) -> None:
    if future.cancelled():
        return
    if error is not None:
        future.set_exception(error)
    else:
        future.set_result(result)


class HintRefusedError(Exception):
    """A hint that is not computed; ``retry_after`` is the seconds after which asking may succeed."""

    def __init__(self, message: str, retry_after: int) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class HintInProgressError(HintRefusedError):
    """The player already has a hint being computed or waiting (in any process: the routes check
    the player's lease in the database)."""


class HintQueueFullError(HintRefusedError):
    """As many hints as the queue holds are being computed or waiting (or the server is stopping)."""


class ClientGoneError(Exception):
    """The client hung up before its hint was ready."""


class CpuShare:
    """How busy the server has been: the share of one core that ``cpu`` (a CPU clock in seconds)
    advanced by since the last look. The background solvers, hints here and reviews in
    ``review_worker``, read it to pause while players are being served."""

    def __init__(self, cpu: Callable[[], float]) -> None:
        self._cpu = cpu
        self._clock, self._used = time.perf_counter(), cpu()

    def since_last(self) -> float:
        now, used = time.perf_counter(), self._cpu()
        share = (used - self._used) / max(now - self._clock, 1e-6)
        self._clock, self._used = now, used
        return share


#: Seconds between two looks at how busy the event loop is while a hint runs.
TICK_S = 0.1
#: The event loop's CPU use (a share of one core) from which a running hint pauses, and how long
#: each pause after ``PACE_NODES`` nodes (about 2 ms of one core) lasts: the search then takes about
#: a tenth of each core. Measured on 2 vCPUs that deliver about one core together (bench/web.py
#: paced-hints): with the search threads at nice 19 and no pause, moves' p99 was 70 ms; a busy
#: server needs the other vCPU idle, not merely yielded to.
BUSY_SHARE = 0.1
BUSY_PAUSE_US = 20_000


@dataclass(eq=False)
class _Hint:
    loop: asyncio.AbstractEventLoop
    future: asyncio.Future[Any]
    call: Callable[[Pace], Any]
    seconds: float
    #: Set on the event loop when nobody waits for the answer any more: the thread skips it.
    abandoned: bool = field(default=False)
    #: Set by the thread as it begins the call.
    started: bool = field(default=False)


class HintWorker:
    """Hints on one solver thread, at most ``capacity`` computed or waiting."""

    def __init__(self, capacity: int) -> None:
        self.capacity = capacity
        self._jobs: queue.SimpleQueue[_Hint | None] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        #: Hints not yet finished or skipped by the thread, on the event loop's side.
        self._pending: set[_Hint] = set()
        self._closed = False
        #: Orders a hint's start against its abandonment.
        self._lock = threading.Lock()
        #: The brake on the running hint's search, worked by ``_pump`` while hints are pending
        #: (made with the first hint: the solver is loaded in the background, after the server starts).
        self.pace: Pace | None = None
        #: The hint the thread took last (it may have finished since), set under ``_lock``.
        self._running: _Hint | None = None
        self._pump: asyncio.Task[None] | None = None

    @property
    def pending(self) -> int:
        """Hints being computed or waiting: what the queue's bound counts."""
        return len(self._pending)

    async def run(
        self,
        call: Callable[[Pace], T],
        seconds: float,
        disconnected: Callable[[], Awaitable[None]] | None = None,
    ) -> T:
        """``call(pace)`` (a hint of at most ``seconds``, its search paced by ``pace``) on the solver
        thread. ``disconnected`` returns once the client has hung up; the hint is then abandoned and
        ``ClientGoneError`` raised. Raises a ``HintRefusedError`` when it cannot be queued."""
        if self._closed or len(self._pending) >= self.capacity:
            wait = sum(job.seconds for job in self._pending)
            raise HintQueueFullError(
                "the solver is busy with other hints; ask again in a moment", max(1, math.ceil(wait))
            )
        if self.pace is None:
            from twenty48.ai import Pace

            self.pace = Pace()
        loop = asyncio.get_running_loop()
        job = _Hint(loop, loop.create_future(), call, seconds)
        self._pending.add(job)
        self._start()
        self._jobs.put(job)
        if self._pump is None or self._pump.done():
            self._pump = loop.create_task(self._watch_load(), name="twenty48-hint-pace")
        watcher = asyncio.ensure_future(disconnected()) if disconnected is not None else None
        try:
            if watcher is not None:
                await asyncio.wait((job.future, watcher), return_when=asyncio.FIRST_COMPLETED)
                if not job.future.done():
                    raise ClientGoneError("the client hung up before its hint was ready")
            return await job.future
        finally:
            self._abandon(job)
            if watcher is not None:
                watcher.cancel()

    async def _watch_load(self) -> None:
        """While hints are pending: pause the search whenever the event loop (this thread: HTTP,
        routing, answers) used ``BUSY_SHARE`` of a core or more since the last look. The pace is
        left as it was last seen: the next hint starts paused if the server was busy then, rather
        than at full speed for a tick beside a busy server."""
        assert self.pace is not None
        # The event loop's thread only: the search's own threads are in this process too.
        loop = CpuShare(time.thread_time)
        while self._pending:
            await asyncio.sleep(TICK_S)
            self.pace.pause(BUSY_PAUSE_US if loop.since_last() >= BUSY_SHARE else 0)

    def _abandon(self, job: _Hint) -> None:
        with self._lock:
            job.abandoned = True
            if not job.started:
                # It will never run: its place in the queue is free now.
                self._pending.discard(job)
            elif self._running is job and not job.future.done() and self.pace is not None:
                # Its client has gone: stop its search where it is. Under the lock no other hint
                # can have started, so the pace steers this one's search only.
                self.pace.stop()

    def open(self) -> None:
        """Accept hints (again, after ``close``)."""
        self._closed = False

    def close(self) -> None:
        """Refuse new hints and answer the waiting ones now (503); the thread stops after the hint it
        is computing, if any, without anyone waiting for it."""
        self._closed = True
        if self._pump is not None:
            self._pump.cancel()
            self._pump = None
        for job in list(self._pending):
            if not job.future.done():
                job.future.set_exception(HintQueueFullError("the server is shutting down", 5))
            self._abandon(job)
        if self._thread is not None:
            self._jobs.put(None)
            self._thread = None

    def _start(self) -> None:
        if self._thread is None:
            # A daemon: a hint still running at exit must not hold the process up for its budget.
            self._thread = threading.Thread(target=self._serve, name="twenty48-hints", daemon=True)
            self._thread.start()

    def _serve(self) -> None:
        _lower_priority()
        while (job := self._jobs.get()) is not None:
            result: Any = None
            error: BaseException | None = None
            with self._lock:
                job.started = not job.abandoned
                self._running = job
            if job.started:
                try:
                    result = job.call(self.pace)  # set before the job was queued
                except Exception as exc:
                    error = exc
            with contextlib.suppress(RuntimeError):  # the event loop has closed
                job.loop.call_soon_threadsafe(self._finished, job, result, error)

    def _finished(self, job: _Hint, result: Any, error: BaseException | None) -> None:
        self._pending.discard(job)
        if not job.future.done():
            _settle(job.future, result, error)


#: The nice value of the hint thread: the lowest priority there is.
HINT_NICENESS = 19


def _lower_priority() -> None:
    """Give the calling thread the lowest CPU priority. A search takes every core for its budget;
    at equal priority the moves' event loop waited behind it (paced p99 over 700 ms while ten
    clients asked for hints). On Linux a priority is per thread, and the solver runs a search's
    roots on its pool threads at the priority of the thread asking; elsewhere it would apply to the
    whole server, so it is left."""
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError):
            os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), HINT_NICENESS)


async def wait_for_disconnect(receive: Callable[[], Awaitable[dict[str, Any]]]) -> None:
    """Returns once the ASGI server reports that the client hung up (a request without a body:
    after its one empty ``http.request``, the next message is the disconnect)."""
    while (await receive())["type"] != "http.disconnect":
        pass
