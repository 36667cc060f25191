"""The audit trail: an append-only JSON Lines log of every review action."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path

from pydantic import BaseModel, ConfigDict, ValidationError

from generator.core import journal
from generator.core.errors import GuideError
from generator.guides.store import storage


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


def append(path: Path, entry: AuditEntry) -> GuideError | None:
    """Append one entry as a single locked, fsynced line; return a warning if a tear was cut."""
    return append_many(path, [entry])


def append_many(path: Path, entries: list[AuditEntry]) -> GuideError | None:
    """Append entries, one line each, with one write and one fsync (a group's commit point)."""
    lines = [
        json.dumps(entry.model_dump(mode="json"), ensure_ascii=False).encode("utf-8")
        for entry in entries
    ]
    with storage(path):
        torn = journal.append(path, lines, _valid)
    return GuideError(torn.message, path=path, rule="audit.torn") if torn else None


def _read_log(path: Path) -> bytes:
    """Return the bytes of the log, b"" when absent; refuse a device or folder in its place."""
    try:
        return journal.read_bytes(path)
    except journal.JournalError:
        raise GuideError(
            "is not a regular file; the audit log must be one", path=path, rule="audit"
        ) from None


def load(path: Path, guide_id: str | None = None) -> AuditLog:
    """Read the log, optionally for one guide; a bad line becomes a problem naming its number.

    A torn last line (no newline, not valid) is what an interrupted append leaves: it is not
    an entry, and the next append sets it aside. Tails set aside earlier are warned about
    until someone deletes them.
    """
    log = AuditLog()
    contents = journal.parse(_read_log(path), AuditEntry.model_validate_json)
    for bad in contents.bad:
        first = bad.error.errors()[0]
        where = ".".join(str(part) for part in first["loc"])
        log.problems.append(
            GuideError(
                f"line {bad.number} is not a valid audit entry"
                + (f" ({where})" if where else "")
                + f": {first['msg']}; it is skipped",
                path=path,
                rule="audit",
            )
        )
    if contents.torn is not None:
        log.problems.append(
            GuideError(
                f"line {contents.torn.number} is incomplete (an interrupted write); it is "
                "ignored and the next review action sets it aside",
                path=path,
                rule="audit.torn",
            )
        )
    for copy in journal.torn_copies(path):
        log.problems.append(
            GuideError(
                f"{copy.name} holds a line an interrupted write tore from this log; "
                "delete it once read",
                path=path,
                rule="audit.torn",
            )
        )
    log.entries = [entry for entry in contents.rows if guide_id is None or entry.guide == guide_id]
    return log


def read(path: Path, guide_id: str | None = None) -> list[AuditEntry]:
    """Read the readable entries, oldest first, optionally for one guide."""
    rows = journal.parse(_read_log(path), AuditEntry.model_validate_json).rows
    return [entry for entry in rows if guide_id is None or entry.guide == guide_id]


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


def approved(path: Path, guide_id: str, content_hash: str, actor: str) -> bool:
    """Return True when the log holds the approval of this text of the guide by actor.

    A live version whose approval has no line here was never approved: a review state file
    written by hand. The log's approvals are read once for each version of the file.
    """
    try:
        st = os.stat(path)
    except FileNotFoundError:
        return False
    signature = (os.fspath(path), st.st_size, st.st_mtime_ns, st.st_ino)
    if _APPROVALS.get("signature") != signature:
        found: set[tuple[str, str | None, str]] = set()
        try:
            raw = _read_log(path)
        except GuideError:
            raw = b""
        for line in raw.split(b"\n"):
            if b'"approve"' not in line:
                continue
            try:
                entry = AuditEntry.model_validate_json(line)
            except ValidationError:
                continue
            if entry.action == "approve":
                found.add((entry.guide, entry.content_hash, entry.actor))
        _APPROVALS.clear()
        _APPROVALS.update(signature=signature, found=found)
    return (guide_id, content_hash, actor) in _APPROVALS["found"]


_APPROVALS: dict[str, object] = {}


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


# Lines that record talk about a guide, not a change of its state.
REMARKS = ("comment", "assign")


def remarks(path: Path) -> list[AuditEntry]:
    """Return the log's comments and assignments, oldest first, read once per version of it."""
    try:
        st = os.stat(path)
    except FileNotFoundError:
        return []
    signature = (os.fspath(path), st.st_size, st.st_mtime_ns, st.st_ino)
    kept = _REMARKS.get("kept")
    if kept is not None and kept[0] == signature:
        return kept[1]
    try:
        raw = _read_log(path)
    except GuideError:
        raw = b""
    found = []
    for line in raw.split(b"\n"):
        if b'"comment"' not in line and b'"assign"' not in line:
            continue
        try:
            entry = AuditEntry.model_validate_json(line)
        except ValidationError:
            continue
        if entry.action in REMARKS:
            found.append(entry)
    _REMARKS["kept"] = (signature, found)
    return found


_REMARKS: dict[str, tuple[tuple, list[AuditEntry]]] = {}
