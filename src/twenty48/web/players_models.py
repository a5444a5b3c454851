"""Request and response bodies of the players' and leaderboards' API."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Literal, cast

from pydantic import BaseModel, ConfigDict, Field

from twenty48.names import MAX_LENGTH
from twenty48.store import GameRecord, Leaderboard, LeaderboardEntry, Profile, TransferCode
from twenty48.web.models import ErrorAnswer, SizeField, VariantName

#: The boards of ``GET /api/leaderboard`` (``twenty48.store.LEADERBOARDS``).
BoardName = Literal["daily", "all-time"]


class _Request(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class MeRequest(_Request):
    # A few characters more than a name may have: the name's own check says what is wrong with it.
    name: str | None = Field(
        default=None,
        max_length=4 * MAX_LENGTH,
        description=f"A display name: 1-{MAX_LENGTH} characters after NFKC normalisation (letters with "
        "their combining marks, digits, single inner spaces, `_-.`), unique whatever the case; "
        "null: anonymous again. Absent: unchanged.",
    )
    hidden: bool | None = Field(default=None, description="Keep your entries off the leaderboards.")


class NameRefusal(ErrorAnswer):
    """A refused name (422); a refused character is also given apart, for the page's own words."""

    character: str | None = Field(
        default=None, description="`name_character`: the character refused (after NFKC normalisation)."
    )
    character_name: str | None = Field(
        default=None, description='`name_character`: its Unicode name ("" for a character without one).'
    )


class MeAnswer(BaseModel):
    name: str | None = Field(description="The display name; null: anonymous, never on a board.")
    hidden: bool = Field(description="The player keeps their entries off the boards.")
    on_boards: bool = Field(description="Named, and hidden neither by the player nor by the host.")

    @classmethod
    def of(cls, profile: Profile | None) -> MeAnswer:
        if profile is None:
            return cls(name=None, hidden=False, on_boards=False)
        return cls(name=profile.name, hidden=profile.hidden, on_boards=profile.on_boards)


class TransferAnswer(BaseModel):
    code: str = Field(description="Enter it on the other device (POST /api/me/claim); works once.")
    expires_at: str = Field(description="UTC, ISO 8601.")
    expires_in: int = Field(description="Seconds the code still works.")

    @classmethod
    def of(cls, code: TransferCode, now: float) -> TransferAnswer:
        return cls(
            code=code.code,
            expires_at=datetime.fromtimestamp(code.expires_at, UTC).isoformat(timespec="seconds"),
            expires_in=round(code.expires_at - now),
        )


class ClaimRequest(_Request):
    code: str = Field(max_length=64, description="A code from POST /api/me/transfer on the other device.")


class EntryAnswer(BaseModel):
    rank: int
    name: str = Field(description="Plain text: show it as text, never as HTML.")
    score: int
    max_tile: int
    moves: int
    finished_at: str | None = Field(description="UTC, ISO 8601; null for a daily game still being played.")
    game_id: int = Field(description="Its replay is public once it is over (and its day too, if daily).")

    @classmethod
    def of(cls, entry: LeaderboardEntry) -> EntryAnswer:
        return cls(
            rank=entry.rank,
            name=entry.name,
            score=entry.score,
            max_tile=entry.max_tile,
            moves=entry.moves,
            finished_at=entry.finished_at,
            game_id=entry.game_id,
        )


class PublicGameAnswer(BaseModel):
    id: int
    name: str = Field(description="The player's display name. Plain text: show it as text, never as HTML.")
    variant: VariantName
    size: SizeField
    score: int = Field(description="The final score.")
    max_tile: int
    moves: int
    daily: str | None = Field(description="The UTC date of the daily challenge it is; null for another game.")
    finished_at: str | None = Field(description="When it ended: UTC, ISO 8601.")

    @classmethod
    def of(cls, name: str, game: GameRecord) -> PublicGameAnswer:
        return cls(
            id=game.id,
            name=name,
            variant=cast(VariantName, game.variant),
            size=str(game.size),
            score=game.score,
            max_tile=game.max_tile,
            moves=game.moves,
            daily=game.daily,
            finished_at=game.finished_at,
        )


class LeaderboardAnswer(BaseModel):
    board: BoardName
    variant: VariantName
    size: SizeField
    date: str | None = Field(description="The daily board's UTC date; null for the all-time board.")
    entries: list[EntryAnswer]
    me: EntryAnswer | None = Field(
        description="The asking player's entry wherever it stands; null if not on it."
    )

    @classmethod
    def of(cls, board: Leaderboard) -> LeaderboardAnswer:
        return cls.model_validate(
            {
                "board": board.board,
                "variant": board.variant,
                "size": str(board.size),
                "date": board.date,
                "entries": [EntryAnswer.of(e) for e in board.entries],
                "me": EntryAnswer.of(board.me) if board.me else None,
            }
        )
