"""The values the stylesheets read as CSS variables, taken from their one Python definition.

The palette's colours (``twenty48.palette``) and the board's geometry (``twenty48.tui.widgets``) are
used by Python code as well as by the styles, so the ``.tcss`` file and the widgets' default CSS
name them as variables (``$palette-frame``, ``$side-width``...) instead of repeating their values.
``Twenty48App.get_css_variables`` adds these to Textual's own.
"""

from __future__ import annotations

from twenty48.palette import ACCENT, BUTTON, FRAME, LIGHT_TEXT, PAGE, TEXT, TRUE_COLOUR
from twenty48.tui.widgets import GAP_X, GAP_Y, MINIMUM, PAD_X, PAD_Y, SIDE_WIDTH

#: Variable name (without the ``$``) -> value. The palette's names carry a ``palette-`` prefix because
#: Textual's own widgets read variables of the bare names (``$text``, ``$accent``).
CSS_VARIABLES: dict[str, str] = {
    "palette-page": PAGE,
    "palette-text": TEXT,
    "palette-frame": FRAME,
    "palette-light-text": LIGHT_TEXT,
    "palette-button": BUTTON,
    "palette-accent": ACCENT,
    # The dialogs borrow two tiles' colours: the first tile for game over, the 2048 tile for a win.
    "tile-2": TRUE_COLOUR[2].background,
    "tile-2048": TRUE_COLOUR[2048].background,
    "side-width": str(SIDE_WIDTH),
    "board-gap-x": str(GAP_X),
    "board-gap-y": str(GAP_Y),
    "board-pad-x": str(PAD_X),
    "board-pad-y": str(PAD_Y),
    "board-min-width": str(MINIMUM.width),
    "board-min-height": str(MINIMUM.height),
}
