"""The official 2048 rules as pure functions on an immutable board.

This module is the specification in code (docs/rules.md §1): every other part of the
package either calls it or is tested against it. It is written to be read
first and to be fast enough for the server second.

A board is R rows by C columns (``BoardSize``, R and C each from 2 to 6; 4x4 is the official
game and the default everywhere). Every rule holds unchanged on every size: a line is a row of C
cells or a column of R cells. Cells are numbered row-major: cell ``C * row + column``, row 0 on
top (0-15 on the 4x4).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from functools import lru_cache

from twenty48.checks import is_int

#: The default (official) board's side, cells, win tile, largest tile and tile values; a board of
#: another size has its own, on its ``BoardSize``.
SIZE = 4
CELLS = SIZE * SIZE
WINNING_TILE = 2048
#: The largest tile a 4x4 board can ever hold: 2**17.
MAX_TILE = 131072
TILE_VALUES = frozenset(2**k for k in range(1, 18))
#: The sides a board may have: R rows and C columns, each from 2 to 6.
MIN_SIDE = 2
MAX_SIDE = 6
#: Boards of at least this many cells are won with 2048, as the 4x4 is.
WIN_2048_CELLS = 16
#: The win tile of each smaller board, by its (shorter side, longer side): the largest tile the
#: solver at its default setting reached in at least 90 % of its games there (docs/rules.md, "Board
#: sizes", gives the measured rates). 2048 is out of reach on most of them.
SMALL_WIN_TILES: dict[tuple[int, int], int] = {
    (2, 2): 16,
    (2, 3): 32,
    (2, 4): 128,
    (2, 5): 256,
    (2, 6): 512,
    (3, 3): 256,
    (3, 4): 1024,
    (3, 5): 2048,
}


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


@dataclass(frozen=True, slots=True)
class LineMove:
    """One line after a move: values from the leading edge, where each tile went, what merged."""

    values: tuple[int, ...]
    #: (source position, destination position) for every tile, positions counted from the edge.
    slides: tuple[tuple[int, int], ...]
    #: destination positions where two tiles fused.
    merges: tuple[int, ...]
    score: int


def slide_line(values: Sequence[int], largest: int = MAX_TILE) -> LineMove:
    """Slide one line toward position 0 and merge, following the three merge rules.

    Walking from the leading edge, each tile either fuses with the last placed
    tile (if equal and that tile has not merged yet this move) or takes the next
    free position. This resolves pairs from the edge the tiles move toward and
    lets a tile merge at most once; only tiles that meet along the line merge.
    Raises ValueError for two ``largest`` tiles meeting (the board's largest tile, 131072 on the
    4x4), which no game can produce.
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
            if value == largest:
                # Unreachable in play (no board holds two of its largest tile); refuse, don't invent
                # a tile the board cannot hold.
                raise ValueError(f"two {largest} tiles cannot merge: no board in play holds both")
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


def _line_mover(largest: int) -> Callable[[tuple[int, ...], tuple[int, ...]], _LineMoved]:
    """``slide_line`` of one line of a board whose largest tile is ``largest``, with its slides and
    merges already as board cells: mapping line positions to cells on every move was a third of
    ``Board.move``'s cost, which a replay (``Store.positions``) pays for every move it shows. Each
    size has its own, memoised: lines repeat constantly in play, and memoising them makes the
    server's moves several times cheaper."""

    @lru_cache(maxsize=1 << 16 if largest == MAX_TILE else 1 << 14)
    def line_move(line: tuple[int, ...], values: tuple[int, ...]) -> _LineMoved:
        moved = slide_line(values, largest)
        return moved, tuple((line[a], line[b]) for a, b in moved.slides), tuple(line[m] for m in moved.merges)

    return line_move


#: A line moved by ``_line_mover``: the ``LineMove``, its slides and its merges as board cells.
_LineMoved = tuple["LineMove", tuple[tuple[int, int], ...], tuple[int, ...]]


def _lines(rows: int, cols: int, direction: Direction) -> tuple[tuple[int, ...], ...]:
    """The lines of cells for a move on a board of ``rows`` x ``cols``, each ordered from the edge the
    tiles move toward: a row of ``cols`` cells for left and right, a column of ``rows`` for up and down."""
    by_row = [[cols * r + c for c in range(cols)] for r in range(rows)]
    by_col = [[cols * r + c for r in range(rows)] for c in range(cols)]
    lines = {
        Direction.LEFT: by_row,
        Direction.RIGHT: [line[::-1] for line in by_row],
        Direction.UP: by_col,
        Direction.DOWN: [line[::-1] for line in by_col],
    }[direction]
    return tuple(tuple(line) for line in lines)


