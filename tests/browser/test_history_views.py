"""The history, statistics and replay views in a real browser, against the real server and store:
the replay viewer shows exactly ``Game.replay`` at every move it is sent to (steps, keys, the
scrubber, jumps, play back, deep links), the history lists, sorts, filters, deletes, exports and
imports, the statistics draw their charts with tables behind them, and none of it reaches the game
being played."""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable
from pathlib import Path

import pytest
from pagetools import (
    ARTIFACTS,
    NO_WORKER,
    OPEN,
    PHONE,
    LiveServer,
    Pages,
    flat,
    player_id,
    prepare,
    server_state,
)
from playwright.sync_api import Page, Request, Route
from test_leaderboards_views import finished_ranked_game

from twenty48.game import Game
from twenty48.rules import Board
from twenty48.store import Store

pytestmark = pytest.mark.browser

ORDER = ("down", "left", "right", "up")


def long_game(seed: int) -> Game:
    """A game played to its end by a fixed preference order: a few hundred moves, no solver."""
    game = Game.new(seed=seed)
    while not game.over:
        next(d for d in ORDER if game.move(d).changed)
    return game


def stored(page: Page, server: LiveServer, game: Game) -> int:
    return server.store.add_game(player_id(page, server), game).id


def replay_board(page: Page) -> list[int]:
    values: list[int] = page.eval_on_selector_all(
        "#views .board > .cell", "cells => cells.map(c => +c.dataset.value)"
    )
    return values


def at_move(page: Page, move: int) -> None:
    """Wait until the replay shows move ``move`` with no slide running."""
    page.wait_for_function(
        """move => { const v = document.querySelector('#views .view');
            return v?.dataset.move === String(move)
                && !document.querySelector('#views .fx').children.length; }""",
        arg=move,
    )


def expect_position(page: Page, game: Game, move: int) -> None:
    at_move(page, move)
    want = Game.replay(game.seed, game.actions[:move])
    assert replay_board(page) == flat(want.board.rows)
    assert int((page.text_content("[data-part=score]") or "").replace(",", "")) == want.score
    assert page.evaluate("location.hash").endswith(f"/{move}")  # the address names the move shown


