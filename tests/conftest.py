"""Suite-wide pytest setup."""

from __future__ import annotations

import pytest


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    # Sync Playwright keeps an event loop running in the main thread; async tests (Textual's
    # pilot) that run after it fail. Browser tests therefore run last, in their collected order.
    items.sort(key=lambda item: item.get_closest_marker("browser") is not None)
