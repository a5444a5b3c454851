"""The ``2048`` command. Each subcommand lives in its own module under ``twenty48.commands``
and is imported only when chosen, so ``2048 --help`` stays instant."""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence
from typing import NoReturn

from twenty48 import __version__
from twenty48.commands.messages import cut

#: Subcommand name -> module in ``twenty48.commands`` exposing ``HELP``, ``add_arguments(parser)``
#: and ``run(args) -> int``.
COMMANDS: dict[str, str] = {
    "replay": "replay",
    "serve": "serve",
    "play": "play",
    "hint": "hint",
    "bench": "bench",
    "migrate": "migrate",
    "copy": "copy",
    "history": "history",
    "stats": "stats",
    "export": "export",
    "import": "import_games",
    "admin": "admin",
    "review": "review",
}


class _Parser(argparse.ArgumentParser):
    """Bad arguments are one line (what is wrong, and where the help is), exit status 2: the usage
    block argparse prints above them buries the one line that matters."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {cut(message)} (see `{self.prog} --help`)\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="2048",
        description="2048 exactly as its official rules define it. Without a command (options "
        "included, e.g. `2048 --port 8000`) it runs `serve`: the browser game.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, module_name in COMMANDS.items():
        module = importlib.import_module(f"twenty48.commands.{module_name}")
        command = sub.add_parser(name, help=module.HELP, description=module.HELP)
        module.add_arguments(command)
        command.set_defaults(run=module.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    words = list(sys.argv[1:] if argv is None else argv)
    if not words or (words[0].startswith("-") and words[0] not in ("-h", "--help", "--version")):
        # Bare `2048`, with or without serve's options, plays in the browser.
        words = ["serve", *words]
    args = parser.parse_args(words)
    try:
        return int(args.run(args))
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
