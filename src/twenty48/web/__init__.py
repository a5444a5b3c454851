"""The browser game's server: ``create_app(store)`` builds the FastAPI application."""

from twenty48.web.app import create_app

__all__ = ["create_app"]
