"""The ``2048`` command skeleton: help, version and replay."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from twenty48 import Direction, Game, __version__
from twenty48.cli import main


def test_help_lists_the_commands(capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["--help"])
    assert exit_info.value.code == 0
    assert "replay" in capsys.readouterr().out


def test_version(capsys):
    with pytest.raises(SystemExit):
        main(["--version"])
    assert __version__ in capsys.readouterr().out


def test_replay_prints_the_final_position(capsys):
    actions = ["up", "left", "down", "right"] * 5
    assert main(["replay", "--seed", "7", "--actions", ",".join(actions)]) == 0
    out = capsys.readouterr().out
    game = Game.replay(7, actions)
    assert str(game.board) in out
    assert f"score: {game.score}" in out
    assert "state: in progress" in out


def test_replay_takes_a_ranked_games_key_as_its_seed(capsys):
    key = bytes(range(32))
    game = Game.replay(key, ["up", "left", "down"])
    assert main(["replay", "--seed", key.hex(), "--actions", "up,left,down", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert (data["seed"], data["spawns"]) == (key.hex(), "blake2b")
    assert data["board"] == [list(r) for r in game.board.rows]


@pytest.mark.integration
def test_replay_json():
    game = Game.replay(3, [Direction.LEFT, Direction.UP])
    result = subprocess.run(
        [sys.executable, "-m", "twenty48", "replay", "--seed", "3", "--actions", "left,up", "--json"],
        capture_output=True,
        text=True,
        check=True,
    )
    data = json.loads(result.stdout)
    assert data["board"] == [list(r) for r in game.board.rows]
    assert data["score"] == game.score and data["moves"] == game.moves


@pytest.mark.parametrize(
    "argv",
    [
        ["replay", "--seed", "1", "--actions", "up,sideways"],
        ["replay", "--seed", "-1"],
        ["replay", "--seed", "abc"],
        ["replay", "--seed", "g" * 64],  # not hex: neither a key nor an integer
        ["replay", "--seed", "ab" * 31],  # a key is 64 hex digits
        ["replay"],
    ],
)
def test_replay_rejects_bad_arguments(argv, capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    assert exit_info.value.code == 2
    assert "error" in capsys.readouterr().err
