"""The web app manifest: what a browser needs to install the page as an app, in the player's language.

The manifest's own localization (``name_localized`` and the like) reaches only browsers that
implement it, so the server also answers each language at its own address (``?lang=``, which the page
links with its language; without it, the request's ``Accept-Language``): the top-level name and
description are in that language, with ``lang`` and ``dir`` saying so. Chromium installs an app
under the top-level name; the ``*_localized`` members let a browser that reads them pick the name
of the device's language instead.
"""

from __future__ import annotations

from typing import Any, Literal

from twenty48.palette import PAGE, PAGE_DARK

Language = Literal["en", "ja", "zh"]
LANGUAGES: tuple[Language, ...] = ("en", "ja", "zh")
DEFAULT: Language = "en"

#: The name under the home-screen icon: the game's, the same in every language.
SHORT_NAME = "2048"
#: (name, description) by language; the description is the page's own line under its title, whose
#: full-width punctuation is the languages' own.
TEXTS: dict[Language, tuple[str, str]] = {
    "en": ("2048 puzzle game", "Join the tiles, get to 2048!"),
    "ja": ("2048 パズルゲーム", "タイルを合わせて2048へ！"),  # noqa: RUF001
    "zh": ("2048 益智游戏", "合并方块，得到 2048！"),  # noqa: RUF001
}
#: The icons' files under /static/icons/ (drawn by tools/draw_icons.py): (file, size, purpose).
ICONS: tuple[tuple[str, int, str], ...] = (
    ("icon-192.png", 192, "any"),
    ("icon-512.png", 512, "any"),
    ("maskable-512.png", 512, "maskable"),
)
#: The iOS home-screen icon (Safari reads a <link rel="apple-touch-icon">, not the manifest).
APPLE_TOUCH_ICON = "apple-touch-icon.png"


def language(asked: Language | None, accept_language: str) -> Language:
    """``asked`` if given; otherwise the browser's most preferred language (``Accept-Language``, by
    its q-values, then its order) that the page speaks; otherwise English."""
    if asked is not None:
        return asked
    preferred = []
    for position, part in enumerate(accept_language.split(",")):
        tag, *params = (piece.strip() for piece in part.split(";"))
        quality = next((_quality(p[2:]) for p in params if p.startswith("q=")), 1.0)
        base = tag.lower().split("-")[0]
        if quality > 0 and base in LANGUAGES:
            preferred.append((-quality, position, base))
    return min(preferred)[2] if preferred else DEFAULT


def _quality(text: str) -> float:
    try:
        return float(text)
    except ValueError:
        return 0.0


def manifest(lang: Language) -> dict[str, Any]:
    """The manifest in ``lang``."""
    name, description = TEXTS[lang]
    return {
        # The app is the same app in every language: its id does not follow the address asked for.
        "id": "/",
        "name": name,
        "short_name": SHORT_NAME,
        "description": description,
        "lang": lang,
        "dir": "ltr",
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "theme_color": PAGE,
        "background_color": PAGE,
        # For the dark theme (a proposed member: browsers that do not read it keep the light colours).
        "color_scheme_dark": {"theme_color": PAGE_DARK, "background_color": PAGE_DARK},
        "icons": [
            {"src": f"/static/icons/{file}", "sizes": f"{px}x{px}", "type": "image/png", "purpose": purpose}
            for file, px, purpose in ICONS
        ],
        "name_localized": {code: {"value": TEXTS[code][0], "lang": code, "dir": "ltr"} for code in LANGUAGES},
        "description_localized": {
            code: {"value": TEXTS[code][1], "lang": code, "dir": "ltr"} for code in LANGUAGES
        },
    }
