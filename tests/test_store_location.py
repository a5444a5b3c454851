"""Where a database is: PostgreSQL URLs as libpq reads them, and passwords kept out of every message."""

from __future__ import annotations

import logging

import pytest

from twenty48.cli import main
from twenty48.store import Store, StoreError, parse_location, redact


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        ("postgresql://ada:hunter2@db/app", "postgresql://ada:***@db/app"),
        (
            "postgres://ada:hunter2@db:5432/app?sslmode=require",
            "postgres://ada:***@db:5432/app?sslmode=require",
        ),
        # An unescaped @ or / in the password: hidden whole, up to the host's @.
        ("postgresql://ada:p@ss@db/app", "postgresql://ada:***@db/app"),
        ("postgresql://ada:pw/x@db/app", "postgresql://ada:***@db/app"),
        (
            "postgresql://ada@db/app?password=hunter2&sslmode=require",
            "postgresql://ada@db/app?password=***&sslmode=require",
        ),
        ("host=db password='hunter 2' user=ada", "host=db password=*** user=ada"),
        ("postgresql://ada@db/app", "postgresql://ada@db/app"),
        ("postgresql:///app?host=/run/postgresql", "postgresql:///app?host=/run/postgresql"),
    ],
)
def test_redact_hides_every_password(url: str, shown: str) -> None:
    assert redact(url) == shown
    assert redact(f'could not parse "{url}" here') == f'could not parse "{shown}" here'


def test_a_scheme_in_capitals_is_read_as_libpq_reads_lower_case() -> None:
    assert parse_location("POSTGRESQL://ada@db/app") == "postgresql://ada@db/app"
    assert parse_location("Postgres://ada@db/app") == "postgres://ada@db/app"


@pytest.mark.parametrize(
    "url",
    [
        "postgresql://ada:hunter2@%zz/app",
        "postgresql://ada:hunter2@[::1:1/app",
        "postgresql://ada:hunter2@127.0.0.1:1/app?sslmode=bogus",
        "POSTGRESQL://ada:hunter2@127.0.0.1:1/app?connect_timeout=2",
    ],
)
def test_a_bad_or_unreachable_url_is_one_line_without_the_password(url: str, capsys) -> None:
    with pytest.raises(StoreError) as info:
        Store.open(url)
    assert "hunter2" not in str(info.value) and "\n" not in str(info.value)
    assert main(["history", "--db", url]) == 1
    err = capsys.readouterr().err
    assert "hunter2" not in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_the_pools_reconnect_warnings_are_one_line_without_the_password(caplog) -> None:
    import twenty48.store.backends.postgres  # noqa: F401  (the filter comes with the backend)

    url = "postgresql://ada:hunter2@db/app"
    with caplog.at_level(logging.WARNING, logger="psycopg.pool"):
        logging.getLogger("psycopg.pool").warning(
            "error connecting in %r: %s",
            "twenty48",
            f'connection to "{url}" failed:\n\tIs the server running?',
        )
    (record,) = caplog.records
    assert record.getMessage() == (
        "error connecting in 'twenty48': connection to \"postgresql://ada:***@db/app\" failed: "
        "Is the server running?"
    )
