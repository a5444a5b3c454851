"""``2048 admin``: the host's moderation of the leaderboards, on the store itself (``--db``).

PLAYER is a player's id, or their display name in any case (an id is tried first). Hiding keeps a
player's entries and public replays off the boards without deleting anything; the player cannot
undo the host's hiding (their own ``hidden`` setting is a separate one). ``games`` lists a player's
games, newest first, with why one looks played faster than a person can, for the host to judge:
such games are not hidden automatically.
"""

from __future__ import annotations

import argparse

from twenty48.commands.database import add_db_argument
from twenty48.commands.storage import with_database
from twenty48.store import ID_LIMIT, Profile, Store
from twenty48.wording import count

HELP = "Moderate the leaderboards: list players and their games, hide, unhide or rename a player."


def add_arguments(parser: argparse.ArgumentParser) -> None:
    # `--db` before or after the action: the action's own leaves the one before it alone when absent.
    add_db_argument(parser)
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    players = actions.add_parser("players", help="list the named players (--all: the anonymous ones too)")
    players.add_argument("--all", action="store_true", help="include players without a name")
    for name, help_text in (
        ("hide", "keep a player's entries and public replays off the boards"),
        ("unhide", "bring back a player the host hid"),
        ("games", "list a player's games: ranked, daily, played faster than a person can"),
    ):
        actions.add_parser(name, help=help_text).add_argument("player", metavar="PLAYER", help="id or name")
    rename = actions.add_parser("rename", help="give a player another display name (the name rules apply)")
    rename.add_argument("player", metavar="PLAYER", help="id or name")
    rename.add_argument("name", metavar="NAME")
    for action in actions.choices.values():
        add_db_argument(action, default=argparse.SUPPRESS)


def run(args: argparse.Namespace) -> int:
    def act(store: Store) -> None:
        if args.action == "players":
            print_players(store, named_only=not args.all)
            return
        profile = store.find_player(args.player)
        if args.action == "games":
            print_games(store, profile)
        elif args.action == "rename":
            renamed = store.set_name(profile.player_id, args.name)
            print(f"player {profile.player_id}: {profile.name or '(anonymous)'} -> {renamed.name}")
        else:
            store.set_hidden(profile.player_id, args.action == "hide", by_host=True)
            print(f"player {profile.player_id} ({_name(profile)}): {_seen(store.profile(profile.player_id))}")

    return with_database(f"admin {args.action}", args.db, act, existing=True)


def print_players(store: Store, *, named_only: bool) -> None:
    players = store.players_overview(named_only=named_only)
    if not players:
        print("No named players yet." if named_only else "No players yet.")
        return
    print(f"{'id':>6}  {'name':<24}  {'on the boards':<20}  {'games':>6}  {'ranked':>6}  {'fast':>5}  since")
    for p in players:
        print(
            f"{p.profile.player_id:>6}  {_name(p.profile):<24}  {_seen(p.profile):<20}  "
            f"{p.games:>6}  {p.ranked:>6}  {p.flagged:>5}  {p.created_at[:10]}"
        )


def print_games(store: Store, profile: Profile) -> None:
    games = store.games(profile.player_id, limit=ID_LIMIT)
    print(f"player {profile.player_id} ({_name(profile)}): {_seen(profile)}, {count(len(games), 'game')}")
    if not games:
        return
    print(f"{'id':>8}  {'variant':<7}  {'score':>8}  {'moves':>6}  {'tile':>6}  {'ranked':<6}  "
          f"{'daily':<10}  {'finished':<19}  played too fast")  # fmt: skip
    for g in games:
        ended = (g.finished_at or "")[:19] if g.over else "playing" if g.current else "left unfinished"
        finished = f"{ended:<19}"
        print(
            f"{g.id:>8}  {g.variant:<7}  {g.score:>8}  {g.moves:>6}  {g.max_tile:>6}  "
            f"{'yes' if g.ranked else 'no':<6}  {g.daily or '-':<10}  "
            f"{finished}  {g.flagged or ''}"
        )


def _name(profile: Profile) -> str:
    return profile.name or "(anonymous)"


def _seen(profile: Profile) -> str:
    if profile.host_hidden:
        return "hidden by the host"
    if profile.hidden:
        return "hidden by the player"
    return "shown" if profile.name else "anonymous: not shown"
