"""The page's words, one pattern for every part (i18n.js): a part's words are in
static/strings/PART.LANG.js, one module per language, and the page fetches only the reader's.
So nothing but this test sees all three languages side by side: every part has every key in English,
Japanese and Chinese, with the same placeholders; no two parts share a key (they are merged into one
table per language); every part is loaded by some module, and every load names a part."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from twenty48.web.app import STATIC
from twenty48.web.error_codes import ErrorCode

STRINGS = STATIC / "strings"
LANGUAGES = ("en", "ja", "zh")
#: The play view's words: fetched by ``I18n.apply``, not ``load``.
FIRST = "play"

# A strings module is `export default {...};` after imports of facts.js: keys (names or quoted),
# values in double quotes or backquotes (a fact as `${NAME}`), plural forms as nested objects.
_TOKEN = re.compile(r'\s+|//[^\n]*|"(?:\\.|[^"\\])*"|`[^`]*`|[A-Za-z_$][\w$]*|[{}:,]')
_IMPORTS = r"(?:import \{[\w, ]+\} from \"\.\./facts\.js\";\n)*\n?"
_BODY = re.compile(rf"\A{_IMPORTS}export default (\{{.*\}});\n\Z", re.DOTALL)
_PLACEHOLDER = re.compile(r"\{(\w+)\}|\$\{(\w+)\}")


def read_words(text: str) -> dict[str, Any]:
    """The object a strings module exports, as JSON would hold it (a backquoted value as its text)."""
    body = _BODY.match(text)
    assert body is not None, "not `export default {...};` after imports of facts.js"
    source = body.group(1)
    pieces: list[str] = []
    at = 0
    while at < len(source):
        token = _TOKEN.match(source, at)
        assert token is not None, f"cannot read {source[at : at + 40]!r}"
        at = token.end()
        word = token.group()
        if word.isspace() or word.startswith("//"):
            continue
        if word.startswith("`"):
            word = json.dumps(word[1:-1])
        elif word[0].isalpha() or word[0] in "_$":
            word = json.dumps(word)
        elif word == "}" and pieces and pieces[-1] == ",":
            pieces.pop()  # JSON has no trailing comma
        pieces.append(word)
    words: dict[str, Any] = json.loads("".join(pieces))
    return words


def core() -> dict[str, str]:
    """i18n.js's own English, said before any language's words came: part of the play view's."""
    source = (STATIC / "i18n.js").read_text()
    found = re.search(r"^const CORE = (\{.*?\n\});$", source, re.MULTILINE | re.DOTALL)
    assert found is not None
    return read_words(f"export default {found.group(1)};\n")


def parts() -> dict[str, dict[str, dict[str, Any]]]:
    """Every part's words by language."""
    found: dict[str, dict[str, dict[str, Any]]] = {}
    for path in sorted(STRINGS.glob("*.js")):
        part, lang = path.stem.rsplit(".", 1)
        found.setdefault(part, {})[lang] = read_words(path.read_text(encoding="utf-8"))
    found[FIRST]["en"] = {**core(), **found[FIRST]["en"]}
    return found


def placeholders(text: str | dict[str, str]) -> set[str]:
    forms = text.values() if isinstance(text, dict) else [text]
    return {a or b for form in forms for a, b in _PLACEHOLDER.findall(form)}


def test_every_part_says_every_word_in_all_three_languages() -> None:
    for part, by_lang in parts().items():
        assert sorted(by_lang) == sorted(LANGUAGES), part
        english = by_lang["en"]
        for lang in LANGUAGES:
            words = by_lang[lang]
            assert set(words) == set(english), (
                part,
                lang,
                sorted(set(english) - set(words)),
                sorted(set(words) - set(english)),
            )
            for key, text in words.items():
                assert text, (part, lang, key)
                # A sentence that drops {n} (or adds one) says something else.
                assert placeholders(text) == placeholders(english[key]), (part, lang, key)
                if isinstance(text, dict):
                    assert "other" in text, (part, lang, key)


def test_two_parts_share_a_key_only_with_the_same_words() -> None:
    # The parts' words are merged into one table per language: a key in two parts ("boardSize": the
    # new-game dialog's and the views') must say the same in both, whichever came last.
    seen: dict[str, tuple[str, dict[str, Any]]] = {}
    for part, by_lang in parts().items():
        for key in by_lang["en"]:
            words = {lang: by_lang[lang][key] for lang in LANGUAGES}
            first, before = seen.setdefault(key, (part, words))
            assert before == words, (key, first, part)


def test_only_the_settings_words_name_an_error_code() -> None:
    # player-ui.js shows a refusal in the page's words when some part has a word for its code.
    codes = {code.value for code in ErrorCode}
    named = {part: sorted(codes & set(by_lang["en"])) for part, by_lang in parts().items()}
    assert {part for part, keys in named.items() if keys} == {"settings"}
    assert "name_taken" in named["settings"]


def test_every_part_is_loaded_and_every_load_has_its_words() -> None:
    modules = [p for p in STATIC.rglob("*.js") if STRINGS not in p.parents]
    loaded = {part for path in modules for part in re.findall(r'\.load\("([\w-]+)"\)', path.read_text())}
    assert loaded | {FIRST} == set(parts())
    # The play view's are fetched by name, as every part's are (at a new address after a failure).
    assert "`./strings/${part}.${lang}.js${again}`" in (STATIC / "i18n.js").read_text()


@pytest.mark.parametrize(
    ("text", "words"),
    [
        (
            'export default {\n  a: "x, y: z", "b-c": `n ${MAX}`,\n'
            '  // why\n  d: { one: "{n}", other: "{n}s" },\n};\n',
            {"a": "x, y: z", "b-c": "n ${MAX}", "d": {"one": "{n}", "other": "{n}s"}},
        ),
        ('import { MAX } from "../facts.js";\n\nexport default { a: "\\"q\\"" };\n', {"a": '"q"'}),
    ],
)
def test_the_reader_reads_the_strings_modules_shape(text: str, words: dict[str, Any]) -> None:
    assert read_words(text) == words
