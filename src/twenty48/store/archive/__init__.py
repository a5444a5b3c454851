"""The archive: a player's list of games, their statistics, deleting one (``operations``;
``statistics`` computes the figures from the aggregates of ``sql``)."""
