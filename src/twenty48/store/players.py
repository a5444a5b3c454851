"""Who a player is to others: a display name, hiding from the boards, and moving to another device.

A part of ``Store`` (``twenty48.store.games``)::

    store.profile(player_id)                          # Profile: name (None: anonymous), hidden
    store.set_name(player_id, "Ada")                  # NameRefused (twenty48.names), NameTakenError
    store.set_hidden(player_id, True)                 # the player's own entries leave the boards
    code = store.new_transfer(player_id)              # TransferCode: 15 minutes, used once
    player = store.claim_transfer(code.code, token)   # the cookie ``token`` is now that player
    store.find_player("Ada") / store.find_player("12")  # the host's: by name or id
    store.set_hidden(player_id, True, by_host=True)   # the host's hiding, which the player cannot undo
    store.players_overview()                          # what ``2048 admin players`` lists

A transfer code is 136 random bits, written in base 32 (A-Z, 2-7) in groups of four; only its
SHA-256 is stored. Making a new code ends the player's earlier ones. Times are Unix seconds;
``now`` is injectable so that expiry is tested without waiting.
"""

from __future__ import annotations

import base64
import hashlib
import re
import secrets
import time
from contextlib import AbstractContextManager
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from twenty48 import names
from twenty48.store.backend import Connection
from twenty48.store.errors import NameTakenError, PlayerNotFoundError, TransferCodeError
from twenty48.store.records import ID_LIMIT, Player, PlayerOverview, Profile, TransferCode

#: How long a transfer code works.
TRANSFER_SECONDS = 15 * 60
#: How long a used or expired code is remembered, to say why it no longer works.
REMEMBER_SECONDS = 24 * 3600
#: Random bytes of a code: 136 bits, 28 base-32 characters.
CODE_BYTES = 17
_CODE = re.compile(r"[A-Z2-7]{28}")


class PlayersStore:
    """Mixed into ``Store``, whose transactions it uses."""

    if TYPE_CHECKING:

        def _read(self) -> AbstractContextManager[Connection]: ...

        def _write(self) -> AbstractContextManager[Connection]: ...

    def profile(self, player_id: int) -> Profile:
        with self._read() as db:
            return _profile(db, player_id)

    def set_name(self, player_id: int, name: str | None) -> Profile:
        """Give the player a display name (checked by ``twenty48.names.check``), or take it away
        (None: anonymous again, off the boards). Raises ``NameTakenError`` for another player's."""
        checked = names.check(name) if name is not None else None
        with self._write() as db:
            _profile(db, player_id, lock=True)
            if checked is not None:
                owner = db.player_named(checked.key)
                if owner is not None and owner != player_id:
                    raise NameTakenError(f"the name {checked.text!r} is taken")
            db.set_name(player_id, *((checked.text, checked.key) if checked else (None, None)))
            db.refresh_board_shown(player_id)
            return _profile(db, player_id)

    def name_taken(self, name: str, player_id: int | None = None) -> bool:
        """Whether another player than ``player_id`` has this name (or its case-twin)."""
        with self._read() as db:
            owner = db.player_named(names.check(name).key)
        return owner is not None and owner != player_id

    def set_hidden(self, player_id: int, hidden: bool, *, by_host: bool = False) -> Profile:
        """Keep the player's entries off the boards (or bring them back); the host's choice
        (``by_host``) is kept apart from the player's own, which cannot undo it."""
        with self._write() as db:
            _profile(db, player_id, lock=True)
            db.set_hidden(player_id, hidden, by_host=by_host)
            db.refresh_board_shown(player_id)
            return _profile(db, player_id)

    def new_transfer(self, player_id: int, now: float | None = None) -> TransferCode:
        """A code that makes another device this player, for ``TRANSFER_SECONDS``, once."""
        now = time.time() if now is None else now
        code = base64.b32encode(secrets.token_bytes(CODE_BYTES)).decode().rstrip("=")
        with self._write() as db:
            _profile(db, player_id, lock=True)
            db.forget_transfer_codes(now - REMEMBER_SECONDS)
            db.end_transfer_codes(player_id, now)
            db.add_transfer_code(_hash(code), player_id, now + TRANSFER_SECONDS)
        return TransferCode("-".join(code[i : i + 4] for i in range(0, len(code), 4)), now + TRANSFER_SECONDS)

    def claim_transfer(self, code: str, token: str, now: float | None = None) -> Player:
        """Make the browser cookie ``token`` the player of ``code``; raises ``TransferCodeError``
        (``reason`` unknown, expired or used) and changes nothing for a code that does not work."""
        now = time.time() if now is None else now
        written = re.sub(r"[\s-]", "", code).upper()
        if not _CODE.fullmatch(written):
            raise TransferCodeError("unknown", "that is not a transfer code (28 letters A-Z and digits 2-7)")
        from twenty48.store.games import web_key

        with self._write() as db:
            found = db.transfer_code(_hash(written))
            if found is not None:
                # Read again under the player's lock: on PostgreSQL a claim of the same code in
                # another process may have used it since the first read.
                _profile(db, found[0], lock=True)
                found = db.transfer_code(_hash(written))
            if found is None:
                raise TransferCodeError("unknown", "no such transfer code")
            player_id, expires_at, used_at = found
            if used_at is not None:
                raise TransferCodeError("used", "this transfer code was used already; make a new one")
            if expires_at <= now:
                raise TransferCodeError("expired", "this transfer code has expired; make a new one")
            db.use_transfer_code(_hash(written), now)
            key = web_key(token)
            db.add_device(key, player_id, datetime.fromtimestamp(now, UTC).isoformat(timespec="milliseconds"))
            player = db.player(key)
        assert player is not None
        return player

    # ---- the host's -----------------------------------------------------------------------------

    def find_player(self, ref: str) -> Profile:
        """The player ``ref`` names: an id (digits), else a display name (any case). Raises
        ``PlayerNotFoundError``."""
        with self._read() as db:
            if ref.isascii() and ref.isdigit() and 0 < int(ref) <= ID_LIMIT:
                found = db.profile(int(ref))
                if found is not None:
                    return found
            try:
                owner = db.player_named(names.check(ref).key)
            except names.NameRefused:
                owner = None
            if owner is None:
                raise PlayerNotFoundError(f"no player has the id or name {ref!r}")
            return _profile(db, owner)

    def players_overview(self, *, named_only: bool = True) -> list[PlayerOverview]:
        """Every player (only the named ones with ``named_only``), by id."""
        with self._read() as db:
            return db.players_overview(named_only)


def _profile(db: Connection, player_id: int, *, lock: bool = False) -> Profile:
    if not 0 < player_id <= ID_LIMIT:
        raise PlayerNotFoundError(f"no player {player_id}")
    if lock:
        # Takes the player's write lock (its row on PostgreSQL), as every action of a player does.
        db.current_game_id(player_id)
    found = db.profile(player_id)
    if found is None:
        raise PlayerNotFoundError(f"no player {player_id}")
    return found


def _hash(code: str) -> str:
    return hashlib.sha256(code.encode()).hexdigest()
