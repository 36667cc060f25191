"""Review transitions: approve, reject, withdraw and publish, each bound to the text it saw."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from generator.checks import check_guide, has_errors, verdict_key
from generator.checks.runner import check_context
from generator.core.clock import iso, now
from generator.core.errors import ReviewError
from generator.core.names import plural
from generator.guides.document import GuideDoc
from generator.guides.findings import count
from generator.guides.project import Project
from generator.review import audit
from generator.review.queue import (
    WITHDRAW_REASONS,
    current_state,
    read_current,
    read_revision,
)
from generator.review.state import LiveRecord, ReviewState, commit, read_state, recover


@dataclass(frozen=True)
class Outcome:
    """What a review action changed."""

    guide_id: str
    action: str
    from_state: str
    to_state: str
    content_hash: str


def _transition(
    project: Project,
    doc: GuideDoc | None,
    state: ReviewState,
    *,
    actor: str,
    action: str,
    from_state: str | None,
    content_hash: str | None,
    note: str | None = None,
    to_state: str | None = None,
) -> None:
    """Commit a new state together with its audit line (see generator.review.state)."""
    made = doc.meta.provenance if doc else None
    entry = audit.AuditEntry(
        time=iso(now()),
        actor=actor,
        action=action,
        guide=state.id,
        from_state=from_state,
        to_state=to_state or state.status,
        content_hash=content_hash,
        note=note,
        backend=made.backend if made else None,
        model=made.model if made else None,
        prompt_hash=made.prompt_hash if made else None,
        source_hash=made.source_hash if made else None,
    )
    commit(project, state, entry)


def _sync(project: Project, guide_id: str, text: str, doc: GuideDoc) -> ReviewState:
    """Keep the current text as a revision; a new text becomes a draft (call under the lock)."""
    state = read_state(project, guide_id)
    current = current_state(guide_id, doc, state)
    if current is state:
        return state
    project.guides.keep_text(guide_id, text)
    actor = "editor (hand edit)" if doc.edited else f"generator ({doc.meta.provenance.backend})"
    note = None if doc.edited else f"generated at {doc.meta.provenance.generated_at}"
    if state is not None and state.live and state.live.content_hash != doc.content_hash:
        note = "edited after approval; the approved version stays live until this text is approved"
    _transition(
        project,
        doc,
        current,
        actor=actor,
        action="revise",
        from_state=state.status if state else None,
        content_hash=doc.content_hash,
        note=note,
    )
    return current


@contextmanager
def _locked(project: Project, guide_id: str) -> Iterator[tuple[str, GuideDoc, ReviewState]]:
    project.guides.check_writable()
    with project.guides.review_lock(guide_id):
        recover(project, guide_id)
        text, doc = read_current(project, guide_id)
        yield text, doc, _sync(project, guide_id, text, doc)


def _refuse(guide_id: str, message: str, rule: str) -> ReviewError:
    return ReviewError(f"{guide_id}: {message}", record_id=guide_id, rule=rule)


def _name(value: str | None, what: str, guide_id: str) -> str:
    text = " ".join((value or "").split())
    if not text:
        raise _refuse(guide_id, f"{what} is required", f"review.{what.split()[0]}")
    return text


def _check_seen(guide_id: str, doc: GuideDoc, expected_hash: str | None) -> None:
    if expected_hash and expected_hash != doc.content_hash:
        raise _refuse(
            guide_id,
            "the text changed since you opened it "
            f"(you reviewed {expected_hash[:12]}, the file now holds {doc.content_hash[:12]}); "
            "reload and review the new text",
            "review.changed",
        )


def approve(
    project: Project,
    guide_id: str,
    *,
    by: str,
    note: str | None = None,
    expected_hash: str | None = None,
) -> Outcome:
    """Approve the exact current text; refuse while checks report errors or if already done."""
    by = _name(by, "reviewer name (--by)", guide_id)
    with _locked(project, guide_id) as (text, doc, state):
        _check_seen(guide_id, doc, expected_hash)
        if state.status in ("approved", "published"):
            raise _refuse(
                guide_id,
                f"already {state.status}: approved by {state.by} at {state.at}; nothing to do",
                "review.already",
            )
        if state.status == "rejected":
            raise _refuse(
                guide_id,
                f"this exact text was rejected by {state.by} at {state.at} ({state.note}); "
                "edit or regenerate it, then review it again",
                "review.rejected",
            )
        source = project.source(doc.meta.source)
        if source is None:
            raise _refuse(
                guide_id,
                "no valid source record to check against; run `prepguide sources check`",
                "review.source",
            )
        context = check_context(project, source)
        findings = check_guide(doc, context)
        if has_errors(findings):
            reasons = "; ".join(
                f"{f.rule} [{f.section}]: {f.message}" for f in findings if f.severity == "error"
            )
            raise _refuse(
                guide_id,
                f"cannot approve while checks report {plural(count(findings, 'error'), 'error')}: "
                f"{reasons}",
                "review.findings",
            )
        revision = project.guides.keep_text(guide_id, text)
        at = iso(now())
        state_before = state.status
        updated = state.model_copy(
            update={
                "status": "approved",
                "by": by,
                "at": at,
                "note": note,
                "live": LiveRecord(
                    content_hash=doc.content_hash,
                    revision=revision.name,
                    approved_by=by,
                    approved_at=at,
                    note=note,
                    checks_key=verdict_key(doc, context),
                    record_hash=source.content_hash(),
                ),
            }
        )
        _transition(
            project,
            doc,
            updated,
            actor=by,
            action="approve",
            from_state=state_before,
            content_hash=doc.content_hash,
            note=note,
        )
    return Outcome(guide_id, "approve", state_before, "approved", doc.content_hash)


def reject(
    project: Project,
    guide_id: str,
    *,
    by: str,
    note: str,
    expected_hash: str | None = None,
) -> Outcome:
    """Reject the current draft with a note; any approved version stays live."""
    by = _name(by, "reviewer name (--by)", guide_id)
    note = _name(note, "note (--note)", guide_id)
    with _locked(project, guide_id) as (_, doc, state):
        _check_seen(guide_id, doc, expected_hash)
        if state.status != "draft":
            hint = {
                "approved": "withdraw it instead",
                "published": "withdraw it instead",
                "rejected": f"already rejected by {state.by} at {state.at}",
                "withdrawn": "it is withdrawn; edit or regenerate it to start a new draft",
            }[state.status]
            raise _refuse(
                guide_id,
                f"only a draft can be rejected; it is {state.status}: {hint}",
                "review.transition",
            )
        updated = state.model_copy(
            update={"status": "rejected", "by": by, "at": iso(now()), "note": note}
        )
        _transition(
            project,
            doc,
            updated,
            actor=by,
            action="reject",
            from_state="draft",
            content_hash=doc.content_hash,
            note=note,
        )
    return Outcome(guide_id, "reject", "draft", "rejected", doc.content_hash)


def record_revision(project: Project, guide_id: str, note: str) -> Outcome:
    """Audit a draft revision the generator wrote for an editor's note (a new draft)."""
    project.guides.check_writable()
    with project.guides.review_lock(guide_id):
        recover(project, guide_id)
        text, doc = read_current(project, guide_id)
        state = read_state(project, guide_id)
        current = current_state(guide_id, doc, state)
        project.guides.keep_text(guide_id, text)
        before = state.status if state else None
        _transition(
            project,
            doc,
            current,
            actor=f"generator ({doc.meta.provenance.backend})",
            action="revise",
            from_state=before,
            content_hash=doc.content_hash,
            note=f"revised for the editor's note: {note}",
        )
    return Outcome(guide_id, "revise", before or "draft", current.status, doc.content_hash)


