"""Saying so while numba compiles, which only the first run after installing does.

Every kernel is compiled with ``cache=True``: the first run compiles the engine's, the solver's and
the environment's kernels (15 to 40 s on a slow machine), later runs load them from numba's cache
in about a second (beside the modules in ``__pycache__``, or in numba's cache directory under the
user's own cache directory where the package's is not writable, or where ``NUMBA_CACHE_DIR`` says).

``announced(what)`` goes around code that may compile. Only when numba really compiles (its
``numba:compile`` event; loading from the cache raises none) it says so on standard error:
``twenty48: preparing the solver, first run only…``, then how many kernels are compiled and for how
long every ``PROGRESS_EVERY`` seconds, and the time it took at the end. With ``live=True`` on a
terminal (a command that owns it, such as ``2048 hint``) that is one line, updated in place. An
announcement inside another one in the same thread (the engine's inside the solver's) says nothing
more. Quiet otherwise.
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TextIO

from numba.core import event

from twenty48.wording import count

#: Seconds between two progress reports: on their own lines, or as updates of a live line.
PROGRESS_EVERY = 10.0
LIVE_EVERY = 1.0

_local = threading.local()


@contextmanager
def announced(what: str, *, live: bool = False, stream: TextIO | None = None) -> Iterator[None]:
    """Around code that may compile kernels: say that ``what`` is being prepared, if it is (see the
    module). ``stream`` defaults to ``sys.stderr`` as it is when the first kernel compiles."""
    if getattr(_local, "announcing", False):
        yield
        return
    notice = _Notice(what, live, stream)
    _local.announcing = True
    event.register("numba:compile", notice)
    try:
        yield
    finally:
        event.unregister("numba:compile", notice)
        _local.announcing = False
        notice.finish()


class _Notice(event.Listener):
    """A numba event listener that writes the notice, its progress and its end."""

    def __init__(self, what: str, live: bool, stream: TextIO | None) -> None:
        self.what = what
        self.live = live
        self.stream = stream
        self.started: float | None = None
        self.compiled = 0
        self._lock = threading.Lock()
        self._done = threading.Event()

    def on_start(self, happened: event.Event) -> None:
        with self._lock:
            if self.started is not None:
                return
            self.started = time.monotonic()
            self.stream = self.stream or sys.stderr
            isatty = getattr(self.stream, "isatty", None)
            self.live = self.live and bool(isatty and isatty())
            self._write(f"twenty48: preparing {self.what}, first run only…", end="" if self.live else "\n")
        threading.Thread(target=self._report, name="twenty48-compiling", daemon=True).start()

    def on_end(self, happened: event.Event) -> None:
        with self._lock:
            self.compiled += 1

    def _report(self) -> None:
        while not self._done.wait(LIVE_EVERY if self.live else PROGRESS_EVERY):
            with self._lock:
                if self._done.is_set():
                    return
                so_far = f"{count(self.compiled, 'kernel')} compiled, {self._seconds():.0f} s"
                if self.live:
                    self._write(f"\r\x1b[Ktwenty48: preparing {self.what}, first run only… {so_far}", end="")
                else:
                    self._write(f"twenty48: still preparing {self.what}: {so_far}")

    def finish(self) -> None:
        with self._lock:
            self._done.set()
            if self.started is None:
                return
            said = f"twenty48: {self.what} ready after {self._seconds():.1f} s "
            self._write(
                ("\r\x1b[K" if self.live else "") + said + f"({count(self.compiled, 'kernel')} compiled)"
            )

    def _seconds(self) -> float:
        assert self.started is not None
        return time.monotonic() - self.started

    def _write(self, text: str, end: str = "\n") -> None:
        assert self.stream is not None
        try:
            self.stream.write(text + end)
            self.stream.flush()
        except (OSError, ValueError):
            pass  # a closed or broken stream: the notice is a courtesy, never a failure
