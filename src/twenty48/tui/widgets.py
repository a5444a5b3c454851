"""The pieces of the game screen: the board and its tiles, the score boxes and the hint panel.

Their default CSS reads colours and sizes as variables that the app supplies (``twenty48.tui.styles``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from rich.text import Text
from textual.app import ComposeResult
from textual.color import Color
from textual.reactive import reactive
from textual.widget import Widget
from textual.widgets import Static

from twenty48.palette import ACCENT, LIGHT_TEXT, tile_colours
from twenty48.rules import DEFAULT_SIZE, MAX_TILE, Board, BoardSize, Direction

#: Blank columns between tiles, blank rows between tiles, and the frame's padding (columns, rows).
GAP_X, GAP_Y = 2, 1
PAD_X, PAD_Y = 2, 1
#: The lowest a tile may be: its digits' row and one more, so that it reads as a tile, not a line.
MIN_TILE_HEIGHT = 2
#: Terminal cells are about twice as tall as they are wide; this keeps tiles roughly square.
TILE_ASPECT = 2
#: Width of the column beside the board with the score boxes and the hint panel (the stylesheet's
#: ``$side-width``).
SIDE_WIDTH = 26
#: Rows the column beside the board needs: its title, the score boxes, the hint panel and three lines
#: of status.
SIDE_ROWS = 17
#: Screen rows that are not board: the footer, and a blank row above the board.
CHROME_ROWS = 2
#: Columns that are not board or side panel: the margins around both.
CHROME_COLUMNS = 4
#: The digits every board leaves room for from the start, unless its size's largest tile is shorter:
#: those of 131072, the 4x4's largest, so that a board widens its tiles only for a tile no 4x4 holds.
ROOM_DIGITS = len(str(MAX_TILE))

ARROWS: dict[Direction, str] = {
    Direction.UP: "↑",
    Direction.DOWN: "↓",
    Direction.LEFT: "←",
    Direction.RIGHT: "→",
}


def tile_digits(board: Board) -> int:
    """The digits a tile of ``board`` must show whole: its largest tile's, and at least those of the
    largest tile its size holds or ``ROOM_DIGITS``, whichever is fewer (a 5x5 or a 6x6 holds tiles of
    8 to 12 digits, which no 80-column terminal shows on every tile: its tiles widen when one comes)."""
    return max(len(str(min(board.size.max_tile, MAX_TILE))), len(str(board.max_tile)))


@dataclass(frozen=True, slots=True)
class BoardGeometry:
    tile_width: int
    tile_height: int
    size: BoardSize = DEFAULT_SIZE

    @property
    def width(self) -> int:
        return self.size.cols * self.tile_width + (self.size.cols - 1) * GAP_X + 2 * PAD_X

    @property
    def height(self) -> int:
        return self.size.rows * self.tile_height + (self.size.rows - 1) * GAP_Y + 2 * PAD_Y


def minimum_terminal(size: BoardSize = DEFAULT_SIZE, digits: int = ROOM_DIGITS) -> tuple[int, int]:
    """The smallest terminal (columns, rows) that shows a board of ``size`` whose tiles show
    ``digits`` digits, and the side panel beside it."""
    board = BoardGeometry(digits, MIN_TILE_HEIGHT, size)
    return board.width + SIDE_WIDTH + CHROME_COLUMNS, max(board.height, SIDE_ROWS) + CHROME_ROWS


#: The 4x4 board's smallest geometry (the stylesheet's default board size).
MINIMUM = BoardGeometry(ROOM_DIGITS, MIN_TILE_HEIGHT)
#: The smallest terminal a 4x4 game is playable in; every size's (``minimum_terminal``) is at most
#: 80x24.
MIN_WIDTH, MIN_HEIGHT = minimum_terminal()


def board_geometry(
    width: int, height: int, size: BoardSize = DEFAULT_SIZE, digits: int = ROOM_DIGITS
) -> BoardGeometry | None:
    """The largest roughly square tiles of a board of ``size``, each showing ``digits`` digits whole,
    that fit a terminal of ``width`` x ``height``; None when even the smallest such tiles do not fit."""
    min_width, min_height = minimum_terminal(size, digits)
    if width < min_width or height < min_height:
        return None
    free_rows = height - CHROME_ROWS - (size.rows - 1) * GAP_Y - 2 * PAD_Y
    free_columns = width - SIDE_WIDTH - CHROME_COLUMNS - (size.cols - 1) * GAP_X - 2 * PAD_X
    tile_height = free_rows // size.rows
    tile_width = free_columns // size.cols
    # Shrink whichever side is too long for a square-looking tile, never below the digits.
    tile_height = min(tile_height, max(MIN_TILE_HEIGHT, tile_width // TILE_ASPECT))
    tile_width = min(tile_width, max(digits, TILE_ASPECT * tile_height + 2))
    return BoardGeometry(tile_width, tile_height, size)


_EDGES = ("outline_top", "outline_right", "outline_bottom", "outline_left")


class Tile(Widget):
    """One cell of the board; coloured by its value, marked for a moment when it appears or merges.

    It draws itself (``render``) instead of holding a ``Static``'s content, and sets its mark's outline
    without asking for a layout (see ``_paint``), so a move only repaints tiles and never re-lays-out
    the screen: that keeps key repeat smooth."""

    DEFAULT_CSS = """
    Tile {
        width: 1fr;
        height: 1fr;
        content-align: center middle;
        text-style: bold;
    }
    """

    #: Outline style per mark: a new tile pops in with a thin round frame, a merged one gets a heavy frame.
    MARKS: Mapping[str, str] = {"spawned": "round", "merged": "heavy"}
    #: The digits' style per mark on a tile with no room for a frame around them (``framed``).
    UNFRAMED_MARKS: Mapping[str, str] = {"spawned": "underline", "merged": "reverse"}

    def __init__(self, cell: int, *, palette: str) -> None:
        super().__init__(id=f"cell-{cell}")
        self.cell = cell
        self.value = 0
        self.mark: str | None = None
        #: Whether a mark is a frame: only on a tile with a row and a column to spare around its
        #: digits, since a frame is drawn over the tile's edges.
        self.framed = True
        self._palette = palette
        self._paint()

    def render(self) -> Text:
        style = self.UNFRAMED_MARKS[self.mark] if self.mark and not self.framed else ""
        return Text(str(self.value) if self.value else "", style=style)

    def show(self, value: int, mark: str | None = None) -> None:
        """Show ``value`` (0 for empty), framed when ``mark`` is ``"spawned"`` or ``"merged"``."""
        if (value, mark) == (self.value, self.mark):
            return
        self.value, self.mark = value, mark
        self._paint()
        self.refresh()

    def frame_marks(self, framed: bool) -> None:
        """Mark with a frame (``framed``) or, on a tile too small for one, with the digits' style."""
        if framed != self.framed:
            self.framed = framed
            self._paint()
            self.refresh()

    def _paint(self) -> None:
        colours = tile_colours(self.value, self._palette)
        self.styles.background = colours.background
        self.styles.color = colours.text
        # The frame takes the tile's own text colour, so it shows on light and dark tiles alike.
        outline = (self.MARKS[self.mark], Color.parse(colours.text)) if self.mark and self.framed else None
        # An outline takes no room, yet assigning ``styles.outline`` lays out the whole screen whenever
        # the edges appear. Setting the rules directly leaves the repaint to ``show``. (An outline kept
        # invisible when unmarked would avoid the layout too, but it splits the tile's rows into more
        # segments, which changes every snapshot.)
        for edge in _EDGES:
            self.styles.set_rule(edge, outline)


