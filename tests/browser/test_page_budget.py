"""The first board's weight: what the play view needs before it is playable (its html, css and js,
the player's language included; fonts apart, as for the original) stays within 60 KB in every
language. bench/page.py reports the same figures."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest
from pagetools import Pages

pytestmark = pytest.mark.browser

#: 60 KB.
BUDGET = 61_440

# The files are counted by bench/page.py's own query, so the budget and the bench's figure agree.
_SPEC = importlib.util.spec_from_file_location("bench_page", Path(__file__).parents[2] / "bench" / "page.py")
assert _SPEC is not None and _SPEC.loader is not None
_BENCH = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(_BENCH)
FIRST_FILES = _BENCH.FIRST_FILES


@pytest.mark.parametrize("locale", ["en-US", "ja-JP", "zh-CN"])
def test_the_first_board_fits_60_kb_in_every_language(pages: Pages, locale: str) -> None:
    page = pages.open(locale=locale)
    lang = locale.split("-")[0]
    assert page.evaluate("document.documentElement.lang") == lang
    fetched = dict(page.evaluate(FIRST_FILES))
    code = _BENCH.code_bytes(list(fetched.items()))
    # The player's strings are part of the first board; the other languages are not.
    languages = [name for name in ("ja", "zh") if f"/static/strings/play.{name}.js" in code]
    assert languages == ([] if lang == "en" else [lang])
    assert all(size > 0 for size in code.values()), code
    assert sum(code.values()) <= BUDGET, (sum(code.values()), code)
