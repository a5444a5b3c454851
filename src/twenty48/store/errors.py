"""Every exception the store raises, and the one translation of a Game's refusals into them.

::

    StoreError                 the database failed: busy past the timeout, disk full, read-only file
    ├── StoreUnreadableError   not a twenty48 database, corrupt, or written by a newer version
    │   ├── ForeignDatabaseError   another program's file, a directory, not SQLite at all
    │   └── NewerDatabaseError     a twenty48 database from a newer version of the program
    ├── PlayerNotFoundError    no such player (also a LookupError)
    ├── GameNotFoundError      no such game for this player (also a LookupError)
    ├── NameTakenError         another player has this display name (or its case-twin)
    ├── TransferCodeError      a transfer code that does not work; ``reason``: unknown, expired, used
    ├── ImportRefusedError     a game or history file that does not replay as recorded (also a
    │                          ValueError; defined in ``transfer``, which checks files before any store)
    └── GameConflictError      the action does not fit the game's present state; ``game`` is that
        │                      state, unchanged
        ├── StaleRevisionError     the caller's revision is not the game's current one
        ├── GameFinishedError      the game is over or was replaced by a newer one
        ├── ActionRejectedError    the Game refused the action (nothing to undo, no win to keep
        │                          going from, a single-tile move on a classic game)
        └── GameInProgressError    replay data only for finished games; a ranked game's review too

``set_name`` also raises ``twenty48.names.NameRefusedError`` (a ValueError, not a StoreError) for a name
the name rules refuse: those rules are checked before the database is asked, by the web too.

A refusal is decided once, by the ``Game`` (``twenty48.game.IllegalActionError`` and its subclasses);
``refusal`` is the only place that turns one into a store error. The store itself decides only what
the Game cannot know: revisions, a game replaced by a newer one, replay of an unfinished game.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from twenty48.game import GameOverError, IllegalActionError

if TYPE_CHECKING:
    from twenty48.store.records import GameRecord


class StoreError(Exception):
    """Base class of every error raised by the store."""


class StoreUnreadableError(StoreError):
    """The database file is corrupt, not a twenty48 database, unreadable, or from a newer version."""


class ForeignDatabaseError(StoreUnreadableError):
    """The path holds something that is not a twenty48 database (another program's SQLite file, a
    file that is not SQLite, a directory): nothing is wrong with it, it is simply not ours."""


class NewerDatabaseError(StoreUnreadableError):
    """A twenty48 database written by a newer version: upgrading twenty48 opens it."""


class PlayerNotFoundError(StoreError, LookupError):
    """No player has this id."""


class GameNotFoundError(StoreError, LookupError):
    """No such game for this player (it does not exist or belongs to someone else)."""


class NameTakenError(StoreError):
    """Another player has this display name, or one that differs from it only in case."""


class TransferCodeError(StoreError):
    """A transfer code that does not work; ``reason`` is "unknown", "expired" or "used"."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason


class GameConflictError(StoreError):
    """The action does not fit the game's present state; ``game`` is that state, unchanged."""

    def __init__(self, message: str, game: GameRecord) -> None:
        super().__init__(message)
        #: The game as it is now, unchanged by the refused action.
        self.game = game


class StaleRevisionError(GameConflictError):
    """The caller's revision is not the game's current one: someone else acted first."""


class GameFinishedError(GameConflictError):
    """The game is over or was replaced by a newer game: no more actions."""


class ActionRejectedError(GameConflictError):
    """The action is not possible in this position (nothing to undo, keep going without a win)."""


class GameInProgressError(GameConflictError):
    """Replay data exists only for finished games; a ranked game that may still be played is
    neither exported nor reviewed (either would help it on)."""


def refusal(exc: IllegalActionError, record: GameRecord) -> GameConflictError:
    """The store error for a refusal the Game decided, carrying the unchanged ``record``."""
    kind = GameFinishedError if isinstance(exc, GameOverError) else ActionRejectedError
    return kind(str(exc), record)
