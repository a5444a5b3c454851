"""Games as files: export, and the checks an imported file must pass.

A game file::

    {"format": "twenty48-game/1", "seed": 7, "variant": "classic",
     "start_board": [[...] x 4],   # only for a game that began from a prepared board
     "start_score": 120,           # only with start_board, when that board had a score
     "actions": ["up", "left@5", ...], "score": 1234, "moves": 310, "max_tile": 256, "finished": true,
     "status": "ended",             # or "abandoned", "playing": always written, optional on import
     "board": [[...] x 4]}          # the final board: always written, optional on import

A history file is ``{"format": "twenty48-history/1", "games": [game file, ...]}``. Importing replays
every game: an action that does not move the board, or a recorded ``score``, ``moves``,
``max_tile``, ``finished`` or (when the file has one) ``board`` that differs from the replay,
refuses the whole file with an error naming the game.

Two fields are this program's additions to the format the issue gave. ``board``, the final board:
the score and the largest tile follow almost entirely from how many moves were played, so a file
with one action changed often replays to the same score, moves and largest tile (7 of 180 single
changes of a 60-move game did); the final board, where every spawn landed, catches it. A file
without it (exactly the issue's format) still imports, checked on the other fields.
``start_score``: without it a prepared board's score would make the replay's score differ.
``spawns``: the spawn scheme (``twenty48.spawns``), written only for a game of the keyed scheme
(``"blake2b"``, a ranked game), whose ``seed`` is then its key as 64 lower-case hex digits; a file
without it is a SplitMix64 game, as every file before the schemes. ``status``: what became of the
game (``records.game_status``): "ended" (game over, or won), "abandoned" (left for a new game before
either) or "playing"; on import it must agree with ``finished`` and with the replay.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, get_args

from twenty48 import spawns
from twenty48.checks import is_int
from twenty48.game import Game, Start, parse_action
from twenty48.rules import Board
from twenty48.store.checkpoints import Index, Indexer, start_game
from twenty48.store.errors import StoreError
from twenty48.store.records import Status, game_status
from twenty48.variants import get_variant

GAME_FORMAT = "twenty48-game/1"
HISTORY_FORMAT = "twenty48-history/1"
_REQUIRED = {"format", "seed", "variant", "actions", "score", "moves", "max_tile", "finished"}
#: ``board`` is written by every export but optional on import (checked when present), so that a
#: file in exactly the issue's format imports.
_FIELDS = _REQUIRED | {"start_board", "start_score", "board", "spawns", "status"}


class ImportRefusedError(StoreError, ValueError):
    """The file is not a game or history file, or one of its games does not replay as recorded."""


@dataclass(frozen=True, slots=True)
class Imported:
    """A game of a file that replayed as recorded, with its index for the store."""

    game: Game
    index: Index

    @property
    def key(self) -> tuple[object, ...]:
        """What makes two games the same game: seed, variant, start and actions."""
        return key(self.game)


def key(game: Game) -> tuple[object, ...]:
    return (game.seed, game.variant.name, game.start, game.actions)


def export_game(game: Game, status: Status) -> dict[str, Any]:
    data: dict[str, Any] = {"format": GAME_FORMAT}
    if game.spawns != spawns.SPLITMIX64:
        data["spawns"] = game.spawns
    data.update(seed=spawns.seed_json(game.seed), variant=game.variant.name)
    if game.start is not None:
        data["start_board"] = [list(row) for row in game.start.board.rows]
        if game.start.score:
            data["start_score"] = game.start.score
    data.update(
        actions=[str(a) for a in game.actions],
        score=game.score,
        moves=game.moves,
        max_tile=game.board.max_tile,
        finished=status != "playing",
        status=status,
        board=[list(row) for row in game.board.rows],
    )
    return data


def export_history(games: list[dict[str, Any]]) -> dict[str, Any]:
    return {"format": HISTORY_FORMAT, "games": games}


def read_file(data: object) -> list[Imported]:
    """The games of a game or history file, each replayed and checked; raises ImportRefusedError."""
    if not isinstance(data, Mapping):
        raise ImportRefusedError("the file is not a JSON object")
    kind = data.get("format")
    if kind == GAME_FORMAT:
        items: list[object] = [data]
    elif kind == HISTORY_FORMAT:
        if set(data) != {"format", "games"} or not isinstance(data["games"], list):
            raise ImportRefusedError('a history file is {"format": "twenty48-history/1", "games": [...]}')
        items = data["games"]
    else:
        raise ImportRefusedError(f"format must be {GAME_FORMAT!r} or {HISTORY_FORMAT!r}, got {kind!r}")
    found = []
    for number, item in enumerate(items, start=1):
        name = f"game {number}" if kind == HISTORY_FORMAT else "the game"
        if isinstance(item, Mapping) and (is_int(item.get("seed")) or isinstance(item.get("seed"), str)):
            name += f" (seed {str(item['seed'])[:64]})"
        try:
            found.append(_replayed(item))
        except ValueError as exc:
            raise ImportRefusedError(f"{name}: {exc}") from None
    return found


def _replayed(item: object) -> Imported:
    if not isinstance(item, Mapping):
        raise ValueError("a game is a JSON object")
    if item.get("format") != GAME_FORMAT:
        raise ValueError(f"format must be {GAME_FORMAT!r}")
    missing, unknown = _REQUIRED - set(item), set(item) - _FIELDS
    if missing or unknown:
        wrong = [
            f"{what} {_fields(names)}"
            for what, names in (("lacks", missing), ("has unknown", unknown))
            if names
        ]
        raise ValueError(" and ".join(wrong))
    scheme = item.get("spawns", spawns.SPLITMIX64)
    if scheme == spawns.SPLITMIX64 and not is_int(item["seed"]):
        raise ValueError(f"seed must be an integer, got {item['seed']!r}")
    seed = spawns.seed_from_json(item["seed"], scheme)
    variant = get_variant(item["variant"]) if isinstance(item["variant"], str) else None
    if variant is None:
        raise ValueError("variant must be a name")
    start = _start(item)
    if not isinstance(item["actions"], list):
        raise ValueError("actions must be a list")
    replay = Indexer(start_game(seed, variant, start))
    for number, text in enumerate(item["actions"], start=1):
        if not replay.played(parse_action(text)).changed:
            raise ValueError(f"action {number} ({text}) does not move the board")
    game = replay.game
    replayed = {
        "score": game.score,
        "moves": game.moves,
        "max_tile": game.board.max_tile,
        "board": [list(row) for row in game.board.rows],
    }
    for field, value in replayed.items():
        if field in item and item[field] != value:
            raise ValueError(f"the file says {field} {item[field]!r}, its replay gives {value}")
    if not isinstance(item["finished"], bool):
        raise ValueError("finished must be true or false")
    if game.over and not item["finished"]:
        raise ValueError("the file says the game is unfinished, its replay ends it")
    if "status" in item:
        _check_status(item["status"], item["finished"], game)
    return Imported(game, replay.index)


def _check_status(status: object, finished: bool, game: Game) -> None:
    if status not in get_args(Status):
        raise ValueError(f"status must be one of {', '.join(get_args(Status))}, got {str(status)[:40]!r}")
    if (status != "playing") != finished:
        raise ValueError(f"the file says status {status} but finished {str(finished).lower()}")
    if finished and status != game_status(game.over, game.won, finished):
        raise ValueError(
            f"the file says the game was {status}, its replay is {'' if game.over else 'not '}over "
            f"and {'' if game.won else 'not '}won"
        )


def _start(item: Mapping[str, Any]) -> Start | None:
    if "start_board" not in item:
        if "start_score" in item:
            raise ValueError("start_score goes with start_board")
        return None
    board = item["start_board"]
    if not isinstance(board, list):
        raise ValueError("start_board must be 4 rows of 4 tile values")
    score = item.get("start_score", 0)
    if not is_int(score) or score < 0:
        raise ValueError(f"start_score must be a non-negative integer, got {score!r}")
    return Start(Board.from_rows(board), score)


def _fields(names: set[str]) -> str:
    return ("field " if len(names) == 1 else "fields ") + ", ".join(sorted(names))
