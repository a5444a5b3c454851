"""The saved-game format that ``Game.to_dict`` writes and ``Game.from_dict`` reads.

A saved game is one JSON object::

    {"version": 5, "variant": "classic", "size": "4x4", "spawns": "splitmix64", "seed": 7,
     "board": [[...] x 4],
     "score": 1234, "moves": 3, "won": false, "keep_playing": false, "over": false,
     "undo": [{"board": ..., "score": ..., "won": ..., "keep_playing": ...}, ...],
     "actions": ["up", "left", "left@5", ...],
     "start": {"board": ..., "score": ...}}

``start`` is present only for a game that did not begin from its seed's two starting tiles (a
prepared board, ``Game.from_board``): without it ``(seed, actions)`` would replay a different game.
``spawns`` names the spawn scheme (``twenty48.spawns``): ``"splitmix64"`` with an integer seed, or
``"blake2b"`` with the game's key as the seed, 64 lower-case hex digits. ``size`` is the board's,
``"RxC"`` (rows first); every board of the file (``board``, ``undo``, ``start``) has R rows of C
values, and a single-tile move names a cell 0 to R*C - 1. Version 1 files (before variants) load as
classic games, version 2 files (before ``start``) as games that began from their seed, versions 1-3
(before ``spawns``) as SplitMix64 games, versions 1-4 (before ``size``) as 4x4 games. Every check
raises ValueError naming the field at fault.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from twenty48 import spawns
from twenty48.actions import Action, parse_action
from twenty48.checks import is_int
from twenty48.rules import DEFAULT_SIZE, Board, BoardSize
from twenty48.variants import CLASSIC

#: Version 2 added the variant, version 3 the start position of a prepared game, version 4 the spawn
#: scheme, version 5 the board's size.
FORMAT_VERSION = 5
UNDO_LIMIT = 20
#: The first version whose games name their spawn scheme, and the first that names its size.
_SPAWNS_VERSION = 4
_SIZE_VERSION = 5

_REQUIRED = {"version", "variant", "seed", "board", "score", "won", "keep_playing", "actions", "undo"}
_FIELDS = _REQUIRED | {"moves", "over", "start", "spawns", "size"}
_POSITION = {"board", "score", "won", "keep_playing"}


@dataclass(frozen=True, slots=True)
class Snapshot:
    """What undo restores: the position before a legal move."""

    board: Board
    score: int
    won: bool
    keep_playing: bool


@dataclass(frozen=True, slots=True)
class Start:
    """The prepared position a game began from, when it did not begin from its seed."""

    board: Board
    score: int


@dataclass(frozen=True, slots=True)
class Decoded:
    """A checked saved game: ``arguments`` for ``Game(...)``, and the ``over`` flag it claimed."""

    arguments: dict[str, Any]
    over: bool | None


def encode_board(board: Board) -> list[list[int]]:
    # Sliced from the cells, not through ``Board.rows``: a stored game encodes its board and each
    # undo snapshot's on every move.
    cells, cols = board.cells, board.size.cols
    return [list(cells[start : start + cols]) for start in range(0, len(cells), cols)]


def encode_snapshot(snapshot: Snapshot) -> dict[str, Any]:
    return {
        "board": encode_board(snapshot.board),
        "score": snapshot.score,
        "won": snapshot.won,
        "keep_playing": snapshot.keep_playing,
    }


def decode(data: object) -> Decoded:
    if not isinstance(data, Mapping):
        raise ValueError(f"a saved game is a JSON object, got {type(data).__name__}")
    version = data.get("version")
    if version == 1:
        # Version 1 predates variants: every such game is classic.
        data = {**data, "variant": CLASSIC.name}
    elif version not in (2, 3, 4, FORMAT_VERSION):
        raise ValueError(f"unsupported saved-game version {version!r} (expected {FORMAT_VERSION} or older)")
    unknown = set(data) - _FIELDS
    if unknown:
        raise ValueError(f"unknown field(s) in saved game: {', '.join(sorted(unknown))}")
    missing = _REQUIRED - set(data)
    if missing:
        raise ValueError(f"saved game lacks field(s): {', '.join(sorted(missing))}")
    if "start" in data and version not in (3, 4, FORMAT_VERSION):
        raise ValueError(f"start is a field of version 3 and later saved games, this one is {version}")
    if version >= _SPAWNS_VERSION:
        if "spawns" not in data:
            raise ValueError("saved game lacks field(s): spawns")
        seed = spawns.seed_from_json(data["seed"], data["spawns"])
    elif "spawns" in data:
        raise ValueError(
            f"spawns is a field of version {_SPAWNS_VERSION} and later saved games, this one is {version}"
        )
    else:
        # Every game saved before the schemes existed is a SplitMix64 game.
        seed = spawns.check_seed(data["seed"])
    if version >= _SIZE_VERSION:
        if "size" not in data:
            raise ValueError("saved game lacks field(s): size")
        size = _size_field(data["size"])
    elif "size" in data:
        raise ValueError(f"size is a field of version {_SIZE_VERSION} saved games, this one is {version}")
    else:
        # Every game saved before sizes existed is a 4x4 game.
        size = DEFAULT_SIZE

    score = check_score(data["score"], "score")
    start = _start_field(data["start"], score, size) if "start" in data else None
    actions = _actions_field(data["actions"], size)
    if "moves" in data and data["moves"] != len(actions):
        raise ValueError(f"moves is {data['moves']!r} but {len(actions)} actions are listed")
    arguments = {
        "seed": seed,
        "board": _board_field(data["board"], "board", size),
        "score": score,
        "won": _bool_field(data["won"], "won"),
        "keep_playing": _bool_field(data["keep_playing"], "keep_playing"),
        "actions": actions,
        "undo": _undo_field(data["undo"], start.score if start else 0, score, size),
        "variant": data["variant"],
        "start": start,
    }
    return Decoded(arguments, data.get("over"))


def check_score(score: object, name: str) -> int:
    if not is_int(score):
        raise ValueError(f"{name} must be an integer, got {score!r}")
    if score < 0:
        raise ValueError(f"{name} must not be negative, got {score}")
    return int(score)


def _bool_field(value: object, name: str) -> bool:
    if not isinstance(value, bool):
        raise ValueError(f"{name} must be true or false, got {value!r}")
    return value


def _size_field(value: object) -> BoardSize:
    try:
        return BoardSize.parse(value)  # type: ignore[arg-type]
    except ValueError as exc:
        raise ValueError(f"size: {exc}") from None


def _board_field(value: object, name: str, size: BoardSize) -> Board:
    if not isinstance(value, list):
        raise ValueError(f"{name} must be {size.rows} rows of {size.cols} tile values (the game is {size})")
    try:
        board = Board.from_rows(value)
    except ValueError as exc:
        raise ValueError(f"{name}: {exc}") from None
    if board.size != size:
        raise ValueError(
            f"{name} is {board.size} ({board.size.rows} rows of {board.size.cols}), the game is {size}"
        )
    return board


def _actions_field(value: object, size: BoardSize) -> list[Action]:
    if not isinstance(value, list):
        raise ValueError("actions must be a list of directions")
    actions = []
    for i, action in enumerate(value):
        if not isinstance(action, str):
            raise ValueError(f"actions[{i}] must be a direction string, got {action!r}")
        try:
            actions.append(parse_action(action, size))
        except ValueError:
            raise ValueError(f"actions[{i}]: unknown action {action!r}") from None
    return actions


def _start_field(value: object, score: int, size: BoardSize) -> Start:
    if not isinstance(value, Mapping) or set(value) != {"board", "score"}:
        raise ValueError("start must have exactly board and score")
    start_score = check_score(value["score"], "start.score")
    if start_score > score:
        raise ValueError(f"start.score {start_score} is above the score {score}: scores never decrease")
    return Start(_board_field(value["board"], "start.board", size), start_score)


def _undo_field(value: object, floor: int, score: int, size: BoardSize) -> list[Snapshot]:
    if not isinstance(value, list):
        raise ValueError("undo must be a list of positions")
    if len(value) > UNDO_LIMIT:
        raise ValueError(f"undo holds {len(value)} positions, at most {UNDO_LIMIT} are kept")
    snapshots = []
    previous = floor
    for i, entry in enumerate(value):
        where = f"undo[{i}]"
        if not isinstance(entry, Mapping) or set(entry) != _POSITION:
            raise ValueError(f"{where} must have exactly board, score, won and keep_playing")
        entry_score = check_score(entry["score"], f"{where}.score")
        if not previous <= entry_score <= score:
            raise ValueError(f"{where}.score {entry_score} is out of order: scores never decrease")
        previous = entry_score
        won = _bool_field(entry["won"], f"{where}.won")
        keep_playing = _bool_field(entry["keep_playing"], f"{where}.keep_playing")
        if keep_playing and not won:
            raise ValueError(f"{where}: keep_playing is only possible after a win")
        snapshots.append(
            Snapshot(_board_field(entry["board"], f"{where}.board", size), entry_score, won, keep_playing)
        )
    return snapshots
