"""The English the terminal and the command line share: a count agrees with its noun."""

from __future__ import annotations

from twenty48.store.records import GameSummary
from twenty48.tui.dialogs import ConfirmNewGame
from twenty48.wording import assists, count


def summary(**counts: int | None) -> GameSummary:
    return GameSummary(1, "classic", 0, 0, 2, False, False, True, "then", "then", **counts)  # type: ignore[arg-type]


def test_a_count_agrees_with_its_noun() -> None:
    assert [count(n, "hint") for n in (0, 1, 2, 1000)] == ["0 hints", "1 hint", "2 hints", "1,000 hints"]
    assert count(1, "graded move") == "1 graded move" and count(3, "player") == "3 players"


def test_the_help_a_game_had() -> None:
    assert assists(summary(hints=0, auto_moves=0, undos=0)) == "no"
    assert assists(summary(hints=1, auto_moves=0, undos=0)) == "1 hint"
    assert assists(summary(hints=2, auto_moves=1, undos=1)) == "2 hints, 1 auto move, 1 undo"
    assert assists(summary(hints=None, auto_moves=42, undos=0)) == "42 auto moves, hints unknown"
    assert assists(summary(hints=None, auto_moves=None, undos=None)) == "unknown"


def test_the_new_game_question_counts_one_move() -> None:
    assert "(1 move, score 4)" in ConfirmNewGame(4, 1).message
