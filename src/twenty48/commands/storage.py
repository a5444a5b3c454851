"""What the commands that read the store share: the terminal's player, a game id, and
one way of turning a refusal into a one-line message and an exit status.

Exit statuses: 0 done; 1 the database could not be used (unreadable, busy, disk full); 2 the
request was refused (an unknown game or player, a name that cannot be used, a file that cannot be
read or written, a file that does not import). Never a traceback.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable
from pathlib import Path

from twenty48.commands.messages import fail, shown
from twenty48.commands.numbers import decimal
from twenty48.names import NameRefusedError
from twenty48.store import (
    ID_LIMIT,
    GameNotFoundError,
    ImportRefusedError,
    Location,
    NameTakenError,
    Player,
    PlayerNotFoundError,
    Store,
    StoreError,
    open_store,
)


class RefusedError(Exception):
    """The command cannot do what was asked; the message says why, in one line."""


def parse_game_id(text: str) -> int:
    game_id = decimal(text, "a game id")
    if not 0 < game_id <= ID_LIMIT:
        raise argparse.ArgumentTypeError(f"a game id is between 1 and {ID_LIMIT}, got {shown(text)}")
    return game_id


def with_store(
    command: str, path: Location | None, act: Callable[[Store, Player], None], *, existing: bool = False
) -> int:
    """Run ``act`` on the store at ``path`` (a file or a PostgreSQL URL) for the terminal's player
    (the one ``2048 play`` plays as); its refusals and the store's errors become a message on stderr
    and an exit status. ``existing``: see ``with_database``."""
    return with_database(command, path, lambda store: act(store, store.local_player()), existing=existing)


def with_database(
    command: str, path: Location | None, act: Callable[[Store], None], *, existing: bool = False
) -> int:
    """Run ``act`` on the store at ``path``; its refusals (an unknown game or player, a name that
    cannot be used) and the store's errors become a message on stderr and an exit status.
    ``existing``: the command only reads, so an SQLite file named by ``--db`` must be there
    already (a mistyped path is refused, and no empty database is left behind)."""
    try:
        if existing and isinstance(path, Path) and not path.exists():
            raise RefusedError(
                f"no database at {path}: check --db (`2048 play` and `2048 serve` create one where they save)"
            )
        with open_store(path) as store:
            act(store)
    except (
        RefusedError,
        GameNotFoundError,
        PlayerNotFoundError,
        NameRefusedError,
        NameTakenError,
        ImportRefusedError,
    ) as exc:
        return fail(command, str(exc), 2)
    except StoreError as exc:
        return fail(command, str(exc), 1)
    except BrokenPipeError:
        # The reader of the output left (`2048 history --json | head`): nothing more to say, and
        # Python must not report the pipe again when it flushes stdout at exit.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    return 0
