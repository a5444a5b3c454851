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
from twenty48.rules import CELLS, Board, Direction

#: Blank columns between tiles, blank rows between tiles, and the frame's padding (columns, rows).
GAP_X, GAP_Y = 2, 1
PAD_X, PAD_Y = 2, 1
#: The smallest tile that still shows 131072 with a column to spare on either side.
MIN_TILE_WIDTH, MIN_TILE_HEIGHT = 8, 3
#: Terminal cells are about twice as tall as they are wide; this keeps tiles roughly square.
TILE_ASPECT = 2
#: Width of the column beside the board with the score boxes and the hint panel (the stylesheet's
#: ``$side-width``).
SIDE_WIDTH = 26
#: Screen rows that are not board: the footer, and a blank row above the board.
CHROME_ROWS = 2
#: Columns that are not board or side panel: the margins around both.
CHROME_COLUMNS = 4

ARROWS: dict[Direction, str] = {
    Direction.UP: "↑",
    Direction.DOWN: "↓",
    Direction.LEFT: "←",
    Direction.RIGHT: "→",
}


@dataclass(frozen=True, slots=True)
class BoardGeometry:
    tile_width: int
    tile_height: int

    @property
    def width(self) -> int:
        return 4 * self.tile_width + 3 * GAP_X + 2 * PAD_X

    @property
    def height(self) -> int:
        return 4 * self.tile_height + 3 * GAP_Y + 2 * PAD_Y


MINIMUM = BoardGeometry(MIN_TILE_WIDTH, MIN_TILE_HEIGHT)
#: The smallest terminal the game is playable in.
MIN_WIDTH = MINIMUM.width + SIDE_WIDTH + CHROME_COLUMNS
MIN_HEIGHT = MINIMUM.height + CHROME_ROWS


def board_geometry(width: int, height: int) -> BoardGeometry | None:
    """The largest roughly square tiles that fit a terminal of ``width`` x ``height``; None when even
    the smallest tiles do not fit."""
    if width < MIN_WIDTH or height < MIN_HEIGHT:
        return None
    free_rows = height - CHROME_ROWS - 3 * GAP_Y - 2 * PAD_Y
    free_columns = width - SIDE_WIDTH - CHROME_COLUMNS - 3 * GAP_X - 2 * PAD_X
    tile_height = free_rows // 4
    tile_width = free_columns // 4
    # Shrink whichever side is too long for a square-looking tile.
    tile_height = min(tile_height, max(MIN_TILE_HEIGHT, tile_width // TILE_ASPECT))
    tile_width = min(tile_width, TILE_ASPECT * tile_height + 2)
    return BoardGeometry(tile_width, tile_height)


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

    def __init__(self, cell: int, *, palette: str) -> None:
        super().__init__(id=f"cell-{cell}")
        self.cell = cell
        self.value = 0
        self.mark: str | None = None
        self._palette = palette
        self._paint()

    def render(self) -> str:
        return str(self.value) if self.value else ""

    def show(self, value: int, mark: str | None = None) -> None:
        """Show ``value`` (0 for empty), framed when ``mark`` is ``"spawned"`` or ``"merged"``."""
        if (value, mark) == (self.value, self.mark):
            return
        self.value, self.mark = value, mark
        self._paint()
        self.refresh()

    def _paint(self) -> None:
        colours = tile_colours(self.value, self._palette)
        self.styles.background = colours.background
        self.styles.color = colours.text
        # The frame takes the tile's own text colour, so it shows on light and dark tiles alike.
        outline = (self.MARKS[self.mark], Color.parse(colours.text)) if self.mark else None
        # An outline takes no room, yet assigning ``styles.outline`` lays out the whole screen whenever
        # the edges appear. Setting the rules directly leaves the repaint to ``show``. (An outline kept
        # invisible when unmarked would avoid the layout too, but it splits the tile's rows into more
        # segments, which changes every snapshot.)
        for edge in _EDGES:
            self.styles.set_rule(edge, outline)


class BoardView(Widget):
    """The 4x4 board in its frame. It only draws what the game says; it never decides a move."""

    DEFAULT_CSS = """
    BoardView {
        layout: grid;
        grid-size: 4 4;
        grid-gutter: $board-gap-y $board-gap-x;
        padding: $board-pad-y $board-pad-x;
        background: $palette-frame;
        width: $board-min-width;
        height: $board-min-height;
    }
    """

    def __init__(self, *, palette: str, id: str | None = None) -> None:
        super().__init__(id=id)
        self._palette = palette
        self._tiles: tuple[Tile, ...] = ()

    def compose(self) -> ComposeResult:
        # Kept rather than queried: every move walks the tiles, and a DOM query per move adds up.
        self._tiles = tuple(Tile(cell, palette=self._palette) for cell in range(CELLS))
        yield from self._tiles

    @property
    def tiles(self) -> tuple[Tile, ...]:
        """The 16 tiles, in cell order."""
        return self._tiles

    def show(self, board: Board, spawned: int | None = None, merged: Iterable[int] = ()) -> None:
        """Draw ``board``; mark the spawned cell and the merged cells until ``clear_marks``."""
        merged = set(merged)
        for tile in self.tiles:
            mark = "spawned" if tile.cell == spawned else "merged" if tile.cell in merged else None
            tile.show(board.cells[tile.cell], mark)

    def clear_marks(self) -> None:
        for tile in self.tiles:
            tile.show(tile.value)

    def resize_to(self, geometry: BoardGeometry) -> None:
        self.styles.width = geometry.width
        self.styles.height = geometry.height


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
