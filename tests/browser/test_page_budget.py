"""The first board's weight: what the play view needs before it is playable (its html, css and js,
the player's language included; fonts apart, as for the original) stays within 60 KB in every
language. bench/page.py reports the same figures."""

from __future__ import annotations

import pytest
from pagetools import Pages

pytestmark = pytest.mark.browser

#: 60 KB.
BUDGET = 61_440

# Every file of the page the browser fetched before the first board was playable, with its size
# (as bench/page.py counts them).
FIRST_FILES = """() => {
  const ready = performance.getEntriesByName('twenty48:ready')[0].startTime;
  const page = performance.getEntriesByType('navigation')[0];
  const own = performance.getEntriesByType('resource')
    .filter((e) => new URL(e.name).pathname.startsWith('/static/') && e.responseEnd <= ready);
  return [['/', page.decodedBodySize], ...own.map((e) => [new URL(e.name).pathname, e.decodedBodySize])];
}"""


@pytest.mark.parametrize("locale", ["en-US", "ja-JP", "zh-CN"])
def test_the_first_board_fits_60_kb_in_every_language(pages: Pages, locale: str) -> None:
    page = pages.open(locale=locale)
    lang = locale.split("-")[0]
    assert page.evaluate("document.documentElement.lang") == lang
    fetched = dict(page.evaluate(FIRST_FILES))
    code = {path: size for path, size in fetched.items() if not path.endswith(".woff2")}
    # The player's strings are part of the first board; the other languages are not.
    languages = [name for name in ("ja", "zh") if f"/static/i18n-{name}.js" in code]
    assert languages == ([] if lang == "en" else [lang])
    assert all(size > 0 for size in code.values()), code
    assert sum(code.values()) <= BUDGET, (sum(code.values()), code)
