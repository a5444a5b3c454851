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
import json
import re
import sys
from pathlib import Path

from twenty48.commands.database import add_db_argument
from twenty48.commands.messages import shown
from twenty48.commands.storage import RefusedError, with_store
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


#: The largest file read: far past any real history (a 30,000-move game is about 150 KB), and a
#: bound on the memory a wrong path can take.
MAX_FILE_BYTES = 256 << 20


def read_json(path: str | Path) -> object:
    """The JSON in the regular file at ``path`` (``-``: standard input, read to its end), or
    ``RefusedError`` saying in one line why not. Either is bounded by ``MAX_FILE_BYTES``; a web address
    is refused by name, not read as a file's path."""
    name = "standard input" if str(path) == "-" else str(path)
    if _WEB_ADDRESS.match(str(path)):
        raise RefusedError(
            f"{shown(name)} is a web address: give the path of a file on this machine (download it "
            "first, or pipe it in: curl ADDRESS | 2048 import -)"
        )
    try:
        if str(path) == "-":
            text = sys.stdin.buffer.read(MAX_FILE_BYTES + 1)
        else:
            path = Path(path)
            # Checked before opening: opening a pipe would wait for a writer, a device never ends.
            if path.exists() and not path.is_file():
                raise RefusedError(
                    f"{name} is not a regular file: give the path of an exported game or history file"
                )
            with path.open("rb") as stream:
                text = stream.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        raise RefusedError(f"cannot read {name}: {exc.strerror or exc}") from None
    if len(text) > MAX_FILE_BYTES:
        raise RefusedError(f"{name} is over {MAX_FILE_BYTES >> 20} MiB: not a game or history file")
    try:
        return json.loads(text)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise RefusedError(f"{name} is not valid JSON: {exc}") from None
    except ValueError:
        # An integer past Python's 4,300-digit limit: the web answers "not valid JSON" too.
        raise RefusedError(f"{name} is not valid JSON: a number longer than any game file holds") from None
    except RecursionError:
        raise RefusedError(f"{name} is nested too deeply to be a game file") from None


#: A URL's scheme and its slashes (``https://``, ``file:/``): not a path on this machine.
_WEB_ADDRESS = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*://")
