"""A new visitor's first game, which the server shows without storing anything until its first move.

A request without a stored player (a first visit, a script, another page's ``no-cors`` GET) gets a
game but creates neither a player nor a game: ``GET /api/game`` answers the *pending game*, id
``PENDING_GAME`` (0), derived from the visitor's cookie token under the server's ``pending``
secret. The same cookie shows the same board on every reload, and the key behind its spawns is a
keyed hash the visitor cannot compute without the secret, so it stays a ranked game. Its first move
that changes the board stores the player and the game (``Store.adopt_pending``) and plays the move;
from then on id 0 names that stored game for as long as it is the player's current one (a tab that
still shows it reaches it), and every answer carries its real id.
"""

from __future__ import annotations

import hashlib

from twenty48.game import Game
from twenty48.store import GameRecord

#: The id a pending game is shown under; no stored game has it (ids start at 1).
PENDING_GAME = 0
#: The server secret (``Store.server_secret``) pending games' keys are derived from.
PENDING_SECRET = "pending"


def pending_game(secret: bytes, token: str) -> Game:
    """The pending game of the visitor whose cookie holds ``token``: always the same one."""
    key = hashlib.blake2b(f"pending:{token}".encode(), key=secret, digest_size=32).digest()
    return Game.new(key)


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