def _cells_slice(line: tuple[int, ...]) -> slice:
    """The slice of a row-major cell sequence that reads ``line`` in order (its cells are evenly
    spaced), so that a move reads and writes a whole line at once."""
    step = line[1] - line[0]
    stop = line[-1] + step
    return slice(line[0], stop if stop >= 0 else None, step)


def _size_error(got: object) -> ValueError:
    return ValueError(
        f"a board size is R rows by C columns, written RxC (rows first, e.g. 3x4), with R and C each "
        f"from {MIN_SIDE} to {MAX_SIDE}; got {got}"
    )


@dataclass(frozen=True, slots=True, order=True)
class BoardSize:
    """A board's shape: ``rows`` x ``cols``, each from 2 to 6, written ``"RxC"`` rows first
    (``str(BoardSize(3, 4)) == "3x4"``, 3 rows of 4). Everything that follows from the shape is
    here: its cells, its largest tile (2**(R*C + 1), exactly), its win tile and its lines."""

    rows: int
    cols: int
    #: R * C.
    cells: int = field(init=False, compare=False, repr=False)
    #: The largest tile the board can ever hold, 2**(cells + 1): it is built on a board holding one
    #: each of 2**cells down to 4 and a spawned 4, which fills every cell; a larger one would need
    #: one more.
    max_tile: int = field(init=False, compare=False, repr=False)
    #: Every tile value the board can hold: 2, 4, ..., ``max_tile``.
    tile_values: frozenset[int] = field(init=False, compare=False, repr=False)
    #: The cells of every line of a move, per direction, ordered from the edge moved toward.
    lines: dict[Direction, tuple[tuple[int, ...], ...]] = field(init=False, compare=False, repr=False)
    #: ``lines`` with the slice of the row-major cells that reads each line.
    #: Per direction, each line with the slice of the row-major cells that reads it.
    _line_slices: dict[Direction, tuple[tuple[tuple[int, ...], slice], ...]] = field(
        init=False, compare=False, repr=False
    )
    #: This size's ``_line_mover``.
    _line_move: Callable[[tuple[int, ...], tuple[int, ...]], _LineMoved] = field(
        init=False, compare=False, repr=False
    )

    def __post_init__(self) -> None:
        rows, cols = self.rows, self.cols
        if not (
            is_int(rows) and is_int(cols) and MIN_SIDE <= rows <= MAX_SIDE and MIN_SIDE <= cols <= MAX_SIDE
        ):
            raise _size_error(f"{rows!r} rows by {cols!r} columns")
        rows, cols = int(rows), int(cols)
        cells = rows * cols
        lines = {d: _lines(rows, cols, d) for d in Direction}
        for name, value in (
            ("rows", rows),
            ("cols", cols),
            ("cells", cells),
            ("max_tile", 1 << (cells + 1)),
            ("tile_values", frozenset(1 << k for k in range(1, cells + 2))),
            ("lines", lines),
            ("_line_slices", {d: tuple((line, _cells_slice(line)) for line in lines[d]) for d in Direction}),
            ("_line_move", _line_mover(1 << (cells + 1))),
        ):
            object.__setattr__(self, name, value)

    @classmethod
    def parse(cls, text: str) -> BoardSize:
        """``"3x4"`` (or ``"3X4"``): 3 rows of 4 cells. ValueError naming the range."""
        if not isinstance(text, str):
            raise _size_error(repr(text))
        rows, sep, cols = text.strip().lower().partition("x")
        if not (sep and rows.isdigit() and cols.isdigit() and rows.isascii() and cols.isascii()):
            raise _size_error(repr(text))
        try:
            return _sized(int(rows), int(cols))
        except ValueError:
            raise _size_error(repr(text)) from None

    @classmethod
    def of(cls, size: SizeLike) -> BoardSize:
        """A size from a ``BoardSize``, its text ``"RxC"`` or a ``(rows, cols)`` pair."""
        if isinstance(size, BoardSize):
            return size
        if isinstance(size, str):
            return cls.parse(size)
        if isinstance(size, (tuple, list)) and len(size) == 2:
            return _sized(*size)
        raise _size_error(repr(size))

    @property
    def max_gain(self) -> int:
        """The most points a game can still score from any board of this size: a merge scores the
        tile it makes, so every unit of tile value scores once per merge it takes part in, at most
        ``cells`` times (2 -> ``max_tile``), and a board holds at most ``cells * max_tile`` of value."""
        return self.cells * self.cells * self.max_tile

    @property
    def win_tile(self) -> int:
        """The tile whose first creation wins the game: 2048 on boards of 16 cells or more, a
        smaller tile on a smaller board, chosen from the solver's reach rates (docs/rules.md)."""
        if self.cells >= WIN_2048_CELLS:
            return WINNING_TILE
        return SMALL_WIN_TILES[min(self.rows, self.cols), max(self.rows, self.cols)]

    def __str__(self) -> str:
        return f"{self.rows}x{self.cols}"

    def __reduce__(self) -> tuple[Callable[[int, int], BoardSize], tuple[int, int]]:
        # Pickled as its shape (its line cache is a closure): ``2048 bench --jobs`` sends sizes to
        # other processes.
        return _sized, (self.rows, self.cols)


