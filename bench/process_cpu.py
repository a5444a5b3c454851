"""CPU time of a process and everything below it, read from Linux's /proc: unlike the wall clock,
what another program's load does not inflate. Shared by the benchmarks that measure a server, a
database cluster or a tree of workers."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path


def tree_cpu_s(pid: int) -> float:
    """The CPU seconds (user + system) that the process ``pid`` and every process below it have
    used so far, those that ended included once their parents waited for them."""
    parents: dict[int, int] = {}
    ticks: dict[int, int] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError):  # it ended meanwhile
            # After the command's name: state, ppid, ..., utime, stime, cutime, cstime (man 5 proc).
            fields = stat.read_text().rsplit(")", 1)[1].split()
            process = int(stat.parent.name)
            parents[process], ticks[process] = int(fields[1]), sum(int(n) for n in fields[11:15])
    tree = {pid}
    while grown := {process for process, parent in parents.items() if parent in tree} - tree:
        tree |= grown
    return sum(ticks.get(process, 0) for process in tree) / os.sysconf("SC_CLK_TCK")
