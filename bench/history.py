"""History at scale: statistics, a replay page and the game list for a player with 10,000 games.

Builds a fresh database (a temporary file unless ``--db``): game *i* is ``Game.new(seed + i)``
played to its end by seeded random legal moves, stored with ``Store.add_game`` (the store's own
path for a played game: its state, its moves, its checkpoints and first reaches, one
transaction each; group commit with one flush at the end, as the server runs). The newest
finished game is played by the solver at depth 2 instead (from the first seed on whose game
lasts 2,000 moves or more), so that it is long enough for pages of 1,000 moves anywhere in it.
Then it times, on the open store:

- ``stats``: ``store.stats(player, "classic")`` (and ``assisted=False``) over every finished game;
- ``positions``: ``store.positions(player, long_game, first, 1000)`` at random ``first``, and at
  the worst ``first`` (a multiple of 100: 1,099 moves replayed for 1,000 returned), also with the
  API's JSON answer written (``positions_json``: what GET /api/games/{id}/positions sends);
- ``history``: the first page of ``store.games`` newest first and by score, and a page deep in
  the list (``before`` the median game).

Each is called ``--repeat`` times; p95 and p50 are of wall-clock time, ``cpu_p50`` of the
process's CPU time (steadier when other programs load the machine). Prints one JSON line.
"""

from __future__ import annotations

import argparse
import json
import random
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from timing import timed
from twenty48.ai import best_move
from twenty48.game import Game
from twenty48.store import Store
from twenty48.store.games.checkpoints import CHECKPOINT_EVERY
from twenty48.web.history_models import positions_json

PAGE = 1000


def random_game(seed: int) -> Game:
    game = Game.new(seed)
    rng = random.Random(seed)
    while not game.over:
        game.play(rng.choice(game.board.legal_moves()))
    return game


def solver_game(seed: int) -> Game:
    """The first solver game from ``seed`` on with room for two pages of moves."""
    while True:
        game = Game.new(seed)
        while not game.over:
            game.move(best_move(game, depth=2))
        if game.moves >= 2 * PAGE:
            return game
        seed += 1


def build(store: Store, games: int, seed: int) -> tuple[int, int]:
    """The player and the long game's id."""
    player = store.local_player().id
    for i in range(games - 1):
        store.add_game(player, random_game(seed + i))
    long_id = store.add_game(player, solver_game(seed + games - 1)).id
    # The long game becomes finished, as every other one is, when a newer game starts.
    store.new_game(player, seed=seed + games)
    store.flush()
    return player, long_id


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--repeat", type=int, default=60)
    parser.add_argument("--db", type=Path, default=None, help="build here instead of a temporary file")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        path = args.db or Path(scratch) / "history.sqlite3"
        started = time.perf_counter()
        with Store.open(path, group_commit=True) as store:
            player, long_id = build(store, args.games, args.seed)
            build_s = time.perf_counter() - started
            moves = store.get_game(player, long_id).moves
            rng = random.Random(args.seed)
            starts = [rng.randrange(moves - PAGE) for _ in range(args.repeat + 1)]
            worst = [k * CHECKPOINT_EVERY for k in range(1, (moves - PAGE) // CHECKPOINT_EVERY + 1)]
            middle = store.games(player, limit=args.games // 2)[-1].id

            def page(firsts: list[int], answer: bool = False) -> Callable[[], object]:
                it = iter(firsts * (args.repeat + 1))
                if answer:
                    return lambda: positions_json(store.positions(player, long_id, next(it), PAGE))
                return lambda: store.positions(player, long_id, next(it), PAGE)

            repeat = args.repeat
            figures = {
                "stats": timed(lambda: store.stats(player, "classic"), repeat),
                "stats_unassisted": timed(lambda: store.stats(player, "classic", assisted=False), repeat),
                "positions_1000": timed(page(starts), repeat),
                "positions_1000_worst": timed(page(worst), repeat),
                "positions_1000_worst_json": timed(page(worst, answer=True), repeat),
                "history_page": timed(lambda: store.games(player, limit=20), repeat),
                "history_by_score": timed(lambda: store.games(player, limit=20, sort="score"), repeat),
                "history_deep_page": timed(lambda: store.games(player, limit=20, before=middle), repeat),
            }
            finished = store.stats(player, "classic").finished
    print(
        json.dumps(
            {
                "games": args.games,
                "finished": finished,
                "long_game_moves": moves,
                "build_s": round(build_s, 1),
                **figures,
            }
        )
    )


if __name__ == "__main__":
    main()
