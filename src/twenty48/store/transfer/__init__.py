"""Games as files: the formats, the checks an imported file must pass, what makes two games the same.

This module holds the formats and needs no database; beside it, ``exports`` writes a player's games
as files, ``imports`` stores a checked file's games in short steps (``sql``: their statements), and
``copy`` moves a whole SQLite store into PostgreSQL.

A game file::

    {"format": "twenty48-game/2", "seed": 7, "variant": "classic",
     "size": "3x3",                # only for a board other than the 4x4
     "start_board": [[...] x 4],   # only for a game that began from a prepared board
     "start_score": 120,           # only with start_board, when that board had a score
     "actions": ["up", "left@5", ...], "score": 1234, "moves": 310, "max_tile": 256, "finished": true,
     "board": [[...] x 4],          # the final board: always written, optional on import
     "status": "ended",             # version 2: or "abandoned", "playing" (see below)
     "created_at": "2026-12-01T10:27:03.512+00:00",   # version 2: when the game began
     "hints": 0, "auto_moves": 0, "undos": 2}         # version 2: its assisted counts, where known

A history file is ``{"format": "twenty48-history/2", "games": [game file, ...]}``. Importing replays
every game: an action that does not move the board, or a recorded ``score``, ``moves``,
``max_tile``, ``finished`` or (when the file has one) ``board`` that differs from the replay,
refuses the whole file with an error naming the game. Every number is bounded before it is used
(a start score by ``rules.MAX_START_SCORE``, the other counts by ``MAX_NUMBER`` and ``MAX_ASSISTS``),
and a start board that no game can reach (no tile, or two 131072 tiles, which the rules refuse to
merge: ``rules.two_largest``) is refused rather than stored for a replay or review to trip on.

Version 1 files (``twenty48-game/1`` and ``twenty48-history/1``, the fields above without
``created_at`` and the counts) still import; a history of either version may hold games of either.

Fields added to the format the issue gave. ``board``, the final board: the score and the largest
tile follow almost entirely from how many moves were played, so a file with one action changed
often replays to the same score, moves and largest tile (7 of 180 single changes of a 60-move game
did); the final board, where every spawn landed, catches it. A file without it (exactly the issue's
format) still imports, checked on the other fields. ``start_score``: without it a prepared board's
score would make the replay's score differ. ``spawns``: the spawn scheme (``twenty48.spawns``),
written only for a game of the keyed scheme (``"blake2b"``, a ranked game), whose ``seed`` is then
its key as 64 lower-case hex digits; a file without it is a SplitMix64 game, as every file before
the schemes. ``status``: what became of the game (``records.game_status``): "ended" (game over, or
won), "abandoned" (left for a new game before either) or "playing"; written by every export,
optional on import, where it must agree with ``finished`` and with the replay. ``size``: the
board's, "RxC" rows first (``rules.BoardSize``), written only for a board other than the 4x4, so
that a 4x4 game's file is as before; a file without it is a 4x4 game, or a game of its
``start_board``'s size, with which it must agree.

**What a file can prove, and what it only claims.** The replay proves the seed, start, actions,
score, moves, largest tile and whether the game is over. ``finished`` of a game that is not over
(in progress, or left for a newer game), ``created_at`` and the assisted counts are the file's
word: nothing in the moves shows a hint asked or a move taken back. They are kept and shown as
the file says, and an imported game is never counted as unassisted by the statistics (nor ever
ranked), so no claim of a file makes a player's figures look better than they were played here.

**The same game.** Two games are the same when they have the same ``digest`` (spawn scheme, seed,
variant, start and actions) and, where the file says when the game began, the same ``created_at``.
A file's games are imported unless the database already holds them: one stored game matches one
game of the file, so four games of one seed and moves (four games left at their start, say) are
four games, and a second import of the same file imports nothing. Games of a version 1 file, which
do not say when they began, match stored games of the same digest whenever those began.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, NamedTuple, get_args

from twenty48 import spawns
from twenty48.checks import is_int
from twenty48.game import Game, Start, parse_action
from twenty48.rules import DEFAULT_SIZE, MAX_START_SCORE, Board, BoardSize, two_largest
from twenty48.store.errors import StoreError
from twenty48.store.games.checkpoints import Index, Indexer, start_game
from twenty48.store.records import Status, game_status
from twenty48.variants import get_variant

GAME_FORMAT = "twenty48-game/2"
HISTORY_FORMAT = "twenty48-history/2"
#: The formats an import reads: version 1 (without ``created_at`` and the counts) and version 2.
GAME_FORMATS = ("twenty48-game/1", GAME_FORMAT)
HISTORY_FORMATS = ("twenty48-history/1", HISTORY_FORMAT)
_REQUIRED = {"format", "seed", "variant", "actions", "score", "moves", "max_tile", "finished"}
#: ``board`` is written by every export but optional on import (checked when present), so that a
#: file in exactly the issue's format imports.
_FIELDS_1 = _REQUIRED | {"start_board", "start_score", "board", "spawns"}
ASSISTS = ("hints", "auto_moves", "undos")
_FIELDS_2 = _FIELDS_1 | {"created_at", "status", "size", *ASSISTS}

#: The most games one web import takes (a file with more is refused, in words, before any is
#: replayed): an import shows its games in one transaction at its end, which grows with them
#: (about 17 ms for 1,000 games on a busy 2-core machine, which other players' actions wait).
MAX_IMPORT_GAMES = 1_000
#: The largest score, move count or largest tile a file may state: what the store's integers hold.
MAX_NUMBER = 2**63 - 1
#: The largest assisted count a file may state: far past any game, and room to count on from it.
MAX_ASSISTS = 2**32
#: The longest ``created_at`` read (an ISO 8601 time with its offset is 32 characters).
_MAX_TIME_TEXT = 40
#: How much of a refused value an error message quotes.
_QUOTED = 64
#: Actions replayed between two calls of an import's ``check`` (a few milliseconds of replay).
_CHECK_EVERY = 100


class ImportRefusedError(StoreError, ValueError):
    """The file is not a game or history file, is past an import's bounds, or one of its games does
    not replay as recorded."""


class Assists(NamedTuple):
    """A game's assisted counts; None where unknown."""

    hints: int | None
    auto_moves: int | None
    undos: int | None


