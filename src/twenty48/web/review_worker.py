"""Game reviews in a background worker process, one at a time, at the lowest CPU priority.

A review searches every position of a game and plays continuations from each (seconds to a minute
of every core), so it runs in
a process of its own (``nice`` 19: the moves' event loop and the store thread always come first),
never on the request path or the store thread. The process is started on the first review and
kept for the next ones (its compiled kernels and tables stay warm).

The job's state lives in the database (``twenty48.store.reviews``), so any server process answers
``GET`` for any job. This process's part: a bounded queue (``capacity`` jobs computed or waiting
here, over all players: more answer 503), and a pump on the event loop that, while a review runs,
reads its progress from memory shared with the child every ``TICK_S`` and writes it to the store
(through the store thread), refreshing the heartbeat of the jobs waiting behind it. The store
answers whether the job is still wanted: a job cancelled by any process is stopped within a move.
On shutdown the waiting and running jobs are marked failed, the running one is stopped at its
next move and the child exits quietly (it ignores Ctrl-C, which the terminal sends the whole
process group, and leaves shutting down to this process).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import multiprocessing
import os
import resource
import signal
import threading
import time
from collections import deque
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any

from twenty48.store import Store
from twenty48.web.worker import CpuShare, StoreWorker

logger = logging.getLogger("twenty48.web")

#: Seconds between two reports of a running review's progress to the store.
REPORT_S = 0.5
#: Seconds between two looks at how busy the server is.
TICK_S = 0.1
#: Seconds between two looks, in the child, at what the server last said (pause, stop).
WATCH_S = 0.02
#: The server's own CPU use (a share of one core) from which the review yields, and how long its
#: searches then pause after each slice of ``twenty48.ai.pace.PACE_NODES`` chance nodes (2-4 ms of
#: a core: a position takes 3 ms to grade and tens of milliseconds to estimate its chance).
BUSY_SHARE = 0.2
BUSY_PAUSE_MS = 25
#: The nice value of the review process: the lowest priority there is.
REVIEW_NICENESS = 19
#: Positions a review covers per second, about, on a busy 2-core machine: for ``Retry-After``.
POSITIONS_PER_S = 100

# Slots of the memory shared with the child: the job it works on, the moves it has reviewed, the job
# to stop, and the milliseconds its searches pause after each slice of nodes.
_JOB, _DONE, _STOP, _PAUSE = 0, 1, 2, 3


class ReviewQueueFullError(Exception):
    """As many reviews as the queue holds are running or waiting (or the server is stopping)."""

    def __init__(self, message: str, retry_after: int) -> None:
        super().__init__(message)
        self.retry_after = retry_after


@dataclass(eq=False, slots=True)
class ReviewJob:
    game_id: int
    job: str
    #: ``Game.to_dict()`` of the line to review.
    game: dict[str, Any]
    #: A small number for the shared memory, unique in this process.
    number: int = 0

    @property
    def moves(self) -> int:
        return len(self.game.get("actions", ()))


class ReviewWorker:
    """Reviews in one child process, at most ``capacity`` running or waiting in this process."""

    def __init__(self, capacity: int, store: Store, worker: StoreWorker) -> None:
        self.capacity = capacity
        self._store = store
        self._worker = worker
        self._waiting: deque[ReviewJob] = deque()
        self._running: ReviewJob | None = None
        self._reserved = 0
        self._numbers = 0
        self._closed = False
        self._pump: asyncio.Task[None] | None = None
        self._pool: ProcessPoolExecutor | None = None
        self._shared: Any = None

    @property
    def pending(self) -> int:
        return len(self._waiting) + (self._running is not None) + self._reserved

    def reserve(self) -> None:
        """Hold a place in the queue for a job about to be asked of the store; raises
        ``ReviewQueueFullError`` when there is none. ``submit`` or ``release`` ends the hold."""
        if self._closed or self.pending >= self.capacity:
            moves = sum(j.moves for j in self._waiting) + (self._running.moves if self._running else 0)
            raise ReviewQueueFullError(
                "the solver is busy with other reviews; ask again in a moment",
                max(1, math.ceil(moves / POSITIONS_PER_S)),
            )
        self._reserved += 1

    def release(self) -> None:
        self._reserved -= 1

    def submit(self, job: ReviewJob) -> None:
        """Queue ``job`` in the place ``reserve`` held."""
        self._reserved -= 1
        self._numbers += 1
        job.number = self._numbers
        self._waiting.append(job)
        if self._pump is None or self._pump.done():
            self._pump = asyncio.get_running_loop().create_task(self._serve(), name="twenty48-reviews")

    def cancelled(self, game_id: int) -> None:
        """The game's job was cancelled (in the store): free its place now if it waits here, stop
        it at its next move if it runs here (another process's job learns it from the store)."""
        for job in [j for j in self._waiting if j.game_id == game_id]:
            self._waiting.remove(job)
        if self._running is not None and self._running.game_id == game_id and self._shared is not None:
            self._shared[_STOP] = self._running.number

    async def close(self) -> None:
        """Take no more reviews; mark the waiting and running ones failed; stop the child."""
        self._closed = True
        jobs = list(self._waiting) + ([self._running] if self._running is not None else [])
        self._waiting.clear()
        if self._running is not None and self._shared is not None:
            self._shared[_STOP] = self._running.number
        if self._pump is not None:
            self._pump.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._pump
        for job in jobs:
            with contextlib.suppress(Exception):
                await self._worker.run(self._store.fail_review, job.game_id, job.job)
        if self._pool is not None:
            # The child stops at its next move (the flag above): this wait is short.
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None

    async def _serve(self) -> None:
        while self._waiting:
            job = self._waiting.popleft()
            self._running = job
            try:
                await self._run(job)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                if isinstance(exc, BrokenProcessPool):
                    self._pool = None  # the child died (killed, out of memory): the next job starts another
                logger.exception("review of game %d failed", job.game_id)
                with contextlib.suppress(Exception):
                    await self._worker.run(self._store.fail_review, job.game_id, job.job)
            finally:
                self._running = None

    async def _run(self, job: ReviewJob) -> None:
        if not await self._worker.run(self._store.start_review, job.game_id, job.job):
            return  # cancelled while it waited
        pool, shared = self._child()
        shared[_JOB], shared[_DONE] = job.number, 0
        future = asyncio.wrap_future(pool.submit(_review, job.number, job.game))
        server = CpuShare(_cpu)
        reported = time.perf_counter()
        while not future.done():
            await asyncio.wait((future,), timeout=TICK_S)
            if future.done():
                break
            # nice 19 is not enough on its own: on a machine whose two vCPUs are one core's
            # hyperthreads, the review on the idle one halves the server's speed on the other.
            # So while the server is busy the review's searches pause every few milliseconds.
            shared[_PAUSE] = BUSY_PAUSE_MS if server.since_last() >= BUSY_SHARE else 0
            now = time.perf_counter()
            if now - reported < REPORT_S:
                continue
            reported = now
            done = int(shared[_DONE]) if shared[_JOB] == job.number else 0
            wanted = await self._worker.run(self._store.review_progress, job.game_id, job.job, done)
            if not wanted:
                shared[_STOP] = job.number
            for waiting in list(self._waiting):
                if not await self._worker.run(self._store.review_progress, waiting.game_id, waiting.job):
                    self._waiting.remove(waiting)  # cancelled before it started
        review = future.result()
        if review is None:
            return  # cancelled
        await self._worker.run(self._store.finish_review, job.game_id, job.job, review)

    def _child(self) -> tuple[ProcessPoolExecutor, Any]:
        if self._pool is None:
            # spawn, not fork: this process runs threads (the store's, uvicorn's) that a fork would
            # copy mid-flight.
            context = multiprocessing.get_context("spawn")
            self._shared = context.Array("q", 4, lock=False)
            self._pool = ProcessPoolExecutor(
                max_workers=1, mp_context=context, initializer=_start_child, initargs=(self._shared,)
            )
        return self._pool, self._shared


def _cpu() -> float:
    """CPU seconds this (server) process has used, all its threads together."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


_child_shared: Any = None


def _start_child(shared: Any) -> None:
    global _child_shared
    _child_shared = shared
    # Ctrl-C reaches the whole process group; the server stops this process itself, quietly.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    with contextlib.suppress(OSError):
        os.nice(REVIEW_NICENESS)


def _review(number: int, game: dict[str, Any]) -> dict[str, Any] | None:
    """In the child: the review of ``game``, reporting progress; None once told to stop."""
    from twenty48.ai import Pace
    from twenty48.ai.review import ReviewCancelledError, review_game
    from twenty48.game import Game

    shared = _child_shared
    pace = Pace()
    over = threading.Event()

    def watch() -> None:
        # The server's word, passed on to the running searches: how long to pause (its load), and
        # to stop (a cancel, a shutdown) at once rather than after the position in hand.
        while True:
            pace.pause(shared[_PAUSE] * 1000)
            if shared[_STOP] == number:
                pace.stop()
            if over.wait(WATCH_S):
                return

    watcher = threading.Thread(target=watch, name="twenty48-review-pace", daemon=True)
    watcher.start()

    def progress(done: int, _total: int) -> None:
        shared[_DONE] = done

    try:
        return review_game(
            Game.from_dict(game), progress=progress, cancelled=lambda: shared[_STOP] == number, pace=pace
        )
    except ReviewCancelledError:
        return None
    finally:
        over.set()
        watcher.join()