def normalize_reason(reason: str | None) -> str | None:
    """Return the canonical withdrawal reason, or None when it is not one of them."""
    text = " ".join((reason or "").split()).casefold()
    return next((r for r in WITHDRAW_REASONS if r == text), None)


def withdraw(project: Project, guide_id: str, *, by: str, reason: str) -> Outcome:
    """Take the live version off the next publish, for one of the allowed reasons."""
    by = _name(by, "reviewer name (--by)", guide_id)
    canonical = normalize_reason(reason)
    if canonical is None:
        raise _refuse(
            guide_id,
            f"reason {reason!r} is not allowed; use one of: {', '.join(WITHDRAW_REASONS)}",
            "review.reason",
        )
    with _locked(project, guide_id) as (_, doc, state):
        if state.live is None:
            raise _refuse(
                guide_id,
                f"it is {state.status} and has no approved or published version to withdraw",
                "review.transition",
            )
        live_hash = state.live.content_hash
        before = state.status
        updated = state.model_copy(
            update={
                "status": "withdrawn",
                "by": by,
                "at": iso(now()),
                "note": canonical,
                "live": None,
            }
        )
        _transition(
            project,
            doc,
            updated,
            actor=by,
            action="withdraw",
            from_state=before,
            content_hash=live_hash,
            note=canonical,
        )
    return Outcome(guide_id, "withdraw", before, "withdrawn", live_hash)


def mark_published(
    project: Project,
    guide_ids: list[str],
    actor: str = "prepguide publish",
    *,
    docs: dict[str, GuideDoc] | None = None,
) -> None:
    """Record that a publish run put these live versions on the site.

    docs may hold live texts already read; others are read from their revision.
    """
    project.guides.check_writable()
    for guide_id in guide_ids:
        with project.guides.review_lock(guide_id):
            recover(project, guide_id)
            state = read_state(project, guide_id)
            if state is None or state.live is None:
                raise _refuse(guide_id, "has no live version to publish", "review.transition")
            if state.live.published_at:
                continue
            at = iso(now())
            live = state.live.model_copy(update={"published_at": at})
            current = state.status == "approved" and state.content_hash == live.content_hash
            updated = state.model_copy(
                update={
                    "live": live,
                    "status": "published" if current else state.status,
                    "first_published": state.first_published or now().date(),
                }
            )
            doc = (docs or {}).get(guide_id)
            if doc is None or doc.content_hash != live.content_hash:
                path = project.guides.history_dir(guide_id) / live.revision
                doc = read_revision(path, guide_id)
            _transition(
                project,
                doc,
                updated,
                actor=actor,
                action="publish",
                from_state="approved",
                to_state="published",
                content_hash=live.content_hash,
                note=None
                if current
                else f"live version published; the current text is {state.status}",
            )
