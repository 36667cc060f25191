"""Editorial review: states, transitions bound to content, the live version and diffs."""

from __future__ import annotations

import difflib
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from datetime import date, datetime

from generator.checks import check_guide, has_errors, verdict_key
from generator.core.clock import iso, now
from generator.core.errors import GuideError, PrepguideError, ReviewError
from generator.core.names import plural
from generator.guides.document import GuideDoc, parse
from generator.guides.findings import Finding, count
from generator.guides.project import Project
from generator.review import audit
from generator.review.recheck import error_rules, judge_live
from generator.review.state import LiveRecord, ReviewState, commit, read_state, recover, repair
from generator.sources.records import Source

STATUSES: tuple[str, ...] = ("draft", "approved", "published", "rejected", "withdrawn")
WITHDRAW_REASONS = ("published in error", "superseded", "withdrawn by request")


@dataclass(frozen=True)
class GuideFlags:
    """Warnings shown beside a guide's status wherever it is listed."""

    stale: bool
    edited_after_approval: bool
    missing_file: bool = False
    generic_lesson: bool = False
    # The live (approved) text raises errors under today's checks or records.
    fails_current_checks: bool = False

    def labels(self) -> list[str]:
        return [
            label
            for label, on in (
                ("stale", self.stale),
                ("edited after approval", self.edited_after_approval),
                ("working file missing", self.missing_file),
                ("generic offline lesson", self.generic_lesson),
                ("fails current checks", self.fails_current_checks),
            )
            if on
        ]


@dataclass(frozen=True)
class LiveGuide:
    """The last approved text of a guide that is approved or published."""

    doc: GuideDoc
    content_hash: str
    approved_by: str
    approved_at: str
    first_published: date | None
    updated: date


@dataclass(frozen=True)
class Outcome:
    """What a review action changed."""

    guide_id: str
    action: str
    from_state: str
    to_state: str
    content_hash: str


@dataclass
class GuideReview:
    """Everything a reviewer sees about one guide."""

    id: str
    status: str
    doc: GuideDoc | None
    source: Source | None
    state: ReviewState | None
    flags: GuideFlags
    findings: list[Finding] = field(default_factory=list)
    problem: str | None = None
    # The rules the live text fails today (see flags.fails_current_checks).
    live_failures: list[str] = field(default_factory=list)

    @property
    def errors(self) -> int:
        return count(self.findings, "error")

    @property
    def warnings(self) -> int:
        return count(self.findings, "warning")

    @property
    def live(self) -> LiveRecord | None:
        return self.state.live if self.state else None

    def as_json(self) -> dict:
        return {
            "id": self.id,
            "status": self.status,
            "stale": self.flags.stale,
            "edited_after_approval": self.flags.edited_after_approval,
            "missing_file": self.flags.missing_file,
            "errors": self.errors,
            "warnings": self.warnings,
            "content_hash": self.doc.content_hash if self.doc else None,
            "live_hash": self.live.content_hash if self.live else None,
            "live_published": bool(self.live and self.live.published_at),
            "fails_current_checks": self.flags.fails_current_checks,
            "live_failures": self.live_failures,
            "problem": self.problem,
        }


# --- transitions ----------------------------------------------------------------------------

__all__ = ["LiveRecord", "ReviewState", "read_state", "repair"]


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


def _missing(project: Project, guide_id: str) -> ReviewError:
    return ReviewError(
        f"no guide file {project.guides.path(guide_id)}; run `prepguide generate {guide_id}`",
        record_id=guide_id,
        rule="review.missing",
    )


def _read_current(project: Project, guide_id: str) -> tuple[str, GuideDoc]:
    text = project.guides.read_text(guide_id)
    if text is None:
        raise _missing(project, guide_id)
    return text, parse(text, str(project.guides.path(guide_id)))


