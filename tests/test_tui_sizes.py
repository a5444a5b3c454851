"""The terminal game on boards other than 4x4, through Textual's pilot: a 6x6 of long tiles fits 80x24,
a rectangle moves, a new game keeps the size, auto-play follows it (a 3x3's hint is in test_tui.py),
the win names its tile, a replay shows a game on its own board and the history its size. Every app
runs on a real store in tmp_path and the real solver at a fixed small depth."""

from __future__ import annotations

import pytest
from textual.geometry import Region
from textual.widgets import DataTable

from test_tui import SIZE, make_app, screen_of, stored_game, wait_until
from twenty48.game import Game
from twenty48.rules import Board, BoardSize, Direction
from twenty48.tui import game_screen
from twenty48.tui.dialogs import GameOverDialog, WinDialog
from twenty48.tui.history_screen import HistoryScreen, ReplayScreen
from twenty48.tui.widgets import BoardView

# The whole terminal app through Textual's pilot: integration, not in `pytest -m unit`.
pytestmark = pytest.mark.integration

#: A 6x6 late in a long game: tiles of up to six digits everywhere, two cells free.
LONG_TILES = Board.parse(
    "131072 65536 32768 16384 8192 4096/"
    "2 4 8 16 32 64/"
    "524288 262144 131072 65536 32768 16384/"
    "4 8 16 32 64 128/"
    "256 512 1024 2048 4096 8192/"
    "16384 32768 65536 131072 0 0"
)


@pytest.fixture
def db(tmp_path):
    return tmp_path / "games.sqlite3"


def shown_board(screen) -> tuple[int, ...]:
    return tuple(tile.value for tile in screen.query_one(BoardView).tiles)


async def test_a_6x6_of_six_digit_tiles_fits_80x24_whole(db):
    app = make_app(db, game=Game.from_board(LONG_TILES, seed=1))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = screen_of(app)
        assert not screen.has_class("-too-small")
        whole = Region(0, 0, *SIZE)
        board = screen.query_one(BoardView)
        assert whole.contains_region(board.region)
        assert len(board.tiles) == 36 and shown_board(screen) == LONG_TILES.cells
        for tile in board.tiles:
            assert board.region.contains_region(tile.region)
            assert tile.region.width >= len(str(tile.value)), tile.value  # every digit shows
            assert tile.region.height >= 2
        # No two tiles overlap: the 36 regions are 36 distinct cells of the grid.
        assert len({tile.region for tile in board.tiles}) == 36
        for part in ("#side", "#title", "#stats", "#hint", "#status"):
            assert whole.contains_region(screen.query_one(part).region), part
        status = screen.query_one("#status")
        assert status.virtual_size.height <= status.region.height  # its lines are not cut
        assert "Mode: 6x6 board" in str(status.render())


async def test_a_tile_longer_than_its_room_widens_the_board_or_asks_for_a_larger_terminal(db):
    # 1048576 (seven digits) on a 6x6: the tiles widen to show it whole, where the terminal has room.
    board = Board.from_cells([524288, 524288, *[0] * 33, 2], "6x6")
    app = make_app(db, game=Game.from_board(board, seed=3))
    async with app.run_test(size=(86, 24)) as pilot:
        screen = screen_of(app)
        view = screen.query_one(BoardView)
        assert view.tiles[0].region.width == 6
        await pilot.press("left")
        await wait_until(pilot, lambda: view.tiles[0].region.width == 7)
        assert view.tiles[0].value == 1048576 and not screen.has_class("-too-small")
    # Eight digits on a 6x6 cannot show whole on every tile at 80 columns: the screen says how large a
    # terminal it needs instead of cutting digits, and shows the board once it grows.
    board = Board.from_cells([16777216, *[0] * 34, 2], "6x6")
    app = make_app(db, game=Game.from_board(board, seed=3))
    async with app.run_test(size=SIZE) as pilot:
        screen = screen_of(app)
        assert screen.has_class("-too-small")
        assert "needs at least 92x21" in str(screen.query_one("#too-small").render())
        await pilot.resize_terminal(92, 24)
        await wait_until(pilot, lambda: not screen.has_class("-too-small"))
        assert screen.query_one(BoardView).tiles[0].region.width >= 8


