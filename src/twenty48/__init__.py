"""2048 exactly as its official rules define it.

from twenty48 import Board, BoardSize, Direction, Game
"""

from importlib.metadata import PackageNotFoundError, version

from twenty48.game import Game, Turn
from twenty48.rules import Board, BoardSize, Direction, MoveResult

try:
    __version__ = version("twenty48")
except PackageNotFoundError:  # running from a source tree that was never installed
    __version__ = "0+unknown"

__all__ = ["Board", "BoardSize", "Direction", "Game", "MoveResult", "Turn", "__version__"]
