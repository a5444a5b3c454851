"""Where a database is: an SQLite file's path, or a PostgreSQL URL (``opening`` opens either).

``--db`` of every command, and ``bench/web.py``, go through ``parse_location``:
``postgresql://...`` and ``postgres://...`` (libpq's two schemes) name a PostgreSQL database;
another ``scheme://`` is refused by its scheme; anything else is an SQLite file's path.
"""

from __future__ import annotations

import re
from os import PathLike
from pathlib import Path

from twenty48.store.errors import StoreError

# RFC 3986's scheme syntax, followed by "://": a Windows path such as C:\games has no "//" after the colon.
_URL = re.compile(r"([A-Za-z][A-Za-z0-9+.-]*)://")

#: URL schemes of PostgreSQL (libpq accepts both).
POSTGRESQL_SCHEMES = frozenset({"postgresql", "postgres"})

#: A database's location: an SQLite file's path, or a PostgreSQL URL (a ``str``).
Location = Path | str


def parse_location(location: str | PathLike[str]) -> Location:
    """The PostgreSQL URL (as given) or the SQLite path ``location`` names. Raises ``StoreError``
    for a URL of another scheme (taken as a path it would become a folder tree named after it)."""
    text = str(location)
    url = _URL.match(text)
    if url is None:
        return Path(location)
    scheme = url.group(1).lower()
    if scheme in POSTGRESQL_SCHEMES:
        # Schemes are case-insensitive (RFC 3986); libpq reads only the lower-case ones.
        return scheme + text[len(scheme) :]
    # Only the scheme is repeated: the rest of a URL may hold a password.
    raise StoreError(
        f"{scheme}:// URLs are not databases this program can open: give the path of an SQLite file "
        "or a postgresql:// URL"
    )


def redact(text: str) -> str:
    """``text`` (a URL, or a message quoting one) for people to read: every password in it
    (``user:secret@`` or ``password=secret``) replaced by ``***``. Everything from the user's colon
    to the last ``@`` before the query is taken as the password, so that one with an unescaped
    ``@`` or ``/`` in it is hidden whole."""
    text = re.sub(r"(://[^/@:?\s]*):[^?\s]*@", r"\1:***@", text)
    return re.sub(r"(password\s*=\s*)('[^']*'|[^&\s]*)", r"\1***", text)


def is_postgres(location: str | PathLike[str] | None) -> bool:
    return location is not None and isinstance(parse_location(location), str)


def database_path(location: str | PathLike[str]) -> Path:
    """The SQLite file ``location`` names; raises ``StoreError`` for any URL."""
    found = parse_location(location)
    if isinstance(found, str):
        raise StoreError("this needs an SQLite file, not a PostgreSQL URL")
    return found
