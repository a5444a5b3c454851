"""What the forecast adds to one answer: a game state built and written as JSON, with and without it.

Games of seeded random legal moves are stored in a fresh database; each state is then built from its
store record (``GameState.of``) and serialised (``model_dump_json``), as every answer that carries a
state does. The same records marked finished (a finished game forecasts nothing) give the cost
without the forecast. Prints one JSON line: microseconds per answer, with, without and the
difference, and the bytes per state with the forecast and without.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import random
import tempfile
import timeit
from collections.abc import Callable
from pathlib import Path

from twenty48.game import Game
from twenty48.store import GameRecord, Store
from twenty48.web.models import GameState


def stored_games(store: Store, games: int) -> list[GameRecord]:
    player = store.web_player("bench-forecast-" + "0" * 28).id
    rng = random.Random(1)
    records = []
    for seed in range(games):
        game = Game.new(seed)
        for _ in range(rng.randrange(400)):
            if game.over:
                break
            game.move(rng.choice(game.board.legal_moves()))
        records.append(store.add_game(player, game))
    return [r for r in records if not r.finished]


def mean_bytes(records: list[GameRecord]) -> int:
    return round(sum(len(GameState.of(r).model_dump_json()) for r in records) / len(records))


def per_answer_us(records: list[GameRecord], answer: Callable[[GameRecord], str]) -> float:
    def run() -> None:
        for record in records:
            answer(record)

    return min(timeit.repeat(run, number=20, repeat=7)) / 20 / len(records) * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--games", type=int, default=100, help="games to store (the unfinished are used)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as directory, Store.open(Path(directory) / "bench.sqlite3") as store:
        records = stored_games(store, args.games)
    finished = [dataclasses.replace(r, current=False) for r in records]
    with_us = per_answer_us(records, lambda r: GameState.of(r).model_dump_json())
    without_us = per_answer_us(finished, lambda r: GameState.of(r).model_dump_json())
    print(
        json.dumps(
            {
                "states": len(records),
                "with_forecast_us": round(with_us, 1),
                "without_us": round(without_us, 1),
                "forecast_us": round(with_us - without_us, 1),
                "bytes_with": mean_bytes(records),
                "bytes_without": mean_bytes(finished),
            }
        )
    )


if __name__ == "__main__":
    main()
