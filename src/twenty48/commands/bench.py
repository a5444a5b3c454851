"""``2048 bench``: play whole games with the solver and report how well and how fast it plays."""

from __future__ import annotations

import argparse
import contextlib
import datetime
import functools
import json
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO
from urllib.parse import urlsplit

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from twenty48.commands.game_arguments import parse_seed, parse_size
from twenty48.commands.messages import fail
from twenty48.commands.numbers import bounded_int
from twenty48.commands.solver_arguments import add_setting_arguments, solver_time_limit
from twenty48.rules import DEFAULT_SIZE, BoardSize
from twenty48.spawns import SEED_LIMIT
from twenty48.wording import count

# The solver is imported where it is used: it loads numba, which `2048 --help` must not wait for.
if TYPE_CHECKING:
    from multiprocessing.pool import IMapIterator

    from twenty48.ai.play import PlayedGame

HELP = "Play whole games with the solver; report scores, tiles reached and speed."

MAX_GAMES = 100_000
#: The longest a game may be stopped at: a 6x6 game can last billions of moves.
MAX_MOVES = 10**9
#: Processes beyond the cores only share them, and each one's solver splits its share again.
MAX_JOBS = 1024


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--games",
        type=bounded_int(1, MAX_GAMES),
        default=10,
        help=f"games to play, 1-{MAX_GAMES:,} (default %(default)s)",
    )
    add_setting_arguments(parser)
    parser.add_argument(
        "--seed", type=parse_seed, default=0, help="game i uses seed SEED+i (default %(default)s)"
    )
    parser.add_argument(
        "--size",
        type=parse_size,
        default=DEFAULT_SIZE,
        metavar="RxC",
        help="the board: R rows of C cells, each 2-6 (default %(default)s); reach rates are of its tiles",
    )
    parser.add_argument(
        "--max-moves",
        type=bounded_int(1, MAX_MOVES),
        metavar="N",
        help="stop each game after N moves (big boards' games last long); the reach rates are then "
        "within N moves",
    )
    where = parser.add_mutually_exclusive_group()
    where.add_argument(
        "--jobs",
        type=bounded_int(1, MAX_JOBS),
        default=1,
        help="games played in parallel processes, at most one per core (default %(default)s)",
    )
    where.add_argument(
        "--ray",
        nargs="?",
        const="local",
        type=parse_address,
        metavar="ADDRESS",
        help="play the games as Ray tasks: on a Ray started on this machine's cores (no ADDRESS, or "
        "local), the cluster this machine belongs to (auto) or ray://HOST:PORT; needs "
        "twenty48[cluster]",
    )
    parser.add_argument(
        "--out",
        type=Path,
        metavar="FILE",
        help="write each finished game to FILE as a JSON line, as it finishes",
    )
    parser.add_argument(
        "--resume",
        action="store_true",
        help="continue the --out FILE: play only the seeds it does not hold yet",
    )
    parser.add_argument(
        "--report",
        type=Path,
        metavar="FILE",
        help="print the summary of the games in a results FILE, without playing",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of a table")


def parse_address(text: str) -> str:
    """``--ray``'s address: ``local``, ``auto`` or ``ray://HOST:PORT``, else a one-line error."""
    if text in ("local", "auto"):
        return text
    parts = urlsplit(text)
    try:
        port = parts.port
    except ValueError:
        port = None
    extra = parts.path or parts.query or parts.fragment
    if parts.scheme == "ray" and parts.hostname and port and not extra:
        return text
    raise argparse.ArgumentTypeError(f"expected local, auto or ray://HOST:PORT, got {text!r}")


def run(args: argparse.Namespace) -> int:
    if args.report:
        if args.out or args.resume or args.ray:
            return fail("bench", "--report reads a results file: it takes no --out, --resume or --ray")
        return _report(args.report, args.json)
    if args.resume and not args.out:
        return fail("bench", "--resume continues the --out FILE: give it")
    if args.seed + args.games > SEED_LIMIT:
        return fail("bench", "the seeds SEED .. SEED+GAMES-1 must stay below 2**64")
    from twenty48.ai import results
    from twenty48.ai.cluster import ClusterError
    from twenty48.ai.play import summarize

    setting = results.setting_of(args.depth, args.time_ms, args.nodes, args.size, args.max_moves)
    seeds = range(args.seed, args.seed + args.games)
    finished: list[PlayedGame] = []
    size = 0
    if args.out:
        try:
            found = results.read(args.out)
        except results.ResultsError as exc:
            return fail("bench", str(exc))
        if not args.resume and args.out.exists() and args.out.stat().st_size:
            return fail("bench", f"{args.out} already holds results: add --resume to continue it")
        if found.setting not in (None, setting):
            return fail(
                "bench",
                f"{args.out} was played at {results.describe(found.setting)}, "
                f"this run at {results.describe(setting)}: give another --out FILE",
            )
        finished = [game for game in found.games if game.seed in seeds]
        size = found.size
    kept = len(finished)
    done = {game.seed for game in finished}
    todo = [seed for seed in seeds if seed not in done]
    cores = available_cores()
    if args.jobs > cores:
        print(
            f"2048 bench: --jobs {args.jobs} capped at {cores}, the cores this machine offers",
            file=sys.stderr,
        )
        args.jobs = cores
    started = time.perf_counter()
    try:
        with contextlib.ExitStack() as stack:
            games = _games(todo, args, stack)
            out = stack.enter_context(_appending(args.out, size)) if args.out else None
            interrupted = _collect(games, finished, len(seeds), out, setting)
    except ClusterError as exc:
        return fail("bench", str(exc))
    finished.sort(key=lambda g: g.seed)
    summary = summarize(finished, args.size) | setting
    summary.update(
        seed=args.seed,
        jobs=None if args.ray else args.jobs,
        ray=args.ray,
        resumed=kept,
        wall_seconds=round(time.perf_counter() - started, 1),
        interrupted=interrupted,
    )
    if args.json:
        print(json.dumps(summary), flush=True)
    else:
        title = f"Solver benchmark: {results.describe(setting)}, seeds from {args.seed}"
        if interrupted:
            title += f" (interrupted: {summary['games']} of {count(len(seeds), 'game')} finished)"
        _print_table(summary, title)
    return 130 if interrupted else 0


def _report(path: Path, as_json: bool) -> int:
    from twenty48.ai import results
    from twenty48.ai.play import summarize

    if not path.exists():
        return fail("bench", f"cannot read {path}: no such file")
    try:
        found = results.read(path)
    except results.ResultsError as exc:
        return fail("bench", str(exc))
    if found.setting is None:
        return fail("bench", f"{path} holds no finished game")
    games = sorted(found.games, key=lambda g: g.seed)
    size = BoardSize.parse(found.setting["size"])
    summary = summarize(games, size) | found.setting | {"seed": games[0].seed}
    if as_json:
        print(json.dumps(summary), flush=True)
    else:
        _print_table(
            summary,
            f"Solver results in {path}: {results.describe(found.setting)}, "
            f"seeds {games[0].seed}-{games[-1].seed}",
        )
    return 0


def _games(
    seeds: Sequence[int], args: argparse.Namespace, stack: contextlib.ExitStack
) -> Iterator[PlayedGame]:
    """The games of ``seeds``, as they finish: here, in ``--jobs`` processes or on Ray (joined
    now, so that a cluster that cannot be reached stops the run before anything is written)."""
    from twenty48.ai import cluster
    from twenty48.ai.play import play_game

    if not seeds:
        return iter(())
    time_limit = solver_time_limit(args)
    play = functools.partial(
        play_game,
        depth=args.depth,
        time_limit=time_limit,
        nodes=args.nodes,
        size=args.size,
        max_moves=args.max_moves,
    )
    if args.ray:
        cpus = stack.enter_context(cluster.joined(args.ray))
        return cluster.play(seeds, play, cpus)
    return _play(seeds, play, args.jobs)


@contextlib.contextmanager
def _appending(path: Path, size: int) -> Iterator[TextIO]:
    """``path`` open for appending lines after its first ``size`` bytes: a last line cut off
    while being written goes."""
    with path.open("a", encoding="utf-8") as out:
        out.truncate(size)
        yield out


def _collect(
    games: Iterator[PlayedGame],
    finished: list[PlayedGame],
    total: int,
    out: TextIO | None,
    setting: dict[str, Any],
) -> bool:
    """Take the games as they finish into ``finished`` (and ``out``, one flushed line each, so
    that a crash loses only the games being played), with a progress bar on a terminal. True
    when Ctrl-C stopped it."""
    from twenty48.ai import results

    progress = Progress(
        TextColumn("[bold]solver games"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TextColumn("{task.description}"),
        console=Console(stderr=True),
        transient=True,
    )
    kept = len(finished)
    started = time.perf_counter()
    with progress, _ctrl_c_noted() as ctrl_c:
        task = progress.add_task("", total=total, completed=kept)
        try:
            for game in games:
                if out:
                    out.write(results.line(game, setting))
                    out.flush()
                finished.append(game)
                best = max(g.max_tile for g in finished)
                mean = sum(g.score for g in finished) / len(finished)
                pace = _pace(len(finished) - kept, time.perf_counter() - started, total - len(finished))
                progress.update(
                    task, advance=1, description=f"{pace}; best tile {best}, mean score {mean:,.0f}"
                )
                if not progress.console.is_terminal:
                    # No live bar when stderr is a file: log each game so a long run can be followed.
                    print(
                        f"game seed {game.seed}: score {game.score}, largest tile {game.max_tile}, "
                        f"{count(game.moves, 'move')} in {game.seconds:.1f} s",
                        file=sys.stderr,
                        flush=True,
                    )
                if ctrl_c.is_set():
                    return True
        except KeyboardInterrupt:
            return True
    return False


@contextlib.contextmanager
def _ctrl_c_noted() -> Iterator[threading.Event]:
    """An event set by Ctrl-C, which still raises KeyboardInterrupt as it always does.

    The exception alone can be lost: when the signal lands while a finalizer runs (numba's run
    during garbage collection), Python prints "Exception ignored" and goes on. The event lets
    the run stop after the game in hand all the same."""
    noted = threading.Event()
    if threading.current_thread() is not threading.main_thread():
        yield noted  # only the main thread may set a signal handler, and only it gets Ctrl-C
        return

    def interrupted(signum: int, frame: object) -> None:
        noted.set()
        raise KeyboardInterrupt

    before = signal.signal(signal.SIGINT, interrupted)
    try:
        yield noted
    finally:
        signal.signal(signal.SIGINT, before)


def _pace(played: int, seconds: float, left: int) -> str:
    """The run's rate over its ``played`` games so far, and the time the games ``left`` would
    take at it."""
    per_second = played / seconds
    if per_second >= 1:
        rate = f"{per_second:,.1f} games/s"
    elif per_second * 60 >= 1:
        rate = f"{per_second * 60:.1f} games/min"
    else:
        rate = f"{per_second * 3600:.1f} games/h"
    return f"{rate}, {datetime.timedelta(seconds=round(left / per_second))} left"


def available_cores() -> int:
    """The cores this process may run on (its affinity where the OS says, else the machine's)."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def _play(seeds: Sequence[int], play: Callable[[int], PlayedGame], jobs: int) -> Iterator[PlayedGame]:
    from twenty48.ai import pools

    if jobs == 1:
        yield from map(play, seeds)
        return
    workers = min(jobs, len(seeds))
    pool = multiprocessing.get_context("spawn").Pool(
        workers, initializer=_start_worker, initargs=(max(1, pools.THREADS // workers),)
    )
    try:
        results = pool.imap_unordered(play, seeds)
        for _ in seeds:
            yield _next_result(results)
    finally:
        pool.terminate()
        pool.join()


def _next_result(results: IMapIterator) -> PlayedGame:
    # Waiting in short slices: a main thread blocked on the pool's lock would take Ctrl-C only
    # when the next game ends, which can be an hour away.
    while True:
        try:
            return results.next(timeout=0.1)
        except multiprocessing.TimeoutError:
            pass


def _start_worker(threads: int) -> None:
    # Workers ignore Ctrl-C so that only the parent reacts: it stops them and reports.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    from twenty48.ai import pools

    # The processes share the machine's cores: each one's searches use only its part of them.
    pools.THREADS = threads


def _print_table(summary: dict[str, Any], title: str) -> None:
    table = Table(title=title, show_header=False)
    table.add_column(justify="left")
    table.add_column(justify="right")
    table.add_row("games", str(summary["games"]))
    table.add_row("mean score", f"{summary['avg_score']:,.0f}")
    table.add_row("median score", f"{summary['median_score']:,.0f}")
    table.add_row("min / max score", f"{summary['min_score']:,} / {summary['max_score']:,}")
    table.add_row("moves per game", f"{summary['avg_moves']:,.0f}")
    table.add_row("moves per second", f"{summary['moves_per_s']:,.1f}")
    table.add_row(
        "ms per move p50 / p99 (median game)", f"{summary['ms_per_move_p50']} / {summary['ms_per_move_p99']}"
    )
    table.add_row("game time (s)", f"{summary['game_seconds']:,.1f}")
    for tile, reach in summary["reach"].items():
        table.add_row(
            f"reached {tile}",
            f"{reach['rate'] * 100:.0f} % ({reach['games']} of {summary['games']}; "
            f"95 % interval {reach['low'] * 100:.0f}-{reach['high'] * 100:.0f} %)",
        )
    for tile, games in summary["max_tile"].items():
        table.add_row(f"largest tile {tile}", count(games, "game"))
    Console().print(table)
