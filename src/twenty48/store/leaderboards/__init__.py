"""Leaderboards: the all-time and daily leaderboards and the public replays of their games
(``operations``; the statements in ``sql``)."""
