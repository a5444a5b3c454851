"""The terminal player's game and where it is saved.

A ``Session`` holds the game on screen as a ``Game`` and, when a store is attached, plays every
action through the play use cases (``twenty48.play_service``) over the shared ``Store`` (the one the
browser game uses) before the screen shows it. A move is played once: by the store, in its
transaction, and the session takes the played game back from it (``game_copy``); the local game
only decides beforehand whether the move changes anything (``Game.is_legal``), so that an illegal
move touches no file. Undo and keep going run no rules (a snapshot popped, a flag set): the local
game checks them, the store commits them on its copy, and the local game then does the same.
Passing the store revision the session last saw makes every write conditional, so a second
terminal playing the same game is noticed instead of overwritten.

If the store fails mid-game (disk full, database locked for too long) the game goes on unsaved and
says so, as the spec asks: losing the save must never lose the game on screen. A move whose
transaction failed is then played on the local game, once, and kept.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from twenty48.game import Game, IllegalActionError, Turn
from twenty48.play_service import PlayService
from twenty48.rules import DEFAULT_SIZE, BoardSize, Direction
from twenty48.store import (
    GameFinishedError,
    GameRecord,
    MoveOutcome,
    StaleRevisionError,
    Store,
    StoreError,
)
from twenty48.variants import CLASSIC


class ChangedElsewhereError(Exception):
    """The stored game changed in another window; the session has reloaded it."""


@dataclass(slots=True)
class _Saved:
    play: PlayService
    player_id: int
    game_id: int
    revision: int


#: One call of the play use cases on the saved game: the game's record after it, or a move's outcome.
_Action = Callable[[_Saved], GameRecord | MoveOutcome]


class Session:
    """One player's current game, saved after every action when a store is attached."""

    def __init__(
        self, game: Game, *, saved: _Saved | None = None, best: int = 0, best_before: int = 0
    ) -> None:
        self.game = game
        self._saved = saved
        self._best = best
        #: The best score of the game's variant and size before this game (see ``best_before``).
        self._best_before = best_before
        #: Why saving stopped, until the screen has told the player (see ``take_save_error``).
        self._save_error: str | None = None

    # ---- opening --------------------------------------------------------------------------------

    @classmethod
    def unsaved(
        cls,
        game: Game | None = None,
        seed: int | None = None,
        variant: str | None = None,
        size: BoardSize | None = None,
    ) -> Session:
        """A session that saves nothing, on ``game`` or else a new game from ``seed``, of ``variant``
        (classic unless given) and on a board of ``size`` (4x4 unless given), as ``resume`` would
        start it."""
        if game is None:
            game = Game.new(seed, variant or CLASSIC.name, size or DEFAULT_SIZE)
        return cls(game)

    @classmethod
    def resume(
        cls,
        store: Store,
        game: Game | None = None,
        seed: int | None = None,
        variant: str | None = None,
        size: BoardSize | None = None,
    ) -> Session:
        """The terminal player's game from ``store``: ``game``, or a new game from ``seed``, of
        ``variant`` and/or of ``size`` when any is given (it becomes the current game), otherwise the
        saved one (a new classic 4x4 one on the first run)."""
        play = PlayService(store)
        player = store.local_player()
        if game is not None:
            record = play.add_game(player.id, game)
        elif seed is not None or variant is not None or size is not None:
            record = play.new_game(player.id, seed, variant or CLASSIC.name, size=size or DEFAULT_SIZE)
        else:
            record = play.current_game(player.id)
        game = play.load_game(record.player_id, record.id)
        saved = _Saved(play, record.player_id, record.id, record.revision)
        return cls(game, saved=saved, best=record.best_score, best_before=_best_before(store, record))

    # ---- state ----------------------------------------------------------------------------------

    @property
    def saving(self) -> bool:
        return self._saved is not None

    @property
    def best(self) -> int:
        """The best score the player ever reached in this game's variant and size, this game included."""
        return max(self._best, self.game.score)

    @property
    def best_before(self) -> int:
        """The best score in this game's variant and size before this game: only a score above it is
        a new best (a game that equals it is not)."""
        return self._best_before

    def take_save_error(self) -> str | None:
        """Why the last action could not be saved (the session then plays on unsaved), once."""
        error, self._save_error = self._save_error, None
        return error

    @property
    def in_progress(self) -> bool:
        """A game with moves played that is not over: leaving it deserves a question."""
        return self.game.moves > 0 and not self.game.over

    # ---- actions --------------------------------------------------------------------------------

    def move(self, direction: Direction, *, auto: bool = False) -> Turn:
        """Play ``direction`` (``auto``: the solver chose it, counted among the game's auto-played
        moves). A move the game refuses (``turn.changed`` is False) touches no file.

        Raises ``ChangedElsewhereError`` when another window changed the stored game: nothing is played and
        the session now holds the stored game."""
        if not self.game.is_legal(direction):
            return self.game.unchanged_turn(direction)
        outcome = self._write(
            lambda s: s.play.move(
                s.player_id, s.game_id, direction, revision=s.revision, auto=auto, game_copy=True
            )
        )
        if isinstance(outcome, MoveOutcome) and outcome.game_copy is not None:
            # The store played it: its copy of the played game is the one shown from now on.
            self.game = outcome.game_copy
            return outcome.turn
        # Unsaved, or saving stopped at this move: it is played here, once, and kept.
        return self.game.move(direction)

    def note_hint(self) -> None:
        """Count a hint asked on the position now (once per position), as the browser's are: the
        statistics tell assisted games apart wherever they were played. Raises ``ChangedElsewhereError``
        as a move does."""
        self._write(lambda s: s.play.note_hint(s.player_id, s.game_id, s.revision))

    def undo(self) -> bool:
        """Take back the last move; False when the game refuses (nothing to undo, or the game is over)."""
        try:
            self.game.check_undo()
        except IllegalActionError:
            return False
        self._write(lambda s: s.play.undo(s.player_id, s.game_id, revision=s.revision))
        # Committed (or saving stopped, and the game goes on unsaved): taken back here too.
        self.game.undo()
        return True

    def keep_going(self) -> None:
        """Dismiss the win and play on (again changes nothing). Raises ``NotWonError`` without a win."""
        self.game.check_keep_going()
        self._write(lambda s: s.play.keep_going(s.player_id, s.game_id, revision=s.revision))
        self.game.keep_going()

    def new_game(self, seed: int | None = None) -> None:
        """Start a new game of the same variant on a board of the same size; it replaces this one as
        the player's current game."""
        self._best = self._best_before = self.best
        game = Game.new(seed, self.game.variant, self.game.size)
        saved = self._saved
        if saved is not None:
            try:
                record = saved.play.add_game(saved.player_id, game)
            except StoreError as exc:
                self._stop_saving(exc)
            else:
                saved.game_id, saved.revision = record.id, record.revision
        self.game = game

    def _write(self, action: _Action) -> GameRecord | MoveOutcome | None:
        """Commit an action in the store, and answer what it did; None when nothing is saved (an
        unsaved session, or a store failure just now: saving stops but not the game, which the
        caller then plays on unsaved, so that no move is ever lost). When another window changed
        the stored game, that game replaces the local one and ``ChangedElsewhereError`` is raised."""
        saved = self._saved
        if saved is None:
            return None
        try:
            try:
                done = action(saved)
            except (StaleRevisionError, GameFinishedError) as exc:
                # Another window played this game or started a newer one: show what is stored.
                record = saved.play.current_game(saved.player_id)
                self.game = saved.play.load_game(saved.player_id, record.id)
                saved.game_id, saved.revision = record.id, record.revision
                # The store's best for that game's variant (the other window may have changed it).
                self._best = record.best_score
                self._best_before = _best_before(saved.play.store, record)
                raise ChangedElsewhereError(str(exc)) from exc
        except StoreError as exc:
            self._stop_saving(exc)
            return None
        record = done.game if isinstance(done, MoveOutcome) else done
        saved.revision = record.revision
        self._best = max(self._best, record.best_score)
        return done

    def _stop_saving(self, error: StoreError) -> None:
        self._saved = None
        self._save_error = str(error)


def _best_before(store: Store, record: GameRecord) -> int:
    """The player's best in the variant and on the board size of ``record`` before that game: the
    stored best, unless the game itself holds it, then the best of the player's other games of that
    variant and size (read best first, a page at a time: the list filters by variant, not by size)."""
    if record.score < record.best_score:
        return record.best_score
    before = None
    while True:
        page = store.games(
            record.player_id, sort="score", variant=record.variant, limit=_RIVALS_PAGE, before=before
        )
        for rival in page:
            if rival.id != record.id and rival.size == record.board.size:
                return rival.score
        if len(page) < _RIVALS_PAGE:
            return 0
        before = page[-1].id


#: Games read per page while looking for the best rival of a game (``_best_before``).
_RIVALS_PAGE = 50
