"""Players: keys, display names, hiding, transfer codes, the host's listing (``operations``; the
statements in ``sql``)."""
