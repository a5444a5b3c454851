"""``PlayService``: the play use cases, once, for every front end.

Starting a game (new, daily, ranked, of a variant and size, or one set up elsewhere), a move (the
whole board, or Merge 2048's single tile; auto-played or not), undo, keep going, a hint noted
(counted among the game's assists), and the first move of a visitor's *pending* game: the browser's
routes and the terminal's ``Session`` (so ``2048 play``) call these, over one ``Store``. No other
command starts or plays a stored game: ``2048 replay`` and ``2048 bench`` play games that are never
stored, and ``2048 import`` stores a file's games through ``Store.import_games``. Each action is
played once, by the store, in its transaction: a front end that shows the game it plays (the
terminal) takes the played game back from that transaction (``move(..., game_copy=True)``) instead
of playing the move on its own copy too.

A *pending* game (``twenty48.web.pending``) is a new visitor's first game, shown before anything is
stored. Whether a request on it stores anything is decided by asking that game, never by playing a
copy of it: a move it would not change (``Game.is_legal``), a revision other than 0, an undo or a
keep-going it refuses (``Game.check_undo``, ``Game.check_keep_going``) store nothing and are answered
with the pending game as it stands (``pending_refusal``, ``check_pending_undo``,
``check_pending_keep_going``). A move that changes it is stored with the game in one transaction
(``move_pending``): the game is stored and the move played once.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from twenty48.game import Game, IllegalActionError, make_action
from twenty48.rules import DEFAULT_SIZE, Direction, SizeLike
from twenty48.store import GameRecord, MoveOutcome, StaleRevisionError, Store, refusal
from twenty48.variants import CLASSIC

#: The id a pending game is shown under; no stored game has it (ids start at 1).
PENDING_GAME = 0


class PlayService:
    """The play use cases over ``store``: the one way a front end starts and plays games."""

    def __init__(self, store: Store) -> None:
        self.store = store

    # ---- starting -------------------------------------------------------------------------------

    def current_game(self, player_id: int, *, ranked: bool = False) -> GameRecord:
        """The player's current game, started now (4x4 classic; ``ranked`` as in ``new_game``) if
        the player has none."""
        return self.store.current_game(player_id, ranked=ranked)

    def new_game(
        self,
        player_id: int,
        seed: int | None = None,
        variant: str = CLASSIC.name,
        *,
        size: SizeLike = DEFAULT_SIZE,
        ranked: bool = False,
        daily: str | None = None,
    ) -> GameRecord:
        """Start a game that becomes the player's current one (``Store.new_game``); with ``daily``
        (a UTC date) start or resume that day's challenge instead (``Store.daily_game``: classic
        4x4 from the day's key, so ``seed``, ``variant``, ``size`` and ``ranked`` are not asked)."""
        if daily is not None:
            return self.store.daily_game(player_id, daily)
        return self.store.new_game(player_id, seed, variant, size=size, ranked=ranked)

    def add_game(self, player_id: int, game: Game) -> GameRecord:
        """Store a game set up elsewhere as the player's current game; the store keeps its own copy."""
        return self.store.add_game(player_id, game)

    def load_game(self, player_id: int, game_id: int) -> Game:
        """The stored game as a ``Game`` the caller may play on."""
        return self.store.load_game(player_id, game_id)

    # ---- playing --------------------------------------------------------------------------------

    def move(
        self,
        player_id: int,
        game_id: int,
        direction: Direction | str,
        *,
        cell: int | None = None,
        revision: int | None = None,
        auto: bool = False,
        today: str | None = None,
        game_copy: bool = False,
    ) -> MoveOutcome:
        """Play a move, committed before this returns (``Store.move``); ``game_copy``: the outcome
        carries the played game as the caller's own copy."""
        return self.store.move(
            player_id,
            game_id,
            direction,
            cell=cell,
            revision=revision,
            auto=auto,
            today=today,
            game_copy=game_copy,
        )

    def undo(
        self, player_id: int, game_id: int, *, revision: int | None = None, today: str | None = None
    ) -> GameRecord:
        """Take back the last move (counted among the game's assists)."""
        return self.store.undo(player_id, game_id, revision=revision, today=today)

    def keep_going(
        self, player_id: int, game_id: int, *, revision: int | None = None, today: str | None = None
    ) -> GameRecord:
        """Dismiss the win and play on."""
        return self.store.keep_going(player_id, game_id, revision=revision, today=today)

    def note_hint(
        self,
        player_id: int,
        game_id: int,
        revision: int | None = None,
        *,
        auto: bool = False,
        today: str | None = None,
    ) -> GameRecord:
        """Count a hint asked on the game at ``revision`` (once per position; ``auto``: auto-play's,
        counted as the move it then plays) and return the game as the hint sees it."""
        return self.store.note_hint(player_id, game_id, revision, auto=auto, today=today)

    # ---- a visitor's pending game ---------------------------------------------------------------

    def adopt_pending(self, player_id: int, pending: Game) -> GameRecord:
        """The stored copy of the pending game, stored now if the player never had a game
        (``Store.adopt_pending``): for an action that is counted before it is played (a hint)."""
        return self.store.adopt_pending(player_id, pending)

    def move_pending(
        self,
        player_id: int,
        pending: Game,
        direction: Direction | str,
        *,
        cell: int | None = None,
        revision: int | None = None,
        auto: bool = False,
        today: str | None = None,
    ) -> MoveOutcome:
        """A move on the pending game, stored with the game in one transaction and played once
        (``Store.move_pending``). Ask ``pending_refusal`` first: it answers the moves that must
        store nothing."""
        return self.store.move_pending(
            player_id, pending, direction, cell=cell, revision=revision, auto=auto, today=today
        )


