"""``Players``: who a player is: the key of their cookie or of this machine's terminal, a display
name, hiding from the leaderboards, moving to another device, and the host's view of them::

    store.web_player(token) / store.local_player()   # get or create the player of a key
    store.profile(player_id)                          # Profile: name (None: anonymous), hidden
    store.set_name(player_id, "Ada")                  # NameRefusedError (twenty48.names), NameTakenError
    store.set_hidden(player_id, True)                 # the player's own entries leave the leaderboards
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
from datetime import UTC, datetime

from twenty48 import names
from twenty48.store.database import Connection
from twenty48.store.errors import NameTakenError, PlayerNotFoundError, TransferCodeError
from twenty48.store.games import sql as games_sql
from twenty48.store.games.rows import GameRows, now_text
from twenty48.store.leaderboards import sql as leaderboards_sql
from twenty48.store.players import sql as players_sql
from twenty48.store.records import ID_LIMIT, Player, PlayerOverview, Profile, TransferCode

#: The name of the player who plays on this machine's terminal.
TERMINAL_PLAYER = "terminal"

#: How long a transfer code works.
TRANSFER_SECONDS = 15 * 60
#: How long a used or expired code is remembered, to say why it no longer works.
REMEMBER_SECONDS = 24 * 3600
#: Random bytes of a code: 136 bits, 28 base-32 characters.
CODE_BYTES = 17
_CODE = re.compile(r"[A-Z2-7]{28}")


class Players:
    """The store's part for players; ``Store`` documents each operation."""

    def __init__(self, rows: GameRows) -> None:
        self._rows = rows

    def web_player(self, token: str) -> Player:
        return self._player(web_key(token))

    def find_web_player(self, token: str) -> Player | None:
        with self._rows.read() as db:
            return players_sql.player(db, web_key(token))

    def local_player(self, name: str) -> Player:
        if not name:
            raise ValueError("a local player name must not be empty")
        return self._player("local:" + name)

    def _player(self, key: str) -> Player:
        with self._rows.read() as db:
            found = players_sql.player(db, key)
        if found is not None:
            return found
        with self._rows.write() as db:
            players_sql.add_player(db, key, now_text())
            found = players_sql.player(db, key)
        assert found is not None
        return found

    def profile(self, player_id: int) -> Profile:
        with self._rows.read() as db:
            return _profile(db, player_id)

    def set_name(self, player_id: int, name: str | None) -> Profile:
        checked = names.check(name) if name is not None else None
        with self._rows.write() as db:
            _profile(db, player_id, lock=True)
            if checked is not None:
                owner = players_sql.player_named(db, checked.key)
                if owner is not None and owner != player_id:
                    raise NameTakenError(f"the name {checked.text!r} is taken")
            players_sql.set_name(db, player_id, *((checked.text, checked.key) if checked else (None, None)))
            leaderboards_sql.refresh_shown(db, player_id)
            return _profile(db, player_id)

    def name_taken(self, name: str, player_id: int | None) -> bool:
        with self._rows.read() as db:
            owner = players_sql.player_named(db, names.check(name).key)
        return owner is not None and owner != player_id

    def set_hidden(self, player_id: int, hidden: bool, *, by_host: bool) -> Profile:
        with self._rows.write() as db:
            _profile(db, player_id, lock=True)
            players_sql.set_hidden(db, player_id, hidden, by_host=by_host)
            leaderboards_sql.refresh_shown(db, player_id)
            return _profile(db, player_id)

    def new_transfer(self, player_id: int, now: float | None) -> TransferCode:
        now = time.time() if now is None else now
        code = base64.b32encode(secrets.token_bytes(CODE_BYTES)).decode().rstrip("=")
        with self._rows.write() as db:
            _profile(db, player_id, lock=True)
            players_sql.forget_transfer_codes(db, now - REMEMBER_SECONDS)
            players_sql.end_transfer_codes(db, player_id, now)
            players_sql.add_transfer_code(db, _hash(code), player_id, now + TRANSFER_SECONDS)
        return TransferCode("-".join(code[i : i + 4] for i in range(0, len(code), 4)), now + TRANSFER_SECONDS)

    def claim_transfer(self, code: str, token: str, now: float | None) -> Player:
        now = time.time() if now is None else now
        written = re.sub(r"[\s-]", "", code).upper()
        if not _CODE.fullmatch(written):
            raise TransferCodeError("unknown", "that is not a transfer code (28 letters A-Z and digits 2-7)")
        with self._rows.write() as db:
            found = players_sql.transfer_code(db, _hash(written))
            if found is not None:
                # Read again under the player's lock: on PostgreSQL a claim of the same code in
                # another process may have used it since the first read.
                _profile(db, found[0], lock=True)
                found = players_sql.transfer_code(db, _hash(written))
            if found is None:
                raise TransferCodeError("unknown", "no such transfer code")
            player_id, expires_at, used_at = found
            if used_at is not None:
                raise TransferCodeError("used", "this transfer code was used already; make a new one")
            if expires_at <= now:
                raise TransferCodeError("expired", "this transfer code has expired; make a new one")
            players_sql.use_transfer_code(db, _hash(written), now)
            key = web_key(token)
            when = datetime.fromtimestamp(now, UTC).isoformat(timespec="milliseconds")
            players_sql.add_device(db, key, player_id, when)
            player = players_sql.player(db, key)
        assert player is not None
        return player

    # ---- the host's -----------------------------------------------------------------------------

    def find_player(self, ref: str) -> Profile:
        with self._rows.read() as db:
            if ref.isascii() and ref.isdigit() and 0 < int(ref) <= ID_LIMIT:
                found = players_sql.profile(db, int(ref))
                if found is not None:
                    return found
            try:
                owner = players_sql.player_named(db, names.check(ref).key)
            except names.NameRefusedError:
                owner = None
            if owner is None:
                raise PlayerNotFoundError(f"no player has the id or name {ref!r}")
            return _profile(db, owner)

    def players_overview(self, *, named_only: bool) -> list[PlayerOverview]:
        with self._rows.read() as db:
            return players_sql.players_overview(db, named_only)


def web_key(token: str) -> str:
    """The player key of a browser cookie's token."""
    if not token:
        raise ValueError("a player token must not be empty")
    # Only a hash is stored, so reading the database does not let anyone take over a cookie.
    return "web:" + hashlib.sha256(token.encode()).hexdigest()


def _profile(db: Connection, player_id: int, *, lock: bool = False) -> Profile:
    if not 0 < player_id <= ID_LIMIT:
        raise PlayerNotFoundError(f"no player {player_id}")
    if lock:
        # Takes the player's write lock (its row on PostgreSQL), as every action of a player does.
        games_sql.current_game_of(db, player_id)
    found = players_sql.profile(db, player_id)
    if found is None:
        raise PlayerNotFoundError(f"no player {player_id}")
    return found


def _hash(code: str) -> str:
    return hashlib.sha256(code.encode()).hexdigest()
