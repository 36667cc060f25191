"""Review transitions: approve, reject, withdraw and publish, each bound to the text it saw."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass

from generator.checks import check_guide, has_errors, verdict_key
from generator.checks.runner import check_context, findings_cache, prime_records
from generator.core.clock import iso, now
from generator.core.errors import PrepguideError, ReviewError, StorageError
from generator.core.names import plural
from generator.guides.document import GuideDoc
from generator.guides.findings import Finding, count
from generator.guides.project import Project
from generator.review import audit
from generator.review.group import Change, commit_group
from generator.review.index import WITHDRAW_REASONS
from generator.review.queue import current_state, read_current, read_revision
from generator.review.state import (
    LiveRecord,
    ReviewState,
    commit,
    file_signature,
    guide_lock,
    read_state,
    recover,
    settle_group,
)
from generator.sources.records import Source

# Guides per group commit: one flush of their audit lines commits them all.
GROUP_SIZE = 5000
# Compute a guide's findings against its record (the checks, or the verdict cache's).
FindingsOf = Callable[[GuideDoc, Source], list[Finding]]


@dataclass(frozen=True)
class Outcome:
    """What a review action changed."""

    guide_id: str
    action: str
    from_state: str
    to_state: str
    content_hash: str


def _entry(
    doc: GuideDoc | None,
    state: ReviewState,
    *,
    actor: str,
    action: str,
    from_state: str | None,
    content_hash: str | None,
    note: str | None = None,
    to_state: str | None = None,
) -> audit.AuditEntry:
    """Return the audit line of a transition to state."""
    made = doc.meta.provenance if doc else None
    return audit.AuditEntry(
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


def _transition(project: Project, doc: GuideDoc | None, state: ReviewState, **how) -> None:
    """Commit a new state together with its audit line (see generator.review.state)."""
    commit(project, state, _entry(doc, state, **how))


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
    with guide_lock(project, guide_id):
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


def _approvable(project: Project, guide_id: str, doc: GuideDoc, state: ReviewState) -> Source:
    """Return the record to check a text against; refuse a text that cannot be approved."""
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
    return source


def _refuse_errors(guide_id: str, findings: list[Finding]) -> None:
    """Refuse an approval while the checks report errors, naming each one."""
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


def approve(
    project: Project,
    guide_id: str,
    *,
    by: str,
    note: str | None = None,
    expected_hash: str | None = None,
    findings_of: FindingsOf | None = None,
) -> Outcome:
    """Approve the exact current text; refuse while checks report errors or if already done."""
    by = _name(by, "reviewer name (--by)", guide_id)
    with _locked(project, guide_id) as (text, doc, state):
        _check_seen(guide_id, doc, expected_hash)
        source = _approvable(project, guide_id, doc, state)
        context = check_context(project, source)
        findings = findings_of(doc, source) if findings_of else check_guide(doc, context)
        _refuse_errors(guide_id, findings)
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
    with guide_lock(project, guide_id):
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
    if len(guide_ids) > 1:
        mark_published_many(project, guide_ids, actor, docs=docs)
        return
    project.guides.check_writable()
    for guide_id in guide_ids:
        with guide_lock(project, guide_id):
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
                doc = read_revision(path, guide_id, project.parsed)
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


def _plan_approval(
    project: Project,
    guide_id: str,
    *,
    by: str,
    note: str | None,
    findings_of: FindingsOf,
    clean: bool,
    expected_hash: str | None = None,
) -> tuple[Change, Outcome] | None:
    """Plan one guide's approval in a group (under its lock); None: --clean passes it over."""
    recover(project, guide_id)
    path = project.guides.path(guide_id)
    signature = file_signature(path)
    text, doc = read_current(project, guide_id)
    _check_seen(guide_id, doc, expected_hash)
    stored = read_state(project, guide_id)
    state = current_state(guide_id, doc, stored)
    if clean and state.status != "draft":
        return None
    source = _approvable(project, guide_id, doc, state)
    findings = findings_of(doc, source)
    if clean and findings:
        return None
    _refuse_errors(guide_id, findings)
    revision, before = project.guides.plan_revision(guide_id, text, doc.content_hash)
    steps = []
    if state is not stored:  # a new text: kept and recorded as a draft first (see _sync)
        actor = "editor (hand edit)" if doc.edited else f"generator ({doc.meta.provenance.backend})"
        revise_note = None if doc.edited else f"generated at {doc.meta.provenance.generated_at}"
        if stored is not None and stored.live and stored.live.content_hash != doc.content_hash:
            revise_note = (
                "edited after approval; the approved version stays live until this text is approved"
            )
        steps.append(
            (
                state,
                _entry(
                    doc,
                    state,
                    actor=actor,
                    action="revise",
                    from_state=stored.status if stored else None,
                    content_hash=doc.content_hash,
                    note=revise_note,
                ),
            )
        )
    at = iso(now())
    live = LiveRecord(
        content_hash=doc.content_hash,
        revision=revision.name,
        approved_by=by,
        approved_at=at,
        note=note,
        checks_key=verdict_key(doc, check_context(project, source)),
        record_hash=source.content_hash(),
    )
    updated = state.model_copy(
        update={"status": "approved", "by": by, "at": at, "note": note, "live": live}
    )
    entry = _entry(
        doc,
        updated,
        actor=by,
        action="approve",
        from_state=state.status,
        content_hash=doc.content_hash,
        note=note,
    )
    steps.append((updated, entry))
    change = Change(steps=steps, before=before, doc=doc, signature=signature, text=text)
    return change, Outcome(guide_id, "approve", state.status, "approved", doc.content_hash)