def pending_refusal(
    pending: Game, revision: int, direction: Direction | str, cell: int | None = None
) -> MoveOutcome | None:
    """The answer to a move on a pending game that stores nothing, decided by asking the game:
    an illegal move's unchanged outcome. None when the move changes the board (``move_pending``
    stores it). Raises ``StaleRevisionError`` for a revision other than 0, the store's refusal of
    an action the game refuses (a single-tile move on a classic game), both carrying the pending
    game, and ValueError for a cell off its board."""
    _check_revision(pending, revision)
    action = make_action(direction, cell, pending.size)
    with _refusals(pending):
        if pending.is_legal(action):
            return None
    return MoveOutcome(pending.unchanged_turn(action), pending_record(pending))


def check_pending_undo(pending: Game, revision: int) -> None:
    """Raise what an undo of the pending game raises (it has no move to undo), storing nothing."""
    _check_revision(pending, revision)
    with _refusals(pending):
        pending.check_undo()


def check_pending_keep_going(pending: Game, revision: int) -> None:
    """Raise what keeping going on the pending game raises (it is not won), storing nothing."""
    _check_revision(pending, revision)
    with _refusals(pending):
        pending.check_keep_going()


def _check_revision(pending: Game, revision: int) -> None:
    if revision != 0:
        raise StaleRevisionError(f"the game is at revision 0, not {revision}", pending_record(pending))


@contextmanager
def _refusals(pending: Game) -> Iterator[None]:
    """The pending game's refusal as the store's error carrying the pending game, as for a stored game."""
    try:
        yield
    except IllegalActionError as exc:
        raise refusal(exc, pending_record(pending)) from exc


def pending_record(game: Game) -> GameRecord:
    """The pending game as the API shows a game: id 0, revision 0, ranked, its seed withheld."""
    return GameRecord(
        id=PENDING_GAME,
        player_id=0,
        revision=0,
        current=True,
        seed=None,
        variant=game.variant.name,
        board=game.board,
        score=game.score,
        moves=game.moves,
        won=game.won,
        keep_playing=game.keep_playing,
        over=game.over,
        can_undo=game.can_undo,
        best_score=0,
        created_at="",
        updated_at="",
        spawns=game.spawns,
        ranked=True,
        daily=None,
        finished_at=None,
        flagged=None,
    )
