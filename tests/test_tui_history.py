"""The terminal's history and replay screens through Textual's pilot, on a real store: ``r`` lists the
terminal player's games, Enter replays one, and every position the replay shows is ``Game.replay``'s."""

from __future__ import annotations

import time

import pytest

from twenty48.game import Game
from twenty48.store import Store
from twenty48.tui import SolverSettings, Twenty48App
from twenty48.tui.history_screen import POSITIONS_PAGE, HistoryScreen, ReplayScreen
from twenty48.tui.widgets import BoardView, StatBox

# The whole terminal app through Textual's pilot: integration, not in `pytest -m unit`.
pytestmark = pytest.mark.integration

SIZE = (80, 24)
SETTINGS = SolverSettings(depth=1, hint_seconds=5.0, auto_seconds=5.0, auto_pause=0.001)
ORDER = ("down", "left", "right", "up")


def long_game(seed: int) -> Game:
    """A game played to its end by a fixed preference order: a few hundred moves, no solver."""
    game = Game.new(seed=seed)
    while not game.over:
        next(d for d in ORDER if game.move(d).changed)
    return game


def shown(screen: ReplayScreen) -> tuple[tuple[int, ...], int, int]:
    board = tuple(tile.value for tile in screen.query_one(BoardView).tiles)
    return (
        board,
        screen.query_one("#replay-score", StatBox).number,
        screen.query_one("#replay-move", StatBox).number,
    )


def expected(game: Game, move: int) -> tuple[tuple[int, ...], int, int]:
    position = Game.replay(game.seed, game.actions[:move])
    return tuple(position.board.cells), position.score, move


async def wait_for(pilot, condition, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out waiting for the app"
        await pilot.pause(0.02)


async def test_r_lists_the_games_and_enter_replays_one_move_by_move(tmp_path):
    db = tmp_path / "games.sqlite3"
    played = long_game(3)
    assert played.moves > POSITIONS_PAGE  # the replay crosses a page of positions
    with Store.open(db) as store:
        player = store.local_player().id
        replayed = store.add_game(player, played).id
        store.new_game(player)  # the terminal resumes this one; the long game is finished
    app = Twenty48App(db_path=db, settings=SETTINGS, palette="truecolor")
    async with app.run_test(size=SIZE) as pilot:
        playing = app.game_screen.game.to_dict()  # type: ignore[union-attr]
        await pilot.press("r")
        await wait_for(pilot, lambda: isinstance(app.screen, HistoryScreen))
        history = app.screen
        rows = history.query_one("DataTable")
        assert rows.row_count == 2
        assert rows.get_row_at(0)[0] == str(replayed + 1) and rows.get_row_at(1)[0] == str(replayed)
        await pilot.press("down", "enter")
        await wait_for(pilot, lambda: isinstance(app.screen, ReplayScreen))
        replay = app.screen
        assert shown(replay) == expected(played, 0)
        await pilot.press("right", "right", "l")
        assert shown(replay) == expected(played, 3)
        await pilot.press("left")
        assert shown(replay) == expected(played, 2)
        await pilot.press("pagedown", "pagedown", "pagedown")
        assert shown(replay) == expected(played, min(302, played.moves))
        await pilot.press("end")
        assert shown(replay) == expected(played, played.moves)
        await pilot.press("right")  # past the end: stays at the end
        assert shown(replay) == expected(played, played.moves)
        await pilot.press("home", "pageup")
        assert shown(replay) == expected(played, 0)
        # Play back at the fastest speed, then pause: it stops where it was.
        await pilot.press("plus", "plus", "plus", "plus", "space")
        await wait_for(pilot, lambda: shown(replay)[2] >= 5)
        await pilot.press("space")
        stopped = shown(replay)[2]
        await pilot.pause(0.3)
        assert shown(replay) == expected(played, stopped)
        await pilot.press("escape", "escape")
        await wait_for(pilot, lambda: app.screen is app.game_screen)
        # The history's keys played nothing in the game underneath.
        assert app.game_screen.game.to_dict() == playing  # type: ignore[union-attr]


async def test_the_history_tells_an_ended_game_from_an_abandoned_one(tmp_path):
    db = tmp_path / "games.sqlite3"
    left = Game.new(seed=4)
    for _ in range(6):
        next(d for d in ORDER if left.move(d).changed)
    with Store.open(db) as store:
        player = store.local_player().id
        store.add_game(player, long_game(3))
        record = store.add_game(player, left)
        store.note_hint(player, record.id, record.revision)
        store.new_game(player)
    app = Twenty48App(db_path=db, settings=SETTINGS, palette="truecolor")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("r")
        await wait_for(pilot, lambda: isinstance(app.screen, HistoryScreen))
        rows = app.screen.query_one("DataTable")
        assert [rows.get_row_at(i)[6:] for i in range(3)] == [
            ["in progress", "no"],
            ["abandoned", "1 hint"],
            ["ended", "no"],
        ]


async def test_the_replay_refuses_a_terminal_too_small_for_its_board_until_it_grows(tmp_path):
    from twenty48.tui.widgets import MIN_HEIGHT, MIN_WIDTH

    db = tmp_path / "games.sqlite3"
    played = long_game(5)
    with Store.open(db) as store:
        game_id = store.add_game(store.local_player().id, played).id
        store.new_game(store.local_player().id)
    app = Twenty48App(db_path=db, settings=SETTINGS, palette="truecolor")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("r")
        await wait_for(pilot, lambda: isinstance(app.screen, HistoryScreen))
        await pilot.press("down", "enter")
        await wait_for(pilot, lambda: isinstance(app.screen, ReplayScreen))
        replay = app.screen
        assert replay.game_id == game_id
        for size in ((60, 20), (40, 15)):
            await pilot.resize_terminal(*size)
            await pilot.pause()
            assert replay.has_class("-too-small")
            message = str(replay.query_one("#too-small").render())
            assert f"{MIN_WIDTH}x{MIN_HEIGHT}" in message and "Escape to go back" in message
            assert not replay.query_one(BoardView).display or not replay.query_one("#replay-body").display
            await pilot.press("right", "space")  # the board's keys wait for the board
            assert shown(replay) == expected(played, 0)
        await pilot.resize_terminal(*SIZE)
        await pilot.pause()
        assert not replay.has_class("-too-small")
        # Every cell of the board is on screen again, the last column included.
        board = replay.query_one(BoardView)
        assert board.region.right <= SIZE[0] and board.tiles[15].region.right <= SIZE[0]
        await pilot.press("right")
        assert shown(replay) == expected(played, 1)
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, HistoryScreen))
        await pilot.resize_terminal(40, 15)
        await pilot.pause()
        # The list fits: its title wraps, the table scrolls.
        title = app.screen.query_one("#history-title")
        assert title.region.height >= 2 and title.region.right <= 40