def approve_many(
    project: Project,
    guide_ids: list[str],
    *,
    by: str,
    note: str | None = None,
    clean: bool = False,
    findings_of: FindingsOf | None = None,
    expected: Mapping[str, str] | None = None,
) -> tuple[list[Outcome], list[PrepguideError]]:
    """Approve many guides as group commits: each bound to its text, audited one by one.

    clean: approve only the drafts with no findings at all, and pass the others over.
    expected: the content hash of each guide as the reviewer saw it; another text is refused.
    Return the approvals and the refusals; a StorageError stops the run.
    """
    project.guides.check_writable()
    if not guide_ids:
        return [], []
    by = _name(by, "reviewer name (--by)", guide_ids[0])

    def default(doc: GuideDoc, source: Source) -> list[Finding]:
        return check_guide(doc, check_context(project, source))

    judge = findings_of or default
    with findings_cache(project) as cache:  # only the named guides' records are read
        prime_records(project, cache)
    outcomes: list[Outcome] = []
    refused: list[PrepguideError] = []
    ordered = sorted(set(guide_ids))
    size = GROUP_SIZE
    for start in range(0, len(ordered), size):
        changes: list[Change] = []
        # Lock order, as one guide's actions take them: the review locks, then the history's.
        with project.guides.group_lock(), project.guides.history_lock():
            settle_group(project)
            for guide_id in ordered[start : start + size]:
                try:
                    planned = _plan_approval(
                        project,
                        guide_id,
                        by=by,
                        note=note,
                        findings_of=judge,
                        clean=clean,
                        expected_hash=(expected or {}).get(guide_id),
                    )
                except StorageError:
                    raise
                except PrepguideError as exc:
                    refused.append(exc)
                    continue
                if planned is not None:
                    changes.append(planned[0])
                    outcomes.append(planned[1])
            commit_group(project, changes)
    order = {guide_id: n for n, guide_id in enumerate(guide_ids)}
    outcomes.sort(key=lambda o: order.get(o.guide_id, 0))
    return outcomes, refused


def mark_published_many(
    project: Project,
    guide_ids: list[str],
    actor: str = "prepguide publish",
    *,
    docs: dict[str, GuideDoc] | None = None,
) -> None:
    """Record that a publish run put these live versions on the site, as group commits."""
    project.guides.check_writable()
    size = GROUP_SIZE
    ordered = sorted(set(guide_ids))
    for start in range(0, len(ordered), size):
        changes: list[Change] = []
        with project.guides.group_lock():
            settle_group(project)
            for guide_id in ordered[start : start + size]:
                change = _plan_publication(project, guide_id, actor, docs)
                if change is not None:
                    changes.append(change)
            commit_group(project, changes)


def _plan_publication(
    project: Project, guide_id: str, actor: str, docs: dict[str, GuideDoc] | None
) -> Change | None:
    recover(project, guide_id)
    state = read_state(project, guide_id)
    if state is None or state.live is None:
        raise _refuse(guide_id, "has no live version to publish", "review.transition")
    if state.live.published_at:
        return None
    live = state.live.model_copy(update={"published_at": iso(now())})
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
        doc = read_revision(path, guide_id, project.parsed)
    # The working file gets the status in its front matter while it holds the live text.
    path = project.guides.path(guide_id)
    signature = file_signature(path)
    working = text = None
    if current and signature is not None:
        try:
            text = path.read_text(encoding="utf-8")
            working = project.guides.parse(text, path)
        except (OSError, UnicodeDecodeError, PrepguideError):
            working = None
    entry = _entry(
        doc,
        updated,
        actor=actor,
        action="publish",
        from_state="approved",
        to_state="published",
        content_hash=live.content_hash,
        note=None if current else f"live version published; the current text is {state.status}",
    )
    return Change(steps=[(updated, entry)], doc=working, signature=signature, text=text)
