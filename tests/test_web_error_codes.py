"""The API's error codes are one enumeration: ``/openapi.json`` lists exactly its values, and no
code is spelled out anywhere else in the source, so a code the app answers is one of them."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from twenty48.store import Store
from twenty48.web import create_app
from twenty48.web.error_codes import ErrorCode

SRC = Path(__file__).parents[1] / "src" / "twenty48"
CODES = {code.value for code in ErrorCode}
#: The lower layer's own reasons, answered as codes by the web (checked below).
NAMES = SRC / "names.py"


def _constants(path: Path) -> list[tuple[int, str]]:
    return [
        (node.lineno, node.value)
        for node in ast.walk(ast.parse(path.read_text()))
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
    ]


def _reasons(path: Path, exception: str) -> set[str]:
    """The first argument of every ``exception(...)`` raised in ``path``, where it is a literal."""
    return {
        node.args[0].value
        for node in ast.walk(ast.parse(path.read_text()))
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == exception
        and node.args
        and isinstance(node.args[0], ast.Constant)
    }


# The app over HTTP (a TestClient): integration, not in `pytest -m unit`.
@pytest.mark.integration
def test_the_openapi_document_lists_the_codes_as_an_enumeration(tmp_path: Path) -> None:
    with Store.open(tmp_path / "codes.sqlite3") as store, TestClient(create_app(store)) as client:
        schemas = client.get("/openapi.json").json()["components"]["schemas"]
    assert schemas["ErrorCode"]["enum"] == [code.value for code in ErrorCode]
    assert schemas["ErrorAnswer"]["properties"]["error"]["$ref"] == "#/components/schemas/ErrorCode"


def _code_arguments(path: Path) -> list[tuple[int, str]]:
    """Literal words (``"some_code"``) given to what writes an error answer, in ``path``."""
    return [
        (node.lineno, arg.value)
        for node in ast.walk(ast.parse(path.read_text()))
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in _ANSWERING
        for arg in [*node.args, *(keyword.value for keyword in node.keywords)]
        if isinstance(arg, ast.Constant) and isinstance(arg.value, str) and _WORD.fullmatch(arg.value)
    ]


#: What writes an error answer, or carries its code to the handler that does.
_ANSWERING = {
    "error_response",
    "_error",
    "ErrorAnswer",
    "NameRefusal",
    "TooManyRequestsError",
    "UploadRefusedError",
}
_WORD = re.compile(r"[a-z]+(_[a-z]+)+")


def test_no_code_is_spelled_out_beside_the_enumeration() -> None:
    spelled = [
        f"{path.relative_to(SRC)}:{line}: {text!r}"
        for path in sorted(SRC.rglob("*.py"))
        if path not in (SRC / "web" / "error_codes.py", NAMES)
        for line, text in _constants(path)
        if text in CODES
    ]
    assert not spelled
    # A new code written as a plain string, where the enumeration's member belongs.
    unlisted = [
        f"{path.relative_to(SRC)}:{line}: {text!r}"
        for path in sorted((SRC / "web").rglob("*.py"))
        for line, text in _code_arguments(path)
    ]
    assert not unlisted


def test_every_refused_name_and_transfer_code_answers_a_code_of_the_enumeration() -> None:
    names = _reasons(NAMES, "NameRefusedError")
    assert names and names <= CODES
    transfers = {
        reason for path in (SRC / "store").rglob("*.py") for reason in _reasons(path, "TransferCodeError")
    }
    assert transfers and {f"code_{reason}" for reason in transfers} <= CODES


def test_every_code_the_api_page_names_is_one_of_the_enumeration() -> None:
    # "answers 429 `too_many_new_games`", "410 `code_expired` / `code_used`": the page's codes.
    text = (Path(__file__).parents[1] / "docs" / "api.md").read_text()
    named = set(re.findall(r"\b[1-5]\d\d `([a-z_]+)`", text))
    named |= set(re.findall(r"\b[1-5]\d\d `[a-z_]+` / `([a-z_]+)`", text))
    assert len(named) > 20
    assert named <= CODES, named - CODES
