"""Response bodies of the history API (``twenty48.web.history``), and their conversion from store records."""

from __future__ import annotations

import json
from typing import Annotated, Literal, cast

from fastapi import Query
from pydantic import BaseModel, Field

from twenty48.store import ID_LIMIT, MAX_POSITIONS, Positions, Stats
from twenty48.web.models import SizeField, Spawn, VariantName
from twenty48.web.params import Digits

#: The page of positions a request asks for (the player's own game or a public one): from move
#: ``first``, ``count`` of them. The store numbers a game's moves in 64-bit integers, as it does its
#: ids, so ``first`` past ID_LIMIT can name no move of any game.
FirstMove = Annotated[
    int,
    Query(alias="from", ge=0, le=ID_LIMIT, description="The first move number (0 is the start position)."),
    Digits,
]
PositionCount = Annotated[int, Query(ge=1, le=MAX_POSITIONS), Digits]


class PositionItem(BaseModel):
    move: int = Field(description="The board is the one after this move; 0 is the start position.")
    board: list[list[int]] = Field(
        description="R rows of C tile values (the game's size), 0 for an empty cell."
    )
    score: int
    slides: list[tuple[int, int]] = Field(
        description="What this move did: [from cell, to cell] for every tile before it; empty for move 0."
    )
    merges: list[int] = Field(description="Cells where this move's merges created a tile.")
    spawn: Spawn | None = Field(description="The tile that appeared after this move; null for move 0.")


class PositionsAnswer(BaseModel):
    game_id: int
    total: int = Field(description="How many positions the game has: its moves + 1 (moves 0 .. total - 1).")
    positions: list[PositionItem] = Field(description="In move order; empty from past the end.")


def positions_json(found: Positions) -> str:
    """``PositionsAnswer.of(found)`` as JSON, written directly: a model per position cost twice the
    replay itself (a page of 1,000 moves: 35 ms of CPU against its replay's 16)."""
    return json.dumps(
        {
            "game_id": found.game_id,
            "total": found.total,
            "positions": [
                {
                    "move": p.move,
                    "board": p.board.rows,
                    "score": p.score,
                    "slides": p.slides,
                    "merges": p.merges,
                    "spawn": {"cell": p.spawn[0], "value": p.spawn[1]} if p.spawn else None,
                }
                for p in found.positions
            ],
        },
        separators=(",", ":"),
    )


class FirstReachItem(BaseModel):
    median: float | None = Field(
        description="Median move number of the first reach; null if none reached it."
    )
    best: int | None = Field(description="Fewest moves it took; null if none reached it.")


class Streak(BaseModel):
    current: int = Field(
        description="Counted games in a row, up to the newest, that reached the win tile (2048 on the 4x4)."
    )
    best: int = Field(description="The longest such run.")


#: The query parameter and the answer's field that say whether abandoned games are counted.
ABANDONED_HELP = (
    "exclude: the figures are over the games that ended (game over, or won); include: over the "
    "abandoned ones too (replaced by a new game before they were over or won)."
)


class StatsAnswer(BaseModel):
    """One variant's figures on one board size; those from ``best`` on are over the ``counted``
    games (null when there are none): the ended ones, and with ``abandoned=include`` the abandoned
    ones too."""

    variant: VariantName
    size: SizeField
    assisted: Literal["include", "exclude"] = Field(
        description="exclude: only games known to have had no hint, auto-played move or undo."
    )
    abandoned: Literal["include", "exclude"] = Field(description=ABANDONED_HELP)
    games: int = Field(description="Every game in the variant and size, the one being played included.")
    finished: int = Field(description="Games that take no more moves: ended + abandoned_games.")
    ended: int = Field(
        description="Games that ended: game over, or won (the size's win tile made: 2048 on the 4x4) "
        "and then left."
    )
    abandoned_games: int = Field(description="Games replaced by a new game before they were over or won.")
    counted: int = Field(description="The games the figures below are over.")
    best: int | None
    mean: float | None
    median: float | None
    reach: dict[str, float] = Field(
        description="Tile (128 up to the one above the largest reached, on boards whose win tile is 2048; "
        "as far below a smaller board's win tile) -> fraction of the counted games that reached it."
    )
    first_reach: dict[str, FirstReachItem] = Field(description="Tile -> move numbers of its first reach.")
    win_rate: float | None
    streak: Streak
    recent: list[int] = Field(description="Scores of the last 100 counted games, oldest first.")

    @classmethod
    def of(
        cls, stats: Stats, assisted: Literal["include", "exclude"], abandoned: Literal["include", "exclude"]
    ) -> StatsAnswer:
        return cls(
            variant=cast(VariantName, stats.variant),
            size=str(stats.size),
            assisted=assisted,
            abandoned=abandoned,
            games=stats.games,
            finished=stats.finished,
            ended=stats.ended,
            abandoned_games=stats.abandoned,
            counted=stats.counted,
            best=stats.best,
            mean=stats.mean,
            median=stats.median,
            reach={str(t): f for t, f in stats.reach.items()},
            first_reach={
                str(t): FirstReachItem(median=r.median, best=r.best) for t, r in stats.first_reach.items()
            },
            win_rate=stats.win_rate,
            streak=Streak(current=stats.streak_current, best=stats.streak_best),
            recent=list(stats.recent),
        )


class ImportAnswer(BaseModel):
    imported: list[int] = Field(description="Ids of the games stored, in file order.")
    skipped: int = Field(
        description="Games already present (the same seed, variant, start and actions and, where the "
        "file says, the same start time), not stored again."
    )
    resumed: int | None = Field(
        description="The file's game in progress, now the current game (the player had none); null "
        "when there is none."
    )
