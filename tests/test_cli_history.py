"""``2048 history``, ``stats``, ``export`` and ``import`` through the real entry point, on real SQLite."""

from __future__ import annotations

import json
import random
import statistics
import subprocess
import sys
from pathlib import Path

import pytest

from twenty48.cli import main
from twenty48.commands.stats import BARS, sparkline
from twenty48.game import Game
from twenty48.rules import Board
from twenty48.store import Store, transfer

BIG = Board.from_rows([[1024, 1024, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 2]])


def finished(seed: int, variant: str = "classic") -> Game:
    game = Game.new(seed, variant)
    rng = random.Random(seed)
    while not game.over:
        game.play(rng.choice(game.board.legal_moves()))
    return game


@pytest.fixture
def db(tmp_path: Path) -> Path:
    """A database whose terminal player has 6 finished games (one merge, one past 2048, one with
    a hint) and one in progress; another player has a game of their own."""
    path = tmp_path / "games.sqlite3"
    with Store.open(path) as store:
        me = store.local_player().id
        for seed in range(4):
            store.add_game(me, finished(seed))
        store.add_game(me, finished(10, "merge"))
        won = Game.from_board(BIG, seed=1)
        won.move("left")
        store.add_game(me, won)
        hinted = store.current_game(me)
        store.note_hint(me, hinted.id, hinted.revision)
        store.new_game(me, seed=99)
        store.add_game(store.local_player("someone else").id, finished(50))
    return path


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return status, out, err


def listed(capsys: pytest.CaptureFixture[str], db: Path, *options: str) -> dict:
    status, out, _ = run(capsys, "history", "--db", str(db), "--json", *options)
    assert status == 0
    return json.loads(out)


def test_history_lists_newest_first_with_the_apis_fields(db: Path, capsys) -> None:
    with Store.open(db) as store:
        mine = store.games(store.local_player().id, limit=100)
    page = listed(capsys, db)
    assert (
        [g["id"] for g in page["games"]] == [s.id for s in mine] == sorted((s.id for s in mine), reverse=True)
    )
    assert page["next_before"] is None
    newest, hinted = page["games"][0], page["games"][1]
    assert (newest["finished"], newest["current"], newest["moves"]) == (False, True, 0)
    assert (hinted["hints"], hinted["assisted"]) == (1, True)
    assert set(newest) >= {"variant", "score", "max_tile", "created_at", "undos", "auto_moves", "imported"}

    status, out, _ = run(capsys, "history", "--db", str(db))
    assert status == 0 and "in progress" in out and "1 hint" in out
    assert out.index(str(mine[0].id)) < out.index(str(mine[-1].id))


def test_history_sorts_filters_and_pages_like_the_api(db: Path, capsys) -> None:
    everything = listed(capsys, db)["games"]
    by_score = listed(capsys, db, "--sort", "score")["games"]
    assert [g["score"] for g in by_score] == sorted((g["score"] for g in everything), reverse=True)
    assert {g["variant"] for g in listed(capsys, db, "--variant", "merge")["games"]} == {"merge"}
    assert all(g["finished"] for g in listed(capsys, db, "--finished")["games"])
    assert [g["current"] for g in listed(capsys, db, "--unfinished")["games"]] == [True]
    first = listed(capsys, db, "--sort", "max_tile", "--limit", "3")
    rest = listed(capsys, db, "--sort", "max_tile", "--before", str(first["next_before"]), "--limit", "100")
    tiles = [g["max_tile"] for g in first["games"] + rest["games"]]
    assert len(tiles) == len(everything) and tiles == sorted(tiles, reverse=True)
    assert first["next_before"] == first["games"][-1]["id"] and rest["next_before"] is None


