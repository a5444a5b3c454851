"""The terminal game: ``2048 play``. ``Twenty48App`` (app.py, styled by twenty48.tcss) opens the saved
game and shows ``GameScreen`` (game_screen.py), built from the widgets, the dialogs, the saved session
and the solver's worker."""

from twenty48.tui.app import Twenty48App
from twenty48.tui.game_screen import GameScreen
from twenty48.tui.solver import SolverSettings

__all__ = ["GameScreen", "SolverSettings", "Twenty48App"]