def _current_state(guide_id: str, doc: GuideDoc, state: ReviewState | None) -> ReviewState:
    """Return the state as it stands for this text: a new text is a draft."""
    if state is None:
        return ReviewState(id=guide_id, content_hash=doc.content_hash)
    if state.content_hash == doc.content_hash:
        return state
    update = {"status": "draft", "content_hash": doc.content_hash, "by": None, "at": None}
    return state.model_copy(update={**update, "note": None})


def _sync(project: Project, guide_id: str, text: str, doc: GuideDoc) -> ReviewState:
    """Keep the current text as a revision; a new text becomes a draft (call under the lock)."""
    state = read_state(project, guide_id)
    current = _current_state(guide_id, doc, state)
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
        text, doc = _read_current(project, guide_id)
        yield text, doc, _sync(project, guide_id, text, doc)


# --- reading ------------------------------------------------------------------------------


def _flags(project: Project, doc: GuideDoc, state: ReviewState | None) -> GuideFlags:
    source = project.source(doc.meta.source)
    stale = source is None or doc.meta.provenance.source_hash != source.content_hash()
    approved = state.live.content_hash if state and state.live else None
    return GuideFlags(
        stale=stale,
        edited_after_approval=approved not in (None, doc.content_hash),
        generic_lesson=doc.meta.provenance.generic_lesson,
    )


def guide_flags(project: Project, guide_id: str) -> GuideFlags:
    """Return whether a guide is stale and whether its text changed since approval."""
    doc = project.guides.read(guide_id)
    if doc is None:
        raise ReviewError(f"no guide {guide_id!r}", record_id=guide_id, rule="review.missing")
    return _flags(project, doc, read_state(project, guide_id))


def _unreadable(project: Project, guide_id: str, problem: str) -> GuideReview:
    try:
        source = project.source(guide_id)
    except PrepguideError:
        source = None
    return GuideReview(
        id=guide_id,
        status="unreadable",
        doc=None,
        source=source,
        state=None,
        flags=GuideFlags(stale=False, edited_after_approval=False),
        problem=problem,
    )


def inspect(project: Project, guide_id: str) -> GuideReview:
    """Return a guide's status, flags and findings, as a review action would see it; no writes."""
    try:
        text = project.guides.read_text(guide_id)
        stored = read_state(project, guide_id)
        if text is None and stored is None:
            raise _missing(project, guide_id)
        doc = None if text is None else parse(text, str(project.guides.path(guide_id)))
    except PrepguideError as exc:
        return _unreadable(project, guide_id, str(exc))
    if doc is None:
        assert stored is not None
        where = "the live version stays live; " if stored.live else ""
        live_failures = _live_failures(project, guide_id, stored, None, [])
        return GuideReview(
            id=guide_id,
            status=stored.status,
            doc=None,
            source=project.source(guide_id),
            state=stored,
            flags=GuideFlags(
                stale=False,
                edited_after_approval=False,
                missing_file=True,
                fails_current_checks=bool(live_failures),
            ),
            live_failures=live_failures,
            problem=f"the working file {project.guides.path(guide_id)} is missing; {where}"
            f"restore it from guides/.history/{guide_id}/ or run `prepguide generate {guide_id}`",
        )
    state = _current_state(guide_id, doc, stored)
    source = project.source(doc.meta.source)
    findings = check_guide(doc, project.check_context(source)) if source else []
    problem = None if source else "no valid source record; run `prepguide sources check`"
    live_failures = _live_failures(project, guide_id, state, doc, findings)
    flags = replace(_flags(project, doc, state), fails_current_checks=bool(live_failures))
    return GuideReview(
        id=guide_id,
        status=state.status,
        doc=doc,
        source=source,
        state=state,
        flags=flags,
        findings=findings,
        problem=problem,
        live_failures=live_failures,
    )


def _live_failures(
    project: Project,
    guide_id: str,
    state: ReviewState | None,
    doc: GuideDoc | None,
    findings: list[Finding],
) -> list[str]:
    """Return the error rules the live text raises today (the current text's, if the same)."""
    if state is None or state.live is None:
        return []
    if doc is not None and doc.content_hash == state.live.content_hash:
        return error_rules(findings)
    try:
        live = live_version(project, guide_id, state)
        source = project.source(live.doc.meta.source) if live else None
    except PrepguideError:
        return ["review.live"]
    if live is None or source is None:
        return ["source.invalid"] if live else []
    return judge_live(project, live.doc, source, state.live).rules


