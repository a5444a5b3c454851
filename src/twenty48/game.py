"""One game of 2048: the state machine every front end drives.

A ``Game`` owns the board, the score, the win / keep-going / over flags, an
undo history of at most 20 positions and the log of the legal moves that led
to the current position. Spawns come from ``twenty48.spawns``, indexed by the
position in the line of play, so ``Game.replay(seed, actions)`` rebuilds a
game exactly and undo followed by the same move brings back the same tile.
The rule policy (classic or "Merge 2048") is a ``twenty48.variants.Variant``.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, NamedTuple

from twenty48 import spawns
from twenty48.rules import CELLS, WINNING_TILE, Board, Direction
from twenty48.variants import CLASSIC, Variant, get_variant

UNDO_LIMIT = 20
#: Version 2 added the variant; version 1 files load as classic games.
FORMAT_VERSION = 2


class TileMove(NamedTuple):
    """A single-tile move of the "Merge 2048" variant, logged as ``"left@5"``."""

    direction: Direction
    cell: int

    def __str__(self) -> str:
        return f"{self.direction.value}@{self.cell}"


Action = Direction | TileMove


def make_action(direction: Direction | str, cell: int | None = None) -> Action:
    """A whole-board move, or with ``cell`` (0-15) a single-tile move from that cell."""
    direction = Direction(direction)
    if cell is None:
        return direction
    if isinstance(cell, bool) or not isinstance(cell, int) or not 0 <= cell < CELLS:
        raise ValueError(f"cell must be an integer 0-{CELLS - 1}, got {cell!r}")
    return TileMove(direction, cell)


def parse_action(action: Action | str) -> Action:
    """``Direction``, ``TileMove``, ``"left"`` or ``"left@5"`` (cell 0-15) -> an action."""
    if isinstance(action, (Direction, TileMove)):
        return action
    if not isinstance(action, str):
        raise ValueError(f"an action is a direction such as 'left' or 'left@5', got {action!r}")
    name, at, cell_text = action.partition("@")
    direction = Direction(name)
    if not at:
        return direction
    if not cell_text.isdigit() or not 0 <= int(cell_text) < CELLS:
        raise ValueError(f"{action!r}: the cell after '@' must be 0-{CELLS - 1}")
    return TileMove(direction, int(cell_text))


@dataclass(frozen=True, slots=True)
class Snapshot:
    """What undo restores: the position before a legal move."""

    board: Board
    score: int
    won: bool
    keep_playing: bool


@dataclass(frozen=True, slots=True)
class Turn:
    """What one call to ``Game.move`` did. An illegal move has ``changed`` False and changed nothing."""

    direction: Direction
    #: The tile a single-tile move started from; None for a whole-board move.
    cell: int | None
    changed: bool
    #: Points gained by this move's merges.
    score: int
    #: (source cell, destination cell) for every tile before the move, as in ``MoveResult``.
    slides: tuple[tuple[int, int], ...]
    #: Cells where merges created a tile.
    merges: tuple[int, ...]
    #: (cell, value) of the tile that appeared after the move; None for an illegal move.
    spawn: tuple[int, int] | None
    #: This move's merge created the first 2048 of the game.
    won_now: bool
    #: The game is over after this move.
    over: bool
    #: The board after the move and its spawn (the game's new board).
    board: Board


class Game:
    """A game of 2048. Create one with ``new``, ``from_board``, ``from_dict`` or ``replay``."""

    __slots__ = (
        "_actions",
        "_board",
        "_keep_playing",
        "_over",
        "_score",
        "_seed",
        "_undo",
        "_variant",
        "_won",
    )

    def __init__(
        self,
        *,
        seed: int,
        board: Board,
        score: int = 0,
        won: bool = False,
        keep_playing: bool = False,
        actions: Iterable[Action | str] = (),
        undo: Iterable[Snapshot] = (),
        variant: Variant | str = CLASSIC,
    ) -> None:
        self._seed = spawns.check_seed(seed)
        self._variant = get_variant(variant)
        if not isinstance(board, Board):
            raise ValueError(f"board must be a Board, got {type(board).__name__}")
        self._board = board
        self._score = _check_score(score, "score")
        self._won = won
        self._keep_playing = keep_playing
        if keep_playing and not won:
            raise ValueError("keep_playing is only possible after a win")
        self._actions = [parse_action(a) for a in actions]
        if not self._variant.tile_moves and any(isinstance(a, TileMove) for a in self._actions):
            raise ValueError(f"single-tile moves are not part of the {self._variant.name} variant")
        self._undo: deque[Snapshot] = deque(undo, maxlen=UNDO_LIMIT)
        if len(self._undo) > len(self._actions):
            raise ValueError("the undo history is longer than the list of moves")
        self._over = board.is_over()

    # ---- construction -------------------------------------------------------------------

    @classmethod
    def new(cls, seed: int | None = None, variant: Variant | str = CLASSIC) -> Game:
        """A new game: two starting tiles on distinct cells, drawn from ``seed`` (random if None)."""
        seed = spawns.random_seed() if seed is None else spawns.check_seed(seed)
        rules = get_variant(variant)
        board = Board.empty()
        for index in range(spawns.STARTING_TILES):
            board = board.with_tile(*rules.spawn(seed, index, board))
        return cls(seed=seed, board=board, variant=rules)

    @classmethod
    def from_board(
        cls, board: Board, seed: int | None = None, score: int = 0, variant: Variant | str = CLASSIC
    ) -> Game:
        """A game continuing from a prepared position; its spawns still come from ``seed``."""
        seed = spawns.random_seed() if seed is None else spawns.check_seed(seed)
        return cls(seed=seed, board=board, score=score, variant=variant)

    @classmethod
    def replay(cls, seed: int, actions: Iterable[Action | str], variant: Variant | str = CLASSIC) -> Game:
        """Replay a game from its seed and moves (``"left"``, or ``"left@5"`` for a single-tile
        move); illegal moves are no-ops, as in play."""
        game = cls.new(seed, variant)
        for action in actions:
            game.play(parse_action(action))
        return game

    # ---- state --------------------------------------------------------------------------

    @property
    def seed(self) -> int:
        return self._seed

    @property
    def variant(self) -> Variant:
        return self._variant

    @property
    def board(self) -> Board:
        return self._board

    @property
    def score(self) -> int:
        return self._score

    @property
    def moves(self) -> int:
        """Legal moves in the current line of play (undo takes one back)."""
        return len(self._actions)

    @property
    def actions(self) -> tuple[Action, ...]:
        """The legal moves that lead from the start to the current position (``TileMove`` for a
        single-tile move)."""
        return tuple(self._actions)

    @property
    def won(self) -> bool:
        """A merge created 2048 in this game."""
        return self._won

    @property
    def keep_playing(self) -> bool:
        """The player chose (or moved on) to keep going after the win."""
        return self._keep_playing

    @property
    def over(self) -> bool:
        """No legal move remains. A game can be both won and over."""
        return self._over

    @property
    def can_undo(self) -> bool:
        return bool(self._undo) and not self._over

    # ---- actions ------------------------------------------------------------------------

    def move(self, direction: Direction | str, cell: int | None = None) -> Turn:
        """Play a direction; with ``cell`` (Merge 2048 only) move just the tile on that cell.
        An illegal move (including any move once the game is over) changes nothing."""
        return self.play(make_action(direction, cell))

    def play(self, action: Action) -> Turn:
        """Play a logged action: a ``Direction`` or a ``TileMove``."""
        if isinstance(action, TileMove):
            if not self._variant.tile_moves:
                raise ValueError(f"single-tile moves are not part of the {self._variant.name} variant")
            direction, cell = action
            result = self._board.move_tile(cell, direction)
        else:
            direction, cell = Direction(action), None
            result = self._board.move(direction)
        if not result.changed:
            return Turn(
                direction=direction,
                cell=cell,
                changed=False,
                score=0,
                slides=result.slides,
                merges=(),
                spawn=None,
                won_now=False,
                over=self._over,
                board=self._board,
            )
        self._undo.append(Snapshot(self._board, self._score, self._won, self._keep_playing))
        spawn = self._variant.spawn(self._seed, spawns.STARTING_TILES + len(self._actions), result.board)
        self._board = result.board.with_tile(*spawn)
        self._score += result.score
        self._actions.append(action)
        won_now = not self._won and any(result.board.cells[m] == WINNING_TILE for m in result.merges)
        if won_now:
            self._won = True
        elif self._won:
            # Moving on after the win banner is keeping going.
            self._keep_playing = True
        self._over = self._board.is_over()
        return Turn(
            direction=direction,
            cell=cell,
            changed=True,
            score=result.score,
            slides=result.slides,
            merges=result.merges,
            spawn=spawn,
            won_now=won_now,
            over=self._over,
            board=self._board,
        )

    def undo(self) -> bool:
        """Take back the last legal move. False (and nothing changes) when there is nothing to undo
        or the game is over."""
        if not self.can_undo:
            return False
        snapshot = self._undo.pop()
        self._board = snapshot.board
        self._score = snapshot.score
        self._won = snapshot.won
        self._keep_playing = snapshot.keep_playing
        self._actions.pop()
        self._over = self._board.is_over()
        return True

    def keep_going(self) -> None:
        """Dismiss the win banner and play on toward 4096 and beyond."""
        if not self._won:
            raise ValueError("the game has not been won, there is nothing to keep going from")
        self._keep_playing = True

    # ---- serialisation ------------------------------------------------------------------

    def to_dict(self, *, actions: bool = True) -> dict[str, Any]:
        """Everything needed to continue exactly, as plain JSON types.

        ``actions=False`` leaves out the action log, for a store that keeps it elsewhere and puts
        it back under ``"actions"`` before ``from_dict``: the log grows with every move, and
        rebuilding it on each save would make a save cost O(moves)."""
        state: dict[str, Any] = {
            "version": FORMAT_VERSION,
            "variant": self._variant.name,
            "seed": self._seed,
            "board": [list(row) for row in self._board.rows],
            "score": self._score,
            "moves": self.moves,
            "won": self._won,
            "keep_playing": self._keep_playing,
            "over": self._over,
            "undo": [
                {
                    "board": [list(row) for row in s.board.rows],
                    "score": s.score,
                    "won": s.won,
                    "keep_playing": s.keep_playing,
                }
                for s in self._undo
            ],
        }
        if actions:
            state["actions"] = [str(a) for a in self._actions]
        return state

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Game:
        """Rebuild a game saved by ``to_dict``. Malformed or inconsistent data raises ValueError."""
        if not isinstance(data, Mapping):
            raise ValueError(f"a saved game is a JSON object, got {type(data).__name__}")
        version = data.get("version")
        if version == 1:
            # Version 1 predates variants: every such game is classic.
            data = {**data, "version": FORMAT_VERSION, "variant": CLASSIC.name}
        elif version != FORMAT_VERSION:
            raise ValueError(f"unsupported saved-game version {version!r} (expected {FORMAT_VERSION})")
        unknown = set(data) - _FIELDS
        if unknown:
            raise ValueError(f"unknown field(s) in saved game: {', '.join(sorted(unknown))}")
        missing = _REQUIRED - set(data)
        if missing:
            raise ValueError(f"saved game lacks field(s): {', '.join(sorted(missing))}")

        board = _board_field(data["board"], "board")
        score = _check_score(data["score"], "score")
        won = _bool_field(data["won"], "won")
        keep_playing = _bool_field(data["keep_playing"], "keep_playing")
        actions_data = data["actions"]
        if not isinstance(actions_data, list):
            raise ValueError("actions must be a list of directions")
        actions = []
        for i, action in enumerate(actions_data):
            if not isinstance(action, str):
                raise ValueError(f"actions[{i}] must be a direction string, got {action!r}")
            try:
                actions.append(parse_action(action))
            except ValueError:
                raise ValueError(f"actions[{i}]: unknown action {action!r}") from None
        undo = _undo_field(data["undo"], score)
        if "moves" in data and data["moves"] != len(actions):
            raise ValueError(f"moves is {data['moves']!r} but {len(actions)} actions are listed")
        try:
            game = cls(
                seed=data["seed"],
                board=board,
                score=score,
                won=won,
                keep_playing=keep_playing,
                actions=actions,
                undo=undo,
                variant=data["variant"],
            )
        except ValueError as exc:
            raise ValueError(f"inconsistent saved game: {exc}") from None
        if "over" in data and data["over"] != game.over:
            raise ValueError(f"over is {data['over']!r} but the board says {game.over}")
        return game

    def __repr__(self) -> str:
        return (
            f"Game(seed={self._seed}, score={self._score}, moves={self.moves}, "
            f"won={self._won}, over={self._over}, board={self._board.cells})"
        )


_REQUIRED = {"version", "variant", "seed", "board", "score", "won", "keep_playing", "actions", "undo"}
_FIELDS = _REQUIRED | {"moves", "over"}


def _check_score(score: object, name: str) -> int:
    if isinstance(score, bool) or not isinstance(score, int):
        raise ValueError(f"{name} must be an integer, got {score!r}")
    if score < 0:
        raise ValueError(f"{name} must not be negative, got {score}")
    return score


def _bool_field(value: object, name: str) -> bool:
    if not isinstance(value, bool):
        raise ValueError(f"{name} must be true or false, got {value!r}")
    return value


def _board_field(value: object, name: str) -> Board:
    if not isinstance(value, list):
        raise ValueError(f"{name} must be 4 rows of 4 tile values")
    try:
        return Board.from_rows(value)
    except ValueError as exc:
        raise ValueError(f"{name}: {exc}") from None


def _undo_field(value: object, score: int) -> list[Snapshot]:
    if not isinstance(value, list):
        raise ValueError("undo must be a list of positions")
    if len(value) > UNDO_LIMIT:
        raise ValueError(f"undo holds {len(value)} positions, at most {UNDO_LIMIT} are kept")
    snapshots = []
    previous = 0
    for i, entry in enumerate(value):
        where = f"undo[{i}]"
        if not isinstance(entry, Mapping) or set(entry) != {"board", "score", "won", "keep_playing"}:
            raise ValueError(f"{where} must have exactly board, score, won and keep_playing")
        entry_score = _check_score(entry["score"], f"{where}.score")
        if not previous <= entry_score <= score:
            raise ValueError(f"{where}.score {entry_score} is out of order: scores never decrease")
        previous = entry_score
        won = _bool_field(entry["won"], f"{where}.won")
        keep_playing = _bool_field(entry["keep_playing"], f"{where}.keep_playing")
        if keep_playing and not won:
            raise ValueError(f"{where}: keep_playing is only possible after a win")
        snapshots.append(
            Snapshot(_board_field(entry["board"], f"{where}.board"), entry_score, won, keep_playing)
        )
    return snapshots
