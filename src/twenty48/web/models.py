"""Request and response bodies of the HTTP API, and their conversion from store records."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Literal, cast

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field, model_validator

from twenty48 import spawns
from twenty48.rules import DEFAULT_SIZE, MAX_SIDE, MIN_SIDE, OFFERED_SIZES, Board, BoardSize, Direction
from twenty48.spawns import JSON_SAFE_SEED_MAX
from twenty48.store import ID_LIMIT, Daily, GameRecord, GameSummary, MoveOutcome, Replay, Status
from twenty48.variants import CLASSIC

#: The names in ``twenty48.variants.VARIANTS`` (a test keeps the two equal).
VariantName = Literal["classic", "merge"]
#: How a page of the game list is ordered (``twenty48.store.GAME_SORTS``).
SortName = Literal["date", "score", "max_tile"]
#: The variant of a request that names none.
DEFAULT_VARIANT = cast(VariantName, CLASSIC.name)
VARIANT_HELP = "classic (the official rules) or merge (Merge 2048: staged spawns, single-tile swipes)."
#: The spawn schemes of ``twenty48.spawns``.
SpawnsName = Literal["splitmix64", "blake2b"]
SEED_HELP = (
    "What the spawns come from: an integer for a splitmix64 game, the 256-bit key as 64 hex digits for "
    "a blake2b (ranked) game. Null while the game is ranked and in progress: it would tell every tile "
    "still to come."
)
#: A logged move: a direction, or "left@5" for a single-tile move from cell 5 (Merge 2048; a cell of
#: the game's board, 0-35 on the 6x6).
Action = Annotated[str, Field(pattern=r"^(up|down|left|right)(@([0-9]|[12][0-9]|3[0-5]))?$")]
#: The size of a request that names none.
DEFAULT_SIZE_NAME = str(DEFAULT_SIZE)
SIZE_HELP = (
    f'The board: R rows by C columns, written "RxC" rows first, R and C each from {MIN_SIDE} to {MAX_SIDE} '
    f"({DEFAULT_SIZE_NAME}, the official board, by default; the page offers "
    f"{', '.join(map(str, OFFERED_SIZES))})."
)


def _size_name(value: str) -> str:
    # BoardSize.parse's refusal names the range; the name is answered as "RxC" whatever its case.
    return str(BoardSize.parse(value))


#: A board size in a request: "RxC" (any case), answered in its canonical form.
SizeName = Annotated[
    str,
    AfterValidator(_size_name),
    Field(
        description=SIZE_HELP,
        json_schema_extra={"pattern": f"^[{MIN_SIDE}-{MAX_SIDE}]x[{MIN_SIDE}-{MAX_SIDE}]$"},
    ),
]
#: A board size in an answer.
SizeField = Annotated[str, Field(description='The board size, "RxC" rows first: R rows of C cells.')]


def _integral(value: object) -> object:
    # JSON Schema's "integer" is any number with a zero fraction (66750.0 included); strict mode
    # refuses every float, so one written with a fraction of zero is taken as the integer it is.
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


# Integer fields of a request: a JSON integer, or a number whose fraction is zero. The bounds sit
# inside the annotation so that the schema shows them as minimum and maximum.
CellNumber = Annotated[int, Field(ge=0, le=MAX_SIDE * MAX_SIDE - 1), BeforeValidator(_integral)]
RevisionNumber = Annotated[int, Field(ge=0, le=ID_LIMIT), BeforeValidator(_integral)]
SeedNumber = Annotated[int, Field(ge=0, le=JSON_SAFE_SEED_MAX), BeforeValidator(_integral)]


class _Request(BaseModel):
    # Strict: "3" is not a revision and true is not a number; unknown fields are mistakes.
    model_config = ConfigDict(extra="forbid", strict=True)


class MoveRequest(_Request):
    # Enums are matched by value even in strict mode (JSON has no enum type).
    direction: Direction = Field(strict=False, description="up, down, left or right")
    cell: CellNumber | None = Field(
        default=None,
        description="Merge 2048 only: move just the tile on this cell (row-major: 0-15 on the 4x4, "
        "0 to R*C - 1 on an RxC board; a cell past the game's board is refused with 422) toward "
        "`direction`; absent or null moves the whole board. A cell on a classic game is refused "
        "with 409 and changes nothing; an empty cell or a tile that cannot move is an illegal move.",
    )
    revision: RevisionNumber = Field(
        description="The game revision the client last saw. A different current revision means the "
        "game changed meanwhile (another tab, an earlier key press still in flight): the move is "
        "refused with 409 and the current state.",
    )
    auto: bool = Field(
        default=False,
        description="The move was auto-played (counted in the game's assisted counts, once: not "
        "again when auto-play's hint at this position, `GET .../hint?auto=true`, counted it).",
    )


class ActionRequest(_Request):
    revision: RevisionNumber = Field(description="The game revision the client last saw.")


class NewGameRequest(_Request):
    seed: SeedNumber | None = Field(
        default=None,
        description="Replay a known game (practice: never ranked); absent: a ranked game from a secret key.",
    )
    variant: VariantName = Field(default=DEFAULT_VARIANT, description=f"The game's rules: {VARIANT_HELP}")
    size: SizeName = Field(default=DEFAULT_SIZE_NAME, description=f"{SIZE_HELP} Ranked or not, any size.")
    daily: bool = Field(
        default=False,
        description="Start, or resume, today's daily challenge (UTC): one classic 4x4 ranked game per "
        "player and day; once over it is answered as it ended. Takes no seed, no other variant and no "
        "other size.",
    )

    @model_validator(mode="after")
    def _daily_alone(self) -> NewGameRequest:
        if self.daily and self.seed is not None:
            raise ValueError("the daily challenge has its own seed: leave seed out")
        if self.daily and (self.variant, self.size) != (DEFAULT_VARIANT, DEFAULT_SIZE_NAME):
            raise ValueError(f"the daily challenge is a {DEFAULT_VARIANT} {DEFAULT_SIZE_NAME} game")
        return self


class Forecast(BaseModel):
    """What a legal whole-board move would do to the tiles on the board: the rules' slides and
    merges, nothing of the tile that will appear after it."""

    slides: tuple[tuple[int, int], ...] = Field(
        description="[from cell, to cell] for every tile of the board, as the move's answer will give them."
    )
    merges: tuple[int, ...] = Field(description="Cells where a merge would create a tile.")


def forecast(board: Board) -> dict[Direction, Forecast]:
    """Each legal whole-board move's ``Forecast``: with it the page starts a slide on the key press,
    before the answer (which adds the spawn and the score) arrives."""
    return {d: Forecast(slides=m.slides, merges=m.merges) for d in Direction if (m := board.move(d)).changed}


class GameState(BaseModel):
    """Everything the page needs to draw a game."""

    id: int
    revision: int = Field(description="Bumped by every accepted action (move, undo, keep going).")
    seed: int | str | None = Field(description=SEED_HELP)
    spawns: SpawnsName = Field(description="The spawn scheme: splitmix64, or blake2b for a ranked game.")
    ranked: bool = Field(
        description="The game counts for the leaderboards: started by the server without a chosen seed "
        "and not assisted since (a hint, an auto-played move, an undo or a review while it is played unranks "
        "it for good)."
    )
    daily: str | None = Field(description="The UTC date (YYYY-MM-DD) of the daily challenge this game is.")
    created_at: str = Field(description="When the game began (UTC, ISO 8601); empty before it is stored.")
    variant: VariantName = Field(description=f"The game's rules: {VARIANT_HELP}")
    size: SizeField
    board: list[list[int]] = Field(
        description="R rows of C tile values (4 of 4 on the official board), 0 for an empty cell."
    )
    score: int
    best: int = Field(description="The player's best score in this game's variant and size.")
    moves: int = Field(description="Legal moves in the current line of play (undo takes one back).")
    max_tile: int
    won: bool = Field(
        description="A merge created the size's win tile in this game: 2048 on boards of 16 cells or more "
        "(docs/rules.md gives the smaller boards')."
    )
    win_tile: int = Field(description="The tile whose first creation wins: 2048 on the 4x4.")
    keep_playing: bool = Field(description="The player chose to keep going after the win.")
    over: bool = Field(description="No legal move remains.")
    can_undo: bool
    current: bool = Field(description="The player's current game (not replaced by a newer one).")
    finished: bool = Field(description="Over or replaced: no more actions are accepted.")
    forecast: dict[Direction, Forecast] = Field(
        description="For each legal whole-board move from this state, what it would do to the tiles "
        "(no spawn: only what the rules make of the board shown); empty once the game is finished."
    )

    @classmethod
    def of(cls, record: GameRecord) -> GameState:
        return cls(
            id=record.id,
            revision=record.revision,
            seed=None if record.seed is None else spawns.seed_json(record.seed),
            spawns=cast(SpawnsName, record.spawns),
            ranked=record.ranked,
            daily=record.daily,
            created_at=record.created_at,
            variant=cast(VariantName, record.variant),
            size=str(record.size),
            board=[list(row) for row in record.board.rows],
            score=record.score,
            best=record.best_score,
            moves=record.moves,
            max_tile=record.max_tile,
            won=record.won,
            win_tile=record.size.win_tile,
            keep_playing=record.keep_playing,
            over=record.over,
            can_undo=record.can_undo,
            current=record.current,
            finished=record.finished,
            forecast={} if record.finished else forecast(record.board),
        )


class Spawn(BaseModel):
    cell: int = Field(description="Row-major: C * row + column on a board of C columns (0-15 on the 4x4).")
    value: int


class MoveAnswer(BaseModel):
    """What one move did, for animation, and the state after it."""

    direction: Direction
    cell: int | None = Field(description="The source cell of a single-tile move; null for the whole board.")
    changed: bool = Field(description="False for an illegal move: nothing changed, nothing was stored.")
    points: int = Field(description="Points gained by this move's merges.")
    slides: list[tuple[int, int]] = Field(
        description="[from cell, to cell] for every tile of the board before the move."
    )
    merges: list[int] = Field(description="Cells where a merge created a tile.")
    spawn: Spawn | None = Field(description="The tile that appeared after the move.")
    won_now: bool = Field(description="This move created the game's first win tile (2048 on the 4x4).")
    over: bool
    state: GameState

    @classmethod
    def of(cls, outcome: MoveOutcome) -> MoveAnswer:
        turn = outcome.turn
        return cls(
            direction=turn.direction,
            cell=turn.cell,
            changed=turn.changed,
            points=turn.score,
            slides=list(turn.slides),
            merges=list(turn.merges),
            spawn=Spawn(cell=turn.spawn[0], value=turn.spawn[1]) if turn.spawn else None,
            won_now=turn.won_now,
            over=turn.over,
            state=GameState.of(outcome.game),
        )


class GameListItem(BaseModel):
    id: int
    variant: VariantName
    size: SizeField
    score: int
    moves: int
    max_tile: int
    won: bool
    over: bool
    current: bool
    finished: bool = Field(description="Takes no more moves: ended or abandoned.")
    status: Status = Field(
        description="ended: game over, or won (2048 made) and then left for a new game; abandoned: "
        "replaced by a new game before it was over or won."
    )
    created_at: str
    updated_at: str
    hints: int | None = Field(description="Hints asked (once per position); null: unknown (an older game).")
    auto_moves: int | None = Field(description="Auto-played moves; null: unknown.")
    undos: int | None = Field(description="Undos; null: unknown.")
    assisted: bool | None = Field(description="Any hint, auto-played move or undo; null: unknown.")
    imported: bool = Field(description="Imported from a file (never ranked).")
    exportable: bool = Field(
        description="GET /api/games/{id}/export gives its file: not while the game is ranked and may "
        "still be played (its seed would tell every tile to come)."
    )

    @classmethod
    def of(cls, summary: GameSummary) -> GameListItem:
        return cls(
            id=summary.id,
            variant=cast(VariantName, summary.variant),
            size=str(summary.size),
            score=summary.score,
            moves=summary.moves,
            max_tile=summary.max_tile,
            won=summary.won,
            over=summary.over,
            current=summary.current,
            finished=summary.finished,
            status=summary.status,
            created_at=summary.created_at,
            updated_at=summary.updated_at,
            hints=summary.hints,
            auto_moves=summary.auto_moves,
            undos=summary.undos,
            assisted=summary.assisted,
            imported=summary.origin == "imported",
            exportable=not summary.secret,
        )


class GameList(BaseModel):
    games: list[GameListItem] = Field(description="Newest first.")
    next_before: int | None = Field(description="Pass as ?before= for the next page; null at the end.")


class ReplayStart(BaseModel):
    board: list[list[int]] = Field(
        description="R rows of C tile values (the game's size), 0 for an empty cell."
    )
    score: int


class ReplayAnswer(BaseModel):
    """A finished game: ``Game.replay(seed, actions, variant, start, size)`` rebuilds it exactly."""

    id: int
    seed: int | str = Field(
        description="An integer for a splitmix64 game, the key as 64 hex digits for blake2b."
    )
    spawns: SpawnsName = Field(description="The spawn scheme (twenty48.spawns).")
    variant: VariantName
    size: SizeField
    actions: list[Action] = Field(
        description='The moves in order: "left", or "left@5" for a single-tile move from cell 5.'
    )
    score: int
    max_tile: int
    won: bool
    over: bool
    start: ReplayStart | None = Field(
        default=None,
        description="The prepared position the game began from; null when it began from its seed.",
    )

    @classmethod
    def of(cls, replay: Replay) -> ReplayAnswer:
        start = replay.start
        return cls(
            id=replay.game_id,
            seed=spawns.seed_json(replay.seed),
            spawns=cast(SpawnsName, spawns.scheme(replay.seed)),
            variant=cast(VariantName, replay.variant),
            size=str(replay.size),
            actions=[str(a) for a in replay.actions],
            score=replay.score,
            max_tile=replay.max_tile,
            won=replay.won,
            over=replay.over,
            start=None
            if start is None
            else ReplayStart(board=[list(r) for r in start.board.rows], score=start.score),
        )


class RankedMove(BaseModel):
    direction: Direction
    value: float = Field(description="The solver's expected value of the position after this move.")
    standing: int = Field(
        ge=0, le=100, description="How good the move is, 0-100: 100 for the best (twenty48.ai.standing)."
    )
    grade: str = Field(description="best, good, inaccuracy, mistake or blunder (from the standing).")

    @classmethod
    def ranked(cls, board: Board, ranking: Mapping[Direction, float]) -> list[RankedMove]:
        """``ranking`` (the solver's values, best first) with each move's standing on ``board``."""
        # Imported here: twenty48.ai loads the compiled solver, which the server loads on first use.
        from twenty48.ai.standing import standings

        return [
            cls(direction=d, value=ranking[d], standing=s.points, grade=s.grade.value)
            for d, s in standings(board, ranking).items()
        ]


class HintAnswer(BaseModel):
    game_id: int = Field(description="The game id asked about (0 for a new visitor's first game).")
    revision: int = Field(description="The revision the hint was computed for.")
    best: Direction
    moves: list[RankedMove] = Field(description="Every legal whole-board move, best first.")


class BestScore(BaseModel):
    variant: VariantName
    size: SizeField
    best: int = Field(description="The player's best score in this variant and size (0 before any game).")


class DailyAnswer(BaseModel):
    date: str = Field(description="Today, in UTC (YYYY-MM-DD): the daily challenge now open.")
    seconds_left: int = Field(description="Seconds until the next UTC day's challenge opens.")
    game_id: int | None = Field(description="The player's daily game of today; null before it is started.")
    rank: int | None = Field(
        description="The game's place on today's board (best score first, ties by who finished first); "
        "null before it is started, or once it is unranked."
    )
    score: int | None = Field(
        description="The game's score on today's board (null with no place). The page shows the place "
        "once this is above 0: before, every game at 0 shares it."
    )

    @classmethod
    def of(cls, daily: Daily, seconds_left: int) -> DailyAnswer:
        return cls(
            date=daily.date,
            seconds_left=seconds_left,
            game_id=daily.game_id,
            rank=daily.rank,
            score=daily.score,
        )


class ErrorAnswer(BaseModel):
    error: str = Field(description="A stable code: invalid_request, not_found, stale_revision, ...")
    detail: str = Field(description="What is wrong, for people.")
    state: GameState | None = Field(
        default=None, description="The game as it is now (unchanged), for 409 answers."
    )
