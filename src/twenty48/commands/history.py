"""``2048 history``: the terminal player's games as a table, newest first, or as the API's JSON."""

from __future__ import annotations

import argparse
import json
from datetime import datetime

from twenty48.commands.database import add_db_argument
from twenty48.commands.numbers import bounded_int
from twenty48.commands.storage import parse_game_id, with_store
from twenty48.listing import STATUS_WORDS, assists
from twenty48.store import GAME_SORTS, GameSummary, Player, Store
from twenty48.variants import VARIANTS

HELP = "List your games, newest first (or by score or largest tile), as a table or JSON."


#: The most games one page lists (a whole history fits: --limit is for paging, not for safety).
MAX_LIMIT = 100_000


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--sort",
        choices=GAME_SORTS,
        default="date",
        help="date: newest first; score, max_tile: highest first, ties newest first (default %(default)s)",
    )
    parser.add_argument("--variant", choices=sorted(VARIANTS), default=None, help="only this variant's games")
    done = parser.add_mutually_exclusive_group()
    done.add_argument("--finished", dest="finished", action="store_const", const=True, default=None,
                      help="only finished games (ended or abandoned)")  # fmt: skip
    done.add_argument("--unfinished", dest="finished", action="store_const", const=False,
                      help="only the game in progress")  # fmt: skip
    parser.add_argument(
        "--limit",
        type=bounded_int(1, MAX_LIMIT),
        default=20,
        help=f"games per page, 1 to {MAX_LIMIT:,} (default %(default)s)",
    )
    parser.add_argument(
        "--before", type=parse_game_id, default=None, metavar="GAME_ID", help="the page after this game"
    )
    parser.add_argument(
        "--json", action="store_true", help="print the JSON of GET /api/games: {games, next_before}"
    )
    add_db_argument(parser)


def run(args: argparse.Namespace) -> int:
    def act(store: Store, player: Player) -> None:
        games = store.games(
            player.id,
            limit=args.limit,
            before=args.before,
            sort=args.sort,
            variant=args.variant,
            finished=args.finished,
        )
        next_before = games[-1].id if len(games) == args.limit else None
        if args.json:
            print_json(games, next_before)
        elif (args.variant, args.finished, args.before) == (None, None, None):
            print_table(games, next_before, "No games yet: `2048 play` starts one.")
        else:
            print_table(games, next_before, "No game matches these options.")

    return with_store("history", args.db, act, existing=True)


def print_json(games: list[GameSummary], next_before: int | None) -> None:
    # The API's own models, so the two never drift apart; loaded only for --json.
    from twenty48.web.models import GameList, GameListItem

    answer = GameList(games=[GameListItem.of(g) for g in games], next_before=next_before)
    print(json.dumps(answer.model_dump(mode="json")))


def print_table(games: list[GameSummary], next_before: int | None, empty: str) -> None:
    """The games as a table, or ``empty`` when there are none."""
    from rich import box
    from rich.console import Console
    from rich.table import Table

    console = Console()
    if not games:
        console.print(empty)
        return
    table = Table(title="Your games", box=box.SIMPLE_HEAD, padding=(0, 1, 0, 0), pad_edge=False)
    for name in ("id", "started", "variant", "score", "largest", "moves", "status"):
        table.add_column(name, justify="right" if name in ("id", "score", "largest", "moves") else "left",
                         no_wrap=True)  # fmt: skip
    # Only the assisted counts wrap when the terminal is narrow.
    table.add_column("assisted", min_width=8)
    for game in games:
        table.add_row(
            str(game.id),
            started(game.created_at),
            game.variant,
            f"{game.score:,}",
            str(game.max_tile),
            f"{game.moves:,}",
            STATUS_WORDS[game.status],
            assists(game),
        )
    console.print(table)
    if next_before is not None:
        console.print(f"More: 2048 history --before {next_before} (with the same options).")


def started(created_at: str) -> str:
    """The start time in the machine's time zone, to the minute."""
    return datetime.fromisoformat(created_at).astimezone().strftime("%Y-%m-%d %H:%M")
