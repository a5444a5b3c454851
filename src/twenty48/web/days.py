"""The UTC day of the daily challenge and board: shared by the game routes and the leaderboards."""

from __future__ import annotations

import math
from datetime import UTC, datetime, timedelta


def utc_date(now: float) -> str:
    """The UTC date at ``now`` (Unix seconds): the daily challenge and board of that day."""
    return datetime.fromtimestamp(now, UTC).date().isoformat()


def seconds_to_midnight(now: float) -> int:
    """Whole seconds (rounded up) from ``now`` (Unix seconds) until the next UTC day begins."""
    day = datetime.fromtimestamp(now, UTC).date()
    midnight = datetime.combine(day + timedelta(days=1), datetime.min.time(), UTC)
    return math.ceil(midnight.timestamp() - now)
