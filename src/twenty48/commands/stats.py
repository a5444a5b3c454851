"""``2048 stats``: the terminal player's figures in a variant (those of GET /api/stats) as tables
and a one-line chart of recent scores, or as the API's JSON. The figures are over the games that
ended (game over, or won); the abandoned ones (left for a new game before either) are counted
apart, and in the figures with ``--abandoned include``."""

from __future__ import annotations

import argparse
import json

from twenty48.commands.database import add_db_argument
from twenty48.commands.storage import with_store
from twenty48.store import Player, Stats, Store
from twenty48.variants import CLASSIC, VARIANTS
from twenty48.wording import count

HELP = "Your statistics in a variant: games, best, mean, median, reach rates, streaks, recent scores."

#: Eight heights of a one-line chart, lowest first.
BARS = "▁▂▃▄▅▆▇█"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--variant", choices=sorted(VARIANTS), default=CLASSIC.name, help="the rules (default %(default)s)"
    )
    parser.add_argument(
        "--assisted",
        choices=("include", "exclude"),
        default="include",
        help="exclude: only games known to have had no hint, auto-played move or undo (default %(default)s)",
    )
    parser.add_argument(
        "--abandoned",
        choices=("include", "exclude"),
        default="exclude",
        help="exclude: the figures are over the games that ended (game over, or won); include: over "
        "the games left for a new game before either too (default %(default)s)",
    )
    parser.add_argument("--json", action="store_true", help="print the JSON of GET /api/stats")
    add_db_argument(parser)


def run(args: argparse.Namespace) -> int:
    def act(store: Store, player: Player) -> None:
        found = store.stats(
            player.id,
            args.variant,
            assisted=args.assisted == "include",
            abandoned=args.abandoned == "include",
        )
        if args.json:
            # The API's own model, so the two never drift apart; loaded only for --json.
            from twenty48.web.history_models import StatsAnswer

            print(json.dumps(StatsAnswer.of(found, args.assisted, args.abandoned).model_dump(mode="json")))
        else:
            print_tables(found, args.assisted == "exclude", args.abandoned == "include")

    return with_store("stats", args.db, act, existing=True)


def print_tables(stats: Stats, unassisted: bool, abandoned: bool) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console()
    which = f"{stats.variant}, unassisted games only" if unassisted else stats.variant
    counted = "ended and abandoned games" if abandoned else "ended games"
    if stats.counted == 0:
        apart = (
            f", {stats.abandoned:,} abandoned (--abandoned include counts them)" if stats.abandoned else ""
        )
        console.print(f"Statistics ({which}): {count(stats.games, 'game')}, none ended yet{apart}.")
        return
    figures = Table(title=f"Statistics ({which})", show_header=False)
    figures.add_column("figure")
    figures.add_column("value", justify="right")
    for name, value in (
        ("games", f"{stats.games:,}"),
        ("ended", f"{stats.ended:,}"),
        (
            "abandoned",
            f"{stats.abandoned:,}" + (" (not counted)" if stats.abandoned and not abandoned else ""),
        ),
        ("best score", number(stats.best)),
        ("mean score", number(stats.mean)),
        ("median score", number(stats.median)),
        ("win rate", percent(stats.win_rate)),
        ("streak reaching 2048: current", str(stats.streak_current)),
        ("streak reaching 2048: best", str(stats.streak_best)),
    ):
        figures.add_row(name, value)
    console.print(figures)
    tiles = Table(title=f"Tiles (over {counted})")
    for name in ("tile", "reached", "first reached: median move", "best move"):
        tiles.add_column(name, justify="right")
    for tile, rate in stats.reach.items():
        first = stats.first_reach[tile]
        tiles.add_row(str(tile), percent(rate), number(first.median), number(first.best))
    console.print(tiles)
    width = max(10, min(len(stats.recent), console.width - 2))
    console.print(f"Scores of the last {count(len(stats.recent), 'game')} counted, oldest first "
                  f"(lowest {min(stats.recent):,}, highest {max(stats.recent):,}):")  # fmt: skip
    console.print(" " + sparkline(stats.recent, width))


def sparkline(values: tuple[int, ...] | list[int], width: int) -> str:
    """One character per value, its height scaled between the lowest and the highest; more values
    than ``width`` are averaged in ``width`` consecutive groups, so the line always fits."""
    if not values:
        return ""
    if len(values) > width:
        groups = [values[len(values) * i // width : len(values) * (i + 1) // width] for i in range(width)]
        values = [sum(g) / len(g) for g in groups]
    low, high = min(values), max(values)
    if high == low:
        return BARS[len(BARS) // 2] * len(values)
    top = len(BARS) - 1
    return "".join(BARS[round((v - low) / (high - low) * top)] for v in values)


def number(value: float | None) -> str:
    if value is None:
        return "-"
    return f"{value:,.0f}" if float(value).is_integer() else f"{value:,.1f}"


def percent(fraction: float | None) -> str:
    return "-" if fraction is None else f"{fraction:.1%}"
