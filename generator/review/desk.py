"""The review desk: the reviewer's default name and the queue's order and neighbours."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from generator.core.config import Settings

REVIEWER_ENV = "PREPGUIDE_REVIEWER"


def default_reviewer(settings: Settings, environ: Mapping[str, str]) -> str | None:
    """Return PREPGUIDE_REVIEWER, else the [review] reviewer setting; None when neither is set."""
    for value in (environ.get(REVIEWER_ENV), settings.review.reviewer):
        name = " ".join((value or "").split())
        if name:
            return name
    return None


def neighbours(ids: Sequence[str], guide_id: str) -> tuple[str | None, str | None]:
    """Return the guides before and after guide_id in the queue's order (after: the first)."""
    if guide_id not in ids:
        return None, ids[0] if ids else None
    at = list(ids).index(guide_id)
    return (ids[at - 1] if at else None), (ids[at + 1] if at + 1 < len(ids) else None)


def next_to_review(rows: Sequence[Mapping], guide_id: str) -> str | None:
    """Return the next draft after guide_id in the queue's order, from the top once past the end."""
    ids = [row["id"] for row in rows]
    at = ids.index(guide_id) + 1 if guide_id in ids else 0
    for row in [*rows[at:], *rows[:at]]:
        if row["id"] != guide_id and row["status"] == "draft":
            return row["id"]
    return None