UNKNOWN = Assists(None, None, None)


@dataclass(frozen=True, slots=True)
class Imported:
    """A game of a file that replayed as recorded, with its index for the store and what the file
    says of it beyond its moves."""

    game: Game
    index: Index
    #: What makes it the same game as another (``digest``).
    digest: str
    #: The file's word: False for a game in progress (never for one that is over).
    finished: bool
    #: When the game began, as the store writes times (UTC, milliseconds); None if not said.
    created_at: str | None
    assists: Assists


def digest(
    scheme: str,
    seed: int | str,
    variant: str,
    start: Start | None,
    actions: Iterable[str],
    size: BoardSize = DEFAULT_SIZE,
) -> str:
    """The identity of a game's line of play: spawn scheme, seed (as JSON writes it), variant,
    start, actions (as ``str`` of each) and board size. Two games with the same digest play the
    same moves from the same position with the same tiles."""
    origin = None if start is None else [list(start.board.cells), start.score]
    identity: list[Any] = [scheme, seed, variant, origin, ",".join(actions)]
    if size != DEFAULT_SIZE:
        # Appended for other sizes only: the digests stored for 4x4 games stay as they were.
        identity.append(str(size))
    text = json.dumps(identity, separators=(",", ":"))
    return hashlib.blake2b(text.encode(), digest_size=16).hexdigest()


def game_digest(game: Game) -> str:
    return digest(
        game.spawns,
        spawns.seed_json(game.seed),
        game.variant.name,
        game.start,
        map(str, game.actions),
        game.size,
    )


def unseen(games: Sequence[Imported], present: Iterable[tuple[str, str]]) -> list[bool]:
    """Which of ``games`` the database does not hold yet, given the (digest, created_at) of its
    stored games with their digests: one stored game matches one game of the file (see the module's
    "The same game"). Games that say when they began are matched first, to the stored game that
    began then; the others take any stored game of their digest that is left."""
    exact: Counter[tuple[str, str]] = Counter()
    left: Counter[str] = Counter()
    for found, began in present:
        exact[found, began] += 1
        left[found] += 1
    new = [True] * len(games)
    listed: set[tuple[str, str]] = set()
    for i, item in enumerate(games):
        if item.created_at is None:
            continue
        key = (item.digest, item.created_at)
        if key in listed:
            new[i] = False  # the same game listed twice in one file
        elif exact[key]:
            new[i] = False
            exact[key] -= 1
            left[item.digest] -= 1
        listed.add(key)
    for i, item in enumerate(games):
        # An export lists each game once: equal games of a file that do not say when they began
        # are different games (played alike), each matched to a stored one of its own.
        if item.created_at is None and left[item.digest]:
            new[i] = False
            left[item.digest] -= 1
    return new


