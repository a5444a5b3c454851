"""``2048 admin``: the host's listing, hiding, unhiding and renaming, on both backends."""

from __future__ import annotations

from pathlib import Path

import pytest

from test_leaderboards import finish, named
from twenty48.cli import main
from twenty48.store import open_store


def admin(location: Path | str, *words: str) -> int:
    return main(["admin", *words, "--db", str(location)])


def test_players_games_hide_unhide_rename(location: Path | str, capsys: pytest.CaptureFixture[str]) -> None:
    with open_store(location) as store:
        ada = named(store, "Ada")
        game = store.new_game(ada, ranked=True)
        finish(store, ada, game.id)
        store.web_player("anonymous")
    assert admin(location, "players") == 0
    listed = capsys.readouterr().out
    assert "Ada" in listed and "shown" in listed and "anonymous" not in listed
    assert admin(location, "players", "--all") == 0
    assert "(anonymous)" in capsys.readouterr().out
    assert admin(location, "games", "ada") == 0
    games = capsys.readouterr().out
    assert str(game.id) in games and "yes" in games
    # A game played by a script at full speed is flagged for the host.
    assert "actions in" in games
    assert admin(location, "hide", str(ada)) == 0
    assert "hidden by the host" in capsys.readouterr().out
    with open_store(location) as store:
        assert store.leaderboard("all-time").entries == ()
        assert store.set_hidden(ada, False).host_hidden  # the player cannot undo it
    assert admin(location, "unhide", "ADA") == 0
    assert admin(location, "rename", "Ada", "Grace") == 0
    assert "Ada -> Grace" in capsys.readouterr().out
    with open_store(location) as store:
        assert [e.name for e in store.leaderboard("all-time").entries] == ["Grace"]
    # `--db` may also come before the action.
    assert main(["admin", "--db", str(location), "players"]) == 0
    assert "Grace" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("words", "message"),
    [
        (("hide", "Nobody"), "no player has the id or name 'Nobody'"),
        (("games", "999"), "no player"),
        (("rename", "Ada", "<b>"), "U+003C"),
        (("rename", "Ada", "Taken"), "is taken"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(
    location: Path | str, capsys: pytest.CaptureFixture[str], words: tuple[str, ...], message: str
) -> None:
    with open_store(location) as store:
        named(store, "Ada")
        named(store, "Taken")
    assert admin(location, *words) == 2
    error = capsys.readouterr().err
    assert message in error and error.count("\n") == 1 and error.startswith(f"2048 admin {words[0]}: ")