class BoardView(Widget):
    """The board in its frame, R rows of C tiles. It only draws what the game says; it never decides
    a move."""

    DEFAULT_CSS = """
    BoardView {
        layout: grid;
        grid-gutter: $board-gap-y $board-gap-x;
        padding: $board-pad-y $board-pad-x;
        background: $palette-frame;
        width: $board-min-width;
        height: $board-min-height;
    }
    """

    def __init__(self, *, palette: str, size: BoardSize = DEFAULT_SIZE, id: str | None = None) -> None:
        super().__init__(id=id)
        self._palette = palette
        #: Every tile made so far, in cell order: a board of another size (a replay of another game)
        #: shows the first R·C and hides the rest, making more only when it has more cells.
        self._made: tuple[Tile, ...] = tuple(Tile(cell, palette=palette) for cell in range(size.cells))
        self._tiles: tuple[Tile, ...] = ()
        #: The size of the board on display, and the digits its tiles make room for (``tile_digits``).
        self.board_size = size
        self.digits = min(ROOM_DIGITS, len(str(size.max_tile)))
        self._shape(size)

    def compose(self) -> ComposeResult:
        yield from self._made

    @property
    def tiles(self) -> tuple[Tile, ...]:
        """The board's R·C tiles, in cell order (row-major)."""
        return self._tiles

    def show(self, board: Board, spawned: int | None = None, merged: Iterable[int] = ()) -> bool:
        """Draw ``board``; mark the spawned cell and the merged cells until ``clear_marks``. True when
        the board needs another geometry than before (another size, or longer digits)."""
        reshaped = board.size != self.board_size
        if reshaped:
            self._shape(board.size)
        digits = tile_digits(board)
        reshaped = reshaped or digits != self.digits
        self.digits = digits
        merged = set(merged)
        cells = board.cells
        for tile in self._tiles:
            mark = "spawned" if tile.cell == spawned else "merged" if tile.cell in merged else None
            tile.show(cells[tile.cell], mark)
        return reshaped

    def _shape(self, size: BoardSize) -> None:
        if size.cells > len(self._made):
            more = tuple(Tile(cell, palette=self._palette) for cell in range(len(self._made), size.cells))
            self._made += more
            if self.is_attached:
                self.mount_all(more)
        for tile in self._made:
            tile.display = tile.cell < size.cells
        self._tiles = self._made[: size.cells]
        self.styles.grid_size_columns = size.cols
        self.styles.grid_size_rows = size.rows
        self.board_size = size

    def clear_marks(self) -> None:
        for tile in self.tiles:
            tile.show(tile.value)

    def resize_to(self, geometry: BoardGeometry) -> None:
        self.styles.width = geometry.width
        self.styles.height = geometry.height
        framed = geometry.tile_height >= 3 and geometry.tile_width >= self.digits + 2
        for tile in self._made:
            tile.frame_marks(framed)


