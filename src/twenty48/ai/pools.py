"""What every search in the process draws from, made once and kept: the thread pool its root
moves spread over (each at the priority of the thread that asked), the pool of transposition
tables (one per root move while it is searched) and each heuristic's value table (or weights, for
boards of other sizes than the 4x4).

Any number of threads may search at once: a table is handed to one search at a time and comes
back when it ends. ``solver.warm_up`` fills these pools before the first real search."""

from __future__ import annotations

import functools
import os
import sys
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager, suppress
from typing import Any

import numpy as np

from twenty48.ai import search
from twenty48.ai.heuristic import Heuristic

#: Threads one search may spread its root moves over. Read at each search, not imported: a
#: process that shares the cores with others (``2048 bench --jobs``) sets it before searching.
THREADS = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
#: Transposition-table entries per root move being searched (24 bytes each).
TABLE_SIZE = 1 << 20

_pool_lock = threading.Lock()
_executor: ThreadPoolExecutor | None = None


def thread_pool() -> ThreadPoolExecutor:
    """The pool of ``THREADS`` threads, started on first use."""
    global _executor
    with _pool_lock:
        if _executor is None:
            _executor = ThreadPoolExecutor(THREADS, thread_name_prefix="twenty48-search")
        return _executor


def thread_niceness() -> int | None:
    """The calling thread's nice value, where a priority is per thread (Linux); else None."""
    if not sys.platform.startswith("linux"):
        return None
    return os.getpriority(os.PRIO_PROCESS, threading.get_native_id())


def at_niceness(niceness: int | None, fn: Callable[..., float], *args: Any) -> float:
    """``fn(*args)`` on a pool thread at ``niceness``: a search's roots run at the priority of the
    thread that asked for it (a server's hint thread runs at nice 19, and its roots must too, or
    they take the server's CPU at full priority). Raising a priority back may not be permitted;
    the thread then stays at the lower one."""
    if niceness is not None:
        me = threading.get_native_id()
        if os.getpriority(os.PRIO_PROCESS, me) != niceness:
            with suppress(OSError):
                os.setpriority(os.PRIO_PROCESS, me, niceness)
    return fn(*args)


_tables_lock = threading.Lock()
_free_tables: list[np.ndarray] = []
_NO_TABLE = np.zeros(0, dtype=search.ENTRY)


@functools.lru_cache(maxsize=8)
def heuristic_table(heuristic: Heuristic) -> np.ndarray:
    return heuristic.table()


@functools.lru_cache(maxsize=8)
def grid_weights(heuristic: Heuristic) -> np.ndarray:
    """The weights the search of boards other than the 4x4 reads (``Heuristic.grid_weights``)."""
    return heuristic.grid_weights()


@contextmanager
def transposition_tables(count: int, enabled: bool) -> Iterator[list[np.ndarray]]:
    """``count`` tables from the pool (new ones where it runs short), back in it afterwards; with
    ``enabled`` false, as many empty stand-ins, which the kernel takes for no table."""
    if not enabled:
        yield [_NO_TABLE] * count
        return
    with _tables_lock:
        tables = [_free_tables.pop() for _ in range(min(count, len(_free_tables)))]
    while len(tables) < count:
        tt = np.empty(TABLE_SIZE, dtype=search.ENTRY)
        # Write every byte now: the kernel touches the table at random, and faulting in a fresh
        # zero page at a time would cost the first searches milliseconds.
        tt.view(np.uint8).fill(0)
        tables.append(tt)
    try:
        yield tables
    finally:
        with _tables_lock:
            _free_tables.extend(tables)
