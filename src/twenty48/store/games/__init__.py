"""Games: a game's life in the store.

``operations`` (new game, move, undo, keep going, hints asked, replays and positions), ``rows``
(the transactions, the cache and a game's row, which every part shares), ``sql`` (the statements
of a game's row, its action log, checkpoints and assisted counts), ``codec`` (a ``Game`` as
stored), ``cache`` (the games kept decoded) and ``checkpoints`` (what is kept per move so that any
position is a short replay away).
"""
