"""How every router answers: a model as JSON, and the errors any ``/api`` route may answer."""

from __future__ import annotations

from typing import Any

from fastapi import Response
from pydantic import BaseModel

from twenty48.web.guard import MAX_BODY
from twenty48.web.models import ErrorAnswer


def json_answer(answer: BaseModel, status_code: int = 200) -> Response:
    # Serialised by pydantic-core directly: returning the model would make FastAPI validate it again.
    return Response(answer.model_dump_json(), status_code=status_code, media_type="application/json")


#: The errors any route under ``/api`` may answer, for each router's ``responses``.
ERROR_RESPONSES: dict[int | str, dict[str, Any]] = {
    code: {"model": ErrorAnswer, "description": description}
    for code, description in {
        400: "Malformed JSON.",
        403: "Made by another site's page (`Sec-Fetch-Site` or `Origin`).",
        404: "No such game for this player.",
        413: f"Request body over {MAX_BODY} bytes.",
        422: "A field is missing, of the wrong type or out of range.",
        429: "`too_many_new_players`: the request would store a new visitor's player, and this "
        "address made as many as `2048 serve --new-players-per-hour` allows (`Retry-After`).",
        503: "The database is unavailable (locked by another program, disk full).",
    }.items()
}