def test_a_game_left_for_a_new_one_is_abandoned_and_out_of_the_figures(tmp_path: Path, capsys) -> None:
    path = tmp_path / "left.sqlite3"
    over = finished(1)
    left = Game.new(2)
    for _ in range(6):
        left.play(left.board.legal_moves()[0])
    with Store.open(path) as store:
        me = store.local_player().id
        store.add_game(me, over)
        store.add_game(me, left)
        store.new_game(me, seed=3)
    status, out, _ = run(capsys, "history", "--db", str(path))
    rows = [line.split() for line in out.splitlines() if line.strip()[:1].isdigit()]
    assert status == 0 and [row[7] for row in rows] == ["in", "abandoned", "ended"]
    assert "yes" not in out
    assert [g["status"] for g in listed(capsys, path)["games"]] == ["playing", "abandoned", "ended"]
    figures = json.loads(run(capsys, "stats", "--db", str(path), "--json")[1])
    assert [figures[k] for k in ("ended", "abandoned_games", "counted", "mean")] == [1, 1, 1, over.score]
    both = json.loads(run(capsys, "stats", "--db", str(path), "--json", "--abandoned", "include")[1])
    assert (both["counted"], both["mean"]) == (2, (over.score + left.score) / 2)
    assert "│ abandoned                     │ 1 (not counted) │" in run(capsys, "stats", "--db", str(path))[1]
    status, out, _ = run(capsys, "history", "--db", str(path), "--variant", "merge")
    assert status == 0 and out == "No game matches these options.\n"


def test_history_of_a_new_database_and_bad_options(tmp_path: Path, capsys) -> None:
    with Store.open(tmp_path / "new.sqlite3"):
        pass
    status, out, _ = run(capsys, "history", "--db", str(tmp_path / "new.sqlite3"))
    assert status == 0 and "No games yet" in out
    for bad in (["--sort", "moves"], ["--limit", "0"], ["--before", "x"], ["--finished", "--unfinished"]):
        with pytest.raises(SystemExit) as exit_info:
            main(["history", "--db", str(tmp_path / "new.sqlite3"), *bad])
        assert exit_info.value.code == 2
    capsys.readouterr()


def test_the_default_database_is_the_one_play_and_serve_use(tmp_path: Path, monkeypatch, capsys) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert Store.default_path().is_relative_to(tmp_path)
    with Store.open() as store:
        store.add_game(store.local_player().id, finished(3))
    assert [g["score"] for g in listed_default(capsys)] == [finished(3).score]


def listed_default(capsys: pytest.CaptureFixture[str]) -> list[dict]:
    status, out, _ = run(capsys, "history", "--json")
    assert status == 0
    return json.loads(out)["games"]


def test_stats_equal_a_direct_computation(db: Path, capsys) -> None:
    status, out, _ = run(capsys, "stats", "--db", str(db), "--json")
    assert status == 0
    figures = json.loads(out)
    # The classic games: four random ones, the 2048 one with a hint; the last (new) one is unfinished.
    games = [finished(s) for s in range(4)]
    won = Game.from_board(BIG, seed=1)
    won.move("left")
    scores = [g.score for g in [*games, won]]
    assert (figures["games"], figures["finished"], figures["assisted"]) == (6, 5, "include")
    assert figures["best"] == max(scores) and figures["median"] == statistics.median(scores)
    assert figures["mean"] == pytest.approx(statistics.fmean(scores))
    # Every tile from 128 up to the one above the largest (2048, the won game's).
    tops = [g.board.max_tile for g in [*games, won]]
    reach = {str(t): sum(top >= t for top in tops) / 5 for t in (128, 256, 512, 1024, 2048, 4096)}
    assert figures["recent"] == scores and figures["reach"] == pytest.approx(reach)
    assert figures["streak"] == {"current": 1, "best": 1} and figures["first_reach"]["2048"]["best"] == 1

    status, out, _ = run(capsys, "stats", "--db", str(db), "--json", "--assisted", "exclude")
    unassisted = json.loads(out)
    # The hinted game and the unfinished one are left out.
    assert (unassisted["finished"], unassisted["recent"]) == (4, scores[:4])
    assert json.loads(run(capsys, "stats", "--db", str(db), "--json", "--variant", "merge")[1])["games"] == 1


def test_stats_tables_and_chart(db: Path, capsys) -> None:
    status, out, _ = run(capsys, "stats", "--db", str(db))
    assert status == 0
    assert "win rate" in out and "20.0%" in out and "2048" in out
    assert "Scores of the last 5 games counted" in out and "│ abandoned " in out
    chart = out.strip().splitlines()[-1].strip()
    assert len(chart) == 5 and set(chart) <= set(BARS)
    status, out, _ = run(capsys, "stats", "--db", str(db), "--variant", "merge", "--assisted", "exclude")
    assert status == 0 and "merge, unassisted games only" in out