def export_game(
    game: Game, finished: bool, created_at: str | None = None, assists: Assists = UNKNOWN
) -> dict[str, Any]:
    data: dict[str, Any] = {"format": GAME_FORMAT}
    if game.spawns != spawns.SPLITMIX64:
        data["spawns"] = game.spawns
    data.update(seed=spawns.seed_json(game.seed), variant=game.variant.name)
    if game.size != DEFAULT_SIZE:
        data["size"] = str(game.size)
    if game.start is not None:
        data["start_board"] = [list(row) for row in game.start.board.rows]
        if game.start.score:
            data["start_score"] = game.start.score
    data.update(
        actions=[str(a) for a in game.actions],
        score=game.score,
        moves=game.moves,
        max_tile=game.board.max_tile,
        finished=finished,
        status=game_status(game.over, game.won, finished),
        board=[list(row) for row in game.board.rows],
    )
    if created_at is not None:
        data["created_at"] = created_at
    data.update((name, count) for name, count in zip(ASSISTS, assists, strict=True) if count is not None)
    return data


def export_history(games: list[dict[str, Any]]) -> dict[str, Any]:
    return {"format": HISTORY_FORMAT, "games": games}


def file_games(data: object, max_games: int = MAX_IMPORT_GAMES) -> tuple[list[object], bool]:
    """The game entries of a game or history file (not yet checked) and whether it is a history;
    raises ImportRefusedError for what is neither, or a history of more than ``max_games`` games."""
    if not isinstance(data, Mapping):
        raise ImportRefusedError("the file is not a JSON object")
    kind = data.get("format")
    if kind in GAME_FORMATS:
        return [data], False
    if kind not in HISTORY_FORMATS:
        raise ImportRefusedError(
            f"format must be a game ({', '.join(GAME_FORMATS)}) or a history "
            f"({', '.join(HISTORY_FORMATS)}), got {_quote(kind)}"
        )
    if set(data) != {"format", "games"} or not isinstance(data["games"], list):
        raise ImportRefusedError(f'a history file is {{"format": "{kind}", "games": [...]}}')
    items: list[object] = data["games"]
    if len(items) > max_games:
        raise too_many_games(f"{len(items):,}", max_games)
    return items, True


def too_many_games(count: str, max_games: int) -> ImportRefusedError:
    """The refusal of a file of ``count`` games, past ``max_games``."""
    return ImportRefusedError(
        f"the file holds {count} games; an import takes at most {max_games:,}: split it into smaller files"
    )


