"""Ranking: ranked games, daily challenges, new visitors' first games, the server's secrets
(``operations``; the statements in ``sql``, the pace check's among them)."""
