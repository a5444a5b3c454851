"""``2048 bench``: play whole games with the solver and report how well and how fast it plays."""

from __future__ import annotations

import argparse
import functools
import json
import multiprocessing
import os
import signal
import sys
import time
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from twenty48.commands.hint import add_setting_arguments, solver_time_limit
from twenty48.commands.messages import fail
from twenty48.commands.numbers import bounded_int
from twenty48.commands.replay import parse_seed
from twenty48.spawns import SEED_LIMIT
from twenty48.wording import count

# The solver is imported where it is used: it loads numba, which `2048 --help` must not wait for.
if TYPE_CHECKING:
    from multiprocessing.pool import IMapIterator

    from twenty48.ai.play import PlayedGame

HELP = "Play whole games with the solver; report scores, tiles reached and speed."

MAX_GAMES = 100_000
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
        "--jobs",
        type=bounded_int(1, MAX_JOBS),
        default=1,
        help="games played in parallel processes, at most one per core (default %(default)s)",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of a table")


def run(args: argparse.Namespace) -> int:
    if args.seed + args.games > SEED_LIMIT:
        return fail("bench", "the seeds SEED .. SEED+GAMES-1 must stay below 2**64")
    from twenty48.ai.play import summarize

    cores = available_cores()
    if args.jobs > cores:
        print(
            f"2048 bench: --jobs {args.jobs} capped at {cores}, the cores this machine offers",
            file=sys.stderr,
        )
        args.jobs = cores
    seeds = range(args.seed, args.seed + args.games)
    games: list[PlayedGame] = []
    interrupted = False
    started = time.perf_counter()
    progress = Progress(
        TextColumn("[bold]solver games"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TextColumn("{task.description}"),
        console=Console(stderr=True),
        transient=True,
    )
    with progress:
        task = progress.add_task("", total=len(seeds))
        try:
            for game in _play(seeds, args.depth, solver_time_limit(args), args.nodes, args.jobs):
                games.append(game)
                best = max(g.max_tile for g in games)
                mean = sum(g.score for g in games) / len(games)
                progress.update(task, advance=1, description=f"best tile {best}, mean score {mean:,.0f}")
                if not progress.console.is_terminal:
                    # No live bar when stderr is a file: log each game so a long run can be followed.
                    print(
                        f"game seed {game.seed}: score {game.score}, largest tile {game.max_tile}, "
                        f"{count(game.moves, 'move')} in {game.seconds:.1f} s",
                        file=sys.stderr,
                        flush=True,
                    )
        except KeyboardInterrupt:
            interrupted = True
    games.sort(key=lambda g: g.seed)
    summary = summarize(games)
    summary.update(
        depth=args.depth if args.depth else ("adaptive" if not (args.time_ms or args.nodes) else None),
        time_ms=args.time_ms,
        nodes=args.nodes,
        seed=args.seed,
        jobs=args.jobs,
        wall_seconds=round(time.perf_counter() - started, 1),
        interrupted=interrupted,
    )
    if args.json:
        print(json.dumps(summary), flush=True)
    else:
        _print_table(summary, len(seeds))
    return 130 if interrupted else 0


def available_cores() -> int:
    """The cores this process may run on (its affinity where the OS says, else the machine's)."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def _play(
    seeds: range, depth: int | None, time_limit: float | None, nodes: int | None, jobs: int
) -> Iterator[PlayedGame]:
    from twenty48.ai import pools
    from twenty48.ai.play import play_game

    play = functools.partial(play_game, depth=depth, time_limit=time_limit, nodes=nodes)
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


def _print_table(summary: dict[str, Any], planned: int) -> None:
    console = Console()
    if summary["depth"] == "adaptive":
        setting = "adaptive depth"
    elif summary["depth"]:
        setting = f"depth {summary['depth']}"
    elif summary["nodes"]:
        setting = f"{summary['nodes']:,} nodes per move"
    else:
        setting = f"{summary['time_ms']} ms per move"
    title = f"Solver benchmark: {setting}, seeds from {summary['seed']}"
    if summary["interrupted"]:
        title += f" (interrupted: {summary['games']} of {count(planned, 'game')} finished)"
    table = Table(title=title, show_header=False)
    table.add_column(justify="left")
    table.add_column(justify="right")
    table.add_row("games", str(summary["games"]))
    table.add_row("mean score", f"{summary['avg_score']:,.0f}")
    table.add_row("median score", f"{summary['median_score']:,.0f}")
    table.add_row("min / max score", f"{summary['min_score']:,} / {summary['max_score']:,}")
    table.add_row("moves per game", f"{summary['avg_moves']:,.0f}")
    table.add_row("moves per second", f"{summary['moves_per_s']:,.1f}")
    table.add_row("ms per move p50 / p99", f"{summary['ms_per_move_p50']} / {summary['ms_per_move_p99']}")
    table.add_row("game time (s)", f"{summary['game_seconds']:,.1f}")
    from twenty48.ai.play import REACH_TILES

    for tile in REACH_TILES:
        table.add_row(f"reached {tile}", f"{summary['reach'][str(tile)]:.0%}")
    for tile, games in summary["max_tile"].items():
        table.add_row(f"largest tile {tile}", count(games, "game"))
    console.print(table)
