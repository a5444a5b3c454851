"""The seam between the store's rules and a database: what a backend must provide.

``Store`` (``twenty48.store.games``) holds every rule of the game operations and talks to the
database only through a ``Backend`` and the ``Connection`` it hands out. A backend owns what
differs from one database to another: the SQL dialect (placeholders, upserts), how a write
transaction takes its lock (SQLite's ``BEGIN IMMEDIATE``; PostgreSQL would lock the player's row
with ``SELECT ... FOR UPDATE``), how the schema version is kept (``PRAGMA user_version``; a table),
how its errors read (busy, damaged, full) and what makes a commit durable (the write-ahead log's
fsync, shared by group commit; ``synchronous_commit``). ``twenty48.store.sqlite`` is the backend in
use. Each primitive is one statement or two; none decides anything about the game.
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import AbstractContextManager
from typing import NamedTuple, Protocol

from twenty48.game import Action
from twenty48.store.records import DamagedGame, GameSummary, Player


class GameRow(NamedTuple):
    """A game's row with its player's current game; the state is read only when the game is not
    cached."""

    id: int
    player_id: int
    revision: int
    created_at: str
    updated_at: str
    current_game_id: int | None
    variant: str


class GameColumns(NamedTuple):
    """The queryable copy of a game's state, written beside it (the listing reads only these)."""

    variant: str
    score: int
    moves: int
    max_tile: int
    won: bool
    over: bool


class Connection(Protocol):
    """The primitive operations, inside the transaction of ``Backend.read`` or ``Backend.write``."""

    def player(self, key: str) -> Player | None: ...

    def add_player(self, key: str, now: str) -> None:
        """Create the player unless one has this key (another process may have just done it)."""

    def current_game_id(self, player_id: int) -> int | None:
        """The player's current game; raises ``PlayerNotFoundError`` for an unknown player."""

    def game(self, player_id: int, game_id: int) -> GameRow | None:
        """The game if it exists and belongs to this player."""

    def state(self, game_id: int) -> tuple[str, list[str]]:
        """The game's state (``Game.to_dict(actions=False)`` as JSON) and its actions in order
        (``str`` of each: "left", "left@5")."""

    def insert_game(self, player_id: int, columns: GameColumns, state: str, now: str) -> int:
        """A new game row at revision 0, without its actions; returns its id."""

    def update_game(self, game_id: int, revision: int, columns: GameColumns, state: str, now: str) -> None:
        """Write the game's new state at ``revision``."""

    def append_actions(self, game_id: int, first_ply: int, actions: Sequence[Action]) -> None:
        """Log ``actions`` as plies ``first_ply``, ``first_ply + 1``, ... of the game."""

    def delete_action(self, game_id: int, ply: int) -> None: ...

    def set_current_game(self, player_id: int, game_id: int) -> None: ...

    def best_score(self, player_id: int, variant: str) -> int:
        """0 before any score in that variant."""

    def raise_best_score(self, player_id: int, variant: str, score: int) -> None:
        """Keep ``score`` if it beats the best so far."""

    def summaries(self, player_id: int, before: int, limit: int) -> list[GameSummary]:
        """The player's games with an id below ``before``, newest first."""

    def damaged_games(self, player_id: int) -> list[DamagedGame]: ...


class Backend(Protocol):
    #: Where the data lives, for messages (a file path for SQLite).
    location: str

    def read(self) -> AbstractContextManager[Connection]:
        """A connection for reading; database errors leave it as ``StoreError`` subclasses."""

    def write(self) -> AbstractContextManager[Connection]:
        """One transaction that holds the write lock from its start (so two writers never deadlock
        upgrading a read lock): committed when the block ends, rolled back if it raises."""

    def flush(self) -> None:
        """Make every commit so far durable, for a backend that defers that (group commit)."""

    def close(self) -> None: ...