class StatBox(Widget):
    """A labelled number, like the web game's score boxes."""

    DEFAULT_CSS = """
    StatBox {
        width: 1fr;
        height: 4;
        background: $palette-frame;
        color: $palette-light-text;
        content-align: center middle;
        text-align: center;
    }
    """

    #: The number shown; the box repaints when it changes.
    number: reactive[int] = reactive(0)

    def __init__(self, label: str, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.label = label

    def render(self) -> Text:
        text = Text(self.label.upper(), style="#eee4da")
        text.append(f"\n{self.number}", style=f"bold {LIGHT_TEXT}")
        return text


class HintPanel(Static):
    """What the solver thinks of the current position: each legal move's standing (0-100 and a
    grade, ``twenty48.ai.standing``; the raw values mean nothing to a player), the best highlighted."""

    DEFAULT_CSS = """
    HintPanel {
        height: 6;
        padding: 0 1;
        border: round $palette-border;
        border-title-color: $palette-text;
        color: $palette-text;
    }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.border_title = "Hint"
        #: The ranking on display (None while there is none) and the board it is for (None when idle).
        self.ranking: dict[Direction, float] | None = None
        self.board: Board | None = None
        self.show_idle()

    def show_idle(self) -> None:
        self._forget()
        self.update(Text("Press ? for a hint,\nA to let the solver play.", style="italic"))

    def show_thinking(self, board: Board, *, preparing: float | None = None) -> None:
        """The solver is thinking about ``board``; ``preparing``: it is still being prepared (for so
        many seconds), which only the first run after installing makes long."""
        self.ranking = None
        self.board = board
        if preparing is None:
            self.update(Text("Thinking…", style="italic"))
        else:
            self.update(
                Text(
                    f"Preparing the solver… {preparing:.0f} s\n(first run only: it is being\ncompiled)",
                    style="italic",
                )
            )

    def show_message(self, message: str) -> None:
        self._forget()
        self.update(Text(message))

    def _forget(self) -> None:
        self.ranking = None
        self.board = None

    def show_ranking(self, board: Board, ranking: Mapping[Direction, float]) -> None:
        """``ranking`` holds ``board``'s legal moves, best first, as ``twenty48.ai.rank_moves`` gives them."""
        self.ranking = dict(ranking)
        self.board = board
        if not ranking:
            self.update(Text("No move is left."))
            return
        # Imported here: a ranking exists only once the solver is loaded (loading it compiles it on
        # the first run, which the screen does in the background).
        from twenty48.ai.standing import standings

        text = Text()
        for position, (direction, standing) in enumerate(standings(board, ranking).items()):
            line = f"{ARROWS[direction]} {direction.value:<5} {standing.points:>3} {standing.grade}"
            if position == 0:
                text.append(line + " ★", style=f"bold {LIGHT_TEXT} on {ACCENT}")
            else:
                text.append(line)
            text.append("\n")
        for direction in Direction:
            if direction not in ranking:
                text.append(f"{ARROWS[direction]} {direction.value:<5} {'—':>3}\n", style="dim")
        text.rstrip()
        self.update(text)