def test_replay_steps_scrubs_plays_and_deep_links(pages: Pages, live_server: LiveServer) -> None:
    page = pages.open()
    game = long_game(3)
    last = game.moves
    assert last > 250  # more than one page of positions
    game_id = stored(page, live_server, game)
    playing = server_state(page)
    page.goto(f"/#/replay/{game_id}/250")
    expect_position(page, game, 250)
    assert page.text_content("[data-part=move]") == f"250 / {last}"
    page.keyboard.press("ArrowRight")
    expect_position(page, game, 251)
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    expect_position(page, game, 249)
    page.click("[data-part=forward]")
    expect_position(page, game, 250)
    page.keyboard.press("End")
    expect_position(page, game, last)
    page.keyboard.press("Home")
    expect_position(page, game, 0)
    page.keyboard.press("PageDown")
    expect_position(page, game, 100)
    # The scrubber, anywhere and quickly: the board ends on the last place it was dragged to.
    for move in (last - 1, 7, 203, 199, 200, last // 2):
        page.eval_on_selector(
            ".scrubber", "(s, v) => { s.value = v; s.dispatchEvent(new Event('input')); }", move
        )
    expect_position(page, game, last // 2)
    page.fill("[data-part=jump]", "123")
    page.keyboard.press("Enter")
    expect_position(page, game, 123)
    page.fill("[data-part=jump]", str(last + 50))  # past the end: the last position
    page.keyboard.press("Enter")
    expect_position(page, game, last)
    # Play back: from the end it starts again at the beginning and moves on by itself.
    page.select_option("[data-part=speed]", "25")
    page.click("[data-part=play]")
    page.wait_for_function("() => +document.querySelector('#views .view').dataset.move >= 5")
    page.click("[data-part=play]")  # pause
    stopped = int(page.get_attribute("#views .view", "data-move") or "")
    expect_position(page, game, stopped)
    page.wait_for_timeout(300)
    assert int(page.get_attribute("#views .view", "data-move") or "") == stopped
    # A deep link opens at its move after a reload too.
    page.goto(f"/#/replay/{game_id}/42")
    page.reload()
    expect_position(page, game, 42)
    # None of these keys reached the game being played.
    for key in ("n", "u", "ArrowUp", "ArrowDown", " "):
        page.keyboard.press(key)
    page.keyboard.press(" ")
    page.wait_for_timeout(200)
    now = server_state(page)
    assert (now["id"], now["revision"]) == (playing["id"], playing["revision"])


def test_replay_of_another_players_game_is_not_shown(pages: Pages, live_server: LiveServer) -> None:
    owner = pages.open()
    game_id = stored(owner, live_server, long_game(5))
    other = pages.open(allow_errors=True)  # the 404 is logged by the browser
    other.goto(f"/#/replay/{game_id}/10")
    other.wait_for_selector("#views .message:not(:empty)")
    assert other.text_content("#views .message") == "This game does not exist, or it is not yours."
    expect_gone(other, "#/history")


def expect_gone(page: Page, back: str) -> None:
    """The replay view shows its refusal and a way back: no board, scrubber or controls to try."""
    page.wait_for_selector("#views [data-part=back]")
    assert page.get_attribute("#views [data-part=back]", "href") == back
    assert page.locator("#views .board, #views .scrubber, #views .controls, #views .jump").count() == 0


def test_replay_addresses_that_name_no_game_say_so(pages: Pages, live_server: LiveServer) -> None:
    page = pages.open(allow_errors=True)  # the unknown game's 404 is logged by the browser
    for address in ("#/replay/abc", "#/replay/999999", "#/replay/7/x", "#/public/abc"):
        page.goto(f"/{address}")
        page.wait_for_selector("#views .message:not(:empty)")
        assert page.is_hidden("main.app"), address
        shared = address.startswith("#/public")
        words = "not public" if shared else "This game does not exist, or it is not yours."
        assert words in (page.text_content("#views .message") or ""), address
        expect_gone(page, "#/leaderboard" if shared else "#/history")


def test_a_move_past_the_end_names_the_last_one_in_the_address(pages: Pages, live_server: LiveServer) -> None:
    store = live_server.store
    rival = store.web_player(uuid.uuid4().hex).id
    store.set_name(rival, f"Far{uuid.uuid4().hex[:6]}")
    public = finished_ranked_game(store, rival)
    page = pages.open()
    game = long_game(8)
    game_id = stored(page, live_server, game)
    for address, last in (
        (f"#/replay/{game_id}", game.moves),
        (f"#/public/{public}", store.get_game(rival, public).moves),
    ):
        fresh = page.context.new_page()  # a first load: the views load with the address
        fresh.goto(f"/{address}/99999")
        at_move(fresh, last)
        assert fresh.evaluate("location.hash") == f"{address}/{last}"
        fresh.close()


@pytest.mark.parametrize(
    ("lang", "speeds"),
    [
        ("en", ["1 move/s", "2 moves/s", "5 moves/s", "10 moves/s", "25 moves/s"]),
        ("ja", ["毎秒1手", "毎秒2手", "毎秒5手", "毎秒10手", "毎秒25手"]),
        ("zh", ["每秒 1 步", "每秒 2 步", "每秒 5 步", "每秒 10 步", "每秒 25 步"]),
    ],
)
def test_the_replay_speeds_read_right(
    pages: Pages, live_server: LiveServer, lang: str, speeds: list[str]
) -> None:
    page = pages.open(f"/?lang={lang}")
    game_id = stored(page, live_server, long_game(9))
    page.goto(f"/?lang={lang}#/replay/{game_id}/3")
    at_move(page, 3)
    assert page.locator("[data-part=speed] option").all_text_contents() == speeds


def history_ids(page: Page) -> list[int]:
    ids: list[int] = page.eval_on_selector_all(
        "#views tbody tr[data-game]", "rows => rows.map(r => +r.dataset.game)"
    )
    return ids


def loaded(page: Page, query: str) -> None:
    page.wait_for_function(
        "q => (document.querySelector('#views .view')?.dataset.loaded || '').includes(q)", arg=query
    )


def test_history_lists_sorts_filters_and_deletes(pages: Pages, live_server: LiveServer) -> None:
    page = pages.open()
    me = player_id(page, live_server)
    played = [long_game(seed) for seed in (11, 12, 13)]
    ids = [live_server.store.add_game(me, game).id for game in played]
    merge = live_server.store.add_game(me, Game.new(seed=4, variant="merge")).id
    assert not page.evaluate("performance.getEntriesByType('resource').some(e => e.name.includes('/views/'))")
    page.click("#history")
    loaded(page, "/api/games")
    assert page.evaluate("location.hash") == "#/history"
    everyone = [g["id"] for g in page.request.get("/api/games?limit=50").json()["games"]]
    assert history_ids(page) == everyone and everyone[:4] == [merge, *reversed(ids)]
    page.select_option("[data-part=sort]", "score")
    loaded(page, "sort=score")
    scores = page.eval_on_selector_all("#views tbody tr", "rows => rows.map(r => +r.children[2].textContent)")
    assert scores == sorted(scores, reverse=True)
    page.select_option("[data-part=variant]", "merge")
    loaded(page, "variant=merge")
    assert history_ids(page) == [merge]
    page.select_option("[data-part=variant]", "")
    page.select_option("[data-part=finished]", "true")
    loaded(page, "finished=true")
    assert merge not in history_ids(page) and set(ids) <= set(history_ids(page))
    # Delete asks first; Cancel keeps the game.
    row = f"#views tr[data-game='{ids[0]}']"
    page.click(f"{row} [data-part=delete]")
    page.click("dialog.confirm-delete .btn.quiet")
    assert page.is_visible(row)
    page.click(f"{row} [data-part=delete]")
    page.click("[data-part=confirm-delete]")
    page.wait_for_selector(row, state="detached")
    assert ids[0] not in [g["id"] for g in page.request.get("/api/games?limit=50").json()["games"]]
    assert page.request.get(f"/api/games/{ids[0]}/positions?from=0&count=1").status == 404
    # A row's replay link opens that game's replay.
    page.click(f"#views tr[data-game='{ids[1]}'] [data-part=replay]")
    expect_position(page, played[1], 0)
    page.click(".views-nav a[href='#/']")
    page.wait_for_selector("main.app", state="visible")
    assert page.is_hidden("#views")


def test_history_pages_and_shows_assisted_counts(pages: Pages, live_server: LiveServer) -> None:
    page = pages.open()
    me = player_id(page, live_server)
    for seed in range(25):
        live_server.store.add_game(me, Game.new(seed=seed))
    page.goto("/#/history")
    loaded(page, "/api/games")
    first = history_ids(page)
    assert len(first) == 20 and page.is_disabled("[data-part=newer]")
    page.click("[data-part=older]")
    loaded(page, "before=")
    second = history_ids(page)
    # The 25 added: the first visit's game is not stored before its first move.
    assert len(second) == 5 and not set(first) & set(second)
    assert page.is_disabled("[data-part=older]")
    page.click("[data-part=newer]")
    page.wait_for_function("n => document.querySelectorAll('#views tbody tr').length === n", arg=20)
    assert history_ids(page) == first
    # Counted help shows in the row: two undos.
    prepare(page, live_server, OPEN)
    state = server_state(page)
    for _ in range(2):
        moved = page.request.post(
            f"/api/games/{state['id']}/move", data={"direction": "left", "revision": state["revision"]}
        )
        state = moved.json()["state"]
        state = page.request.post(
            f"/api/games/{state['id']}/undo", data={"revision": state["revision"]}
        ).json()
    page.reload()  # still at #/history
    loaded(page, "/api/games")
    assert page.text_content(f"#views tr[data-game='{state['id']}'] td:nth-child(8)") == "2 undos"
    # What became of each game: the one being played, and those left for a new game after a move.
    assert page.text_content(f"#views tr[data-game='{state['id']}'] td:nth-child(7)") == "Playing"
    assert page.text_content(f"#views tr[data-game='{first[0]}'] td:nth-child(7)") == "Abandoned"


def test_auto_play_moves_say_so(pages: Pages, live_server: LiveServer) -> None:
    page = pages.open()
    prepare(page, live_server, OPEN)
    bodies: list[dict[str, object]] = []

    def record(request: Request) -> None:
        if request.url.endswith("/move"):
            bodies.append(json.loads(request.post_data or "{}"))

    page.on("request", record)
    page.click("#auto")
    # Playwright hands over request events only while it is called: wait through it.
    page.wait_for_function("() => +document.querySelector('#moves').textContent >= 2", timeout=20_000)
    page.click("#auto")
    page.keyboard.press("ArrowLeft")  # the player's own move is not marked
    page.wait_for_timeout(300)
    assert all(body.get("auto") is True for body in bodies[:2])
    assert "auto" not in bodies[-1]
    game = page.request.get("/api/games?limit=1").json()["games"][0]
    # Auto-play's hints count as its moves, not as hints the player asked for.
    assert game["auto_moves"] >= 2 and game["hints"] == 0


def test_export_and_import(pages: Pages, live_server: LiveServer, tmp_path: Path) -> None:
    page = pages.open(allow_errors=True)  # the browser logs the refused import's 422
    stored(page, live_server, long_game(21))
    page.goto("/#/history")
    loaded(page, "/api/games")
    with page.expect_download() as download:
        page.click("[data-part=export-all]")
    history = tmp_path / "history.json"
    download.value.save_as(history)
    games = json.loads(history.read_text())["games"]
    # Importing it again: every game is already here.
    page.set_input_files("[data-part=import]", str(history))
    page.wait_for_selector("#views .message:not(:empty)")
    assert page.text_content("#views .message") == f"Imported 0 games; {len(games)} already here."
    # One changed action is caught, and the file is refused with the server's reason.
    tampered = tmp_path / "tampered.json"
    game = next(g for g in games if len(g["actions"]) > 5)
    game["actions"] = [
        *game["actions"][:3],
        "up" if game["actions"][3] != "up" else "down",
        *game["actions"][4:],
    ]
    tampered.write_text(json.dumps(game))
    page.evaluate("document.querySelector('#views .message').textContent = ''")
    page.set_input_files("[data-part=import]", str(tampered))
    page.wait_for_selector("#views .message:not(:empty)")
    assert page.text_content("#views .message").startswith("The file was not imported: ")
    not_json = tmp_path / "notes.txt"
    not_json.write_text("hello")
    page.set_input_files("[data-part=import]", str(not_json))
    page.wait_for_function(
        "() => document.querySelector('#views .message').textContent.includes('notes.txt')"
    )


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_statistics_charts_have_tables(pages: Pages, live_server: LiveServer, scheme: str) -> None:
    page = pages.open(color_scheme=scheme)
    me = player_id(page, live_server)
    for seed in (31, 32, 33):
        live_server.store.add_game(me, long_game(seed))
    won = Game(seed=1, board=Board.from_rows([[1024, 1024, 0, 0], [0] * 4, [0] * 4, [0] * 4]))
    won.move("left")
    live_server.store.add_game(me, won)
    left = Game.new(seed=5)
    left.move(left.board.legal_moves()[0])
    live_server.store.add_game(me, left)
    live_server.store.new_game(me)  # the games above are finished now; the last one abandoned
    page.click("#stats")
    loaded(page, "assisted=include")
    stats = page.request.get("/api/stats?variant=classic").json()
    assert (stats["ended"], stats["abandoned_games"], stats["counted"]) == (4, 1, 4)
    assert page.text_content("[data-figure=games] dd") == str(stats["games"])
    assert page.text_content("[data-figure=endedGames] dd") == "4"
    assert page.text_content("[data-figure=abandonedGames] dd") == "1"
    assert "counted apart" in page.text_content("#views .count-rule")
    reach = page.locator("figure.bars")
    assert reach.locator("rect.bar").count() == len(stats["reach"]) >= 1
    assert reach.locator("tbody th").all_text_contents() == sorted(stats["reach"], key=int)
    recent = page.locator("figure.line")
    assert recent.locator("tbody tr").count() == len(stats["recent"])
    assert page.get_attribute("figure.bars svg", "aria-hidden") == "true"
    fill = page.eval_on_selector("rect.bar", "r => getComputedStyle(r).fill")
    text = page.eval_on_selector(".chart .tick", "t => getComputedStyle(t).fill")
    assert fill != text
    page.check("[data-part=abandoned-include]")
    loaded(page, "abandoned=include")
    assert page.locator("figure.line tbody tr").count() == 5
    page.check("[data-part=assisted-exclude]")
    loaded(page, "assisted=exclude")
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=ARTIFACTS / f"stats-{scheme}.png", full_page=True)


def test_a_player_below_2048_sees_the_reach_of_each_tile_from_128_up(
    pages: Pages, live_server: LiveServer
) -> None:
    page = pages.open()
    me = player_id(page, live_server)
    for top in (128, 256, 256):
        # Ended games (no move left): the statistics count them, as they would not abandoned ones.
        over = Board.from_rows([[top, 2, 4, 2], [2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4]])
        live_server.store.add_game(me, Game.from_board(over, seed=top))
    live_server.store.new_game(me)
    page.click("#stats")
    loaded(page, "assisted=include")
    reach = page.locator("figure.bars")
    # 128, 256 and the tile above the best, 512: no empty 2048.
    assert reach.locator("tbody th").all_text_contents() == ["128", "256", "512"]
    assert reach.locator("tbody td").all_text_contents() == ["100%", "66.7%", "0%"]
    heights = page.eval_on_selector_all(
        "figure.bars rect.bar", "bars => bars.map(b => +b.getAttribute('height'))"
    )
    assert heights[0] > heights[1] > heights[2] == 0


def test_views_on_a_phone_in_japanese(pages: Pages, live_server: LiveServer) -> None:
    page = pages.open("/?lang=ja", viewport=PHONE)
    game_id = stored(page, live_server, long_game(41))
    assert page.get_attribute("#history", "aria-label") == "履歴"
    page.click("#history")
    loaded(page, "/api/games")
    assert page.text_content("#views h2") == "履歴"
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.screenshot(path=ARTIFACTS / "history-phone-ja.png")
    page.goto(f"/?lang=ja#/replay/{game_id}/30")
    at_move(page, 30)
    frame = page.eval_on_selector(".replay-frame", "f => f.getBoundingClientRect().toJSON()")
    assert frame["right"] <= PHONE["width"] and frame["width"] >= 240
    page.screenshot(path=ARTIFACTS / "replay-phone-ja.png")


def ranked_game_in_play(store: Store, player: int) -> int:
    record = store.new_game(player, ranked=True)
    direction = next(iter(record.board.legal_moves()))
    return store.move(player, record.id, direction, revision=record.revision).game.id


def refusal(status: int, code: str) -> Callable[[Route], None]:
    return lambda route: route.fulfill(status=status, json={"error": code, "detail": "nope"})


def test_export_is_offered_where_given_and_refusals_are_said(
    pages: Pages, live_server: LiveServer, tmp_path: Path
) -> None:
    page = pages.open("/?lang=ja", allow_errors=True, **NO_WORKER)  # the refusals are logged by the browser
    me = player_id(page, live_server)
    done = stored(page, live_server, long_game(31))
    playing = ranked_game_in_play(live_server.store, me)
    page.goto("/?lang=ja#/history")
    loaded(page, "/api/games")
    # A ranked game still in play has no file to give (the server refuses it): no Export there.
    assert page.locator(f"tr[data-game='{playing}'] [data-part=export]").count() == 0
    export = f"tr[data-game='{done}'] [data-part=export]"
    with page.expect_download() as download:
        page.click(export)
    assert download.value.suggested_filename == f"twenty48-game-{done}.json"
    saved = tmp_path / "game.json"
    download.value.save_as(saved)
    assert saved.read_bytes() == page.request.get(f"/api/games/{done}/export").body()
    # Refused anyway (the list was out of date): the view says why, in the page's language, naming
    # the game as its row does (by when it began).
    began = page.text_content(f"tr[data-game='{done}'] td")
    refusals = [
        (
            409,
            "game_in_progress",
            f"{began}のゲームはプレイ中のランキング対象ゲームです。終わってから書き出せます。",
        ),
        (404, "not_found", "このゲームは存在しないか、あなたのものではありません。"),
        (400, "bad_request", f"{began}のゲームは書き出されませんでした: nope"),
    ]
    for status, code, words in refusals:
        page.unroute("**/export")
        page.route("**/export", refusal(status, code))
        page.click(export)
        page.wait_for_function("w => document.querySelector('#views .message').textContent === w", arg=words)
    # A refused import leads with what happened, then the server's reason.
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"format": "twenty48-game/1", "seed": 1, "actions": []}))
    page.set_input_files("[data-part=import]", str(bad))
    lead = "ファイルは読み込まれませんでした: "
    page.wait_for_function(
        "w => document.querySelector('#views .message').textContent.startsWith(w)", arg=lead
    )
