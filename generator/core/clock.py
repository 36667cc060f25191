"""The current time, pinned by SOURCE_DATE_EPOCH for reproducible runs."""

from __future__ import annotations

import os
from datetime import UTC, date, datetime


def now() -> datetime:
    """Return the current UTC time, or SOURCE_DATE_EPOCH when set."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH", "").strip()
    if epoch:
        return datetime.fromtimestamp(int(epoch), tz=UTC)
    return datetime.now(tz=UTC).replace(microsecond=0)


def today() -> date:
    """Return today's UTC date, or the date of SOURCE_DATE_EPOCH when set."""
    return now().date()


def iso(moment: datetime) -> str:
    """Format a UTC time as an ISO 8601 string with a Z suffix."""
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