def test_sparkline_scales_and_fits() -> None:
    assert sparkline([], 10) == ""
    assert sparkline([5, 5, 5], 10) == BARS[4] * 3
    assert sparkline([0, 7, 14], 10) == BARS[0] + BARS[4] + BARS[7]
    squeezed = sparkline(list(range(100)), 20)
    assert len(squeezed) == 20 and squeezed[0] == BARS[0] and squeezed[-1] == BARS[-1]
    assert list(squeezed) == sorted(squeezed)


def test_export_and_import_round_trip_into_another_database(db: Path, tmp_path: Path, capsys) -> None:
    every = tmp_path / "all.json"
    assert run(capsys, "export", "--all", "-o", str(every), "--db", str(db))[0] == 0
    history = json.loads(every.read_text())
    assert history["format"] == "twenty48-history/2" and len(history["games"]) == 7
    other = tmp_path / "other.sqlite3"
    status, out, _ = run(capsys, "import", str(every), "--db", str(other))
    assert status == 0 and "imported 7, skipped 0 already present; game 7 goes on where it was left" in out
    status, out, _ = run(capsys, "import", str(every), "--db", str(other))
    assert status == 0 and out.endswith("imported 0, skipped 7 already present\n")
    imported = listed(capsys, other, "--limit", "100")["games"]
    # Every game and its fields come back: the one in progress too, and the hint counted.
    assert len(imported) == 7 and all(g["imported"] for g in imported)
    assert [g["finished"] for g in imported] == [False] + [True] * 6
    again = tmp_path / "again.json"
    assert run(capsys, "export", "--all", "-o", str(again), "--db", str(other))[0] == 0
    assert json.loads(again.read_text()) == history
    assert [g["hints"] for g in history["games"]] == [0, 0, 0, 0, 0, 1, 0]

    one = tmp_path / "one.json"
    game_id = listed(capsys, db, "--variant", "merge")["games"][0]["id"]
    assert run(capsys, "export", str(game_id), "-o", str(one), "--db", str(db))[0] == 0
    assert json.loads(one.read_text()) == history["games"][4]
    status, out, _ = run(capsys, "export", str(game_id), "-o", "-", "--db", str(db))
    assert status == 0 and json.loads(out) == history["games"][4]


