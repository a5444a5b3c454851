"""Display names: what a player may be called on the leaderboards, and the key that keeps them unique.

A name is checked after NFKC normalisation (so a full-width letter is the letter it looks like, and a
ligature its letters): 1-24 characters, each a letter (carrying at most ``MAX_MARKS`` combining
marks, counted decomposed: the accent inside "á" is one of them), a digit, one of ``_-.``, or a
single space between two other characters; at least one of them a letter or a digit. Everything
else is refused by name, including what hides text or reorders it: control and format characters
(the right-to-left override U+202E, zero-width spaces and joiners), every space but the plain one
(U+0020: a no-break or ideographic space is refused as typed, before normalisation would make it
a plain one), the letters and marks that draw nothing (Hangul fillers, variation selectors) and
the ones that only stretch the letters beside them (the Arabic tatweel). Two names that differ
only in case are the same name: ``key`` (casefolded, then normalised again) is what the store
keeps unique. A name is still shown only as text (``textContent``), never as HTML.

What this does not catch: names that look alike in different scripts (a Cyrillic a for a Latin
one); the host renames or hides those (``2048 admin``).
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

MAX_LENGTH = 24
#: Combining marks one letter may carry ("é" written as e + U+0301 is one): more stack into
#: unreadable towers.
MAX_MARKS = 3
PUNCTUATION = frozenset("_-.")
#: Letters and marks by category whose glyph is empty: they would make a name look like another.
INVISIBLE = frozenset(
    {
        "\u115f",  # Hangul choseong filler
        "\u1160",  # Hangul jungseong filler
        "\u3164",  # Hangul filler
        "\uffa0",  # halfwidth Hangul filler
        "\u034f",  # combining grapheme joiner
        "\u17b4",  # Khmer vowel inherent aq
        "\u17b5",  # Khmer vowel inherent aa
        "\u180b",  # Mongolian free variation selectors one to three
        "\u180c",
        "\u180d",
        "\u180f",  # Mongolian free variation selector four
    }
    | {chr(c) for c in range(0xFE00, 0xFE10)}  # variation selectors
    | {chr(c) for c in range(0xE0100, 0xE01F0)}  # variation selectors supplement
)
#: Letters by category that only draw a line stretching their neighbours: a run of them is a bar.
STRETCHERS = frozenset({"\u0640", "\u07fa"})  # Arabic tatweel, N'Ko lajanyalan


@dataclass(frozen=True, slots=True)
class Name:
    #: The name as it is stored and shown (NFKC).
    text: str
    #: What two names must not share: ``text`` casefolded and normalised again.
    key: str


class NameRefusedError(ValueError):
    """A name that cannot be used; ``reason`` is a stable code, the message says why for people.
    For ``name_character``, ``char`` is the character refused and ``char_name`` its Unicode name
    ("" where it has none), so that a page can show it in its own words."""

    def __init__(self, reason: str, message: str, char: str | None = None) -> None:
        super().__init__(message)
        self.reason = reason
        self.char = char
        self.char_name = unicodedata.name(char, "") if char is not None else None


def check(name: str) -> Name:
    """The name as stored, or ``NameRefusedError`` saying what is wrong with it."""
    for char in name:
        # NFKC turns these into plain spaces: refused as typed, not silently changed.
        if char != " " and unicodedata.category(char).startswith("Z"):
            _refuse(char, "is not the plain space (U+0020)")
    text = unicodedata.normalize("NFKC", name)
    if not text:
        raise NameRefusedError("name_empty", "a name must have at least one character")
    if len(text) > MAX_LENGTH:
        raise NameRefusedError(
            "name_too_long", f"a name has at most {MAX_LENGTH} characters, this one {len(text)}"
        )
    if text[0] == " " or text[-1] == " ":
        raise NameRefusedError("name_spaces", "a name must not start or end with a space")
    if "  " in text:
        raise NameRefusedError("name_spaces", "a name must not have two spaces in a row")
    marks = 0
    letter_before = False
    # Whether a letter or a digit was seen: "." or "_-_" alone names nobody.
    readable = False
    for char in text:
        category = unicodedata.category(char)
        if char in INVISIBLE:
            _refuse(char, "draws nothing")
        if char in STRETCHERS:
            _refuse(char, "only stretches the letters beside it")
        if category.startswith("M"):
            marks += _marks(char)
            if not letter_before:
                _refuse(char, "is a combining mark without a letter before it")
            if marks > MAX_MARKS:
                _refuse(char, f"is more than {MAX_MARKS} combining marks on one letter")
            continue
        letter_before = category.startswith("L")
        # A composed letter brings its own marks (at most three): "á" and three accents is four.
        marks = _marks(char) if letter_before else 0
        if letter_before or category == "Nd":
            readable = True
            continue
        if char in PUNCTUATION or char == " ":
            continue
        if category.startswith("C"):
            _refuse(char, "is invisible or a control character")
        _refuse(char, "is not a letter, a digit, a space or _ - .")
    if not readable:
        raise NameRefusedError("name_no_letter", "a name must hold at least one letter or digit")
    return Name(text, unicodedata.normalize("NFKC", text.casefold()))


def _marks(char: str) -> int:
    """The combining marks in ``char`` decomposed (NFD): 1 for "á", 2 for "ệ", 1 for a lone accent."""
    return sum(unicodedata.category(part).startswith("M") for part in unicodedata.normalize("NFD", char))


def _refuse(char: str, why: str) -> None:
    label = unicodedata.name(char, "")
    shown = f"U+{ord(char):04X}" + (f" {label}" if label else "")
    raise NameRefusedError(
        "name_character",
        f"{shown} {why}: a name holds letters, digits, single spaces between them and _ - . only",
        char,
    )
