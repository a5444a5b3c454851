"""What the benchmark scripts share: the nearest-rank percentile, and timing a call many times.

The scripts run as ``python bench/NAME.py``, so this directory is first on ``sys.path`` and they
import it as ``timing``.
"""

from __future__ import annotations

import math
import statistics
import time
from collections.abc import Callable


def percentile(values: list[float], fraction: float) -> float:
    """The nearest-rank percentile: the smallest value with ``fraction`` of them at or below it."""
    ordered = sorted(values)
    return ordered[max(1, math.ceil(fraction * len(ordered))) - 1]


def timed(call: Callable[[], object], repeat: int) -> dict[str, float]:
    """Wall p50 / p95 and CPU p50 of ``call`` in milliseconds, after one call that fills the
    caches (the page cache, prepared statements)."""
    call()
    walls, cpus = [], []
    for _ in range(repeat):
        wall, cpu = time.perf_counter(), time.process_time()
        call()
        cpus.append(time.process_time() - cpu)
        walls.append(time.perf_counter() - wall)
    return {
        "p50_ms": round(statistics.median(walls) * 1000, 2),
        "p95_ms": round(percentile(walls, 0.95) * 1000, 2),
        "cpu_p50_ms": round(statistics.median(cpus) * 1000, 2),
    }
