"""The terminal's history and replays: ``r`` in ``2048 play`` lists the player's games, newest first,
and Enter replays the highlighted one on the game's own board widget.

Both read the shared store: the list a page at a time (``Store.games``), a replay's positions a page
at a time (``Store.positions``, which starts from the store's nearest checkpoint), so even a very long
game opens at once and any move is at most one page away. Nothing here applies a rule.
"""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import DataTable, Footer, Static

from twenty48.store import GameNotFoundError, Position, Store, StoreError
from twenty48.tui.board_screen import BoardScreen
from twenty48.tui.widgets import BoardGeometry, BoardView, StatBox
from twenty48.wording import STATUS_WORDS, assists, count

#: Games fetched per page of the list; the next page comes when the cursor nears the end.
LIST_PAGE = 50
#: Positions fetched per request, and how many pages a replay keeps.
POSITIONS_PAGE = 200
KEEP_PAGES = 20
#: Replay speeds, in moves per second.
SPEEDS = (1, 2, 5, 10, 25)
DEFAULT_SPEED = 5
#: Moves skipped by Page Up / Page Down.
LEAP = 100


class HistoryScreen(Screen[None]):
    """The player's games in a table; Enter opens a replay, Escape goes back to the game."""

    DEFAULT_CSS = """
    HistoryScreen { background: $palette-page; color: $palette-text; }
    HistoryScreen #history-title { height: auto; margin: 1 1 0 1; text-style: bold; }
    HistoryScreen DataTable { height: 1fr; margin: 1; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "back", "Back"),
        Binding("enter", "replay", "Replay", show=True, priority=True),
    ]

    def __init__(self, store: Store, player_id: int, *, palette: str) -> None:
        super().__init__()
        self.store = store
        self.player_id = player_id
        self.palette = palette
        #: The ``before`` of the next page; None once the last page is in.
        self._next: int | None = None
        self._loaded_any = False

    def compose(self) -> ComposeResult:
        yield Static("History: Enter replays the highlighted game, Escape goes back", id="history-title")
        yield DataTable(id="games", cursor_type="row", zebra_stripes=True)
        yield Footer()

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        table.add_columns("Game", "Started", "Mode", "Score", "Largest", "Moves", "Status", "Assisted")
        self._load()
        table.focus()

    def _load(self) -> None:
        """The next page of games, appended to the table."""
        before = self._next
        try:
            games = self.store.games(self.player_id, limit=LIST_PAGE, before=before)
        except StoreError as exc:
            self.notify(f"The history could not be read: {exc}", severity="error")
            return
        table = self.query_one(DataTable)
        for game in games:
            table.add_row(
                str(game.id),
                game.created_at[:16].replace("T", " "),
                game.variant,
                Text(f"{game.score:,}", justify="right"),
                Text(str(game.max_tile), justify="right"),
                Text(str(game.moves), justify="right"),
                STATUS_WORDS[game.status],
                assists(game),
                key=str(game.id),
            )
        self._next = games[-1].id if len(games) == LIST_PAGE else None
        if not self._loaded_any and not games:
            self.query_one("#history-title", Static).update("History: no games yet (Escape goes back)")
        self._loaded_any = True

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        if self._next is not None and event.cursor_row >= event.data_table.row_count - 5:
            self._load()

    def action_replay(self) -> None:
        table = self.query_one(DataTable)
        if not table.row_count:
            return
        key = table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value
        assert key is not None
        self.app.push_screen(ReplayScreen(self.store, self.player_id, int(key), palette=self.palette))

    def action_back(self) -> None:
        self.dismiss(None)


class PositionPages:
    """A game's positions from the store, a page at a time, the pages most recently used kept."""

    def __init__(self, store: Store, player_id: int, game_id: int) -> None:
        self.store = store
        self.player_id = player_id
        self.game_id = game_id
        self._pages: dict[int, tuple[Position, ...]] = {}
        #: Positions in the game (moves + 1), as of the last page read.
        self.total = 0
        self.get(0)

    def get(self, move: int) -> Position | None:
        """The position after ``move``; None past the game's end."""
        index = move // POSITIONS_PAGE
        page = self._pages.pop(index, None)
        if page is None:
            answer = self.store.positions(
                self.player_id, self.game_id, index * POSITIONS_PAGE, POSITIONS_PAGE
            )
            self.total = answer.total
            page = answer.positions
        self._pages[index] = page  # last in the dict: the most recently used
        if len(self._pages) > KEEP_PAGES:
            del self._pages[next(iter(self._pages))]
        offset = move % POSITIONS_PAGE
        return page[offset] if offset < len(page) else None

    @property
    def last(self) -> int:
        return self.total - 1


