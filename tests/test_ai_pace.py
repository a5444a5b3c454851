"""A paced search: the same answer as an unpaced one, pausing only changes when nodes are expanded;
a search's pool threads run at the priority of the thread that asked for it."""

from __future__ import annotations

import subprocess
import sys

import pytest

from twenty48.ai import Pace, analyse, search
from twenty48.rules import Board

#: A position a node budget searches several depths deep.
CROWDED = Board.from_rows([[2, 8, 2, 4], [16, 32, 64, 128], [4, 2, 8, 2], [0, 0, 2, 4]])


def test_a_paced_search_gives_the_unpaced_answer() -> None:
    plain = analyse(CROWDED, nodes=300_000)
    pace = Pace()
    for pause_us in (0, 1):  # 1: a microsecond after every PACE_NODES nodes, so the test stays quick
        pace.pause(pause_us)
        paced = analyse(CROWDED, nodes=300_000, pace=pace)
        assert (paced.values, paced.depth, paced.nodes) == (plain.values, plain.depth, plain.nodes)
    assert plain.depth > 2


def test_a_pause_reaches_a_running_search_and_every_root() -> None:
    pace = Pace()
    controls = [search.new_control(every=16), search.new_control(every=16)]
    pace._join(controls)
    pace.pause(250)
    assert [int(c[search.PAUSE]) for c in controls] == [250, 250]
    later = [search.new_control(every=16)]
    pace._join(later)  # a search that starts while paused starts paused
    assert int(later[0][search.PAUSE]) == 250
    pace._leave(controls)
    pace.pause(0)
    assert [int(c[search.PAUSE]) for c in controls] == [250, 250]  # gone: no longer steered
    assert int(later[0][search.PAUSE]) == 0


def test_a_limit_set_between_depths_holds_exactly() -> None:
    # The node budget stops a depth at exactly its limit, paced (a check every 16 nodes) or not.
    for every in (0, 16):
        control = search.new_control(every=every)
        search.limit(control, 1000)
        assert not search._checkpoint(control)
        control[search.NODES] = 1000
        assert search._checkpoint(control) and control[search.STOP] == 1


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="a priority is per thread on Linux only")
@pytest.mark.integration
def test_a_searchs_pool_threads_take_the_askers_priority() -> None:
    # In a process of its own: the pool's threads may keep a lowered priority for good.
    script = """
import functools, os, threading
from twenty48.ai import pools
def priority(_):
    return os.getpriority(os.PRIO_PROCESS, threading.get_native_id())
list(pools.thread_pool().map(priority, range(8)))  # the pool's threads start at this thread's priority
seen = []
def ask():
    os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), 19)
    task = functools.partial(pools.at_niceness, pools.thread_niceness(), priority)
    seen.extend(pools.thread_pool().map(task, range(8)))
asker = threading.Thread(target=ask)
asker.start()
asker.join()
print(sorted(set(seen)))
"""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[19]"
