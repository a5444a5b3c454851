"""The official 2048 rules as pure functions on an immutable board.

This module is the specification in code (docs/rules.md §1): every other part of the
package either calls it or is tested against it. It is written to be read
first and to be fast enough for the server second.

Cells are numbered 0-15 row-major: cell ``4 * row + column``, row 0 on top.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache

from twenty48.checks import is_int

SIZE = 4
CELLS = SIZE * SIZE
WINNING_TILE = 2048
#: The largest tile a 4x4 board can ever hold: 2**17.
MAX_TILE = 131072
TILE_VALUES = frozenset(2**k for k in range(1, 18))
#: The most points a game can still score from any board: a merge scores the tile it makes, so every
#: unit of tile value scores once per merge it takes part in, at most 16 times (2 -> 131072); a board
#: holds at most 16 * 131072 of value. 16 * 16 * 131072 = 2**25.
MAX_GAIN = CELLS * (MAX_TILE.bit_length() - 2) * MAX_TILE
#: The largest score a game may start from (a prepared board's): every score is kept in a signed
#: 64-bit integer (the store's columns, the environments' kernels), which must hold every point the
#: game can still add.
MAX_START_SCORE = 2**63 - 1 - MAX_GAIN


class Direction(StrEnum):
    """A move. ``Direction("left")`` parses; any other string raises ValueError.

    The definition order (up, down, left, right) is the action order used by
    the bitboard engine and the reinforcement-learning environment.
    """

    UP = "up"
    DOWN = "down"
    LEFT = "left"
    RIGHT = "right"

    @property
    def index(self) -> int:
        return _DIRECTION_INDEX[self]

    @classmethod
    def from_index(cls, index: int) -> Direction:
        return _DIRECTIONS[index]

    def __str__(self) -> str:
        return self.value


_DIRECTIONS = tuple(Direction)
_DIRECTION_INDEX = {d: i for i, d in enumerate(_DIRECTIONS)}


def _lines(direction: Direction) -> tuple[tuple[int, ...], ...]:
    """The four lines of cells for a move, each ordered from the edge the tiles move toward."""
    rows = [[SIZE * r + c for c in range(SIZE)] for r in range(SIZE)]
    cols = [[SIZE * r + c for r in range(SIZE)] for c in range(SIZE)]
    lines = {
        Direction.LEFT: rows,
        Direction.RIGHT: [line[::-1] for line in rows],
        Direction.UP: cols,
        Direction.DOWN: [line[::-1] for line in cols],
    }[direction]
    return tuple(tuple(line) for line in lines)


LINES: dict[Direction, tuple[tuple[int, ...], ...]] = {d: _lines(d) for d in Direction}


@dataclass(frozen=True, slots=True)
class LineMove:
    """One line after a move: values from the leading edge, where each tile went, what merged."""

    values: tuple[int, ...]
    #: (source position, destination position) for every tile, positions counted from the edge.
    slides: tuple[tuple[int, int], ...]
    #: destination positions where two tiles fused.
    merges: tuple[int, ...]
    score: int


def two_largest(board: Board) -> bool:
    """Whether ``board`` holds two 131072 tiles: no game reaches such a board (building the second
    needs the room the first takes), and ``slide_line`` refuses to merge them."""
    return board.cells.count(MAX_TILE) > 1


def unreachable(board: Board) -> str | None:
    """Why no game reaches ``board``, or None: every game holds a tile from its start on (a
    prepared one too), and never two 131072 tiles (``two_largest``)."""
    if not any(board.cells):
        return "it holds no tile (a game always holds one)"
    if two_largest(board):
        return f"it holds two {MAX_TILE} tiles (building the second takes the room the first holds)"
    return None


def slide_line(values: Sequence[int]) -> LineMove:
    """Slide one line toward position 0 and merge, following the three merge rules.

    Walking from the leading edge, each tile either fuses with the last placed
    tile (if equal and that tile has not merged yet this move) or takes the next
    free position. This resolves pairs from the edge the tiles move toward and
    lets a tile merge at most once; only tiles that meet along the line merge.
    Raises ValueError for two 131072 tiles meeting, which no game can produce.
    """
    out: list[int] = []
    merged: list[bool] = []
    slides: list[tuple[int, int]] = []
    merges: list[int] = []
    score = 0
    for src, value in enumerate(values):
        if not value:
            continue
        if out and out[-1] == value and not merged[-1]:
            if value == MAX_TILE:
                # Unreachable in play (a 4x4 board never holds two 131072s); refuse, don't invent 262144.
                raise ValueError(f"two {MAX_TILE} tiles cannot merge: no board in play holds both")
            out[-1] = value * 2
            merged[-1] = True
            dst = len(out) - 1
            merges.append(dst)
            score += value * 2
        else:
            out.append(value)
            merged.append(False)
            dst = len(out) - 1
        slides.append((src, dst))
    out.extend([0] * (len(values) - len(out)))
    return LineMove(tuple(out), tuple(slides), tuple(merges), score)


# Lines repeat constantly in play; memoising them makes the server's moves several times cheaper.
@lru_cache(maxsize=1 << 16)
def _line_move(
    line: tuple[int, ...], values: tuple[int, ...]
) -> tuple[LineMove, tuple[tuple[int, int], ...], tuple[int, ...]]:
    """``slide_line`` of one line of a board, with its slides and merges already as board cells:
    mapping line positions to cells on every move was a third of ``Board.move``'s cost, which a
    replay (``Store.positions``) pays for every move it shows."""
    moved = slide_line(values)
    return moved, tuple((line[a], line[b]) for a, b in moved.slides), tuple(line[m] for m in moved.merges)


@dataclass(frozen=True, slots=True)
class MoveResult:
    """The outcome of applying a direction to a board (before any spawn)."""

    board: Board
    #: Points gained: the sum of the values of the tiles the merges created.
    score: int
    #: Whether the move is legal, i.e. some tile moved or merged.
    changed: bool
    #: (source cell, destination cell) for every tile of the old board, in source-cell order;
    #: source == destination for a tile that stayed.
    slides: tuple[tuple[int, int], ...]
    #: Cells holding a tile that was created by a merge, ascending.
    merges: tuple[int, ...]


def _check_value(value: object, where: str) -> int:
    # numpy integers are welcome (environments build boards from arrays); bools are not numbers here.
    if not is_int(value):
        raise ValueError(f"{where}: tile value must be an integer, got {value!r}")
    number = int(value)
    if number != 0 and number not in TILE_VALUES:
        raise ValueError(
            f"{where}: tile value must be 0 (empty) or a power of two from 2 to {MAX_TILE}, got {number}"
        )
    return number


@dataclass(frozen=True, slots=True)
class Board:
    """An immutable, hashable 4x4 board. ``cells`` holds 16 values row-major, 0 for empty."""

    cells: tuple[int, ...]

    def __post_init__(self) -> None:
        cells = self.cells
        if not isinstance(cells, tuple) or len(cells) != CELLS:
            raise ValueError(f"a board has exactly {CELLS} cells")
        checked = tuple(
            _check_value(value, f"cell {i} (row {i // SIZE}, column {i % SIZE})")
            for i, value in enumerate(cells)
        )
        object.__setattr__(self, "cells", checked)

    @classmethod
    def _trusted(cls, cells: tuple[int, ...]) -> Board:
        """Build a board from cells this module computed itself, skipping validation."""
        board = object.__new__(cls)
        object.__setattr__(board, "cells", cells)
        return board

    @classmethod
    def empty(cls) -> Board:
        return cls._trusted((0,) * CELLS)

    @classmethod
    def from_rows(cls, rows: Iterable[Iterable[int]]) -> Board:
        """A board from 4 rows of 4 values (0 or powers of two from 2 to 131072)."""
        if isinstance(rows, (str, bytes)):
            raise ValueError("a board is 4 rows of 4 tile values")
        try:
            grid = [list(row) for row in rows]
        except TypeError:
            raise ValueError("a board is 4 rows of 4 tile values") from None
        if len(grid) != SIZE or any(len(row) != SIZE for row in grid):
            shape = [len(row) for row in grid]
            raise ValueError(f"a board is 4 rows of 4 tile values, got rows of lengths {shape}")
        return cls._trusted(
            tuple(
                _check_value(value, f"row {r}, column {c}")
                for r, row in enumerate(grid)
                for c, value in enumerate(row)
            )
        )

    @classmethod
    def from_cells(cls, cells: Iterable[int]) -> Board:
        """A board from 16 values in row-major order."""
        if isinstance(cells, (str, bytes)):
            raise ValueError(f"a board has exactly {CELLS} cells")
        try:
            return cls(tuple(cells))
        except TypeError:
            raise ValueError(f"a board has exactly {CELLS} cells") from None

    @classmethod
    def parse(cls, text: str) -> Board:
        """Parse ``"2 2 0 0/0 4 0 0/0 0 0 0/0 0 0 2"``: rows split by '/', cells by spaces or commas;
        '.' or '0' marks an empty cell."""
        rows = [row.replace(",", " ").split() for row in text.strip().split("/")]
        parsed: list[list[int]] = []
        for r, row in enumerate(rows):
            values = []
            for c, token in enumerate(row):
                if token == ".":
                    values.append(0)
                    continue
                try:
                    values.append(int(token))
                except ValueError:
                    raise ValueError(f"row {r}, column {c}: {token!r} is not a tile value") from None
            parsed.append(values)
        return cls.from_rows(parsed)

    @property
    def rows(self) -> tuple[tuple[int, ...], ...]:
        c = self.cells
        return tuple(c[SIZE * r : SIZE * r + SIZE] for r in range(SIZE))

    @property
    def max_tile(self) -> int:
        return max(self.cells)

    @property
    def tile_sum(self) -> int:
        return sum(self.cells)

    def empty_cells(self) -> tuple[int, ...]:
        """Indices of the empty cells, ascending."""
        return tuple(i for i, v in enumerate(self.cells) if not v)

    def with_tile(self, cell: int, value: int) -> Board:
        """The board with a tile placed on an empty cell."""
        if not 0 <= cell < CELLS:
            raise ValueError(f"cell must be 0-{CELLS - 1}, got {cell}")
        if self.cells[cell]:
            raise ValueError(f"cell {cell} is not empty")
        _check_value(value, f"cell {cell}")
        cells = list(self.cells)
        cells[cell] = value
        return Board._trusted(tuple(cells))

    def move(self, direction: Direction) -> MoveResult:
        """Slide every tile toward ``direction`` and merge; no tile is spawned here."""
        direction = Direction(direction)
        old = self.cells
        new = [0] * CELLS
        slides: list[tuple[int, int]] = []
        merges: list[int] = []
        score = 0
        for line in LINES[direction]:
            a, b, c, d = line
            moved, line_slides, line_merges = _line_move(line, (old[a], old[b], old[c], old[d]))
            new[a], new[b], new[c], new[d] = moved.values
            slides += line_slides
            merges += line_merges
            score += moved.score
        cells = tuple(new)
        slides.sort()
        merges.sort()
        return MoveResult(
            board=Board._trusted(cells),
            score=score,
            changed=cells != old,
            slides=tuple(slides),
            merges=tuple(merges),
        )

    def move_tile(self, cell: int, direction: Direction) -> MoveResult:
        """Slide only the tile on ``cell`` toward ``direction`` (the "Merge 2048" swipe, docs/rules.md §3).

        The tile slides until the edge or another tile; if that tile has the same value the two
        fuse into it (on the other tile's cell) as in a whole-board move. Every other tile stays.
        An empty cell or a tile that cannot move gives an unchanged board (an illegal move).
        """
        direction = Direction(direction)
        if not 0 <= cell < CELLS:
            raise ValueError(f"cell must be 0-{CELLS - 1}, got {cell}")
        old = self.cells
        value = old[cell]
        stay = tuple((i, i) for i, v in enumerate(old) if v)
        if not value:
            return MoveResult(self, 0, False, stay, ())
        line = next(line for line in LINES[direction] if cell in line)
        ahead = line.index(cell) - 1
        while ahead >= 0 and not old[line[ahead]]:
            ahead -= 1
        new = list(old)
        new[cell] = 0
        merges: tuple[int, ...] = ()
        score = 0
        if ahead >= 0 and old[line[ahead]] == value:
            if value == MAX_TILE:
                raise ValueError(f"two {MAX_TILE} tiles cannot merge: no board in play holds both")
            dst = line[ahead]
            new[dst] = score = value * 2
            merges = (dst,)
        else:
            dst = line[ahead + 1]
            new[dst] = value
        if dst == cell:
            return MoveResult(self, 0, False, stay, ())
        slides = tuple((i, dst if i == cell else i) for i, _ in stay)
        return MoveResult(Board._trusted(tuple(new)), score, True, slides, merges)

    def can_move(self, direction: Direction) -> bool:
        """Whether ``direction`` is legal: some tile can slide into a gap or meet an equal tile."""
        c = self.cells
        for line in LINES[Direction(direction)]:
            for a, b in itertools.pairwise(line):
                # Tiles move toward position 0 of the line: a tile behind a gap or an equal tile moves.
                if c[b] and (not c[a] or c[a] == c[b]):
                    return True
        return False

    def legal_moves(self) -> tuple[Direction, ...]:
        """The legal directions, in Direction order."""
        return tuple(d for d in Direction if self.can_move(d))

    def is_over(self) -> bool:
        """No legal move: every cell full and no two orthogonal neighbours equal."""
        c = self.cells
        if 0 in c:
            return False
        for i in range(CELLS):
            if i % SIZE < SIZE - 1 and c[i] == c[i + 1]:
                return False
            if i < CELLS - SIZE and c[i] == c[i + SIZE]:
                return False
        return True

    def __str__(self) -> str:
        width = max(len(str(v)) for v in self.cells)
        return "\n".join(" ".join((str(v) if v else ".").rjust(width) for v in row) for row in self.rows)
