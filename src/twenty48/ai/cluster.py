"""Solver games played as Ray tasks (``2048 bench --ray``): on a local Ray started for the run, or
on a running cluster.

A task plays ``GAMES_PER_TASK`` games on one CPU, each game on one solver thread, so a cluster's
CPUs play that many games at once. A worker process stays up between tasks: it imports the solver
and loads numba's compiled kernels from their cache once, not per task. A task whose worker dies
(killed, out of memory, its node lost) is run again by Ray, up to ``RETRIES`` times; only an
attempt that finished returns games, so a game is never counted twice. Game ``seed`` is the same
game on any node and any number of threads as locally (the settings that replay exactly: a depth,
a node budget, the adaptive default).
"""

from __future__ import annotations

import logging
import os
import socket
import warnings
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any
from urllib.parse import urlsplit

from twenty48.ai.play import PlayedGame
from twenty48.ai.solver import SOLVER_VERSION

#: Games a task plays. A game takes 0.1 s at depth 1 and half an hour at the default setting,
#: while a task costs Ray a few milliseconds: one game a task keeps every CPU busy to the end and
#: loses the least to a killed worker or Ctrl-C; four a task gained nothing measurable even at
#: depth 1 (bench/cluster.py --per-task, bench/README.md).
GAMES_PER_TASK = 1
#: Tasks queued per CPU beyond those running: a CPU that finishes starts the next at once, while
#: a run of 100,000 games never hands the cluster 100,000 tasks.
QUEUED_PER_CPU = 2
#: Times a task whose worker died is run again before the run gives up.
RETRIES = 3
#: Seconds to wait for a cluster's address to accept a connection.
PROBE_SECONDS = 5.0
INSTALL = "pip install 'twenty48[cluster]'"
#: What a Ray Client port that answers but will not take this client usually wants.
CLIENT_HINT = (
    " (the Ray Client needs the cluster's Ray and Python versions here, and RAY_AUTH_MODE=token with"
    " the cluster's token where it uses token authentication)"
)


class ClusterError(Exception):
    """Ray is missing, the cluster cannot be reached, or a task failed for good; one line."""


@contextmanager
def joined(address: str) -> Iterator[int]:
    """Ray for the ``with`` block, which gets the cluster's CPUs. A process that has already joined
    Ray plays on that one and stays joined; otherwise ``address`` is joined and left at the end:
    ``local`` starts a Ray on all of this machine's cores (without the dashboard), ``auto`` joins
    the cluster this machine is part of, ``ray://HOST:PORT`` a cluster's Ray Client port."""
    try:
        import ray
    except ImportError:
        raise ClusterError(f"--ray needs Ray: {INSTALL}") from None
    if ray.is_initialized():
        yield _cpus(ray)
        return
    if address != "local":
        _probe(address)
    try:
        init_ray(address)
    except Exception as exc:  # Ray raises many kinds here, each meaning it could not join
        hint = CLIENT_HINT if address.startswith("ray://") else ""
        raise ClusterError(f"cannot join the Ray cluster at {address}: {_first_line(exc)}{hint}") from None
    try:
        yield _cpus(ray)
    finally:
        ray.shutdown()


def init_ray(address: str, **options: Any) -> None:
    """``ray.init(address, **options)`` as ``2048 bench`` joins Ray: quietly (Ray's logging and
    its workers' output kept off the terminal), reporting no usage, and without the dashboard on
    a Ray it starts (``local``)."""
    import ray

    # Ray reports usage to its makers unless told not to; nothing here reaches out.
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    if address == "local":
        options.setdefault("include_dashboard", False)
    # Ray's client warns on a timeout before it raises; the caller says it in one line.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ray.init(address=address, logging_level=logging.ERROR, log_to_driver=False, **options)


def play(
    seeds: Sequence[int], play_one: Callable[[int], PlayedGame], cpus: int, per_task: int = GAMES_PER_TASK
) -> Iterator[PlayedGame]:
    """``play_one(seed)`` for each seed, as Ray tasks of ``per_task`` seeds, in the order the tasks
    finish. Tasks still running when the caller stops (Ctrl-C, an error) are cancelled."""
    import ray

    task = ray.remote(_play_games).options(num_cpus=1, max_retries=RETRIES)
    groups = (list(seeds[at : at + per_task]) for at in range(0, len(seeds), per_task))
    running: dict[Any, list[int]] = {}
    try:
        while True:
            while len(running) < cpus * (1 + QUEUED_PER_CPU) and (group := next(groups, None)):
                running[task.remote(play_one, group)] = group
            if not running:
                return
            # Waiting in short slices: Ctrl-C is taken between them, not when a game ends.
            done, _ = ray.wait(list(running), num_returns=1, timeout=0.1)
            for ref in done:
                group = running.pop(ref)
                try:
                    version, games = ray.get(ref)
                except ray.exceptions.RayError as exc:
                    raise ClusterError(f"the task of seeds {group} failed: {_first_line(exc)}") from None
                if version != SOLVER_VERSION:
                    raise ClusterError(
                        f"a worker runs solver version {version}, this machine {SOLVER_VERSION}: "
                        "install the same twenty48 on every node"
                    )
                yield from games
    finally:
        for ref in running:
            ray.cancel(ref, force=True)


def _play_games(play_one: Callable[[int], PlayedGame], seeds: list[int]) -> tuple[int, list[PlayedGame]]:
    from twenty48.ai import pools

    # The task holds one CPU; the other CPUs play other games.
    pools.THREADS = 1
    return SOLVER_VERSION, [play_one(seed) for seed in seeds]


def _cpus(ray: Any) -> int:
    # A head node started with no CPUs of its own is common; a run still needs one task going.
    return max(1, int(ray.cluster_resources().get("CPU", 0)))


def _probe(address: str) -> None:
    """Fail at once where nothing listens at ``address``: Ray's own attempts take 30 s (its client)
    to minutes (``auto`` naming a cluster that has stopped), printing warnings all the while."""
    if address == "auto":
        from ray._private.services import canonicalize_bootstrap_address

        try:
            # RAY_ADDRESS, else the cluster `ray start` last started on this machine: as ray.init reads it.
            host, _, port = canonicalize_bootstrap_address("auto").rpartition(":")
        except ConnectionError as exc:
            raise ClusterError(f"cannot join the Ray cluster at auto: {_first_line(exc)}") from None
    else:
        parts = urlsplit(address)
        host, port = parts.hostname or "", str(parts.port)
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=PROBE_SECONDS).close()
    except OSError as exc:
        where = address if address.startswith("ray://") else f"auto ({host}:{port})"
        raise ClusterError(f"cannot reach the Ray cluster at {where}: {exc.strerror or exc}") from None


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__
