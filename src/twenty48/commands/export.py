"""``2048 export``: one game, or the whole history, of the terminal player as a JSON file
(the formats of ``twenty48.store.transfer``, the same as GET /api/games/{id}/export and /api/export)."""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from twenty48.commands.database import add_db_argument
from twenty48.commands.storage import RefusedError, parse_game_id, with_store
from twenty48.store import Player, Store
from twenty48.wording import count

HELP = 'Write a game ("twenty48-game/2") or your whole history ("twenty48-history/2") to a JSON file.'


def add_arguments(parser: argparse.ArgumentParser) -> None:
    which = parser.add_mutually_exclusive_group(required=True)
    which.add_argument("game_id", nargs="?", type=parse_game_id, metavar="GAME_ID", help="the game to export")
    which.add_argument("--all", action="store_true", help="every game, oldest first")
    parser.add_argument(
        "-o", "--output", type=Path, required=True, metavar="FILE", help="where to write it (- for stdout)"
    )
    add_db_argument(parser)


def run(args: argparse.Namespace) -> int:
    def act(store: Store, player: Player) -> None:
        data = store.export_history(player.id) if args.all else store.export_game(player.id, args.game_id)
        text = json.dumps(data, separators=(",", ":")) + "\n"
        if str(args.output) == "-":
            sys.stdout.write(text)
            return
        write(args.output, text)
        written = count(len(data["games"]) if args.all else 1, "game")
        print(f"wrote {written} to {args.output}", file=sys.stderr)

    return with_store("export", args.db, act, existing=True)


def write(path: Path, text: str) -> None:
    """Write ``text`` whole or not at all: to a file beside ``path``, then renamed over it, so an
    interrupted export never leaves half a file where a good one was. A symbolic link is written
    through (its target is replaced, the link stays); what is not a regular file (a device, a
    pipe) is written into, never replaced by a file."""
    target = path.resolve() if path.is_symlink() else path
    try:
        if target.exists() and not target.is_file():
            with target.open("w", encoding="utf-8") as stream:
                stream.write(text)
            return
    except OSError as exc:
        raise RefusedError(f"cannot write {path}: {exc.strerror or exc}") from None
    part = target.with_name(f".{target.name}.part")
    try:
        part.write_text(text, encoding="utf-8")
        os.replace(part, target)
    except OSError as exc:
        part.unlink(missing_ok=True)
        raise RefusedError(f"cannot write {path}: {exc.strerror or exc}") from None
