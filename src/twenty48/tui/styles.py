"""The values the stylesheets read as CSS variables, taken from their one Python definition.

The palette's colours (``twenty48.palette``) and the board's geometry (``twenty48.tui.widgets``) are
used by Python code as well as by the styles, so the ``.tcss`` file and the widgets' default CSS
name them as variables (``$palette-frame``, ``$side-width``...) instead of repeating their values.
``Twenty48App.get_css_variables`` adds these to Textual's own.
"""

from __future__ import annotations

from twenty48.palette import ACCENT, BUTTON, FRAME, FRAME_16, LIGHT_TEXT, PAGE, PALETTES, TEXT, TRUE_COLOUR
from twenty48.tui import dialogs
from twenty48.tui.widgets import GAP_X, GAP_Y, MINIMUM, PAD_X, PAD_Y, SIDE_WIDTH

#: Nothing shades the screen behind a dialog: it shows through, board and all.
_NO_SHADE = {
    "dialog-backdrop": "transparent",
    "win-backdrop": "transparent",
    "game-over-backdrop": "transparent",
}
_WEB_COLOURS = {
    "palette-page": PAGE,
    "palette-text": TEXT,
    "palette-frame": FRAME,
    "palette-border": FRAME,
    "palette-light-text": LIGHT_TEXT,
    "palette-button": BUTTON,
    "palette-accent": ACCENT,
}
#: The screen's own colours per palette. Only true colour shades the screen behind a dialog (the win
#: dialog with the 2048 tile's colour, game over with the 2 tile's): a translucent shade mixes colours
#: a 256- or 16-colour terminal does not have, and its nearest ones tinted the whole screen pink and
#: hid the digits of the 8 to 64 tiles; a named colour is never translucent, so a shade of it painted
#: the whole screen solid over the board.
_SCREEN_COLOURS: dict[str, dict[str, str]] = {
    "truecolor": {
        **_WEB_COLOURS,
        "dialog-backdrop": f"{PAGE} 60%",
        "win-backdrop": f"{TRUE_COLOUR[2048].background} 50%",
        "game-over-backdrop": f"{TRUE_COLOUR[2].background} 73%",
    },
    # The web colours, which Textual downgrades well enough outside the board.
    "256": {
        **_WEB_COLOURS,
        **_NO_SHADE,
    },
    # The terminal's own background and text; named colours for the rest.
    "16": {
        "palette-page": "ansi_default",
        "palette-text": "ansi_default",
        "palette-frame": FRAME_16,
        # A line on the terminal's own background: its text colour shows on a dark or a light one
        # (the frame's black vanished on a dark terminal).
        "palette-border": "ansi_default",
        "palette-light-text": "ansi_bright_white",
        "palette-button": "ansi_blue",
        "palette-accent": "ansi_red",
        **_NO_SHADE,
    },
}


def css_variables(palette: str) -> dict[str, str]:
    """Variable name (without the ``$``) -> value, for ``palette`` (a key of ``PALETTES``). The
    palette's names carry a ``palette-`` prefix because Textual's own widgets read variables of the
    bare names (``$text``, ``$accent``)."""
    tiles = PALETTES[palette]
    return {
        **_SCREEN_COLOURS[palette],
        # The win dialog's border wears the 2048 tile's colour.
        "tile-2048": tiles[2048].background,
        **_SIZES,
    }


_SIZES: dict[str, str] = {
    "side-width": str(SIDE_WIDTH),
    "board-gap-x": str(GAP_X),
    "board-gap-y": str(GAP_Y),
    "board-pad-x": str(PAD_X),
    "board-pad-y": str(PAD_Y),
    "board-min-width": str(MINIMUM.width),
    "board-min-height": str(MINIMUM.height),
    "dialog-min-width": str(dialogs.MIN_WIDTH),
    "dialog-max-width": str(dialogs.MAX_WIDTH),
}