class ReplayScreen(BoardScreen):
    """One game, move by move: step, jump, or play it back with the new and merged tiles marked."""

    BOARD_ACTIONS = frozenset({"step", "go", "go_last", "leap", "toggle_play", "speed"})
    drawn_by = "The replay"

    DEFAULT_CSS = """
    ReplayScreen { background: $palette-page; color: $palette-text; }
    ReplayScreen #replay-body { height: 1fr; padding: 1 1 0 1; }
    ReplayScreen #replay-board { width: 1fr; align: center top; }
    ReplayScreen #replay-side { width: $side-width; margin-left: 1; }
    ReplayScreen #replay-stats { height: 4; margin: 1 0; }
    ReplayScreen StatBox { margin-right: 1; }
    ReplayScreen #replay-status { height: auto; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "back", "Back"),
        Binding("left,h", "step(-1)", "Back a move", key_display="←"),
        Binding("right,l", "step(1)", "Forward", key_display="→"),
        Binding("space", "toggle_play", "Play/pause"),
        Binding("home", "go(0)", "First", show=False),
        Binding("end", "go_last", "Last", show=False),
        Binding("pageup", f"leap(-{LEAP})", f"-{LEAP}", show=False),
        Binding("pagedown", f"leap({LEAP})", f"+{LEAP}", show=False),
        Binding("plus,equals_sign", "speed(1)", "Faster", key_display="+"),
        Binding("minus", "speed(-1)", "Slower", key_display="-", show=False),
    ]

    def __init__(self, store: Store, player_id: int, game_id: int, *, palette: str, move: int = 0) -> None:
        super().__init__()
        self.store = store
        self.player_id = player_id
        self.game_id = game_id
        self.palette = palette
        self.move = move
        self.speed = DEFAULT_SPEED
        self._player: Timer | None = None
        self._positions: PositionPages | None = None

    def compose(self) -> ComposeResult:
        with Horizontal(id="replay-body", classes="board-body"):
            with Vertical(id="replay-board"):
                yield BoardView(palette=self.palette, id="board")
            with Vertical(id="replay-side"):
                yield Static(Text(f"Replay of game {self.game_id}", style="bold"), id="replay-title")
                with Horizontal(id="replay-stats"):
                    yield StatBox("score", id="replay-score")
                    yield StatBox("move", id="replay-move")
                yield Static(id="replay-status")
        yield Static(id="too-small")
        yield Footer()

    def leave_hint(self) -> str:
        return "press Escape to go back."

    def on_mount(self) -> None:
        super().on_mount()
        try:
            self._positions = PositionPages(self.store, self.player_id, self.game_id)
        except (GameNotFoundError, StoreError) as exc:
            self.notify(f"Game {self.game_id} cannot be replayed: {exc}", severity="error")
            self.dismiss(None)
            return
        self._go(self.move)

    def fit(self, width: int, height: int) -> BoardGeometry | None:
        geometry = super().fit(width, height)
        if geometry is None:
            self._pause()
        return geometry

    # ---- showing a position ---------------------------------------------------------------------

    def _go(self, move: int, *, marked: bool = False) -> bool:
        """Show the position after ``move`` (clamped to the game); False when it cannot be read."""
        positions = self._positions
        if positions is None:
            return False
        move = max(0, min(move, positions.last))
        try:
            position = positions.get(move)
        except StoreError as exc:
            self._pause()
            self.notify(f"The replay could not be read: {exc}", severity="error")
            return False
        if position is None:
            return False
        board = self.query_one(BoardView)
        if marked and position.spawn is not None:
            board.show(position.board, spawned=position.spawn[0], merged=position.merges)
        else:
            board.show(position.board)
        self.move = position.move
        self.query_one("#replay-score", StatBox).number = position.score
        self.query_one("#replay-move", StatBox).number = position.move
        self._show_status()
        return True

    def _show_status(self) -> None:
        assert self._positions is not None
        state = f"▶ playing, {count(self.speed, 'move')}/s" if self._player is not None else "paused"
        self.query_one("#replay-status", Static).update(
            f"Move {self.move} of {self._positions.last}\n{state}\n\n"
            "← → step · Home/End · PgUp/PgDn ±100\nspace plays · + - speed · Esc back"
        )

    # ---- keys -----------------------------------------------------------------------------------

    def action_step(self, delta: int) -> None:
        self._pause()
        self._go(self.move + delta, marked=delta == 1)

    def action_go(self, move: int) -> None:
        self._pause()
        self._go(move)

    def action_go_last(self) -> None:
        if self._positions is not None:
            self.action_go(self._positions.last)

    def action_leap(self, delta: int) -> None:
        self.action_go(self.move + delta)

    def action_toggle_play(self) -> None:
        if self._player is not None:
            self._pause()
        else:
            self._play()

    def action_speed(self, delta: int) -> None:
        index = SPEEDS.index(self.speed) + delta
        self.speed = SPEEDS[max(0, min(index, len(SPEEDS) - 1))]
        if self._player is not None:
            self._player.stop()
            self._player = self.set_interval(1 / self.speed, self._tick)
        self._show_status()

    def action_back(self) -> None:
        self._pause()
        self.dismiss(None)

    # ---- playing back ---------------------------------------------------------------------------

    def _play(self) -> None:
        if self._positions is None:
            return
        if self.move >= self._positions.last:
            self._go(0)
        self._player = self.set_interval(1 / self.speed, self._tick)
        self._show_status()

    def _pause(self) -> None:
        if self._player is not None:
            self._player.stop()
            self._player = None
        if self._positions is not None and self.is_mounted:
            self._show_status()

    def _tick(self) -> None:
        assert self._positions is not None
        if self.move >= self._positions.last or not self._go(self.move + 1, marked=True):
            self._pause()


def open_history(screen: Screen[None], *, palette: str) -> None:
    """Show the history of the app's store over ``screen``; without one (an unsaved game) say why
    there is none."""
    from twenty48.tui.app import Twenty48App  # the app imports the game screen, which imports this

    app = screen.app
    store = app.store if isinstance(app, Twenty48App) else None
    if store is None:
        screen.notify("There is no history: this game is not being saved.", severity="warning")
        return
    screen.app.push_screen(HistoryScreen(store, store.local_player().id, palette=palette))
