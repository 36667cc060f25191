"""The review queue: each guide's status, flags and findings, its live version and the trail."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import date, datetime

from generator.checks import check_guide
from generator.checks.runner import check_context, findings_cache
from generator.core.errors import GuideError, PrepguideError, ReviewError
from generator.core.parsed import ParsedIndex
from generator.guides.document import GuideDoc, parse
from generator.guides.findings import Finding, Tallied
from generator.guides.project import Project
from generator.review import audit
from generator.review.index import (
    QueuePlan,
    keep_queue,
    make_plan,
)
from generator.review.recheck import error_rules, judge_live
from generator.review.state import LiveRecord, ReviewState, read_state
from generator.sources.records import Source


@dataclass(frozen=True)
class GuideFlags:
    """Warnings shown beside a guide's status wherever it is listed."""

    stale: bool
    edited_after_approval: bool
    missing_file: bool = False
    generic_lesson: bool = False
    # The live (approved) text raises errors under today's checks or records.
    fails_current_checks: bool = False
    # The review state names a live version that the audit log never approved.
    unaudited: bool = False

    def labels(self) -> list[str]:
        return [
            label
            for label, on in (
                ("stale", self.stale),
                ("edited after approval", self.edited_after_approval),
                ("working file missing", self.missing_file),
                ("generic offline lesson", self.generic_lesson),
                ("fails current checks", self.fails_current_checks),
                ("approval not in the audit log", self.unaudited),
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


@dataclass
class GuideReview(Tallied):
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
            "unaudited": self.flags.unaudited,
            "live_failures": self.live_failures,
            "problem": self.problem,
        }


def missing_guide(project: Project, guide_id: str) -> ReviewError:
    return ReviewError(
        f"no guide file {project.guides.path(guide_id)}; run `prepguide generate {guide_id}`",
        record_id=guide_id,
        rule="review.missing",
    )


def read_current(project: Project, guide_id: str) -> tuple[str, GuideDoc]:
    text = project.guides.read_text(guide_id)
    if text is None:
        raise missing_guide(project, guide_id)
    return text, project.guides.parse(text, project.guides.path(guide_id))


def current_state(guide_id: str, doc: GuideDoc, state: ReviewState | None) -> ReviewState:
    """Return the state as it stands for this text: a new text is a draft."""
    if state is None:
        return ReviewState(id=guide_id, content_hash=doc.content_hash)
    if state.content_hash == doc.content_hash:
        return state
    update = {"status": "draft", "content_hash": doc.content_hash, "by": None, "at": None}
    return state.model_copy(update={**update, "note": None})


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


def inspect(
    project: Project,
    guide_id: str,
    findings_of: Callable[[GuideDoc, Source], list[Finding]] | None = None,
) -> GuideReview:
    """Return a guide's status, flags and findings, as a review action would see it; no writes.

    findings_of computes a guide's findings (default: run every check).
    """
    try:
        text = project.guides.read_text(guide_id)
        stored = read_state(project, guide_id)
        if text is None and stored is None:
            raise missing_guide(project, guide_id)
        doc = None if text is None else project.guides.parse(text, project.guides.path(guide_id))
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
                unaudited=_unaudited(project, guide_id, stored),
            ),
            live_failures=live_failures,
            problem=f"the working file {project.guides.path(guide_id)} is missing; {where}"
            f"restore it from guides/.history/{guide_id}/ or run `prepguide generate {guide_id}`",
        )
    state = current_state(guide_id, doc, stored)
    source = project.source(doc.meta.source)
    if source is None:
        findings = []
    elif findings_of is not None:
        findings = findings_of(doc, source)
    else:
        findings = check_guide(doc, check_context(project, source))
    problem = None if source else "no valid source record; run `prepguide sources check`"
    live_failures = _live_failures(project, guide_id, state, doc, findings)
    flags = replace(
        _flags(project, doc, state),
        fails_current_checks=bool(live_failures),
        unaudited=_unaudited(project, guide_id, state),
    )
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


def _unaudited(project: Project, guide_id: str, state: ReviewState | None) -> bool:
    return bool(state and state.live and not audited(project, guide_id, state.live))


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


def review_queue(project: Project, status: str | None = None) -> list[GuideReview]:
    """Return every guide for review, optionally only those in one status."""
    with findings_cache(project) as cache:

        def findings_of(doc: GuideDoc, source: Source) -> list[Finding]:
            return cache.check(doc, check_context(project, source))

        rows = [inspect(project, guide_id, findings_of) for guide_id in project.guides.ids()]
    return [row for row in rows if status is None or row.status == status]


