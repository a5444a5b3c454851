"""The backends, each holding only what differs from the other (neither imports the other):
``sqlite`` (a file: recognition and checks, ``BEGIN IMMEDIATE``, busy and damage errors, the
version in the header) with ``sqlite_durability`` (WAL, group commit, setting a file aside), and
``postgres`` (a server: the pool, row locks, the version table, its errors) with
``postgres_dialect`` (the shared SQL's placeholders and types as PostgreSQL takes them)."""