#: What every ``size`` argument takes: a ``BoardSize``, ``"RxC"`` or ``(rows, cols)``.
SizeLike = BoardSize | str | tuple[int, int]


@lru_cache(maxsize=64, typed=True)
def _sized(rows: int, cols: int) -> BoardSize:
    # One BoardSize per shape: building one computes all its lines, and boards compare sizes often.
    # Typed, so that 4.0 or True is not taken for the 4 or 1 already cached.
    return BoardSize(rows, cols)


#: The official 4x4 board, the default everywhere.
DEFAULT_SIZE = _sized(SIZE, SIZE)
#: The sizes the front ends offer to start a game on (any size in range can be played).
OFFERED_SIZES = tuple(_sized(r, c) for r, c in ((2, 4), (3, 3), (3, 4), (4, 4), (5, 5), (6, 6)))
#: The 4x4's lines per direction.
LINES: dict[Direction, tuple[tuple[int, ...], ...]] = DEFAULT_SIZE.lines
#: The most points a game can still score from any board of any size (the 6x6's ``max_gain``,
#: 36 * 36 * 2**37; the 4x4's is 2**25).
MAX_GAIN = _sized(MAX_SIDE, MAX_SIDE).max_gain
#: The largest score a game may start from (a prepared board's): every score is kept in a signed
#: 64-bit integer (the store's columns, the environments' kernels), which must hold every point the
#: game can still add.
MAX_START_SCORE = 2**63 - 1 - MAX_GAIN


def two_largest(board: Board) -> bool:
    """Whether ``board`` holds two of its size's largest tile (131072 on the 4x4): no game reaches
    such a board (building the second needs the room the first takes), and ``slide_line`` refuses
    to merge them."""
    return board.cells.count(board.size.max_tile) > 1


def unreachable(board: Board) -> str | None:
    """Why no game reaches ``board``, or None: every game holds a tile from its start on (a
    prepared one too), and never two of its size's largest tile (``two_largest``)."""
    if not any(board.cells):
        return "it holds no tile (a game always holds one)"
    if two_largest(board):
        largest = board.size.max_tile
        return f"it holds two {largest} tiles (building the second takes the room the first holds)"
    return None


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


def _check_value(value: object, where: str, size: BoardSize) -> int:
    # numpy integers are welcome (environments build boards from arrays); bools are not numbers here.
    if not is_int(value):
        raise ValueError(f"{where}: tile value must be an integer, got {value!r}")
    number = int(value)
    if number != 0 and number not in size.tile_values:
        raise ValueError(
            f"{where}: tile value must be 0 (empty) or a power of two from 2 to {size.max_tile}"
            f"{'' if size == DEFAULT_SIZE else f' (on a {size} board)'}, got {number}"
        )
    return number


def _grid_error(got: str) -> ValueError:
    return ValueError(
        f"a board is R rows of C tile values, every row as long, with R and C each from {MIN_SIDE} to "
        f"{MAX_SIDE} (4 rows of 4 for the official game), got {got}"
    )