def queue(project: Project, status: str | None = None) -> list[GuideReview]:
    """Return every guide for review, optionally only those in one status."""
    rows = [inspect(project, guide_id) for guide_id in project.guides.ids()]
    return [row for row in rows if status is None or row.status == status]


def _read_revision(path, guide_id: str) -> GuideDoc:
    """Parse a kept revision; raise GuideError when it is missing or not UTF-8."""
    try:
        return parse(path.read_text(encoding="utf-8"), str(path))
    except FileNotFoundError as exc:
        problem = "the approved revision is missing; restore it or approve the guide again"
        raise GuideError(problem, path=path, record_id=guide_id, rule="review.live") from exc
    except UnicodeDecodeError as exc:
        problem = "the approved revision is not UTF-8; restore it or approve the guide again"
        raise GuideError(problem, path=path, record_id=guide_id, rule="review.live") from exc


def live_version(
    project: Project, guide_id: str, state: ReviewState | None = None
) -> LiveGuide | None:
    """Return the last approved text of an approved or published guide; None otherwise."""
    state = state or read_state(project, guide_id)
    if state is None or state.live is None:
        return None
    live = state.live
    path = project.guides.history_dir(guide_id) / live.revision
    doc = _read_revision(path, guide_id)
    if doc.content_hash != live.content_hash:
        raise GuideError(
            "the approved revision no longer matches its approved hash; approve the guide again",
            path=path,
            record_id=guide_id,
            rule="review.live",
        )
    return LiveGuide(
        doc=doc,
        content_hash=live.content_hash,
        approved_by=live.approved_by,
        approved_at=live.approved_at,
        first_published=state.first_published,
        updated=datetime.strptime(live.approved_at, "%Y-%m-%dT%H:%M:%SZ").date(),
    )


def log(project: Project, guide_id: str | None = None) -> list[audit.AuditEntry]:
    """Return the readable audit trail, oldest first."""
    return audit.read(project.guides.audit_path, guide_id)


def audit_log(project: Project, guide_id: str | None = None) -> audit.AuditLog:
    """Return the audit trail, oldest first, with one problem per unreadable line."""
    return audit.load(project.guides.audit_path, guide_id)


# --- actions ------------------------------------------------------------------------------


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
        context = project.check_context(source)
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
                doc = _read_revision(path, guide_id)
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


# --- diffs --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Diff:
    """A unified diff between two guide bodies."""

    old_label: str
    new_label: str
    lines: list[str]

    @property
    def empty(self) -> bool:
        return not self.lines

    def text(self) -> str:
        return "\n".join(self.lines)


def _diff(old: str, new: str, old_label: str, new_label: str) -> Diff:
    lines = difflib.unified_diff(
        old.splitlines(), new.splitlines(), old_label, new_label, lineterm=""
    )
    return Diff(old_label, new_label, list(lines))


def diff_previous(project: Project, guide_id: str) -> Diff | None:
    """Diff the current text against the latest other kept revision; None for a first version."""
    _, doc = _read_current(project, guide_id)
    revisions = project.guides.revisions(guide_id)
    others = [r for r in revisions if r.digest != doc.content_hash[:12]]
    if not others:
        return None
    previous = others[-1]
    return _diff(
        previous.read().body, doc.body, f"revision {previous.name}", f"current {guide_id}.md"
    )


def diff_published(project: Project, guide_id: str) -> Diff | None:
    """Diff the live (approved or published) text against the current text; None if none."""
    live = live_version(project, guide_id)
    if live is None:
        return None
    doc = project.guides.read(guide_id)
    new = doc.body if doc else ""
    label = f"live version approved by {live.approved_by} at {live.approved_at}"
    return _diff(live.doc.body, new, label, f"current {guide_id}.md")