def index_row(row: GuideReview) -> dict:
    """Return what the queue shows of a guide, as the index keeps it."""
    doc = row.doc
    return {
        **row.as_json(),
        "labels": row.flags.labels(),
        "title": doc.meta.title if doc else None,
        "company": doc.meta.company if doc else None,
        "topics": sorted(row.source.tags) if row.source else [],
        "rules": sorted({f.rule for f in row.findings}),
    }


def queue_index(
    project: Project,
    status: str | None = None,
    warnings: list[str] | None = None,
    memo: dict[str, dict] | None = None,
    world: tuple[str, bool] | None = None,
    plan: QueuePlan | None = None,
) -> list[dict]:
    """Return every guide's queue row (index_row), reading only guides whose files changed.

    A row is kept in the verdict cache under the signatures of the guide's working file, its
    review state and pending files, and of every record, the ledger and the settings, with the
    checks' code version and the date (checks.memo.world_key). memo, kept by a long-lived
    caller between calls, holds the last call's rows by key, so they need no read of the cache;
    its rows are shared: copy one before changing it. world: the world key and whether it is
    racy, when the caller has just made it. plan: the queue's keys (review.index.plan_queue),
    when the caller has just made them; the whole queue is kept under its key.
    """
    given = memo is not None
    memo = {} if memo is None else memo
    with findings_cache(project, warnings) as cache:
        if plan is None:
            plan = make_plan(project, cache, world, kept=not memo)
        if plan.rows is not None and not memo:
            if given:  # the caller's next call needs only the keys, not the kept queue
                memo.update(zip(plan.keys.values(), plan.rows, strict=True))
            return [row for row in plan.rows if status is None or row["status"] == status]
        keys, racy = plan.keys, plan.racy
        known: dict[str, object] = {k: v for k in keys.values() if (v := memo.get(k)) is not None}
        if len(known) < len(keys):
            known.update(cache.get_many("queue", [k for k in keys.values() if k not in known]))

        def findings_of(doc: GuideDoc, source: Source) -> list[Finding]:
            return cache.check(doc, check_context(project, source))

        rows: list[dict] = []
        fresh: list[tuple[str, dict]] = []
        for guide_id, key in keys.items():
            row = known.get(key)
            if not isinstance(row, dict) or row.get("id") != guide_id:
                reviewed = inspect(project, guide_id, findings_of)
                row = index_row(reviewed)
                if reviewed.status != "unreadable" and guide_id not in racy:
                    fresh.append((key, row))
            rows.append(row)
        if fresh or len(memo) != len(keys):
            cache.put_many("queue", fresh)
            whole = plan.key
            cache.keep_only("queue", set(keys.values()) | ({whole} if whole else set()))
            keep_queue(cache, plan, rows)
        memo.clear()
        memo.update(
            (key, row)
            for (guide_id, key), row in zip(keys.items(), rows, strict=True)
            if guide_id not in racy and row["status"] != "unreadable"
        )
    return [row for row in rows if status is None or row["status"] == status]


def read_revision(path, guide_id: str, index: ParsedIndex | None = None) -> GuideDoc:
    """Parse a kept revision; raise GuideError when it is missing or not UTF-8."""
    try:
        return parse(path.read_text(encoding="utf-8"), str(path), index)
    except FileNotFoundError as exc:
        problem = "the approved revision is missing; restore it or approve the guide again"
        raise GuideError(problem, path=path, record_id=guide_id, rule="review.live") from exc
    except UnicodeDecodeError as exc:
        problem = "the approved revision is not UTF-8; restore it or approve the guide again"
        raise GuideError(problem, path=path, record_id=guide_id, rule="review.live") from exc


def audited(project: Project, guide_id: str, live: LiveRecord) -> bool:
    """Return True when the audit log holds the approval the live record claims."""
    path = project.guides.audit_path
    return audit.approved(path, guide_id, live.content_hash, live.approved_by)


def live_version(
    project: Project, guide_id: str, state: ReviewState | None = None
) -> LiveGuide | None:
    """Return the last approved text of an approved or published guide; None otherwise."""
    state = state or read_state(project, guide_id)
    if state is None or state.live is None:
        return None
    live = state.live
    if not audited(project, guide_id, live):
        raise GuideError(
            f"the review state says {live.approved_by!r} approved this guide, but the audit "
            "log has no such approval; a state without its audit line is no approval: "
            "approve the guide again",
            path=project.guides.review_path(guide_id),
            record_id=guide_id,
            rule="review.unaudited",
        )
    path = project.guides.history_dir(guide_id) / live.revision
    doc = read_revision(path, guide_id, project.parsed)
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