async def test_a_2x4_moves_on_screen_and_in_the_store(db):
    app = make_app(db, game=Game.new(21, size="2x4"))
    async with app.run_test(size=SIZE) as pilot:
        screen = screen_of(app)
        reference = Game.new(21, size="2x4")
        keys = {"up": Direction.UP, "down": Direction.DOWN, "left": Direction.LEFT, "right": Direction.RIGHT}
        for key in ("left", "up", "right", "down", "left"):
            await pilot.press(key)
            reference.move(keys[key])
            assert screen.game.to_dict() == reference.to_dict()
            assert shown_board(screen) == reference.board.cells
        assert reference.moves > 0
        rows = {tile.region.y for tile in screen.query_one(BoardView).tiles}
        columns = {tile.region.x for tile in screen.query_one(BoardView).tiles}
        assert (len(rows), len(columns)) == (2, 4)
    assert stored_game(db).to_dict() == reference.to_dict()


async def test_a_new_game_keeps_the_boards_size(db):
    app = make_app(db, game=Game.new(4, size="3x5"))
    async with app.run_test(size=SIZE) as pilot:
        screen = screen_of(app)
        await pilot.press("left", "up", "n", "y")
        await wait_until(pilot, lambda: screen.game.moves == 0)
        assert screen.game.size == BoardSize(3, 5) and len(shown_board(screen)) == 15
    assert stored_game(db).size == BoardSize(3, 5)


async def test_auto_play_plays_a_2x3_to_its_win_or_its_end(db):
    app = make_app(db, game=Game.new(8, size="2x3"))
    async with app.run_test(size=SIZE) as pilot:
        screen = screen_of(app)
        await pilot.press("A")
        await wait_until(pilot, lambda: isinstance(app.screen, (WinDialog, GameOverDialog)), timeout=60)
        assert not screen.autoplay and screen.game.moves > 0
        assert stored_game(db).to_dict() == screen.game.to_dict()


async def test_winning_a_3x3_names_its_win_tile(db):
    board = Board.parse("128 128 0/4 0 0/0 0 0")
    app = make_app(db, game=Game.from_board(board, seed=2))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("left")
        await wait_until(pilot, lambda: isinstance(app.screen, WinDialog))
        assert "You made 256" in str(app.screen.query_one("#message").render())
        await pilot.press("k")
        assert "256 reached! Keep going." in str(screen_of(app).query_one("#status").render())


async def test_the_replay_shows_a_game_on_its_own_board(db):
    app = make_app(db, game=Game.new(5, size="3x3"))
    async with app.run_test(size=SIZE) as pilot:
        screen = screen_of(app)
        await pilot.press("left", "up", "right")
        played = screen.game.board.cells
        await pilot.press("r")
        await wait_until(pilot, lambda: isinstance(app.screen, HistoryScreen))
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, ReplayScreen))
        replay = app.screen
        await pilot.press("end")
        await wait_until(pilot, lambda: shown_board(replay) == played)
        view = replay.query_one(BoardView)
        assert len({tile.region.x for tile in view.tiles}) == 3
        assert all(not tile.display for tile in view.query("Tile") if tile not in view.tiles)


async def test_the_history_shows_each_games_size(db):
    app = make_app(db, game=Game.new(5, size="2x5"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("left", "n", "y")  # a second game of the same size
        await pilot.press("r")
        await wait_until(pilot, lambda: isinstance(app.screen, HistoryScreen))
        table = app.screen.query_one(DataTable)
        await wait_until(pilot, lambda: table.row_count == 2)
        size = [str(column.label) for column in table.columns.values()].index("Size")
        assert [table.get_row_at(row)[size] for row in range(2)] == ["2x5", "2x5"]


async def test_tiles_too_small_for_a_frame_mark_their_digits(db, monkeypatch):
    # A moment longer than any test, as in test_tui's marks test.
    monkeypatch.setattr(game_screen, "MARK_SECONDS", 600.0)
    board = Board.from_cells([2, 2, *[0] * 33, 4], "6x6")
    app = make_app(db, game=Game.from_board(board, seed=4))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("left")
        tiles = screen_of(app).query_one(BoardView).tiles
        assert tiles[0].region.height == 2  # no row to spare for a frame at 80x24
        marks = {tile.mark: tile for tile in tiles if tile.mark}
        assert set(marks) == {"spawned", "merged"}
        for mark, style in (("merged", "reverse"), ("spawned", "underline")):
            assert marks[mark].styles.outline.top[0] == ""
            assert str(marks[mark].render().style) == style
        await pilot.resize_terminal(120, 40)  # room for frames: the marks become frames
        await wait_until(pilot, lambda: tiles[0].region.height >= 3)
        assert tiles[0].styles.outline.top[0] == "heavy" and str(tiles[0].render().style) == ""
