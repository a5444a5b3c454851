"""The import running in a server process (``twenty48.web.imports``): one at a time, stopped when the
server shuts down."""

from __future__ import annotations

import contextlib
import math
import time
from collections.abc import Iterator

from twenty48.store import ImportBudget


class ImportsBusyError(Exception):
    """This process is running another import, or shutting down; ``retry_after`` in seconds."""

    def __init__(self, message: str, retry_after: int) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class ImportGate:
    """The import running in this process: one at a time, each stopped when the server shuts down."""

    def __init__(self) -> None:
        self.running: ImportBudget | None = None
        self._closed = False

    @contextlib.contextmanager
    def enter(self, seconds: float) -> Iterator[ImportBudget]:
        """The budget of a new import, for as long as it runs; ``ImportsBusyError`` if one runs."""
        if self._closed:
            raise ImportsBusyError("the server is shutting down", 5)
        if self.running is not None:
            left = self.running.seconds - (time.monotonic() - self.running.started)
            raise ImportsBusyError("the server is importing another file", max(1, math.ceil(left)))
        self.running = budget = ImportBudget(seconds)
        try:
            yield budget
        finally:
            self.running = None

    def open(self) -> None:
        self._closed = False

    def close(self) -> None:
        """Stop the running import and take no more (the server is shutting down)."""
        self._closed = True
        if self.running is not None:
            self.running.stop("the server is shutting down")
