"""The facts the page shares with Python come from one generated module, static/facts.js: the
checked-in file is what ``twenty48.web.shared_facts`` writes now, the page's modules use its names
and keep no copy of its lists or of an error code."""

from __future__ import annotations

import re

from twenty48.web.error_codes import ErrorCode
from twenty48.web.shared_facts import FACTS_JS, render

STATIC = FACTS_JS.parent
#: The page's modules but the generated one.
MODULES = sorted(path for path in STATIC.rglob("*.js") if path != FACTS_JS)
_EXPORTS = re.compile(r"^export const (\w+) = ", re.MULTILINE)
_IMPORT = re.compile(r'import \{([^}]*)\} from "(?:\./|\.\./)facts\.js"')
_MEMBER = re.compile(r"\b(ERROR|LEADERBOARD)\.(\w+)")
_QUOTED = re.compile(r"""["'`]([a-z_-]+)["'`]""")
_LIST = re.compile(r"""\[\s*["'][\w-]+["'](?:\s*,\s*["'][\w-]+["'])+\s*\]""")


def _object(name: str) -> dict[str, str]:
    """The frozen object ``name`` of the generated module."""
    body = re.search(rf"export const {name} = Object\.freeze\(\{{\n(.*?)\}}\);", render(), re.DOTALL)
    assert body is not None
    return dict(re.findall(r'^  (\w+): "([^"]*)",$', body.group(1), re.MULTILINE))


def test_the_checked_in_module_is_what_the_python_definitions_write() -> None:
    # Stale: run `python -m twenty48.web.shared_facts` and commit the file.
    assert FACTS_JS.read_text(encoding="utf-8") == render()


def test_the_error_codes_are_the_enumeration() -> None:
    assert _object("ERROR") == {code.name: code.value for code in ErrorCode}


def test_the_page_imports_only_what_the_module_exports() -> None:
    exported = set(_EXPORTS.findall(render()))
    imported = {
        name.strip()
        for path in MODULES
        for names in _IMPORT.findall(path.read_text())
        for name in names.split(",")
        if name.strip()
    }
    assert imported and imported <= exported, imported - exported


def test_every_member_the_page_names_exists() -> None:
    members = {"ERROR": _object("ERROR"), "LEADERBOARD": _object("LEADERBOARD")}
    unknown = [
        f"{path.relative_to(STATIC)}: {kind}.{name}"
        for path in MODULES
        for kind, name in _MEMBER.findall(path.read_text())
        if name not in members[kind]
    ]
    assert not unknown


def test_the_page_spells_out_no_error_code_and_copies_no_list() -> None:
    codes = {code.value for code in ErrorCode}
    spelled = [
        f"{path.relative_to(STATIC)}: {word}"
        for path in MODULES
        for word in _QUOTED.findall(path.read_text())
        if word in codes
    ]
    assert not spelled
    # A list of the page is a copy when its words are those of one list the module holds.
    lists = [set(re.findall(r'"([\w-]+)"', found)) for found in re.findall(r"= (\[.*\]);", render())]
    lists.append(set(_object("LEADERBOARD").values()))
    copies = [
        f"{path.relative_to(STATIC)}: {found}"
        for path in MODULES
        for found in _LIST.findall(path.read_text())
        if any(set(re.findall(r"[\w-]+", found)) <= words for words in lists)
    ]
    assert not copies
