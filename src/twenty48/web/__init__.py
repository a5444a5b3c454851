"""The browser game's server: ``create_app(store)`` builds the FastAPI application.

``create_app`` is loaded on first use, so that importing a light module of this package (the
``serve`` command's defaults in ``twenty48.web.limits``) does not load FastAPI.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from twenty48.web.app import create_app

__all__ = ["create_app"]


def __getattr__(name: str) -> Any:
    if name == "create_app":
        from twenty48.web.app import create_app

        return create_app
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