def refused(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    status, out, err = run(capsys, *argv)
    assert status == 2 and out == ""
    assert len(err.strip().splitlines()) == 1
    return err


def test_import_refuses_a_bad_file_with_one_line_and_stores_nothing(db: Path, tmp_path: Path, capsys) -> None:
    every = tmp_path / "all.json"
    run(capsys, "export", "--all", "-o", str(every), "--db", str(db))
    history = json.loads(every.read_text())
    tampered = json.loads(every.read_text())
    actions = tampered["games"][2]["actions"]
    actions[5] = "up" if actions[5] != "up" else "down"
    bad = tmp_path / "bad.json"
    cases = {
        "game 3 (seed 2)": tampered,
        "not a JSON object": [1, 2],
        "format must be": {"format": "twenty48-game/3"},
    }
    other = tmp_path / "other.sqlite3"
    for reason, data in cases.items():
        bad.write_text(json.dumps(data))
        assert reason in refused(capsys, "import", str(bad), "--db", str(other))
    for content, reason in (
        (b"{not json", "not valid JSON"),
        (b'{"seed": ' + b"1" * 5000 + b"}", "not valid JSON"),
        (b"\xff\xfe\xfd", "not valid JSON"),
        (b"[" * 200_000, "nested too deeply"),
    ):
        bad.write_bytes(content)
        assert reason in refused(capsys, "import", str(bad), "--db", str(other))
    assert "cannot read" in refused(capsys, "import", str(tmp_path / "missing.json"), "--db", str(other))
    assert listed(capsys, other)["games"] == []
    # The untampered file still imports whole.
    bad.write_text(json.dumps(history))
    assert run(capsys, "import", str(bad), "--db", str(other))[0] == 0


def test_export_refusals(db: Path, tmp_path: Path, capsys) -> None:
    with Store.open(db) as store:
        theirs = store.games(store.local_player("someone else").id)[0].id
    target = tmp_path / "game.json"
    # Another player's game is as unknown as a game that does not exist.
    for game_id in (theirs, 10_000):
        assert "no game" in refused(capsys, "export", str(game_id), "-o", str(target), "--db", str(db))
    assert not target.exists()
    target.write_text("kept")
    directory = tmp_path / "no such directory" / "game.json"
    assert "cannot write" in refused(capsys, "export", "--all", "-o", str(directory), "--db", str(db))
    for argv in (["export", "-o", str(target)], ["export", "1", "--all", "-o", str(target)], ["export", "1"]):
        with pytest.raises(SystemExit) as exit_info:
            main([*argv, "--db", str(db)])
        assert exit_info.value.code == 2
    capsys.readouterr()
    assert target.read_text() == "kept" and list(tmp_path.glob(".*part")) == []


def test_export_writes_through_links_and_into_devices_without_replacing_them(
    db: Path, tmp_path: Path, capsys
) -> None:
    target = tmp_path / "games.json"
    target.write_text("old")
    link = tmp_path / "link.json"
    link.symlink_to(target)
    assert run(capsys, "export", "--all", "-o", str(link), "--db", str(db))[0] == 0
    assert link.is_symlink() and json.loads(target.read_text())["format"] == "twenty48-history/2"
    # A device is written into (here: one that is always full), never swapped for a file.
    assert "No space left on device" in refused(capsys, "export", "--all", "-o", "/dev/full", "--db", str(db))
    assert Path("/dev/full").is_char_device()
    assert run(capsys, "export", "--all", "-o", "/dev/null", "--db", str(db))[0] == 0
    assert Path("/dev/null").is_char_device()


def test_import_reads_only_a_regular_file_of_bounded_size(
    db: Path, tmp_path: Path, capsys, monkeypatch
) -> None:
    from twenty48.commands import files

    for path in ("/dev/zero", str(tmp_path)):
        assert "is not a regular file" in refused(capsys, "import", path, "--db", str(db))
    monkeypatch.setattr(files, "MAX_FILE_BYTES", 1 << 20)
    big = tmp_path / "big.json"
    with big.open("wb") as file:
        file.truncate((1 << 20) + 1)
    assert "is over 1 MiB" in refused(capsys, "import", str(big), "--db", str(db))


def test_an_unreadable_database_is_one_line_and_status_1(tmp_path: Path, capsys) -> None:
    damaged = tmp_path / "damaged.sqlite3"
    damaged.write_bytes(b"this is not a database" * 100)
    for argv in (["history"], ["stats"], ["export", "--all", "-o", str(tmp_path / "x.json")]):
        status, out, err = run(capsys, *argv, "--db", str(damaged))
        assert status == 1 and out == "" and len(err.strip().splitlines()) == 1
        assert err.startswith(f"2048 {argv[0]}: error: ")


@pytest.mark.integration
def test_a_refused_import_in_a_real_process_prints_no_traceback(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "twenty48-game/1", "seed": 1}')
    result = subprocess.run(
        [sys.executable, "-m", "twenty48", "import", str(bad), "--db", str(tmp_path / "db.sqlite3")],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 2 and result.stdout == ""
    assert (
        result.stderr.startswith("2048 import: error: the game (seed 1): lacks fields actions")
        and "Traceback" not in result.stderr
    )


def test_import_refuses_hostile_files_is_bounded_and_shows_progress_on_a_terminal(
    tmp_path: Path, capsys, monkeypatch
) -> None:
    from test_web_imports import HOSTILE, one_move
    from twenty48.commands import import_games

    other = tmp_path / "other.sqlite3"
    bad = tmp_path / "bad.json"
    for name, words in (("start score 2**70", "start_score must be"), ("sixteen 131072 tiles", "two 131072")):
        bad.write_bytes(HOSTILE[name][0])
        assert words in refused(capsys, "import", str(bad), "--db", str(other))
    three = tmp_path / "three.json"
    three.write_text(json.dumps(transfer.export_history([one_move(seed) for seed in range(3)])))
    monkeypatch.setattr(import_games, "MAX_GAMES", 2)
    assert "an import takes at most 2" in refused(capsys, "import", str(three), "--db", str(other))
    monkeypatch.setattr(import_games, "MAX_GAMES", 3)
    monkeypatch.setattr(import_games, "MAX_SECONDS", 0.0)
    assert "took longer than its bound of 0 s" in refused(capsys, "import", str(three), "--db", str(other))
    assert listed(capsys, other)["games"] == []
    monkeypatch.setattr(import_games, "MAX_SECONDS", 600.0)
    monkeypatch.setenv("TTY_COMPATIBLE", "1")  # stderr is a terminal, as rich sees it
    status, out, err = run(capsys, "import", str(three), "--db", str(other))
    assert status == 0 and "imported 3, skipped 0" in out
    assert "checking" in err and "storing" in err
