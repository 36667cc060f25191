"""The audit trail: an append-only JSON Lines log of every review action."""

from __future__ import annotations

import json
import os
import stat
from dataclasses import dataclass, field
from pathlib import Path

from pydantic import BaseModel, ConfigDict, ValidationError

from generator.core.errors import GuideError
from generator.guides.store import file_lock, storage


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
    # Ties the line to the pending state it commits (see review.py, "write-ahead").
    txn: str | None = None


@dataclass
class AuditLog:
    """The readable entries of the log, oldest first, and one error per unreadable line."""

    entries: list[AuditEntry] = field(default_factory=list)
    problems: list[GuideError] = field(default_factory=list)


def _valid(line: bytes) -> bool:
    try:
        AuditEntry.model_validate_json(line)
    except ValidationError:
        return False
    return True


def _mend_tail(fd: int) -> None:
    """End a valid unterminated last line; drop a torn one left by an interrupted append."""
    size = os.fstat(fd).st_size
    if size == 0:
        return
    start = max(0, size - 65536)
    tail = os.pread(fd, size - start, start)
    while b"\n" not in tail and start > 0:
        start = max(0, start - 65536)
        tail = os.pread(fd, size - start, start)
    if tail.endswith(b"\n"):
        return
    cut = tail.rfind(b"\n") + 1
    if _valid(tail[cut:]):
        os.write(fd, b"\n")
    else:
        os.ftruncate(fd, start + cut)


def append(path: Path, entry: AuditEntry) -> None:
    """Append one entry as a single line, under a lock, after mending a torn tail; fsync it."""
    append_many(path, [entry])


def append_many(path: Path, entries: list[AuditEntry]) -> None:
    """Append entries, one line each, with one write and one fsync (a group's commit point)."""
    line = b"".join(
        (json.dumps(entry.model_dump(mode="json"), ensure_ascii=False) + "\n").encode("utf-8")
        for entry in entries
    )
    with file_lock(path.with_name(path.name + ".lock")), storage(path):
        fd = os.open(path, os.O_RDWR | os.O_APPEND | os.O_CREAT, 0o644)
        try:
            _mend_tail(fd)
            view = memoryview(line)
            while view:
                view = view[os.write(fd, view) :]
            os.fsync(fd)
        finally:
            os.close(fd)


def _read_log(path: Path) -> bytes:
    """Return the bytes of the log, b"" when absent; refuse a device or folder in its place."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except FileNotFoundError:
        return b""
    with os.fdopen(fd, "rb") as handle:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise GuideError(
                "is not a regular file; the audit log must be one", path=path, rule="audit"
            )
        return handle.read()


def load(path: Path, guide_id: str | None = None) -> AuditLog:
    """Read the log, optionally for one guide; a bad line becomes a problem naming its number.

    A torn last line (no newline, not valid) is what an interrupted append leaves: it is not
    an entry, and the next append removes it.
    """
    log = AuditLog()
    raw = _read_log(path)
    lines = raw.split(b"\n")
    last = len(lines)
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            entry = AuditEntry.model_validate_json(line)
        except ValidationError as exc:
            if number == last:
                log.problems.append(
                    GuideError(
                        f"line {number} is incomplete (an interrupted write); it is ignored "
                        "and the next review action removes it",
                        path=path,
                        rule="audit.torn",
                    )
                )
                continue
            first = exc.errors()[0]
            where = ".".join(str(part) for part in first["loc"])
            log.problems.append(
                GuideError(
                    f"line {number} is not a valid audit entry"
                    + (f" ({where})" if where else "")
                    + f": {first['msg']}; it is skipped",
                    path=path,
                    rule="audit",
                )
            )
            continue
        if guide_id is None or entry.guide == guide_id:
            log.entries.append(entry)
    return log


def read(path: Path, guide_id: str | None = None) -> list[AuditEntry]:
    """Read the readable entries, oldest first, optionally for one guide."""
    return load(path, guide_id).entries


def has_txn(path: Path, txn: str) -> bool:
    """Return True when a complete line of the log commits this transaction."""
    try:
        raw = _read_log(path)
    except GuideError:
        return False  # a device in place of the log holds no committed lines
    needle = json.dumps(txn).encode()
    for line in raw.split(b"\n"):
        if needle in line and b'"txn"' in line:
            try:
                if AuditEntry.model_validate_json(line).txn == txn:
                    return True
            except ValidationError:
                continue
    return False


def committed(path: Path, txns: set[str]) -> set[str]:
    """Return which of these transactions a complete line of the log commits (one read)."""
    if not txns:
        return set()
    try:
        raw = _read_log(path)
    except GuideError:
        return set()
    found: set[str] = set()
    for line in raw.split(b"\n"):
        if b'"txn"' not in line:
            continue
        try:
            txn = AuditEntry.model_validate_json(line).txn
        except ValidationError:
            continue
        if txn in txns:
            found.add(txn)
    return found
