"""``2048 review``: the solver grades every move of a game (``twenty48.ai.review``).

The game comes from the store (``GAME_ID``, the terminal player's, ``--db`` for another database),
from a seed and its moves (``--seed`` and ``--actions``, no database needed) or from an exported
game file (``--file``). The review covers the game's current line: undone moves are gone. A stored
game's review is kept in the store, as the server's are, so asking again is instant.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable
from typing import Any

from twenty48.commands.database import add_db_argument
from twenty48.commands.files import read_json
from twenty48.commands.game_arguments import check_actions, parse_actions, parse_seed, parse_size
from twenty48.commands.messages import fail
from twenty48.commands.replay import replay
from twenty48.commands.storage import RefusedError, parse_game_id, with_store
from twenty48.game import Game
from twenty48.rules import DEFAULT_SIZE
from twenty48.store import Player, Store, transfer
from twenty48.variants import CLASSIC, VARIANTS
from twenty48.wording import count

HELP = (
    "Grade every move of a game against the solver and estimate the chance of its next tile from every "
    "position; print the accuracy, turning point and mistakes."
)

#: The grades the mistakes table lists.
LISTED = ("mistake", "blunder")
#: The largest falls of the chance listed.
FALLS = 5
#: Seconds between two words to the store on a review it keeps (``twenty48.store.reviews``).
HEARTBEAT_S = 1.0


def add_arguments(parser: argparse.ArgumentParser) -> None:
    which = parser.add_mutually_exclusive_group(required=True)
    which.add_argument(
        "game_id", nargs="?", type=parse_game_id, metavar="GAME_ID", help="a game of yours in the store"
    )
    which.add_argument("--seed", type=parse_seed, help="review the game of this seed and --actions")
    which.add_argument(
        "--file", metavar="GAME.json", help="review an exported game file (- reads standard input)"
    )
    parser.add_argument(
        "--actions",
        type=parse_actions,
        help="with --seed: comma-separated moves, e.g. up,left,left,down (left@5: a Merge 2048 tile move)",
    )
    parser.add_argument(
        "--variant",
        choices=sorted(VARIANTS),
        default=CLASSIC.name,
        help="with --seed: the game's rules (default %(default)s)",
    )
    parser.add_argument(
        "--size",
        type=parse_size,
        default=DEFAULT_SIZE,
        metavar="RxC",
        help="with --seed: the game's board, R rows of C cells, each 2-6 (default %(default)s)",
    )
    add_db_argument(parser)
    parser.add_argument("--json", action="store_true", help="print the review as one JSON object")


def run(args: argparse.Namespace) -> int:
    if args.seed is None and (
        args.actions is not None or args.variant != CLASSIC.name or args.size != DEFAULT_SIZE
    ):
        return fail("review", "--actions, --variant and --size go with --seed")
    if args.game_id is not None:

        def act(store: Store, player: Player) -> None:
            print_review(stored_review(store, player.id, args.game_id), args.json)

        return with_store("review", args.db, act, existing=True)
    try:
        game = game_from_seed(args) if args.seed is not None else game_from_file(args.file)
    except RefusedError as exc:
        return fail("review", str(exc))
    print_review(review_with_progress(game), args.json)
    return 0


def game_from_seed(args: argparse.Namespace) -> Game:
    """The game of ``--seed`` and ``--actions``; a move that changes nothing, or comes after the
    end, is refused rather than skipped, since the review would not be of the game given."""
    try:
        actions = check_actions(args.actions or [], args.size)
        replayed = replay(args.seed, actions, args.variant, args.size)
    except ValueError as exc:
        raise RefusedError(str(exc)) from None
    if replayed.illegal:
        first = replayed.illegal[0]
        raise RefusedError(f"move {first} ({actions[first - 1]}) does not move the board")
    if replayed.after_end is not None:
        raise RefusedError(f"move {replayed.after_end} comes after the game ended")
    return replayed.game


def game_from_file(path: str) -> Game:
    data = read_json(path)
    if isinstance(data, dict) and data.get("format") == transfer.HISTORY_FORMAT:
        raise RefusedError(f"{path} is a history file: review takes one game file (2048 export GAME_ID)")
    try:
        (imported,) = transfer.read_file(data)
    except transfer.ImportRefusedError as exc:
        raise RefusedError(f"{path}: {exc}") from None
    return imported.game


def stored_review(store: Store, player: int, game_id: int) -> dict[str, Any]:
    """The game's review from the store when one is current (made by the server or an earlier run),
    else computed now and stored, as the server's jobs are, for the next request. While a server is
    reviewing this game (or another of this player's) the review is computed here and not stored."""
    from twenty48.ai.review import REVIEW_SETTING

    asked = store.request_review(player, game_id, REVIEW_SETTING)
    if asked.outcome == "current" and asked.record is not None:
        review = asked.record.review
        assert review is not None
        return review
    if asked.outcome != "queued" or asked.record is None or asked.game is None:
        return review_with_progress(store.load_game(player, game_id))
    job = asked.record.job
    store.start_review(game_id, job)
    beat = [time.monotonic()]

    def heartbeat(done: int) -> None:
        if time.monotonic() - beat[0] >= HEARTBEAT_S:
            beat[0] = time.monotonic()
            store.review_progress(game_id, job, done)

    try:
        review = review_with_progress(Game.from_dict(asked.game), heartbeat)
    except BaseException:
        store.fail_review(game_id, job)
        raise
    store.finish_review(game_id, job, review)
    return review


def print_review(result: dict[str, Any], as_json: bool) -> None:
    if as_json:
        print(json.dumps(result, allow_nan=False))
        return
    print("\n".join(summary_lines(result)))


def review_with_progress(game: Game, report: Callable[[int], None] | None = None) -> dict[str, Any]:
    """The review, with a progress bar on stderr when it is a terminal; ``report(done)`` after each
    move."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    from twenty48.ai.review import review_game

    console = Console(stderr=True)
    with Progress(
        TextColumn("[bold]reviewing"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=console,
        transient=True,
        disable=not console.is_terminal,
    ) as progress:
        task = progress.add_task("", total=game.moves)

        def step(done: int, _total: int) -> None:
            progress.update(task, completed=done)
            if report is not None:
                report(done)

        return review_game(game, progress=step)


def summary_lines(review: dict[str, Any]) -> list[str]:
    """The review as text: the summary, then the mistakes table."""
    graded = sum(review["grades"].values())
    moves = review["moves"]
    if review["accuracy"] is None:
        lines = [f"accuracy: - (no whole-board move to grade of {len(moves)})"]
    else:
        lines = [f"accuracy: {review['accuracy']:.1f} % over {count(graded, 'graded move')} of {len(moves)}"]
    lines.append("grades: " + ", ".join(f"{grade} {n}" for grade, n in review["grades"].items()))
    target = review["target"]
    lines.append(f"chance of reaching {target} at the start: {review['start_chance']:.0f} %")
    turn = review["turning_point"]
    if turn is None:
        lines.append("turning point: none (the chance never fell)")
    else:
        lines.append(f"turning point: {_fall_text(moves[turn['n'] - 1], turn['fall'], target)}")
    setting = review["setting"]
    chance = setting["chance"]
    lines.append(
        f"setting: {setting['nodes']:,} chance nodes a position, solver version {setting['solver']}; "
        f"chances from {chance['continuations']} continuations at depth {chance['depth']}"
    )
    falls = largest_falls(review)
    if falls:
        lines += ["", "largest falls of the chance:"]
        lines += [f"  {_fall_text(m, fall, target)}" for m, fall in falls]
    listed = [m for m in moves if m["grade"] in LISTED]
    if not listed:
        lines.append("no mistakes or blunders")
        return lines
    lines += ["", f"{'move':>6}  {'played':<8}{'best':<8}{'loss':>5}  grade"]
    lines += [f"{m['n']:>6}  {m['played']:<8}{m['best']:<8}{m['loss']:>5}  {m['grade']}" for m in listed]
    return lines


def largest_falls(review: dict[str, Any]) -> list[tuple[dict[str, Any], float]]:
    """The moves after which the chance fell furthest (``FALLS`` at most, by at least the turning
    point's smallest fall), each with its fall, the largest first (the earlier on a tie)."""
    from twenty48.ai.review import TURNING_POINT_DROP

    before = [review["start_chance"], *(m["chance"] for m in review["moves"])]
    falls = [(m, before[i] - m["chance"]) for i, m in enumerate(review["moves"])]
    ranked = sorted((f for f in falls if f[1] >= TURNING_POINT_DROP), key=lambda f: -f[1])
    return ranked[:FALLS]


def _fall_text(move: dict[str, Any], fall: float, target: int) -> str:
    """The fall after ``move`` as a line: "move 212, down, left was better: the chance of reaching 512
    fell from 81 % to 34 %"."""
    better = "" if move["best"] in (None, move["played"]) else f", {move['best']} was better"
    after = move["chance"]
    return (
        f"move {move['n']}, {move['played']}{better}: "
        f"the chance of reaching {target} fell from {after + fall:.0f} % to {after:.0f} %"
    )
