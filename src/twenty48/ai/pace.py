"""``Pace``, a brake on running searches worked from another thread, and the control blocks it
works through (one per root move, read by the kernel at its checkpoints, see ``search``)."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

import numpy as np

from twenty48.ai import search

#: Chance nodes a paced root move expands between two looks at its pace: about 2 ms of one core.
PACE_NODES = 16_384


class Pace:
    """A brake on the searches given it, worked from another thread: ``pause(us)`` makes each of
    their root moves sleep ``us`` microseconds after every ``PACE_NODES`` chance nodes, from the
    next of those on, until ``pause(0)``. The values, depths and node counts of a search are the
    same paced or not; only a time budget reaches less deep while it pauses."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._controls: list[np.ndarray] = []
        self._pause_us = 0

    @property
    def pause_us(self) -> int:
        return self._pause_us

    def pause(self, microseconds: int) -> None:
        with self._lock:
            self._pause_us = microseconds
            for control in self._controls:
                control[search.PAUSE] = microseconds

    def stop(self) -> None:
        """End the searches running under this pace now, as a time budget's watchdog does (each
        answers the last depth it completed); searches started later are not affected."""
        with self._lock:
            for control in self._controls:
                control[search.STOP] = 1

    def _join(self, controls: list[np.ndarray]) -> None:
        with self._lock:
            for control in controls:
                control[search.PAUSE] = self._pause_us
            self._controls.extend(controls)

    def _leave(self, controls: list[np.ndarray]) -> None:
        with self._lock:
            self._controls = [c for c in self._controls if not any(c is mine for mine in controls)]


@contextmanager
def paced(pace: Pace | None, count: int) -> Iterator[list[np.ndarray]]:
    """A control block for each of ``count`` root moves, paced by ``pace`` while the search runs."""
    if pace is None:
        yield [search.new_control() for _ in range(count)]
        return
    controls = [search.new_control(every=PACE_NODES) for _ in range(count)]
    pace._join(controls)
    try:
        yield controls
    finally:
        pace._leave(controls)
