"""``2048 copy --from SQLite --to PostgreSQL`` on real databases: every game arrives, replays to its
stored board, and reads back exactly; a target that already holds players or games is refused, unchanged."""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

from twenty48 import cli
from twenty48.game import Game
from twenty48.rules import Board
from twenty48.store import Store, open_store

NEAR_WIN = Board.from_rows([[1024, 1024, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 2]])


def _fill(path: Path) -> dict[int, list[int]]:
    """A source store with played, undone, merge, prepared, deleted and unfinished games of two
    players; returns player id -> game ids (those not deleted)."""
    rng = random.Random(21)
    games: dict[int, list[int]] = {}
    with Store.open(path) as store:
        for name in ("terminal", "friend"):
            player = store.local_player(name).id
            for seed in range(6):
                variant = "merge" if seed % 3 == 2 else "classic"
                record = store.new_game(player, seed=seed, variant=variant)
                for _ in range(rng.randrange(1, 150)):
                    if record.over:
                        break
                    direction = rng.choice(record.board.legal_moves())
                    record = store.move(player, record.id, direction, revision=record.revision).game
                    if rng.random() < 0.1 and record.can_undo:
                        record = store.undo(player, record.id, revision=record.revision)
                games.setdefault(player, []).append(record.id)
            prepared = store.add_game(player, Game.from_board(NEAR_WIN, seed=9))
            store.move(player, prepared.id, "left")
            games[player].append(prepared.id)
        store.delete_game(player, games[player].pop(0))
    return games


def test_copy_moves_every_game_verified_and_refuses_a_target_with_games(
    tmp_path: Path, postgres_url: str, capsys
) -> None:
    source = tmp_path / "games.sqlite3"
    games = _fill(source)
    assert cli.main(["copy", "--from", str(source), "--to", postgres_url]) == 0
    assert "verified by replay" in capsys.readouterr().out
    with Store.open(source) as before, open_store(postgres_url) as after:
        for player, ids in games.items():
            assert after.games(player, limit=100) == before.games(player, limit=100)
            for variant in ("classic", "merge"):
                assert after.best_score(player, variant) == before.best_score(player, variant)
                assert after.stats(player, variant) == before.stats(player, variant)
            for game_id in ids:
                copied = after.load_game(player, game_id)
                assert copied.to_dict() == before.load_game(player, game_id).to_dict()
                replayed = Game.replay(
                    copied.seed, [str(a) for a in copied.actions], copied.variant.name, copied.start
                )
                assert (replayed.board, replayed.score) == (copied.board, copied.score)
            assert after.current_game(player).id == before.current_game(player).id
        # The copy plays on: new rows take ids after the copied ones.
        player = next(iter(games))
        played = after.current_game(player)
        if not played.over:
            after.move(player, played.id, played.board.legal_moves()[0])
        fresh = after.new_game(player, seed=99)
        assert fresh.id > max(max(ids) for ids in games.values())
        listed = after.games(player, limit=100)
    assert cli.main(["copy", "--from", str(source), "--to", postgres_url]) == 1
    assert "already holds" in capsys.readouterr().err
    with open_store(postgres_url) as after:
        assert after.games(player, limit=100) == listed


def test_copy_refuses_what_is_not_a_source_or_a_postgresql_target(tmp_path: Path, capsys) -> None:
    source = tmp_path / "games.sqlite3"
    assert cli.main(["copy", "--from", str(source), "--to", "postgresql://nobody@/x"]) == 2
    assert "is not a file" in capsys.readouterr().err
    Store.open(source).close()
    assert cli.main(["copy", "--from", str(source), "--to", str(tmp_path / "other.sqlite3")]) == 2
    assert "must be a postgresql:// URL" in capsys.readouterr().err


def test_a_game_that_does_not_replay_stops_the_copy_before_anything_is_written(
    tmp_path: Path, postgres_url: str, capsys
) -> None:
    source = tmp_path / "games.sqlite3"
    games = _fill(source)
    with sqlite3.connect(source) as db:
        # One stored state no longer follows from the game's moves.
        game_id = games[next(iter(games))][-1]
        db.execute(
            "UPDATE games SET state = replace(state, '\"score\":', '\"score\":1') WHERE id = ?", (game_id,)
        )
    assert cli.main(["copy", "--from", str(source), "--to", postgres_url]) == 1
    assert f"game {game_id}" in capsys.readouterr().err
    with open_store(postgres_url) as target:
        assert target.games(target.local_player().id) == []


def test_a_target_where_a_server_only_started_takes_the_copy(tmp_path: Path, postgres_url: str) -> None:
    source = tmp_path / "games.sqlite3"
    _fill(source)
    with Store.open(source) as store:
        kept = store.server_secret("pending")
    # What `2048 serve` writes on its first start: a secret of its own, and no player.
    with open_store(postgres_url) as target:
        assert target.server_secret("pending") != kept
    assert cli.main(["copy", "--from", str(source), "--to", postgres_url]) == 0
    with open_store(postgres_url) as target:
        assert target.server_secret("pending") == kept


def test_a_target_with_a_player_and_no_game_is_refused_unchanged(
    tmp_path: Path, postgres_url: str, capsys
) -> None:
    source = tmp_path / "games.sqlite3"
    _fill(source)
    with open_store(postgres_url) as target:
        someone = target.local_player("someone").id
    assert cli.main(["copy", "--from", str(source), "--to", postgres_url]) == 1
    err = capsys.readouterr().err
    assert "already holds 0 games of 1 player: copy only into a database without players" in err
    with open_store(postgres_url) as target:
        assert target.local_player("someone").id == someone
        assert len(target.players_overview(named_only=False)) == 1
