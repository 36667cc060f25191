"""Review state files and the write-ahead protocol that ties each transition to its audit line.

A transition of guide ID (approve, reject, withdraw, revise, publish) runs under the guide's
lock in three durable steps:

1. write the intended state, with a fresh transaction id, to ``guides/.review/ID.pending``;
2. append the audit line carrying that transaction id to ``guides/.audit.jsonl`` (fsynced);
3. write ``guides/.review/ID.json``, mirror the status into the front matter, and delete the
   pending file.

The audit line is the commit point. A pending file whose transaction id has a line in the log
is committed and is rolled forward (step 3 again); one without a line never happened and is
deleted. Reads apply the same rule without writing, and every writing run repairs what a
killed run left, so the state and the log always agree.

A group (commit_group: one `review approve` of many guides, a publish) takes the same steps
for all its guides at once: every pending file (and the revisions they point to) flushed with
one sync, every audit line appended with one write and one fsync, then every state written
with one sync. A guide that moves twice in a group (revise, then approve) keeps both steps in
its pending file, each with its own transaction id: the last committed one is rolled forward,
so a log cut between its two lines leaves the guide after the first step.
"""

from __future__ import annotations

import contextlib
import os
import uuid
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

from pydantic import BaseModel, ConfigDict, ValidationError

from generator.core.errors import GuideError
from generator.core.fsio import atomic_write_all
from generator.guides.document import GuideDoc, Status, serialize
from generator.guides.project import Project
from generator.guides.store import storage
from generator.review import audit


class LiveRecord(BaseModel):
    """The approved text that stays on the site until a newer text is approved."""

    model_config = ConfigDict(extra="forbid")

    content_hash: str
    revision: str
    approved_by: str
    approved_at: str
    note: str | None = None
    published_at: str | None = None
    # The undated checks passed at approval under this key (checks.verdict_key).
    checks_key: str | None = None
    # The record's content hash at approval: a later failure with the same record is a rule's.
    record_hash: str | None = None


class ReviewState(BaseModel):
    """guides/.review/<id>.json: the status of the current text and the live version."""

    model_config = ConfigDict(extra="forbid")

    id: str
    status: Status = "draft"
    content_hash: str
    by: str | None = None
    at: str | None = None
    note: str | None = None
    live: LiveRecord | None = None
    first_published: date | None = None


class PendingStep(BaseModel):
    """A later step of a pending transition: its state, committed once its audit line is."""

    model_config = ConfigDict(extra="forbid")

    txn: str
    state: ReviewState


class PendingState(BaseModel):
    """guides/.review/<id>.pending: a transition's state, committed once its audit line is."""

    model_config = ConfigDict(extra="forbid")

    txn: str
    state: ReviewState
    # Further steps of the same group, in order (see the module doc).
    later: list[PendingStep] = []

    def steps(self) -> list[PendingStep]:
        return [PendingStep(txn=self.txn, state=self.state), *self.later]

    def committed(self, path: Path) -> ReviewState | None:
        """Return the state of the last step whose audit line is in the log, if any."""
        steps = self.steps()
        if len(steps) == 1:
            return self.state if audit.has_txn(path, self.txn) else None
        done = audit.committed(path, {step.txn for step in steps})
        return next((step.state for step in reversed(steps) if step.txn in done), None)


def _parse(model: type[BaseModel], text: str, path) -> BaseModel:
    try:
        return model.model_validate_json(text)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(part) for part in first["loc"]) or "state"
        raise GuideError(
            f"{first['msg']}; fix it, or delete the file to start the guide's review again",
            path=path,
            field=where,
            rule="review.state",
        ) from exc


def _pending(project: Project, guide_id: str) -> PendingState | None:
    text = project.guides.read_review(guide_id, pending=True)
    if text is None:
        return None
    return _parse(PendingState, text, project.guides.pending_path(guide_id))


def read_state(project: Project, guide_id: str, *, pending: bool = True) -> ReviewState | None:
    """Return a guide's review state, counting a committed pending one; never writes.

    pending=False skips looking for a pending file, for a caller that has just listed the
    folder and seen none. Raise GuideError naming the file and field when the state cannot
    be read.
    """
    pending_state = _pending(project, guide_id) if pending else None
    if pending_state is not None:
        state = pending_state.committed(project.guides.audit_path)
        if state is not None:
            return state
    text = project.guides.read_review(guide_id)
    if text is None:
        return None
    return _parse(ReviewState, text, project.guides.review_path(guide_id))


def _apply(project: Project, state: ReviewState) -> None:
    project.guides.write_review(state.id, state.model_dump_json(indent=2) + "\n")
    # An unreadable working file keeps its front matter; the state file decides.
    with contextlib.suppress(GuideError):
        project.guides.set_status(state.id, state.status, state.content_hash)


