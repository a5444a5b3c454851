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


async def test_r_in_a_game_played_without_saving_says_there_is_no_history(tmp_path):
    db = tmp_path / "games.sqlite3"
    db.write_bytes(b"\0" * 4096)  # unreadable: the player chooses to play without saving
    app = Twenty48App(db_path=db, settings=SETTINGS, palette="truecolor")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("p")
        await wait_for(pilot, lambda: app.screen is app.game_screen)
        await pilot.press("r")
        await wait_for(pilot, lambda: len(app._notifications) > 0)
        assert [n.message for n in app._notifications] == [
            "There is no history: this game is not being saved."
        ]
        assert app.screen is app.game_screen
