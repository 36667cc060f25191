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

A group (review/group.py: one `review approve` of many guides, a publish) takes the same
steps for all its guides at once, with one write-ahead file for the whole group,
``guides/.review/.group.wal`` (GroupPending). A guide that moves twice in a group (revise, then
approve) keeps both steps, each with its own transaction id: the last committed one is rolled
forward, so a log cut between its two lines leaves the guide after the first step. While that
file exists its committed states are the guides' states, whatever their state files hold.
"""

from __future__ import annotations

import contextlib
import os
import uuid
from collections.abc import Iterator
from datetime import date
from pathlib import Path

from pydantic import BaseModel, ConfigDict, ValidationError

from generator.core.errors import GuideError
from generator.core.fsio import sync_folder
from generator.guides.document import Status
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


class GroupPending(BaseModel):
    """guides/.review/.group.wal: every guide's steps in one group, committed line by line."""

    model_config = ConfigDict(extra="forbid")

    guides: list[PendingState]

    def committed(self, path: Path) -> dict[str, ReviewState]:
        """Return each guide's state after its last step whose audit line is in the log."""
        done = audit.committed(path, {s.txn for guide in self.guides for s in guide.steps()})
        found = {}
        for guide in self.guides:
            state = next((s.state for s in reversed(guide.steps()) if s.txn in done), None)
            if state is not None:
                found[guide.state.id] = state
        return found


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


def file_signature(path: Path) -> tuple[int, int, int] | None:
    """Return a file's (inode, size, mtime in ns), or None when it does not exist."""
    try:
        info = os.stat(path)
    except FileNotFoundError:
        return None
    return info.st_ino, info.st_size, info.st_mtime_ns


def group_states(project: Project) -> dict[str, ReviewState]:
    """Return the committed states of a group under way or left by a killed run; never writes.

    Read again only when the group file or the audit log changed.
    """
    path = project.guides.group_path
    mark = file_signature(path)
    if mark is None:
        return {}
    key = (os.fspath(path), mark, file_signature(project.guides.audit_path))
    kept = _GROUP.get("kept")
    if kept is not None and kept[0] == key:
        return kept[1]
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}  # settled since it was looked at: the state files are whole again
    except UnicodeDecodeError as exc:
        raise GuideError(
            "is not UTF-8; restore it from a backup or delete it (the group's transitions "
            "are then undone where their states were not yet written)",
            path=path,
            rule="review.state",
        ) from exc
    group = _parse(GroupPending, text, path)
    found = group.committed(project.guides.audit_path)  # type: ignore[attr-defined]
    _GROUP["kept"] = (key, found)
    return found


_GROUP: dict[str, tuple[tuple, dict[str, ReviewState]]] = {}


def _stored(project: Project, guide_id: str) -> ReviewState | None:
    text = project.guides.read_review(guide_id)
    if text is None:
        return None
    return _parse(ReviewState, text, project.guides.review_path(guide_id))  # type: ignore[return-value]


def read_state(project: Project, guide_id: str, *, pending: bool = True) -> ReviewState | None:
    """Return a guide's review state, counting a committed pending one; never writes.

    pending=False skips looking for a pending file, for a caller that has just listed the
    folder and seen none. Raise GuideError naming the file and field when the state cannot
    be read.
    """
    grouped = group_states(project).get(guide_id)
    if grouped is not None:
        return grouped
    pending_state = _pending(project, guide_id) if pending else None
    if pending_state is not None:
        state = pending_state.committed(project.guides.audit_path)
        if state is not None:
            return state
    try:
        return _stored(project, guide_id)
    except GuideError:
        # A group writes its committed states in place: read mid-write, a state file is torn,
        # and the group's file, written first, holds the state until the group is done.
        grouped = group_states(project).get(guide_id)
        if grouped is not None:
            return grouped
        return _stored(project, guide_id)


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


def settle_group(project: Project) -> list[str]:
    """Finish or drop the group a killed run left; return its guides (hold the group lock).

    The committed states are written again (a kill may have torn them), the rest never
    happened; then the group file goes.
    """
    guides = project.guides
    if file_signature(guides.group_path) is None:
        return []
    states = group_states(project)
    for state in states.values():
        _apply(project, state)
    with storage(guides.group_path):
        guides.group_path.unlink(missing_ok=True)
        sync_folder(guides.group_path.parent)
    _GROUP.clear()
    return sorted(states)


@contextlib.contextmanager
def guide_lock(project: Project, guide_id: str) -> Iterator[None]:
    """Hold one guide's review lock with nothing a killed run left for it (see recover)."""
    guides = project.guides
    for _ in range(100):
        if file_signature(guides.group_path) is not None:
            with guides.group_lock():
                settle_group(project)
        with guides.review_lock(guide_id):
            # A group killed between the two locks is settled first, by the group's rule.
            if guides.holds_group() or file_signature(guides.group_path) is None:
                recover(project, guide_id)
                yield
                return
    raise GuideError(
        "a group of review actions keeps being interrupted; try again",
        path=guides.group_path,
        rule="review.state",
    )


def repair(project: Project) -> tuple[list[str], list[GuideError]]:
    """Recover every guide a killed run left mid-transition; return them and any unreadable."""
    done, problems = [], []
    if file_signature(project.guides.group_path) is not None:
        try:
            with project.guides.group_lock():
                done += settle_group(project)
        except GuideError as exc:
            problems.append(exc)
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