def read_file(
    data: object,
    *,
    max_games: int = MAX_IMPORT_GAMES,
    check: Callable[[], None] | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> list[Imported]:
    """The games of a game or history file, each replayed and checked; raises ImportRefusedError.
    ``check`` is called before each game and every hundred actions (it raises to stop the
    import: past its time, its client gone); ``progress(done, games)`` after each game."""
    items, history = file_games(data, max_games)
    found = []
    for number, item in enumerate(items, start=1):
        if check is not None:
            check()
        name = f"game {number}" if history else "the game"
        if isinstance(item, Mapping) and (is_int(item.get("seed")) or isinstance(item.get("seed"), str)):
            name += f" (seed {str(item['seed'])[:_QUOTED]})"
        try:
            found.append(_replayed(item, check))
        except ImportRefusedError:
            # ``check`` stopped the import: the game itself is not at fault.
            raise
        except ValueError as exc:
            raise ImportRefusedError(f"{name}: {_cut(str(exc))}") from None
        if progress is not None:
            progress(number, len(items))
    return found


def _replayed(item: object, check: Callable[[], None] | None) -> Imported:
    if not isinstance(item, Mapping):
        raise ValueError("a game is a JSON object")
    if item.get("format") not in GAME_FORMATS:
        raise ValueError(f"format must be one of {', '.join(GAME_FORMATS)}")
    fields = _FIELDS_2 if item["format"] == GAME_FORMAT else _FIELDS_1
    missing, unknown = _REQUIRED - set(item), set(item) - fields
    if missing or unknown:
        wrong = [
            f"{what} {_fields(names)}"
            for what, names in (("lacks", missing), ("has unknown", unknown))
            if names
        ]
        raise ValueError(" and ".join(wrong)[: 4 * _QUOTED])
    scheme = item.get("spawns", spawns.SPLITMIX64)
    if scheme == spawns.SPLITMIX64 and not is_int(item["seed"]):
        raise ValueError(f"seed must be an integer, got {_quote(item['seed'])}")
    seed = spawns.seed_from_json(item["seed"], scheme)
    variant = get_variant(item["variant"]) if isinstance(item["variant"], str) else None
    if variant is None:
        raise ValueError("variant must be a name")
    start = _start(item)
    size = _size(item, start)
    if not isinstance(item["actions"], list):
        raise ValueError("actions must be a list")
    for field in ("score", "moves", "max_tile"):
        _count(item, field, MAX_NUMBER)
    if not isinstance(item["finished"], bool):
        raise ValueError("finished must be true or false")
    created_at = _time(item.get("created_at"))
    assists = Assists(*(_count(item, name, MAX_ASSISTS) for name in ASSISTS))
    replay = Indexer(start_game(seed, variant, start, size))
    for number, text in enumerate(item["actions"], start=1):
        if check is not None and number % _CHECK_EVERY == 0:
            check()
        if not replay.played(parse_action(text, size)).changed:
            raise ValueError(f"action {number} ({_quote(text)}) does not move the board")
    game = replay.game
    replayed = {
        "score": game.score,
        "moves": game.moves,
        "max_tile": game.board.max_tile,
        "board": [list(row) for row in game.board.rows],
    }
    for field, value in replayed.items():
        if field in item and item[field] != value:
            raise ValueError(f"the file says {field} {_quote(item[field])}, its replay gives {value}")
    if game.over and not item["finished"]:
        raise ValueError("the file says the game is unfinished, its replay ends it")
    if "status" in item:
        _check_status(item["status"], item["finished"], game)
    return Imported(game, replay.index, game_digest(game), item["finished"], created_at, assists)


def _check_status(status: object, finished: bool, game: Game) -> None:
    if status not in get_args(Status):
        raise ValueError(f"status must be one of {', '.join(get_args(Status))}, got {_quote(status)}")
    if (status != "playing") != finished:
        raise ValueError(f"the file says status {status} but finished {str(finished).lower()}")
    if finished and status != game_status(game.over, game.won, finished):
        over = "" if game.over else "not "
        won = "" if game.won else "not "
        raise ValueError(f"the file says the game was {status}, its replay is {over}over and {won}won")


def _start(item: Mapping[str, Any]) -> Start | None:
    if "start_board" not in item:
        if "start_score" in item:
            raise ValueError("start_score goes with start_board")
        return None
    board = item["start_board"]
    if not isinstance(board, list):
        raise ValueError("start_board must be a list of rows of tile values")
    score = item.get("start_score", 0)
    if not is_int(score) or not 0 <= score <= MAX_START_SCORE:
        raise ValueError(
            f"start_score must be an integer from 0 to {MAX_START_SCORE} (2**63 - 1 less what a game "
            f"can still score), got {_quote(score)}"
        )
    start = Board.from_rows(board)
    # What no game can reach, nothing after the import could replay, review or play on.
    if not any(start.cells):
        raise ValueError("start_board has no tile: no move could ever be legal on it")
    if two_largest(start):
        raise ValueError(f"start_board holds two {start.size.max_tile} tiles, which no game can reach")
    return Start(start, score)


def _size(item: Mapping[str, Any], start: Start | None) -> BoardSize:
    """The board's size: the file's ``size``, else its start board's, else the 4x4."""
    if "size" not in item:
        return DEFAULT_SIZE if start is None else start.board.size
    size = BoardSize.parse(item["size"])
    if start is not None and start.board.size != size:
        raise ValueError(f"start_board is {start.board.size} but size says {size}")
    return size


def _count(item: Mapping[str, Any], field: str, top: int) -> int | None:
    """The non-negative integer ``field`` of the file (None when absent), at most ``top``."""
    value = item.get(field)
    if value is not None and not (is_int(value) and 0 <= value <= top):
        raise ValueError(f"{field} must be an integer from 0 to {top}, got {_quote(value)}")
    return value


def _time(value: object) -> str | None:
    """``created_at`` as the store writes times (UTC, milliseconds), or None when absent."""
    if value is None:
        return None
    try:
        if not isinstance(value, str) or len(value) > _MAX_TIME_TEXT:
            raise ValueError
        moment = datetime.fromisoformat(value)
        if moment.tzinfo is None:
            raise ValueError
        moment = moment.astimezone(UTC)
    except (ValueError, OverflowError):
        raise ValueError(
            f"created_at must be an ISO 8601 time with its UTC offset, got {_quote(value)}"
        ) from None
    return moment.isoformat(timespec="milliseconds")


def _quote(value: object) -> str:
    return _cut(repr(value), _QUOTED)


def _cut(text: str, most: int = 4 * _QUOTED) -> str:
    """A message or a value quoted in one, cut short: a file can hold a number of 4,300 digits."""
    return text if len(text) <= most else text[: most - 1] + "…"


def _fields(names: set[str]) -> str:
    return ("field " if len(names) == 1 else "fields ") + ", ".join(sorted(_cut(n, _QUOTED) for n in names))
