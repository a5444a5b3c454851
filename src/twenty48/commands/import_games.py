"""``2048 import``: add the games of an exported file to the terminal player's history.

Every game is replayed (``twenty48.store.transfer.read_file``); a file that is not JSON, not a
game or history file, holds a game that does not replay as recorded, or is past the command's
bounds (``MAX_GAMES`` games, ``MAX_SECONDS`` seconds in all) is refused whole (exit 2, the reason
in one line) and nothing is stored. Games already present are skipped. The games are stored in
short steps (``twenty48.store.transfer.imports``), so that a server on the same database keeps answering its
players; a progress bar shows on stderr when it is a terminal. Ctrl-C stops it, storing nothing.
"""

from __future__ import annotations

import argparse

from twenty48.commands.database import add_db_argument
from twenty48.commands.files import read_json
from twenty48.commands.storage import with_store
from twenty48.store import ImportBudget, ImportResult, Player, Store, transfer

HELP = "Import a game or history file written by `2048 export` or the browser game's export."

#: The most games one ``2048 import`` takes: ten times the web server's (a local file is not
#: bounded by a request's body), so that a long history imports at once; the last transaction
#: shows them all, a fraction of a second that a server on the same database waits.
MAX_GAMES = 10 * transfer.MAX_IMPORT_GAMES
#: The longest one ``2048 import`` may take, in seconds: about 10 million moves replayed.
MAX_SECONDS = 600.0


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "file",
        metavar="FILE",
        help="a twenty48-game or twenty48-history file (version 1 or 2); - reads standard input",
    )
    add_db_argument(parser)


def run(args: argparse.Namespace) -> int:
    def act(store: Store, player: Player) -> None:
        # The whole file is checked before anything is stored.
        result = import_file(store, player, read_json(args.file))
        resumed = f"; game {result.resumed} goes on where it was left" if result.resumed else ""
        print(
            f"{args.file}: imported {len(result.imported)}, skipped {result.skipped} already present{resumed}"
        )

    return with_store("import", args.db, act)


def import_file(store: Store, player: Player, data: object) -> ImportResult:
    """The file's games checked, then stored, with a progress bar on a terminal."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    budget = ImportBudget(MAX_SECONDS)
    console = Console(stderr=True)
    with Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console,
        transient=True,
        disable=not console.is_terminal,
    ) as progress:
        checking = progress.add_task("checking", total=None)
        storing = progress.add_task("storing", total=None, visible=False)

        def checked(done: int, games: int) -> None:
            progress.update(checking, completed=done, total=games)

        def stored(done: int, games: int) -> None:
            progress.update(storing, completed=done, total=games, visible=True)

        games = transfer.read_file(data, max_games=MAX_GAMES, check=budget.check, progress=checked)
        return store.import_games(player.id, games, budget, stored)
