"""Reviews: stored game reviews and their jobs' state, across processes (``operations``; the
statements in ``sql``)."""
