"""One game of 2048: the state machine every front end drives.

A ``Game`` owns the board, the score, the win / keep-going / over flags, an
undo history of at most 20 positions and the log of the legal moves that led
to the current position. Spawns come from ``twenty48.spawns``, indexed by the
position in the line of play, so ``Game.replay(seed, actions)`` rebuilds a
game exactly and undo followed by the same move brings back the same tile.
The rule policy (classic or "Merge 2048") is a ``twenty48.variants.Variant``; the board's size
(``twenty48.rules.BoardSize``, 4x4 unless told) is the board's own, and sets the win tile.

An action the game refuses raises a subclass of ``IllegalActionError`` (a ``ValueError``) and changes
nothing; every front end and the store react to these types instead of checking the conditions
again::

    IllegalActionError
    ├── GameOverError         undo once no legal move remains
    ├── NothingToUndoError    undo with an empty history
    ├── NotWonError           keep going without a win
    └── NoTileMovesError      a single-tile move in a variant that has none (classic)

An illegal *move* (the board would not change) is not an error: the rules say it does nothing, so
``move`` returns a ``Turn`` whose ``changed`` is False.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from twenty48 import saved, spawns
from twenty48.actions import Action, TileMove, make_action, parse_action
from twenty48.rules import DEFAULT_SIZE, Board, BoardSize, Direction, SizeLike
from twenty48.saved import FORMAT_VERSION, UNDO_LIMIT, Snapshot, Start
from twenty48.variants import CLASSIC, VARIANTS, Variant, get_variant

__all__ = [
    "FORMAT_VERSION",
    "UNDO_LIMIT",
    "Action",
    "Game",
    "GameOver",
    "GameOverError",
    "IllegalAction",
    "IllegalActionError",
    "NoTileMoves",
    "NoTileMovesError",
    "NotWon",
    "NotWonError",
    "NothingToUndo",
    "NothingToUndoError",
    "Snapshot",
    "Start",
    "TileMove",
    "Turn",
    "make_action",
    "parse_action",
]


class IllegalActionError(ValueError):
    """An action this game refuses in its present state; the game is unchanged."""


class GameOverError(IllegalActionError):
    """No legal move remains, so the game takes no more actions (undo included)."""


class NothingToUndoError(IllegalActionError):
    """The undo history is empty: no move has been played, or all kept ones were taken back."""


class NotWonError(IllegalActionError):
    """Keeping going needs a win to keep going from."""


class NoTileMovesError(IllegalActionError):
    """A single-tile move in a variant without them (only "Merge 2048" has them)."""

    @classmethod
    def of(cls, variant: Variant) -> NoTileMovesError:
        # The sentence names where the move would be allowed: the API hands it to clients as it is.
        having = " or ".join(v.name for v in VARIANTS.values() if v.tile_moves)
        return cls(
            f"single-tile moves are not part of the {variant.name} variant: "
            f"they belong to the {having} variant"
        )


# The names these had before every exception's name ended in "Error": exported then, so still
# importable; the same classes.
IllegalAction = IllegalActionError
GameOver = GameOverError
NothingToUndo = NothingToUndoError
NotWon = NotWonError
NoTileMoves = NoTileMovesError


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
    #: This move's merge created the game's first win tile (2048 on the 4x4).
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
        "_start",
        "_undo",
        "_variant",
        "_win_tile",
        "_won",
    )

    def __init__(
        self,
        *,
        seed: spawns.Seed,
        board: Board,
        score: int = 0,
        won: bool = False,
        keep_playing: bool = False,
        actions: Iterable[Action | str] = (),
        undo: Iterable[Snapshot] = (),
        variant: Variant | str = CLASSIC,
        start: Start | None = None,
    ) -> None:
        self._seed = spawns.check_seed(seed)
        self._variant = get_variant(variant)
        if not isinstance(board, Board):
            raise ValueError(f"board must be a Board, got {type(board).__name__}")
        self._board = board
        size = board.size
        self._win_tile = size.win_tile
        self._score = saved.check_score(score, "score")
        if start is not None and not isinstance(start, Start):
            raise ValueError(f"start must be a Start or None, got {type(start).__name__}")
        if start is not None and start.board.size != size:
            raise ValueError(f"the start board is {start.board.size} but the board is {size}")
        self._start = start
        self._won = won
        self._keep_playing = keep_playing
        if keep_playing and not won:
            raise ValueError("keep_playing is only possible after a win")
        self._actions = [parse_action(a, size) for a in actions]
        if not self._variant.tile_moves and any(isinstance(a, TileMove) for a in self._actions):
            raise NoTileMovesError.of(self._variant)
        self._undo: deque[Snapshot] = deque(undo, maxlen=UNDO_LIMIT)
        if len(self._undo) > len(self._actions):
            raise ValueError("the undo history is longer than the list of moves")
        if any(snapshot.board.size != size for snapshot in self._undo):
            raise ValueError(f"the undo history holds a board of another size than the board's {size}")
        self._over = board.is_over()

    # ---- construction -------------------------------------------------------------------

    @classmethod
    def new(
        cls, seed: spawns.Seed | None = None, variant: Variant | str = CLASSIC, size: SizeLike = DEFAULT_SIZE
    ) -> Game:
        """A new game on an empty board of ``size`` (4x4 unless told; ``(3, 4)``, ``"3x4"`` or a
        ``BoardSize``): two starting tiles on distinct cells, drawn from ``seed`` (a random SplitMix64
        seed if None; ``bytes`` are the key of the keyed scheme, see ``twenty48.spawns``)."""
        seed = spawns.random_seed() if seed is None else spawns.check_seed(seed)
        rules = get_variant(variant)
        board = Board.empty(size)
        for index in range(spawns.STARTING_TILES):
            board = board.with_tile(*rules.spawn(seed, index, board))
        return cls(seed=seed, board=board, variant=rules)

    @classmethod
    def from_board(
        cls, board: Board, seed: spawns.Seed | None = None, score: int = 0, variant: Variant | str = CLASSIC
    ) -> Game:
        """A game continuing from a prepared position; its spawns still come from ``seed``. The
        position is kept as the game's ``start``, so that ``replay`` can begin from it."""
        seed = spawns.random_seed() if seed is None else spawns.check_seed(seed)
        if not isinstance(board, Board):
            raise ValueError(f"board must be a Board, got {type(board).__name__}")
        start = Start(board, saved.check_score(score, "score"))
        return cls(seed=seed, board=board, score=score, variant=variant, start=start)

    @classmethod
    def replay(
        cls,
        seed: spawns.Seed,
        actions: Iterable[Action | str],
        variant: Variant | str = CLASSIC,
        start: Start | None = None,
        size: SizeLike | None = None,
    ) -> Game:
        """Replay a game from its seed and moves (``"left"``, or ``"left@5"`` for a single-tile
        move); illegal moves are no-ops, as in play. ``start`` is the prepared position of a game
        that did not begin from its seed (``Game.start``); None for one that did. ``size`` is the
        board's (4x4 when neither it nor ``start`` says; a ``start`` board has its own)."""
        if start is None:
            game = cls.new(seed, variant, DEFAULT_SIZE if size is None else size)
        else:
            if size is not None and BoardSize.of(size) != start.board.size:
                raise ValueError(f"the start board is {start.board.size}, not {BoardSize.of(size)}")
            game = cls.from_board(start.board, seed, start.score, variant)
        for action in actions:
            game.play(parse_action(action, game.size))
        return game

    # ---- state --------------------------------------------------------------------------

    @property
    def seed(self) -> spawns.Seed:
        """The SplitMix64 seed (``int``) or the keyed scheme's key (``bytes``) the spawns come from."""
        return self._seed

    @property
    def spawns(self) -> str:
        """The name of the spawn scheme: ``"splitmix64"`` or ``"blake2b"`` (``twenty48.spawns``)."""
        return spawns.scheme(self._seed)

    @property
    def start(self) -> Start | None:
        """The prepared position this game began from (``from_board``); None when it began from its
        seed's two starting tiles."""
        return self._start

    @property
    def variant(self) -> Variant:
        return self._variant

    @property
    def board(self) -> Board:
        return self._board

    @property
    def size(self) -> BoardSize:
        """The board's size (``str(game.size) == "4x4"``)."""
        return self._board.size

    @property
    def win_tile(self) -> int:
        """The tile whose first creation wins: 2048 on boards of 16 cells or more (``BoardSize.win_tile``)."""
        return self._win_tile

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
        """A merge created the win tile (2048 on the 4x4) in this game."""
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
        return self.play(make_action(direction, cell, self._board.size))

    def play(self, action: Action) -> Turn:
        """Play a logged action: a ``Direction`` or a ``TileMove``."""
        direction, cell = self._parts(action)
        result = self._board.move(direction) if cell is None else self._board.move_tile(cell, direction)
        if not result.changed:
            return self.unchanged_turn(action)
        self._undo.append(Snapshot(self._board, self._score, self._won, self._keep_playing))
        spawn = self._variant.spawn(self._seed, spawns.STARTING_TILES + len(self._actions), result.board)
        self._board = result.board.with_tile(*spawn)
        self._score += result.score
        self._actions.append(action)
        won_now = not self._won and any(result.board.cells[m] == self._win_tile for m in result.merges)
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

    def is_legal(self, action: Action) -> bool:
        """Whether ``action`` would change the board, asked without playing it: a caller that must
        store nothing for an illegal move (a pending game) decides here, and ``play`` then runs once."""
        direction, cell = self._parts(action)
        if cell is None:
            return self._board.can_move(direction)
        return self._board.move_tile(cell, direction).changed

    def unchanged_turn(self, action: Action) -> Turn:
        """The ``Turn`` of an illegal ``action``, the one ``play`` answers for it: nothing moved,
        every tile stays on its cell."""
        direction, cell = self._parts(action)
        return Turn(
            direction=direction,
            cell=cell,
            changed=False,
            score=0,
            slides=tuple((i, i) for i, value in enumerate(self._board.cells) if value),
            merges=(),
            spawn=None,
            won_now=False,
            over=self._over,
            board=self._board,
        )

    def _parts(self, action: Action) -> tuple[Direction, int | None]:
        """The direction and the cell (None: the whole board) of an action this game may play."""
        if isinstance(action, TileMove):
            if not self._variant.tile_moves:
                raise NoTileMovesError.of(self._variant)
            return action.direction, action.cell
        return Direction(action), None

    def undo(self) -> None:
        """Take back the last legal move. Raises ``GameOverError`` once the game is over and
        ``NothingToUndoError`` when the history is empty; either way nothing changes."""
        self.check_undo()
        snapshot = self._undo.pop()
        self._board = snapshot.board
        self._score = snapshot.score
        self._won = snapshot.won
        self._keep_playing = snapshot.keep_playing
        self._actions.pop()
        self._over = self._board.is_over()

    def check_undo(self) -> None:
        """Raise what ``undo`` would raise here, changing nothing (a refusal decided without a copy)."""
        if self._over:
            raise GameOverError("the game is over: undo is disabled once no move remains")
        if not self._undo:
            raise NothingToUndoError("there is no move to undo")

    def keep_going(self) -> None:
        """Dismiss the win banner and play on toward 4096 and beyond."""
        self.check_keep_going()
        self._keep_playing = True

    def check_keep_going(self) -> None:
        """Raise what ``keep_going`` would raise here, changing nothing."""
        if not self._won:
            raise NotWonError("the game has not been won, there is nothing to keep going from")

    def copy(self) -> Game:
        """An exact copy (undo history and action log included) that changes apart from this game.
        Cheap: the board, snapshots, seed and variant are immutable and shared; only the two lists
        are copied, with nothing checked again (``from_dict`` would re-check every field)."""
        twin = Game.__new__(Game)
        for name in Game.__slots__:
            setattr(twin, name, getattr(self, name))
        twin._actions = list(self._actions)
        twin._undo = deque(self._undo, maxlen=UNDO_LIMIT)
        return twin

    # ---- serialisation ------------------------------------------------------------------

    def to_dict(self, *, actions: bool = True) -> dict[str, Any]:
        """Everything needed to continue exactly, as plain JSON types.

        ``actions=False`` leaves out the action log, for a store that keeps it elsewhere and puts
        it back under ``"actions"`` before ``from_dict``: the log grows with every move, and
        rebuilding it on each save would make a save cost O(moves)."""
        state: dict[str, Any] = {
            "version": FORMAT_VERSION,
            "variant": self._variant.name,
            "size": str(self._board.size),
            "spawns": self.spawns,
            "seed": spawns.seed_json(self._seed),
            "board": saved.encode_board(self._board),
            "score": self._score,
            "moves": self.moves,
            "won": self._won,
            "keep_playing": self._keep_playing,
            "over": self._over,
            "undo": [saved.encode_snapshot(s) for s in self._undo],
        }
        if actions:
            state["actions"] = [str(a) for a in self._actions]
        if self._start is not None:
            state["start"] = {"board": saved.encode_board(self._start.board), "score": self._start.score}
        return state

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Game:
        """Rebuild a game saved by ``to_dict`` (any format version so far). Malformed or inconsistent
        data raises ValueError."""
        fields = saved.decode(data)
        try:
            game = cls(**fields.arguments)
        except ValueError as exc:
            raise ValueError(f"inconsistent saved game: {exc}") from None
        if fields.over is not None and fields.over != game.over:
            raise ValueError(f"over is {fields.over!r} but the board says {game.over}")
        return game

    def __repr__(self) -> str:
        # A key is shown by its scheme only: a game's repr lands in logs.
        seed = self._seed if isinstance(self._seed, int) else spawns.KEYED
        return (
            f"Game(seed={seed}, size={self._board.size}, score={self._score}, moves={self.moves}, "
            f"won={self._won}, over={self._over}, board={self._board.cells})"
        )
