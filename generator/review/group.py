"""Group commits: many guides' transitions made durable with one write-ahead file.

One `review approve` of many guides, or the publications a publish records, is one group,
committed under the group lock in four steps:

1. the revisions the new states point to, and one file ``guides/.review/.group.wal`` holding
   every guide's steps (state.GroupPending), are written and flushed together;
2. every audit line, each carrying its step's transaction id, is appended with one write and
   one fsync: the commit point of each guide whose lines it holds;
3. the states are written where they are (a kill may tear one: the group file still holds it,
   and readers take the states from it while it exists), the status mirrored into the front
   matter of unchanged working files, and all of it flushed;
4. the group file is removed, and the removal flushed.

A kill before step 2 ends leaves guides without their lines: they never moved. A kill after
leaves the group file: the next command that writes settles it (state.settle_group), writing
the committed states again and dropping the rest. Nothing per guide is written but its state,
its mirror when the status shown changes, and a revision when its text is new.
"""

from __future__ import annotations

import contextlib
import re
import uuid
from dataclasses import dataclass, field
from pathlib import Path

from generator.core.fsio import atomic_write_all, sync_folder, write_in_place
from generator.guides.document import GuideDoc, serialize
from generator.guides.project import Project
from generator.guides.store import storage
from generator.review import audit
from generator.review.state import (
    GroupPending,
    PendingState,
    PendingStep,
    ReviewState,
    file_signature,
    settle_group,
)


@dataclass
class Change:
    """One guide's steps in a group commit, and the files they need written first.

    steps: each new state with the audit line that commits it, in order. before: files the
    states point to (a kept revision), made durable before any line is appended. doc: the
    working file as read (its text and stat signature), to mirror the final status into.
    """

    steps: list[tuple[ReviewState, audit.AuditEntry]]
    before: list[tuple[Path, bytes]] = field(default_factory=list)
    doc: GuideDoc | None = None
    signature: tuple[int, int, int] | None = None
    text: str | None = None

    @property
    def guide_id(self) -> str:
        return self.steps[-1][0].id


# The status line of front matter as serialize writes it: at the start of a line, unindented.
STATUS_LINE = re.compile(r"^status: ([a-z]+)$", re.MULTILINE)


def mirrored_text(doc: GuideDoc, text: str | None, status: str) -> str:
    """Return the working file's text with status in its front matter.

    The status line is replaced where the file holds exactly one of them, showing the status
    parsed; otherwise the file is written again from its parsed front matter.
    """
    if text is not None and text.startswith("---\n"):
        end = text.find("\n---\n", 3)
        found = list(STATUS_LINE.finditer(text, 0, end)) if end > 0 else []
        if len(found) == 1 and found[0].group(1) == doc.meta.status:
            line = found[0]
            return f"{text[: line.start(1)]}{status}{text[line.end(1) :]}"
    meta = doc.meta.model_copy(update={"status": status})
    return serialize(GuideDoc(meta=meta, body=doc.body))


def _mirror(project: Project, change: Change) -> list[tuple[Path, bytes]]:
    """Return the front matter write that mirrors the final status, if the file is unchanged."""
    state = change.steps[-1][0]
    doc = change.doc
    if doc is None or doc.content_hash != state.content_hash or doc.meta.status == state.status:
        return []
    path = project.guides.path(state.id)
    if change.signature is None or file_signature(path) != change.signature:
        return []  # edited since it was read: the state file decides, the text is the editor's
    return [(path, mirrored_text(doc, change.text, state.status).encode("utf-8"))]


def commit_group(project: Project, changes: list[Change]) -> None:
    """Commit many guides' transitions with a handful of flushes (hold the group lock)."""
    if not changes:
        return
    guides = project.guides
    group_path = guides.group_path
    settle_group(project)  # a group file left by a killed run is settled before a new one
    staged: list[tuple[Path, bytes]] = []
    lines: list[audit.AuditEntry] = []
    pending: list[PendingState] = []
    for change in changes:
        steps = [PendingStep(txn=uuid.uuid4().hex, state=state) for state, _ in change.steps]
        pending.append(PendingState(txn=steps[0].txn, state=steps[0].state, later=steps[1:]))
        staged += change.before
        lines += [
            entry.model_copy(update={"txn": step.txn})
            for step, (_, entry) in zip(steps, change.steps, strict=True)
        ]
    staged.append((group_path, (GroupPending(guides=pending).model_dump_json() + "\n").encode()))
    with storage(group_path):
        atomic_write_all(staged)
    try:
        audit.append_many(guides.audit_path, lines)
    except BaseException:
        # Only what reached the log happened; a group none of whose lines did is dropped
        # now, the rest is settled by the next command that writes.
        with contextlib.suppress(Exception):
            if not audit.committed(guides.audit_path, {line.txn for line in lines if line.txn}):
                group_path.unlink(missing_ok=True)
        raise
    states: list[tuple[Path, bytes]] = []
    mirrors: list[tuple[Path, bytes]] = []
    for change in changes:
        state = change.steps[-1][0]
        text = state.model_dump_json(indent=2) + "\n"
        states.append((guides.review_path(state.id), text.encode()))
        mirrors += _mirror(project, change)
    with storage(group_path):
        write_in_place(states, flush=len(mirrors) < 2)  # else the mirrors' flush covers them
        atomic_write_all(mirrors)
        group_path.unlink()
        sync_folder(group_path.parent)
