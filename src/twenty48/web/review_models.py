"""The bodies of the review API (``/api/games/{id}/review``): what the OpenAPI schema documents.

The answer is composed from the stored review's JSON text as it is (``status_json``) rather than
through these models: a 5,000-move review is a few hundred kilobytes that pydantic would rebuild on
the event loop for nothing. Tests hold the composed answer to these models."""

from __future__ import annotations

import json
from typing import Literal

from pydantic import BaseModel, Field

from twenty48.store import ReviewRecord

GradeName = Literal["best", "good", "inaccuracy", "mistake", "blunder"]


class ReviewedMove(BaseModel):
    n: int = Field(ge=1, description="The move's number: 1 is the first move.")
    played: str = Field(description='The move played: "left", or "left@5" for a Merge 2048 single-tile move.')
    best: str | None = Field(
        description="The solver's best move (equal to `played` when that was the best); null for a "
        "single-tile move, which the solver does not rank."
    )
    loss: int | None = Field(
        ge=0,
        le=100,
        description="Points given up, 100 - the move's standing (0 for the best, 100 "
        "for a move after which every spawn ends the game); null when ungraded.",
    )
    grade: GradeName | None = Field(description="The move's grade; null for a single-tile move.")
    chance: float = Field(
        ge=0,
        le=100,
        description="The chance (%) of reaching the target tile from the position after this move "
        "and its spawn: the share of seeded continuations by the solver at depth 1 that make it; 0 "
        "once the game is over.",
    )


class TurningPoint(BaseModel):
    n: int
    played: str
    best: str | None
    loss: int | None
    fall: float = Field(description="How far the chance fell after this move (percentage points).")


class ChanceSetting(BaseModel):
    depth: int = Field(description="The depth the continuations' solver searches each move.")
    continuations: int = Field(description="Continuations played from every position.")
    cap: int = Field(description="Moves a continuation may play; one still going counts as not reaching.")
    streams: int = Field(description="The seed of the continuations' spawn streams.")


class ReviewSetting(BaseModel):
    nodes: int = Field(description="Chance nodes the solver searches per position to grade a move.")
    solver: int = Field(description="The solver version (twenty48.ai.solver.SOLVER_VERSION).")
    chance: ChanceSetting = Field(description="How the chance of every position is estimated.")


class ReviewStatus(BaseModel):
    game_id: int
    state: Literal["queued", "running", "done", "cancelled", "failed"]
    done: int = Field(description="Moves reviewed so far (graded, with their chance), the last first.")
    total: int = Field(description="Moves the review covers (the game's moves when it was asked for).")
    current: bool = Field(
        description="A done review at the server's review setting, of the game's line as it stands now "
        "(false once the game has moved on: asking again reviews it anew)."
    )
    # Once done, the review's own fields (the object `2048 review --json` prints) follow; null before.
    accuracy: float | None = Field(
        None, ge=0, le=100, description="Mean standing (0-100) of the graded moves; null with none."
    )
    grades: dict[GradeName, int] | None = Field(None, description="How many moves got each grade.")
    target: int | None = Field(
        None, description="The tile the chances are of: the next power of two above the game's largest."
    )
    start_chance: float | None = Field(None, ge=0, le=100, description="The chance of the starting position.")
    turning_point: TurningPoint | None = Field(
        None, description="The move after which the chance fell furthest; null if it never fell."
    )
    moves: list[ReviewedMove] | None = Field(None, description="Every move of the line, graded.")
    covers: int | None = Field(
        None, description="The moves reviewed: the game's moves when the review was asked for."
    )
    setting: ReviewSetting | None = Field(None, description="The review setting it was made at.")


def status_json(record: ReviewRecord) -> str:
    """The ``ReviewStatus`` of ``record`` as JSON text; once done, the review's fields follow the
    job's, spliced in as stored (a long game's review is not parsed again for each answer)."""
    head = json.dumps(
        {
            "game_id": record.game_id,
            "state": record.state,
            "done": record.done,
            "total": record.total,
            "current": record.current,
        },
        separators=(",", ":"),
    )
    if record.state != "done" or record.review_text is None:
        return head
    return f"{head[:-1]},{record.review_text[1:]}"
