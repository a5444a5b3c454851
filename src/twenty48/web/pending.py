"""A new visitor's first game, which the server shows without storing anything until its first move.

A request without a stored player (a first visit, a script, another page's ``no-cors`` GET) gets a
game but creates neither a player nor a game: ``GET /api/game`` answers the *pending game*, id
``PENDING_GAME`` (0, ``twenty48.play_service``), derived from the visitor's cookie token under the
server's ``pending`` secret. The same cookie shows the same board on every reload, and the key
behind its spawns is a keyed hash the visitor cannot compute without the secret, so it stays a
ranked game. A move that would not change it stores nothing (the game is asked, not played:
``play_service.pending_refusal``); its first move that changes the board stores the player, then
the game and the move in one transaction (``PlayService.move_pending``), the move played once.
From then on id 0 names that stored game for as long as it is the player's current one (a tab that
still shows it reaches it), and every answer carries its real id.
"""

from __future__ import annotations

import hashlib

from twenty48.game import Game

#: The server secret (``Store.server_secret``) pending games' keys are derived from.
PENDING_SECRET = "pending"


def pending_game(secret: bytes, token: str) -> Game:
    """The pending game of the visitor whose cookie holds ``token``: always the same one."""
    key = hashlib.blake2b(f"pending:{token}".encode(), key=secret, digest_size=32).digest()
    return Game.new(key)
