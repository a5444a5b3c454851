"""Where a database is: a file path, or a URL naming a database server (refused by name for now)."""

from __future__ import annotations

import re
from os import PathLike
from pathlib import Path

from twenty48.store.errors import StoreError

# RFC 3986's scheme syntax, followed by "://": a Windows path such as C:\games has no "//" after the colon.
_URL = re.compile(r"([A-Za-z][A-Za-z0-9+.-]*)://")

#: URL schemes of PostgreSQL (libpq accepts both).
POSTGRESQL_SCHEMES = frozenset({"postgresql", "postgres"})


def database_path(location: str | PathLike[str]) -> Path:
    """The SQLite file ``location`` names. Raises ``StoreError`` for a URL, which names a database
    server rather than a file (taken as a path it would become a folder tree named after the scheme)."""
    text = str(location)
    url = _URL.match(text)
    if url is None:
        return Path(location)
    scheme = url.group(1).lower()
    if scheme in POSTGRESQL_SCHEMES:
        # The seam for a PostgreSQL backend: the URL goes to it here once it exists.
        raise StoreError("PostgreSQL databases are not supported yet: give the path of an SQLite file")
    # Only the scheme is repeated: the rest of a URL may hold a password.
    raise StoreError(
        f"{scheme}:// URLs are not databases this program can open: give the path of an SQLite file"
    )
