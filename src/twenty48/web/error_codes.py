"""Every code an error answer of the API carries (``{"error": code, "detail": message}``), in one
enumeration: the answer model's ``error`` field is typed by it, so ``/openapi.json`` lists them,
and the page reads them from the module generated from it (``shared_facts``)."""

from __future__ import annotations

from enum import StrEnum


class ErrorCode(StrEnum):
    """A stable code saying why a request was refused; ``detail`` says it for people.
    docs/api.md tells when each is answered."""

    # The request itself (the HTTP layer, the guard, validation).
    BAD_REQUEST = "bad_request"
    MALFORMED_JSON = "malformed_json"
    MALFORMED_UPLOAD = "malformed_upload"
    INVALID_REQUEST = "invalid_request"
    FORBIDDEN = "forbidden"
    CROSS_SITE = "cross_site"
    HOST_NOT_ALLOWED = "host_not_allowed"
    NOT_FOUND = "not_found"
    METHOD_NOT_ALLOWED = "method_not_allowed"
    CONFLICT = "conflict"
    BODY_TOO_LARGE = "body_too_large"
    UNSUPPORTED_MEDIA_TYPE = "unsupported_media_type"
    REQUEST_TIMEOUT = "request_timeout"
    URI_TOO_LONG = "uri_too_long"
    HEADERS_TOO_LARGE = "headers_too_large"
    # A game's present state (409, with the game as it is now).
    STALE_REVISION = "stale_revision"
    GAME_FINISHED = "game_finished"
    REJECTED = "rejected"
    GAME_IN_PROGRESS = "game_in_progress"
    # Names and transfer codes.
    NAME_EMPTY = "name_empty"
    NAME_TOO_LONG = "name_too_long"
    NAME_SPACES = "name_spaces"
    NAME_CHARACTER = "name_character"
    NAME_NO_LETTER = "name_no_letter"
    NAME_TAKEN = "name_taken"
    CODE_UNKNOWN = "code_unknown"
    CODE_EXPIRED = "code_expired"
    CODE_USED = "code_used"
    # Reviews and imports.
    NO_REVIEW = "no_review"
    IMPORT_REFUSED = "import_refused"
    IMPORT_STOPPED = "import_stopped"
    # Limits: try again later (most with Retry-After).
    TOO_MANY_NEW_GAMES = "too_many_new_games"
    TOO_MANY_NEW_PLAYERS = "too_many_new_players"
    TOO_MANY_CLAIMS = "too_many_claims"
    TOO_MANY_IMPORTS = "too_many_imports"
    HINT_IN_PROGRESS = "hint_in_progress"
    REVIEW_IN_PROGRESS = "review_in_progress"
    HINTS_BUSY = "hints_busy"
    REVIEWS_BUSY = "reviews_busy"
    IMPORTS_BUSY = "imports_busy"
    SERVER_BUSY = "server_busy"
    # The server's side.
    STORE_UNAVAILABLE = "store_unavailable"
    CLIENT_GONE = "client_gone"
    INTERNAL_ERROR = "internal_error"