@dataclass(frozen=True, slots=True)
class Board:
    """An immutable, hashable board: ``cells`` holds its values row-major, 0 for empty, and ``size``
    its shape (4x4 unless told otherwise). Two boards are equal when both are."""

    cells: tuple[int, ...]
    size: BoardSize = DEFAULT_SIZE

    def __post_init__(self) -> None:
        cells, size = self.cells, self.size
        if not isinstance(size, BoardSize):
            raise ValueError(f"size must be a BoardSize, got {type(size).__name__}")
        if not isinstance(cells, tuple) or len(cells) != size.cells:
            raise ValueError(f"a {size} board has exactly {size.cells} cells")
        cols = size.cols
        checked = tuple(
            _check_value(value, f"cell {i} (row {i // cols}, column {i % cols})", size)
            for i, value in enumerate(cells)
        )
        object.__setattr__(self, "cells", checked)

    @classmethod
    def _trusted(cls, cells: tuple[int, ...], size: BoardSize) -> Board:
        """Build a board from cells this module computed itself, skipping validation."""
        board = object.__new__(cls)
        _set_cells(board, cells)
        _set_size(board, size)
        return board

    @classmethod
    def empty(cls, size: SizeLike = DEFAULT_SIZE) -> Board:
        size = BoardSize.of(size)
        return cls._trusted((0,) * size.cells, size)

    @classmethod
    def from_rows(cls, rows: Iterable[Iterable[int]]) -> Board:
        """A board from R rows of C values each (0 or powers of two from 2 to the size's largest
        tile), R and C each from 2 to 6: the rows give the size."""
        if isinstance(rows, (str, bytes)):
            raise _grid_error("a string")
        try:
            grid = [list(row) for row in rows]
        except TypeError:
            raise _grid_error(f"a {type(rows).__name__}") from None
        lengths = [len(row) for row in grid]
        if (
            len(set(lengths)) != 1
            or not MIN_SIDE <= len(grid) <= MAX_SIDE
            or not MIN_SIDE <= lengths[0] <= MAX_SIDE
        ):
            raise _grid_error(f"rows of lengths {lengths}")
        size = _sized(len(grid), lengths[0])
        return cls._trusted(
            tuple(
                _check_value(value, f"row {r}, column {c}", size)
                for r, row in enumerate(grid)
                for c, value in enumerate(row)
            ),
            size,
        )

    @classmethod
    def from_cells(cls, cells: Iterable[int], size: SizeLike = DEFAULT_SIZE) -> Board:
        """A board of ``size`` (4x4 unless told) from its values in row-major order."""
        size = BoardSize.of(size)
        if isinstance(cells, (str, bytes)):
            raise ValueError(f"a {size} board has exactly {size.cells} cells")
        try:
            return cls(tuple(cells), size)
        except TypeError:
            raise ValueError(f"a {size} board has exactly {size.cells} cells") from None

    @classmethod
    def parse(cls, text: str) -> Board:
        """Parse ``"2 2 0 0/0 4 0 0/0 0 0 0/0 0 0 2"``: rows split by '/', cells by spaces or commas;
        '.' or '0' marks an empty cell. Any size: the rows give it."""
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
        cols = self.size.cols
        return tuple(c[start : start + cols] for start in range(0, len(c), cols))

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
        size = self.size
        if not 0 <= cell < size.cells:
            raise ValueError(f"cell must be 0-{size.cells - 1}, got {cell}")
        if self.cells[cell]:
            raise ValueError(f"cell {cell} is not empty")
        _check_value(value, f"cell {cell}", size)
        cells = list(self.cells)
        cells[cell] = value
        return Board._trusted(tuple(cells), size)

    def move(self, direction: Direction) -> MoveResult:
        """Slide every tile toward ``direction`` and merge; no tile is spawned here."""
        direction = Direction(direction)
        size = self.size
        line_move = size._line_move
        old = self.cells
        new = [0] * size.cells
        slides: list[tuple[int, int]] = []
        merges: list[int] = []
        score = 0
        for line, cells in size._line_slices[direction]:
            moved, line_slides, line_merges = line_move(line, old[cells])
            new[cells] = moved.values
            slides += line_slides
            merges += line_merges
            score += moved.score
        cells = tuple(new)
        slides.sort()
        merges.sort()
        return MoveResult(
            board=Board._trusted(cells, size),
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
        size = self.size
        if not 0 <= cell < size.cells:
            raise ValueError(f"cell must be 0-{size.cells - 1}, got {cell}")
        old = self.cells
        value = old[cell]
        stay = tuple((i, i) for i, v in enumerate(old) if v)
        if not value:
            return MoveResult(self, 0, False, stay, ())
        line = next(line for line in size.lines[direction] if cell in line)
        ahead = line.index(cell) - 1
        while ahead >= 0 and not old[line[ahead]]:
            ahead -= 1
        new = list(old)
        new[cell] = 0
        merges: tuple[int, ...] = ()
        score = 0
        if ahead >= 0 and old[line[ahead]] == value:
            if value == size.max_tile:
                raise ValueError(f"two {value} tiles cannot merge: no board in play holds both")
            dst = line[ahead]
            new[dst] = score = value * 2
            merges = (dst,)
        else:
            dst = line[ahead + 1]
            new[dst] = value
        if dst == cell:
            return MoveResult(self, 0, False, stay, ())
        slides = tuple((i, dst if i == cell else i) for i, _ in stay)
        return MoveResult(Board._trusted(tuple(new), size), score, True, slides, merges)

    def can_move(self, direction: Direction) -> bool:
        """Whether ``direction`` is legal: some tile can slide into a gap or meet an equal tile."""
        c = self.cells
        for line in self.size.lines[Direction(direction)]:
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
        cols = self.size.cols
        below = len(c) - cols
        for i in range(len(c)):
            if i % cols < cols - 1 and c[i] == c[i + 1]:
                return False
            if i < below and c[i] == c[i + cols]:
                return False
        return True

    def __str__(self) -> str:
        width = max(len(str(v)) for v in self.cells)
        return "\n".join(" ".join((str(v) if v else ".").rjust(width) for v in row) for row in self.rows)


# ``Board._trusted`` sets the frozen slots through their descriptors: every move builds a board, and
# this costs half of ``object.__setattr__``.
_set_cells = Board.__dict__["cells"].__set__
_set_size = Board.__dict__["size"].__set__
