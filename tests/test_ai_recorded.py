"""The search's values, bit for bit, against those the kernel gave before it was made faster.

``tests/data/solver_values.jsonl`` was written by the expectimax kernel as it stood at commit
dd1c107 (before the incremental leaf evaluation): every one of the 1,403 late-game positions of
``bench/data/late_positions.jsonl`` and 228 mid-game positions (every 40th, from move 7, of three
depth-2 solver games, seeds 0 to 2) searched at depth 3, and 21 of them at the default setting. Each
line holds the position, the depth reached, the chance nodes expanded and every root move's value
as ``float.hex``. Equal values and equal node counts mean the same tree was searched with the same
arithmetic in the same order, so the solver plays exactly the moves it played before: its strength
(for instance the depth-3 mean over seeds 0 to 99) cannot have changed.

``python tests/test_ai_recorded.py`` rewrites the file from the current kernel: only for a change
that is meant to change the search's values, and then with a new strength measurement.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from twenty48.ai import analyse, best_move
from twenty48.game import Game
from twenty48.rules import Board, Direction

PATH = Path(__file__).parent / "data" / "solver_values.jsonl"
LATE = Path(__file__).parents[1] / "bench" / "data" / "late_positions.jsonl"
RECORDED = [json.loads(line) for line in PATH.open()]


def check(record: dict, depth: int | None) -> None:
    got = analyse(Board(tuple(record["cells"])), depth=depth)
    assert {d.value: v.hex() for d, v in got.values.items()} == record["values"]
    assert list(got.values) == [Direction(d) for d in record["values"]]
    assert (got.depth, got.nodes) == (record["depth"], record["nodes"])


@pytest.mark.parametrize("source", ["late", "mid"])
def test_depth_3_values_are_the_recorded_ones(source):
    records = [r for r in RECORDED if r["source"] == source]
    assert len(records) == {"late": 1403, "mid": 228}[source]
    for record in records:
        check(record, depth=3)


@pytest.mark.slow  # searches at the default setting
def test_default_setting_values_are_the_recorded_ones():
    records = [r for r in RECORDED if r["source"] == "default"]
    assert len(records) == 21
    for record in records:
        check(record, depth=None)


def record() -> None:
    late = [json.loads(line)["cells"] for line in LATE.open()]
    mid = []
    for seed in range(3):
        game = Game.new(seed)
        while not game.over:
            if game.moves % 40 == 7:
                mid.append(list(game.board.cells))
            game.move(best_move(game, depth=2))
    jobs = [("late", c, 3) for c in late] + [("mid", c, 3) for c in mid]
    jobs += [("default", c, None) for c in late[::100] + mid[::40]]
    with PATH.open("w") as out:
        for source, cells, depth in jobs:
            got = analyse(Board(tuple(cells)), depth=depth)
            values = {d.value: v.hex() for d, v in got.values.items()}
            line = {"source": source, "cells": cells, "depth": got.depth, "nodes": got.nodes}
            out.write(json.dumps(line | {"values": values}) + "\n")


if __name__ == "__main__":
    sys.exit(record())
