"""The deterministic spawn sources: (game seed, spawn index) -> cell and value.

A game's seed names its spawn scheme. An integer seed is a SplitMix64 seed (every game but the
ranked ones, and the only scheme of the fast engine and the environment); 32 bytes are the key of
the keyed scheme of ranked browser games (below). Both give one 64-bit number per spawn index and
place it the same way.

A game's k-th spawn (k = 0 and 1 are the starting tiles, k = 2 + n follows the
n-th legal move of the current line of play) is drawn from one 64-bit number,
the k-th output of SplitMix64 (Steele, Lea & Flood, 2014) seeded with the game
seed:

    h = mix64(seed + (k + 1) * 0x9E3779B97F4A7C15  mod 2**64)

The low 32 bits pick the cell: ``empty[(lo * len(empty)) >> 32]`` with the
empty cells in ascending order. The high 32 bits pick the value: 4 when
``(hi * 10) >> 32 == 0`` (probability 0.1 to within 1e-10), else 2.

Only integer arithmetic modulo 2**64 is involved, so ``(seed, actions)``
replays identically on every platform and Python version; the bitboard engine
in ``twenty48.fast`` implements the same function and is tested against this
one. Because the index depends on the position in the line of play, undoing a
move and playing it again yields the same spawn: undo cannot re-roll a tile.

The keyed scheme (``"blake2b"``) draws the k-th number as keyed BLAKE2b of the index under the
game's 256-bit key::

    h = int.from_bytes(blake2b(k.to_bytes(8, "little"), key=key, digest_size=8), "little")

SplitMix64 is a bijection of its state, so enough observed spawns could in principle give its seed
back, and with it every later tile; a keyed cryptographic hash gives nothing about the key or the
next output however many are seen. A ranked game keeps its key secret until it ends.
"""

from __future__ import annotations

import hashlib
import re
import secrets
from collections.abc import Sequence

from twenty48.checks import is_int

MASK64 = (1 << 64) - 1
GOLDEN_GAMMA = 0x9E3779B97F4A7C15
SEED_LIMIT = 1 << 64
#: The largest seed a browser holds exactly: JavaScript numbers are doubles, exact only up to 2**53 - 1
#: (Number.MAX_SAFE_INTEGER). Random seeds stay within it, and the web API accepts no larger one.
JSON_SAFE_SEED_MAX = 2**53 - 1
#: Number of spawns that set up a new game.
STARTING_TILES = 2
#: The spawn schemes, by the name a game records: an ``int`` seed is SplitMix64's, ``bytes`` the key
#: of the keyed one.
SPLITMIX64 = "splitmix64"
KEYED = "blake2b"
SCHEMES = (SPLITMIX64, KEYED)
#: The keyed scheme's key: 256 bits.
KEY_BYTES = 32

#: A game's seed: a SplitMix64 seed, or the key of the keyed scheme.
Seed = int | bytes
_KEY_HEX = re.compile(f"[0-9a-f]{{{2 * KEY_BYTES}}}")


def mix64(z: int) -> int:
    """SplitMix64's output function (variant 13 of Stafford's mixers)."""
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return z ^ (z >> 31)


def draw(seed: Seed, index: int) -> int:
    """The 64-bit random number behind spawn ``index`` of the game with ``seed``."""
    if isinstance(seed, bytes):
        digest = hashlib.blake2b(index.to_bytes(8, "little"), key=seed, digest_size=8).digest()
        return int.from_bytes(digest, "little")
    return mix64((seed + (index + 1) * GOLDEN_GAMMA) & MASK64)


def split_draw(seed: Seed, index: int, empty: Sequence[int]) -> tuple[int, int]:
    """(cell, hi): the empty cell spawn ``index`` lands on, and the 32 bits left to pick its value."""
    if not empty:
        raise ValueError("no empty cell to spawn on")
    h = draw(seed, index)
    return empty[((h & 0xFFFFFFFF) * len(empty)) >> 32], h >> 32


def spawn_choice(seed: Seed, index: int, empty: Sequence[int]) -> tuple[int, int]:
    """(cell, value) of spawn ``index``, placed on one of the ``empty`` cells (ascending)."""
    cell, hi = split_draw(seed, index, empty)
    return cell, 4 if (hi * 10) >> 32 == 0 else 2


def check_seed(seed: object) -> Seed:
    """A valid game seed is an integer in [0, 2**64) or a key of ``KEY_BYTES`` bytes."""
    if isinstance(seed, bytes):
        if len(seed) != KEY_BYTES:
            raise ValueError(f"a spawn key is {KEY_BYTES} bytes, got {len(seed)}")
        return seed
    if not is_int(seed):
        raise ValueError(f"seed must be an integer, got {seed!r}")
    if not 0 <= seed < SEED_LIMIT:
        raise ValueError(f"seed must be between 0 and 2**64 - 1, got {seed}")
    return int(seed)


def random_seed() -> int:
    """A fresh seed for a game started without one, at most ``JSON_SAFE_SEED_MAX``."""
    return secrets.randbelow(JSON_SAFE_SEED_MAX + 1)


def random_key() -> bytes:
    """A fresh key for a game of the keyed scheme."""
    return secrets.token_bytes(KEY_BYTES)


def scheme(seed: Seed) -> str:
    """The name of the spawn scheme ``seed`` belongs to."""
    return KEYED if isinstance(seed, bytes) else SPLITMIX64


def seed_json(seed: Seed) -> int | str:
    """The seed as JSON holds it: the integer, or the key as 64 lower-case hex digits."""
    return seed.hex() if isinstance(seed, bytes) else seed


def seed_from_json(value: object, spawns: object) -> Seed:
    """The seed of a saved game or a file that names its scheme; raises ValueError."""
    if spawns == SPLITMIX64:
        return check_seed(value)
    if spawns != KEYED:
        raise ValueError(f"spawns must be one of {', '.join(SCHEMES)}, got {spawns!r}")
    if not isinstance(value, str) or not _KEY_HEX.fullmatch(value):
        raise ValueError(f"the seed of a {KEYED} game is its key: {2 * KEY_BYTES} lower-case hex digits")
    return bytes.fromhex(value)