def recover(project: Project, guide_id: str) -> None:
    """Finish or drop the transition a killed run left for one guide (call under its lock)."""
    pending = _pending(project, guide_id)
    if pending is None:
        return
    state = pending.committed(project.guides.audit_path)
    if state is not None:
        _apply(project, state)
    project.guides.drop_pending(guide_id)


def repair(project: Project) -> tuple[list[str], list[GuideError]]:
    """Recover every guide a killed run left mid-transition; return them and any unreadable."""
    done, problems = [], []
    for guide_id in project.guides.pending_ids():
        try:
            with project.guides.review_lock(guide_id):
                recover(project, guide_id)
        except GuideError as exc:
            problems.append(exc)
        else:
            done.append(guide_id)
    return done, problems


def commit(project: Project, state: ReviewState, entry: audit.AuditEntry) -> None:
    """Make a state change and its audit line one durable step (call under the guide's lock)."""
    txn = uuid.uuid4().hex
    guides = project.guides
    guides.write_review(
        state.id, PendingState(txn=txn, state=state).model_dump_json() + "\n", pending=True
    )
    try:
        audit.append(guides.audit_path, entry.model_copy(update={"txn": txn}))
    except BaseException:
        # Not committed unless the line is in the log; a kill here is settled by recover().
        with contextlib.suppress(Exception):
            if not audit.has_txn(guides.audit_path, txn):
                guides.drop_pending(state.id)
        raise
    _apply(project, state)
    guides.drop_pending(state.id)


@dataclass
class Change:
    """One guide's steps in a group commit, and the files they need written first.

    steps: each new state with the audit line that commits it, in order. before: files the
    states point to (a kept revision), made durable before any line is appended. doc: the
    working file as read (and its stat signature), to mirror the final status into.
    """

    steps: list[tuple[ReviewState, audit.AuditEntry]]
    before: list[tuple[Path, bytes]] = field(default_factory=list)
    doc: GuideDoc | None = None
    signature: tuple[int, int, int] | None = None

    @property
    def guide_id(self) -> str:
        return self.steps[-1][0].id


def file_signature(path: Path) -> tuple[int, int, int] | None:
    """Return a file's (inode, size, mtime in ns), or None when it does not exist."""
    try:
        info = os.stat(path)
    except FileNotFoundError:
        return None
    return info.st_ino, info.st_size, info.st_mtime_ns


def _mirror(project: Project, change: Change) -> list[tuple[Path, bytes]]:
    """Return the front matter write that mirrors the final status, if the file is unchanged."""
    state = change.steps[-1][0]
    doc = change.doc
    if doc is None or doc.content_hash != state.content_hash or doc.meta.status == state.status:
        return []
    path = project.guides.path(state.id)
    if change.signature is None or file_signature(path) != change.signature:
        return []  # edited since it was read: the state file decides, the text is the editor's
    meta = doc.meta.model_copy(update={"status": state.status})
    return [(path, serialize(GuideDoc(meta=meta, body=doc.body)).encode("utf-8"))]


def commit_group(project: Project, changes: list[Change]) -> None:
    """Commit many guides' transitions with a handful of flushes (hold every guide's lock)."""
    if not changes:
        return
    guides = project.guides
    staged: list[tuple[Path, bytes]] = []
    lines: list[audit.AuditEntry] = []
    txns: dict[str, set[str]] = {}
    for change in changes:
        steps = [PendingStep(txn=uuid.uuid4().hex, state=state) for state, _ in change.steps]
        pending = PendingState(txn=steps[0].txn, state=steps[0].state, later=steps[1:])
        staged += change.before
        staged.append(
            (guides.pending_path(change.guide_id), (pending.model_dump_json() + "\n").encode())
        )
        lines += [
            entry.model_copy(update={"txn": step.txn})
            for step, (_, entry) in zip(steps, change.steps, strict=True)
        ]
        txns[change.guide_id] = {step.txn for step in steps}
    with storage(guides.dir / ".review"):
        atomic_write_all(staged)
    try:
        audit.append_many(guides.audit_path, lines)
    except BaseException:
        # Only what reached the log happened; a kill here is settled by recover().
        with contextlib.suppress(Exception):
            done = audit.committed(guides.audit_path, set().union(*txns.values()))
            for guide_id, mine in txns.items():
                if not mine & done:
                    guides.drop_pending(guide_id)
        raise
    applied: list[tuple[Path, bytes]] = []
    for change in changes:
        state = change.steps[-1][0]
        applied.append(
            (guides.review_path(state.id), (state.model_dump_json(indent=2) + "\n").encode())
        )
        applied += _mirror(project, change)
    with storage(guides.dir / ".review"):
        atomic_write_all(applied)
    for change in changes:
        guides.drop_pending(change.guide_id)
