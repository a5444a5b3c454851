"""How the command line reads a file it is given: a regular file or standard input, bounded, as JSON,
each refusal one line (``RefusedError``). ``2048 import`` and ``2048 review FILE`` read so."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

from twenty48.commands.messages import shown
from twenty48.commands.storage import RefusedError

#: The largest file read: far past any real history (a 30,000-move game is about 150 KB), and a
#: bound on the memory a wrong path can take.
MAX_FILE_BYTES = 256 << 20


def read_json(path: str | Path) -> object:
    """The JSON in the regular file at ``path`` (``-``: standard input, read to its end), or
    ``RefusedError`` saying in one line why not. Either is bounded by ``MAX_FILE_BYTES``; a web address
    is refused by name, not read as a file's path."""
    name = "standard input" if str(path) == "-" else str(path)
    if _WEB_ADDRESS.match(str(path)):
        raise RefusedError(
            f"{shown(name)} is a web address: give the path of a file on this machine (download it "
            "first, or pipe it in: curl ADDRESS | 2048 import -)"
        )
    try:
        if str(path) == "-":
            text = sys.stdin.buffer.read(MAX_FILE_BYTES + 1)
        else:
            path = Path(path)
            # Checked before opening: opening a pipe would wait for a writer, a device never ends.
            if path.exists() and not path.is_file():
                raise RefusedError(
                    f"{name} is not a regular file: give the path of an exported game or history file"
                )
            with path.open("rb") as stream:
                text = stream.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        raise RefusedError(f"cannot read {name}: {exc.strerror or exc}") from None
    if len(text) > MAX_FILE_BYTES:
        raise RefusedError(f"{name} is over {MAX_FILE_BYTES >> 20} MiB: not a game or history file")
    try:
        return json.loads(text)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise RefusedError(f"{name} is not valid JSON: {exc}") from None
    except ValueError:
        # An integer past Python's 4,300-digit limit: the web answers "not valid JSON" too.
        raise RefusedError(f"{name} is not valid JSON: a number longer than any game file holds") from None
    except RecursionError:
        raise RefusedError(f"{name} is nested too deeply to be a game file") from None


#: A URL's scheme and its slashes (``https://``, ``file:/``): not a path on this machine.
_WEB_ADDRESS = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*://")
