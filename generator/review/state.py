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
"""

from __future__ import annotations

import contextlib
import uuid
from datetime import date

from pydantic import BaseModel, ConfigDict, ValidationError

from generator.core.errors import GuideError
from generator.guides.document import Status
from generator.guides.project import Project
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


class PendingState(BaseModel):
    """guides/.review/<id>.pending: a transition's state, committed once its audit line is."""

    model_config = ConfigDict(extra="forbid")

    txn: str
    state: ReviewState


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
    if pending_state is not None and audit.has_txn(project.guides.audit_path, pending_state.txn):
        return pending_state.state
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
    if audit.has_txn(project.guides.audit_path, pending.txn):
        _apply(project, pending.state)
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
