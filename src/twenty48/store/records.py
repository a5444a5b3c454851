"""What the store hands out: immutable snapshots, safe to pass to other threads."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from twenty48.game import Action, Start, Turn
from twenty48.rules import Board

#: The largest id the store can hold (a signed 64-bit integer, in SQLite as in PostgreSQL).
ID_LIMIT = 2**63 - 1


@dataclass(frozen=True, slots=True)
class Player:
    id: int
    #: "web:<sha256 of the cookie token>" or "local:<name>".
    key: str
    current_game_id: int | None


@dataclass(frozen=True, slots=True)
class GameRecord:
    """An immutable snapshot of a stored game, safe to hand to other threads."""

    id: int
    player_id: int
    #: Incremented by every accepted action; see the package docstring.
    revision: int
    #: The player's current game (not replaced by a newer one).
    current: bool
    seed: int
    #: The game's rules: "classic" or "merge" (see ``twenty48.variants``).
    variant: str
    board: Board
    score: int
    moves: int
    won: bool
    keep_playing: bool
    over: bool
    can_undo: bool
    #: The player's best score in this game's variant, as of this snapshot.
    best_score: int
    created_at: str
    updated_at: str

    @property
    def finished(self) -> bool:
        return self.over or not self.current

    @property
    def max_tile(self) -> int:
        return self.board.max_tile


@dataclass(frozen=True, slots=True)
class MoveOutcome:
    turn: Turn
    game: GameRecord


@dataclass(frozen=True, slots=True)
class GameSummary:
    id: int
    variant: str
    score: int
    moves: int
    max_tile: int
    won: bool
    over: bool
    current: bool
    created_at: str
    updated_at: str

    @property
    def finished(self) -> bool:
        return self.over or not self.current


@dataclass(frozen=True, slots=True)
class Replay:
    """What ``Game.replay(seed, actions, variant, start)`` needs to rebuild a finished game, plus
    its result."""

    game_id: int
    seed: int
    variant: str
    #: ``Direction`` for a whole-board move, ``TileMove`` (``str()`` gives "left@5") for a single tile.
    actions: tuple[Action, ...]
    score: int
    max_tile: int
    won: bool
    over: bool
    #: The prepared position the game began from (``Game.from_board``, or a game whose log was
    #: re-based, see ``DamagedGame``); None when it began from its seed's two starting tiles.
    start: Start | None


@dataclass(frozen=True, slots=True)
class DamagedGame:
    """A game the store found inconsistent when it upgraded the database, and what it did.

    ``"rebased"``: the state (board, score, win) was intact but the moves that led to it were lost,
    so the game now starts from its present position, with no moves and no undo history, and plays
    on. ``"set aside"``: the state itself was unreadable; the game left the player's games (the
    player gets a new current game if it was theirs), its row stays in the database, hidden, and
    its id is not given to another game.
    """

    game_id: int
    player_id: int
    repair: Literal["rebased", "set aside"]
    #: Why the game could not be read as it was stored.
    problem: str
    found_at: str
