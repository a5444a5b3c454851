"""Which colours the terminal shows: the colour system Textual will use (``TEXTUAL_COLOR_SYSTEM``, or
what Rich detects from ``COLORTERM`` and ``TERM``), the board's palette for it, and drawing without
any colour where the terminal shows none (``TERM=dumb``)."""

from __future__ import annotations

import io

from rich.console import COLOR_SYSTEMS as RICH_COLOR_SYSTEMS
from rich.console import Console
from rich.segment import Segment
from textual import constants
from textual.color import Color
from textual.filter import LineFilter

#: What ``TEXTUAL_COLOR_SYSTEM`` may say (Rich's colour systems, and Textual's default "auto").
COLOR_SYSTEMS = ("auto", *RICH_COLOR_SYSTEMS)


def check_color_system() -> None:
    """Raise ValueError (one line, naming the values allowed) when ``TEXTUAL_COLOR_SYSTEM`` names no
    colour system: Textual would end in a KeyError before drawing anything."""
    if constants.COLOR_SYSTEM not in COLOR_SYSTEMS:
        raise ValueError(
            f"TEXTUAL_COLOR_SYSTEM must be one of {', '.join(COLOR_SYSTEMS)} (or unset), "
            f"got {constants.COLOR_SYSTEM[:40]!r}"
        )


def palette_for(color_system: str | None) -> str:
    """The palette for a Rich colour system: true colour and 256 colours have their own; 16 colours,
    the Windows console's and none at all (``TERM=dumb``) get the 16-colour one."""
    return color_system if color_system in ("truecolor", "256") else "16"


def detected_color_system() -> str | None:
    """The colour system Textual's console will detect: Rich's rules on ``COLORTERM`` and ``TERM``
    (``truecolor``/``24bit``; ``*-256color``; other terminals 16 colours; ``dumb`` none: None),
    unless ``TEXTUAL_COLOR_SYSTEM`` names one."""
    check_color_system()
    console = Console(
        color_system=constants.COLOR_SYSTEM, file=io.StringIO(), force_terminal=True, legacy_windows=False
    )
    return console.color_system


def detected_palette() -> str:
    """The palette for this terminal (``palette_for`` its ``detected_color_system``)."""
    return palette_for(detected_color_system())


class WithoutColour(LineFilter):
    """Takes every colour out of what is drawn, keeping bold and reverse: a terminal that shows no
    colour (``TERM=dumb``) is sent no colour code at all (Textual's own ``NO_COLOR`` filter still
    sends the default colours' codes)."""

    def apply(self, segments: list[Segment], background: Color) -> list[Segment]:
        return [
            Segment(text, None if style is None else style.without_color, control)
            for text, style, control in segments
        ]
