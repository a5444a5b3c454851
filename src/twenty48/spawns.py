"""The deterministic spawn source: (game seed, spawn index) -> cell and value.

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
"""

from __future__ import annotations

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


def mix64(z: int) -> int:
    """SplitMix64's output function (variant 13 of Stafford's mixers)."""
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return z ^ (z >> 31)


def draw(seed: int, index: int) -> int:
    """The 64-bit random number behind spawn ``index`` of the game with ``seed``."""
    return mix64((seed + (index + 1) * GOLDEN_GAMMA) & MASK64)


def split_draw(seed: int, index: int, empty: Sequence[int]) -> tuple[int, int]:
    """(cell, hi): the empty cell spawn ``index`` lands on, and the 32 bits left to pick its value."""
    if not empty:
        raise ValueError("no empty cell to spawn on")
    h = draw(seed, index)
    return empty[((h & 0xFFFFFFFF) * len(empty)) >> 32], h >> 32


def spawn_choice(seed: int, index: int, empty: Sequence[int]) -> tuple[int, int]:
    """(cell, value) of spawn ``index``, placed on one of the ``empty`` cells (ascending)."""
    cell, hi = split_draw(seed, index, empty)
    return cell, 4 if (hi * 10) >> 32 == 0 else 2


def check_seed(seed: object) -> int:
    """A valid game seed is an integer in [0, 2**64)."""
    if not is_int(seed):
        raise ValueError(f"seed must be an integer, got {seed!r}")
    if not 0 <= seed < SEED_LIMIT:
        raise ValueError(f"seed must be between 0 and 2**64 - 1, got {seed}")
    return int(seed)


def random_seed() -> int:
    """A fresh seed for a game started without one, at most ``JSON_SAFE_SEED_MAX``."""
    return secrets.randbelow(JSON_SAFE_SEED_MAX + 1)
