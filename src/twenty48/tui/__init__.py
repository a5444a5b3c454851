"""The terminal game: ``2048 play``. ``Twenty48App`` is the Textual app; the other modules hold its
palette, widgets, dialogs and the saved session."""

from twenty48.tui.app import GameScreen, SolverSettings, Twenty48App

__all__ = ["GameScreen", "SolverSettings", "Twenty48App"]
