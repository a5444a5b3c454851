"""``Games``: a game's life in the store: new, move, undo, keep going, hints asked, and the game as
it stands, replayed or position by position.

The rules of an action live here and in ``rows`` (the game-row internals every part shares), and
nowhere else: load the game (from the cache while its revision is current), check the caller's
revision and that the game is not finished, let the ``Game`` apply the action (its refusal becomes
the store's error in ``errors.refusal``), write the state and the action log, raise the best
score. The statements are ``games.sql``'s.
"""

from __future__ import annotations

from twenty48 import spawns
from twenty48.game import Game, make_action
from twenty48.rules import DEFAULT_SIZE, BoardSize, Direction, SizeLike
from twenty48.store.database import Connection
from twenty48.store.errors import GameInProgressError, StoreUnreadableError
from twenty48.store.games import checkpoints, codec
from twenty48.store.games import sql as games_sql
from twenty48.store.games.rows import GameRows, log_actions, owned
from twenty48.store.games.sql import GameRow
from twenty48.store.records import DamagedGame, GameRecord, MoveOutcome, Positions, Replay
from twenty48.variants import CLASSIC, get_variant

#: The most positions one ``positions`` call returns.
MAX_POSITIONS = 1000


class Games:
    """The store's part for playing; ``Store`` documents each operation."""

    def __init__(self, rows: GameRows) -> None:
        self._rows = rows

    def best_score(self, player_id: int, variant: str, size: SizeLike) -> int:
        name, shape = get_variant(variant).name, str(BoardSize.of(size))
        with self._rows.read() as db:
            games_sql.current_game_of(db, player_id)
            return games_sql.best_score(db, player_id, name, shape)

    def damaged_games(self, player_id: int) -> list[DamagedGame]:
        with self._rows.read() as db:
            games_sql.current_game_of(db, player_id)
            return games_sql.damaged_games(db, player_id)

    def current_game(self, player_id: int, *, ranked: bool = False) -> GameRecord:
        rows = self._rows
        with rows.read() as db:
            current = games_sql.current_game_of(db, player_id)
        if current is not None:
            return self.get_game(player_id, current)
        with rows.write() as db:
            # Another process may have started one since the read above.
            current = games_sql.current_game_of(db, player_id)
            if current is None:
                game = new(None, CLASSIC.name, ranked, DEFAULT_SIZE)
                current = rows.insert(db, player_id, game, ranked=ranked)
            return rows.record(db, player_id, current)

    def new_game(
        self, player_id: int, seed: int | None, variant: str, size: SizeLike, *, ranked: bool
    ) -> GameRecord:
        if ranked and seed is not None:
            raise ValueError("a game from a chosen seed is practice: it is never ranked")
        game = new(seed, variant, ranked, size)
        rows = self._rows
        with rows.write() as db:
            current = games_sql.current_game_of(db, player_id)
            if current is not None:
                try:
                    row, old = rows.load(db, player_id, current)
                except StoreUnreadableError:
                    pass  # a damaged current game is left as it is, beside the new one
                else:
                    # A daily game keeps its row: its date's key must never start a second game.
                    if codec.unplayed(old) and row.daily is None:
                        return rows.as_record(db, rows.restart(db, row, game, ranked, None), game)
            return rows.record(db, player_id, rows.insert(db, player_id, game, ranked=ranked))

    def add_game(self, player_id: int, game: Game) -> GameRecord:
        # The store keeps its own copy.
        copy = Game.from_dict(game.to_dict())
        with self._rows.write() as db:
            games_sql.current_game_of(db, player_id)
            return self._rows.record(db, player_id, self._rows.insert(db, player_id, copy))

    def get_game(self, player_id: int, game_id: int) -> GameRecord:
        with self._rows.read() as db:
            return self._rows.record(db, player_id, game_id)

    def load_game(self, player_id: int, game_id: int) -> Game:
        with self._rows.read() as db:
            _, game = self._rows.load(db, player_id, game_id)
            return Game.from_dict(game.to_dict())

    def move(
        self,
        player_id: int,
        game_id: int,
        direction: Direction | str,
        *,
        cell: int | None,
        revision: int | None,
        auto: bool,
        today: str | None,
        game_copy: bool,
    ) -> MoveOutcome:
        make_action(direction)  # an unknown direction is refused before the game is read
        # An auto-played move reads whether its hint was counted: it cannot be guessed.
        with self._rows.act(player_id, game_id, revision, guessable=not auto) as (db, row, game):
            return self.play(db, row, game, direction, cell, auto=auto, today=today, game_copy=game_copy)

    def play(
        self,
        db: Connection,
        row: GameRow,
        game: Game,
        direction: Direction | str,
        cell: int | None,
        *,
        auto: bool,
        today: str | None,
        game_copy: bool,
    ) -> MoveOutcome:
        """Play a move on a game ``load_for_action`` gave, in the caller's transaction: the one
        place a stored game is moved (``move``, and a pending game's first move in ``ranking``)."""
        rows = self._rows
        # A cell is one of the game's board: 0-15 on the 4x4, 0-35 on the 6x6.
        action = make_action(direction, cell, game.size)
        max_before = game.board.max_tile
        with rows.refusals(db, row, game):
            turn = game.play(action)
        if turn.changed:
            log_actions(db, row.id, game, game.moves - 1)
            checkpoints.note_move(db, row.id, max_before, game)
            row = rows.close_day(db, row, today)
            if auto and games_sql.hint_revision(db, row.id, auto=True) != row.revision:
                row = rows.assisted(db, row, auto_moves=1)
            row = rows.save(db, row, game)
        # Copied under the lock: once it is released the cached game is another caller's to play.
        return MoveOutcome(turn, rows.as_record(db, row, game), game.copy() if game_copy else None)

    def undo(self, player_id: int, game_id: int, *, revision: int | None, today: str | None) -> GameRecord:
        rows = self._rows
        with rows.write() as db:
            row, game = rows.load_for_action(db, player_id, game_id, revision)
            with rows.refusals(db, row, game):
                game.undo()
            games_sql.delete_action(db, row.id, game.moves)
            checkpoints.note_undo(db, row.id, game)
            row = rows.assisted(db, rows.close_day(db, row, today), undos=1)
            return rows.as_record(db, rows.save(db, row, game), game)

    def keep_going(
        self, player_id: int, game_id: int, *, revision: int | None, today: str | None
    ) -> GameRecord:
        rows = self._rows
        with rows.write() as db:
            row, game = rows.load_for_action(db, player_id, game_id, revision)
            if not game.keep_playing:
                with rows.refusals(db, row, game):
                    game.keep_going()
                row = rows.save(db, rows.close_day(db, row, today), game)
            return rows.as_record(db, row, game)

    def note_hint(
        self, player_id: int, game_id: int, revision: int | None, *, auto: bool, today: str | None
    ) -> GameRecord:
        rows = self._rows
        with rows.write() as db:
            row, game = rows.load_for_action(db, player_id, game_id, revision)
            if games_sql.hint_revision(db, game_id, auto=auto) != row.revision:
                rows.close_day(db, row, today)
                games_sql.add_assists(db, game_id, **{"auto_moves" if auto else "hints": 1})
                games_sql.set_hint_revision(db, game_id, row.revision, auto=auto)
                row = row._replace(ranked=False)
            return rows.as_record(db, row, game)

    def replay(self, player_id: int, game_id: int) -> Replay:
        with self._rows.read() as db:
            row, game = self._rows.load(db, player_id, game_id)
            record = self._rows.as_record(db, row, game)
            if not record.finished:
                raise GameInProgressError(
                    "the game is still in progress; replay data is given for finished games", record
                )
            if record.secret:
                raise GameInProgressError(
                    "the daily game can still be resumed: its replay is given once it is over", record
                )
            return Replay(
                game_id=game_id,
                seed=game.seed,
                variant=game.variant.name,
                actions=game.actions,
                score=game.score,
                max_tile=game.board.max_tile,
                won=game.won,
                over=game.over,
                start=game.start,
                size=game.size,
            )

    def positions(self, player_id: int, game_id: int, first: int, count: int) -> Positions:
        if first < 0:
            raise ValueError("first must not be negative")
        if not 1 <= count <= MAX_POSITIONS:
            raise ValueError(f"count must be 1-{MAX_POSITIONS}")
        with self._rows.read() as db:
            owned(db, player_id, game_id)
            state, moves = games_sql.header(db, game_id)
            last = min(first + count - 1, moves)
            found = []
            if first <= last:
                found = checkpoints.positions(db, game_id, codec.origin(state), first, last)
            return Positions(game_id, moves + 1, tuple(found))


def new(seed: int | None, variant: str, ranked: bool, size: SizeLike) -> Game:
    """A new game on a board of ``size``; a ranked one draws its spawns from a fresh secret key."""
    return Game.new(spawns.random_key() if ranked else seed, variant, size)
