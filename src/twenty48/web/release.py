"""The page's release and the service worker that keeps it: an id from the content of the page's
files (any change to any of them is a new release), and the worker's script, which names that
release and the files the page needs to open."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

#: The worker's own source, in the page's directory so that its changes are a new release too.
WORKER = "sw.js"
#: Shown on demand and kept once used, not fetched ahead (the views need the server anyway).
LATER = "views"
#: What a browser fetches of the page's files (the fonts' licence is there to be read, not loaded).
_LOADED = frozenset({".html", ".css", ".js", ".woff2", ".png", ".svg"})


def _files(static: Path) -> list[Path]:
    return sorted(p for p in static.rglob("*") if p.is_file() and not p.name.startswith("."))


def release_id(static: Path) -> str:
    """16 hex digits from every file's path and content."""
    digest = hashlib.sha256()
    for path in _files(static):
        digest.update(path.relative_to(static).as_posix().encode() + b"\0")
        digest.update(hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()[:16]


def shell(static: Path) -> list[str]:
    """The addresses the page needs to open without a network: itself, and its files but the views
    and the worker. index.html is kept as ``/``, the address it is opened by."""
    names = [p.relative_to(static).as_posix() for p in _files(static) if p.suffix in _LOADED]
    kept = [n for n in names if n not in (WORKER, "index.html") and not n.startswith(LATER + "/")]
    return ["/", *(f"/static/{name}" for name in kept)]


def worker_script(static: Path) -> bytes:
    """The service worker as served from ``/sw.js``: its release and files, then its source."""
    head = f"const RELEASE = {json.dumps(release_id(static))};\nconst SHELL = {json.dumps(shell(static))};\n"
    return head.encode() + (static / WORKER).read_bytes()
