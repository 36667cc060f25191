"""The audit trail: an append-only JSON Lines log of every review action."""

from __future__ import annotations

import json
import os
from pathlib import Path

from pydantic import BaseModel, ConfigDict, ValidationError

from generator.errors import GuideError
from generator.store import file_lock


class AuditEntry(BaseModel):
    """One action on one guide: who did what, from which state to which, on which text."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    time: str
    actor: str
    action: str
    guide: str
    from_state: str | None
    to_state: str
    content_hash: str | None = None
    note: str | None = None
    backend: str | None = None
    model: str | None = None
    prompt_hash: str | None = None
    source_hash: str | None = None


def append(path: Path, entry: AuditEntry) -> None:
    """Append one entry as a single line, under a lock, and flush it to disk."""
    line = (json.dumps(entry.model_dump(mode="json"), ensure_ascii=False) + "\n").encode("utf-8")
    with file_lock(path.with_name(path.name + ".lock")):
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        try:
            os.write(fd, line)
            os.fsync(fd)
        finally:
            os.close(fd)


def read(path: Path, guide_id: str | None = None) -> list[AuditEntry]:
    """Read the log, oldest first, optionally for one guide; raise GuideError on a bad line."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return []
    entries = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            entry = AuditEntry.model_validate_json(line)
        except ValidationError as exc:
            raise GuideError(
                f"line {number} is not a valid audit entry: {exc.errors()[0]['msg']}",
                path=path,
                rule="audit",
            ) from exc
        if guide_id is None or entry.guide == guide_id:
            entries.append(entry)
    return entries
