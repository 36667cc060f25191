"""Comments between editors and assignments to a reviewer: audit lines that change no state."""

from __future__ import annotations

from collections import Counter

from generator.core.clock import iso, now
from generator.core.errors import ReviewError
from generator.core.names import control_problem
from generator.guides.project import Project
from generator.review import audit
from generator.review.queue import current_state, missing_guide
from generator.review.state import read_state

MAX_COMMENT = 4000  # characters
MAX_NAME = 200


def _refuse(guide_id: str, message: str, rule: str) -> ReviewError:
    return ReviewError(f"{guide_id}: {message}", record_id=guide_id, rule=rule)


def _name(value: str | None, what: str, guide_id: str, rule: str) -> str:
    text = " ".join((value or "").split())
    if not text:
        raise _refuse(guide_id, f"{what} is required", rule)
    problem = control_problem(text)
    if problem or len(text) > MAX_NAME:
        raise _refuse(guide_id, f"{what} {problem or f'is over {MAX_NAME} characters'}", rule)
    return text


def _remark(project: Project, guide_id: str, *, by: str, action: str, note: str | None):
    """Append one remark about a guide as it stands now: its status and the text's hash."""
    project.guides.check_writable()
    state = read_state(project, guide_id)
    doc = project.guides.read(guide_id)
    if doc is None and state is None:
        raise missing_guide(project, guide_id)
    if doc is not None:
        state = current_state(guide_id, doc, state)
    assert state is not None
    entry = audit.AuditEntry(
        time=iso(now()),
        actor=by,
        action=action,
        guide=guide_id,
        from_state=state.status,
        to_state=state.status,
        content_hash=doc.content_hash if doc else state.content_hash,
        note=note,
    )
    audit.append(project.guides.audit_path, entry)
    return entry


def comment(project: Project, guide_id: str, *, by: str, text: str) -> audit.AuditEntry:
    """Keep an editor's comment on a guide in the audit trail."""
    by = _name(by, "reviewer name (--by)", guide_id, "review.reviewer")
    body = "\n".join(line.rstrip() for line in (text or "").replace("\r\n", "\n").split("\n"))
    body = body.strip()
    if not body:
        raise _refuse(guide_id, "the comment (--text) is empty", "review.comment")
    if len(body) > MAX_COMMENT:
        raise _refuse(
            guide_id, f"the comment is longer than {MAX_COMMENT} characters", "review.comment"
        )
    if control_problem(body):
        raise _refuse(guide_id, f"the comment {control_problem(body)}", "review.comment")
    return _remark(project, guide_id, by=by, action="comment", note=body)


def assign(project: Project, guide_id: str, *, by: str, to: str | None) -> audit.AuditEntry:
    """Assign a guide to a reviewer (to None or empty: to nobody), in the audit trail."""
    by = _name(by, "reviewer name (--by)", guide_id, "review.reviewer")
    name = _name(to, "assignee (--to)", guide_id, "review.assign") if (to or "").strip() else None
    return _remark(project, guide_id, by=by, action="assign", note=name)


def remarks_of(project: Project, guide_id: str) -> list[audit.AuditEntry]:
    """Return a guide's comments and assignments, oldest first."""
    return [e for e in audit.remarks(project.guides.audit_path) if e.guide == guide_id]


def assignees(project: Project) -> dict[str, str]:
    """Return each assigned guide's reviewer, from its latest assignment."""
    found: dict[str, str | None] = {}
    for entry in audit.remarks(project.guides.audit_path):
        if entry.action == "assign":
            found[entry.guide] = entry.note
    return {guide: name for guide, name in found.items() if name}


def comment_counts(project: Project) -> Counter[str]:
    """Return how many comments each guide has."""
    entries = audit.remarks(project.guides.audit_path)
    return Counter(entry.guide for entry in entries if entry.action == "comment")
