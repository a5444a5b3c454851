"""The game's rule policies: classic (the official game, the default) and "Merge 2048"
(docs/rules.md §3).

A ``Variant`` is the small set of decisions where the two games differ; ``Game`` takes one and
everything else (sliding, merging, scoring, winning, game over) is shared from ``rules``:

* **classic** — new tiles are 2 (p = 0.9) or 4 (p = 0.1); only whole-board moves.
* **merge** — new tiles follow the *stage* of the largest tile on the board, and a swipe that
  starts on a tile may move only that tile (``Board.move_tile``); keys and buttons still move the
  whole board.

Stage-based spawns (the seed document gives no formula, so this is ours). The stage is
``min(4, max(0, log2(largest tile) - 7))``: it starts at 0 and rises by one each time the largest
tile reaches 256, 512, 1024 and 2048. At stage ``s`` the new tile is one of the ``s + 2`` values
2, 4, ..., 2**(s+2), each a third as likely as the next smaller one (weights 3**(s+1), ..., 3, 1):

    largest tile   new tile: 2      4      8      16     32     64
    below 256             75.0%  25.0%
    256                   69.2%  23.1%   7.7%
    512                   67.5%  22.5%   7.5%   2.5%
    1024                  66.9%  22.3%   7.4%   2.5%   0.8%
    2048 and up           66.8%  22.3%   7.4%   2.5%   0.8%   0.3%

The draw is ``spawns.draw(seed, index)`` as in classic: its low 32 bits pick the empty cell the
same way, its high 32 bits ``hi`` pick the value: ``j = (hi * total) >> 32`` and the value is the
first whose cumulative weight (largest value first) exceeds ``j``. Integer arithmetic only, so a
merge game replays exactly too.
"""

from __future__ import annotations

from dataclasses import dataclass

from twenty48 import spawns
from twenty48.rules import Board

MAX_STAGE = 4
FIRST_STAGE_TILE = 256


@dataclass(frozen=True, slots=True)
class Variant:
    name: str
    title: str
    #: Whether a swipe may move a single tile (``Game.move(direction, cell=...)``).
    tile_moves: bool
    #: Whether new tiles depend on the stage of the largest tile (else classic 2/4 odds).
    staged_spawns: bool

    def spawn(self, seed: spawns.Seed, index: int, board: Board) -> tuple[int, int]:
        """(cell, value) of spawn ``index`` of a game with ``seed`` on ``board``."""
        empty = board.empty_cells()
        if not self.staged_spawns:
            return spawns.spawn_choice(seed, index, empty)
        cell, hi = spawns.split_draw(seed, index, empty)
        weights = stage_weights(stage(board.max_tile))
        j = (hi * sum(weights)) >> 32
        # Largest value first, so the common small values take the top of the range.
        for exponent in range(len(weights), 0, -1):
            weight = weights[exponent - 1]
            if j < weight:
                return cell, 1 << exponent
            j -= weight
        raise AssertionError("unreachable: j < sum(weights)")


def stage(max_tile: int) -> int:
    """0 until the largest tile reaches 256, then one more per doubling, up to 4 (at 2048)."""
    if max_tile < FIRST_STAGE_TILE:
        return 0
    return min(MAX_STAGE, max_tile.bit_length() - FIRST_STAGE_TILE.bit_length() + 1)


def stage_weights(s: int) -> tuple[int, ...]:
    """Integer weights of the values 2, 4, ..., 2**(s+2) at stage ``s``."""
    count = s + 2
    return tuple(3 ** (count - 1 - i) for i in range(count))


CLASSIC = Variant("classic", "Classic", tile_moves=False, staged_spawns=False)
MERGE = Variant("merge", "Merge 2048", tile_moves=True, staged_spawns=True)
VARIANTS: dict[str, Variant] = {v.name: v for v in (CLASSIC, MERGE)}


def get_variant(name: str | Variant) -> Variant:
    if isinstance(name, Variant):
        return name
    try:
        return VARIANTS[name]
    except (KeyError, TypeError):
        raise ValueError(f"unknown variant {name!r} (choose {', '.join(VARIANTS)})") from None
