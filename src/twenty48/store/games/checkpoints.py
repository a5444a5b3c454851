"""What the store keeps beside each game's move log for its history: checkpoints and first reaches.

Both are written in the transaction of the move that makes them true and removed by the undo that
takes it back, so they always describe the game's current line:

- a **checkpoint** is the position after every ``CHECKPOINT_EVERY``-th move (board, score, win
  flags), so that ``positions`` replays at most ``CHECKPOINT_EVERY - 1`` moves before the first one
  asked for, however long the game;
- a **first reach** is the move at which each tile value (2, 4, ... up to the largest) was first on
  the board, 0 for the tiles of the start, for the statistics' first-reach figures.

Positions are computed by ``Game.play`` itself, from the checkpoint on: the rules stay in one place.
"""

from __future__ import annotations

from itertools import repeat
from typing import NamedTuple

from twenty48.game import Action, Game, Start, Turn
from twenty48.rules import BoardSize, Direction
from twenty48.spawns import Seed
from twenty48.store.database import SQL
from twenty48.store.games import sql as games_sql
from twenty48.store.games.codec import Origin
from twenty48.store.games.sql import Checkpoint
from twenty48.store.records import Position
from twenty48.variants import Variant

#: A checkpoint is stored after every this many moves.
CHECKPOINT_EVERY = 100


def reached(before: int, after: int) -> list[int]:
    """The tile values first reached when the largest tile goes from ``before`` to ``after``."""
    tiles = []
    tile = 2
    while tile <= after:
        if tile > before:
            tiles.append(tile)
        tile *= 2
    return tiles


class Index(NamedTuple):
    """A whole game's first reaches ((tile, move) pairs) and checkpoints."""

    reaches: list[tuple[int, int]]
    checkpoints: list[Checkpoint]


def note_game(db: SQL, game_id: int, game: Game) -> None:
    """Everything for a game stored whole (new, prepared, already played, imported)."""
    write_index(db, game_id, index(game))


def write_index(db: SQL, game_id: int, found: Index) -> None:
    games_sql.add_first_reaches(db, game_id, found.reaches)
    games_sql.add_checkpoints(db, game_id, found.checkpoints)


def index(game: Game) -> Index:
    """One replay of the game's line; pure, so an import can run it outside the store's lock."""
    replayed = start_game(game.seed, game.variant, game.start, game.size)
    found = Indexer(replayed)
    for action in game.actions:
        found.played(action)
    return found.index


class Indexer:
    """Builds a game's ``Index`` while it is replayed, one action at a time (an import checks each
    game with the same replay, so a game is replayed once, not twice)."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.index = Index([(tile, 0) for tile in reached(0, game.board.max_tile)], [])

    def played(self, action: Action) -> Turn:
        """Play ``action`` on the game and note what it made true."""
        game = self.game
        before = game.board.max_tile
        turn = game.play(action)
        if turn.changed:
            self.index.reaches.extend((tile, game.moves) for tile in reached(before, turn.board.max_tile))
            if game.moves % CHECKPOINT_EVERY == 0:
                self.index.checkpoints.append(_checkpoint(game.moves, game))
        return turn


def note_move(db: SQL, game_id: int, max_before: int, game: Game) -> None:
    """After a legal move of ``game`` whose largest tile was ``max_before``."""
    tiles = reached(max_before, game.board.max_tile)
    if tiles:
        games_sql.add_first_reaches(db, game_id, [(tile, game.moves) for tile in tiles])
    if game.moves % CHECKPOINT_EVERY == 0:
        games_sql.add_checkpoints(db, game_id, [_checkpoint(game.moves, game)])


def note_undo(db: SQL, game_id: int, game: Game) -> None:
    """After an undo: forget what the moves past the game's present one made true."""
    games_sql.forget_after(db, game_id, game.moves)


def start_game(seed: Seed, variant: Variant | str, start: Start | None, size: BoardSize) -> Game:
    """The game at move 0: from its seed's starting tiles on a board of ``size``, or from its
    prepared start (of that size)."""
    return Game.replay(seed, (), variant, start, size)


def positions(db: SQL, game_id: int, origin: Origin, first: int, last: int) -> list[Position]:
    """The positions after moves ``first`` .. ``last`` (both within the game's line) of the game
    that begins at ``origin``."""
    seed, variant, start, size = origin
    base = games_sql.checkpoint_before(db, game_id, first - 1, size) if first > 0 else None
    game = start_game(seed, variant, start, size) if base is None else _resume(seed, variant, start, base)
    done = 0 if base is None else base.move
    found = []
    if first == 0:
        found.append(Position(0, game.board, game.score, (), (), None))
        first = 1
    for move, action in enumerate(
        games_sql.actions_between(db, game_id, done, last - 1, size), start=done + 1
    ):
        turn = game.play(action)
        if move >= first:
            found.append(Position(move, turn.board, game.score, turn.slides, turn.merges, turn.spawn))
    return found


def _resume(seed: Seed, variant: Variant | str, start: Start | None, base: Checkpoint) -> Game:
    # A Game draws the spawn of its next move from how many moves it has logged, so the game resumed
    # at the checkpoint logs that many stand-in actions; it never leaves ``positions``, and only the
    # boards that its ``play`` computes do.
    return Game(
        seed=seed,
        board=base.board,
        score=base.score,
        won=base.won,
        keep_playing=base.keep_playing,
        actions=repeat(Direction.UP, base.move),
        variant=variant,
        start=start,
    )


def _checkpoint(move: int, game: Game) -> Checkpoint:
    return Checkpoint(move, game.board, game.score, game.won, game.keep_playing)
