"""Per-player limits in the database: the new-game rate, the hint and the import in flight
(``operations``; the statements in ``sql``)."""
