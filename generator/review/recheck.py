"""Live checks: whether the approved text of a guide still passes the current checks."""

from __future__ import annotations

from dataclasses import dataclass

from generator.checks import UNDATED_RULES, check_body, check_dated, doc_evidence, verdict_key
from generator.checks.runner import check_context
from generator.checks.verdicts import VerdictCache
from generator.guides.document import GuideDoc
from generator.guides.findings import Finding
from generator.guides.project import Project
from generator.review.state import LiveRecord
from generator.sources.records import Source


@dataclass(frozen=True)
class LiveVerdict:
    """The error rules the live text raises today, and why, with the verdict to remember."""

    undated: list[str]
    dated: list[str]
    key: str
    # The record changed since the text was judged at approval (or, for older approvals,
    # since the text was generated).
    record_changed: bool

    @property
    def rules(self) -> list[str]:
        return sorted({*self.undated, *self.dated})

    @property
    def fails_new_rules(self) -> bool:
        """Return True when only rules changed since approval fail the unchanged text."""
        return bool(self.undated) and not self.dated and not self.record_changed


def error_rules(findings: list[Finding]) -> list[str]:
    """Return the ids of the rules with error findings, sorted and unique."""
    return sorted({f.rule for f in findings if f.severity == "error"})


def judge_live(
    project: Project,
    doc: GuideDoc,
    source: Source,
    live: LiveRecord,
    cache: VerdictCache | None = None,
) -> LiveVerdict:
    """Judge a live text against its records and today's rules.

    The undated rules run only when neither the approval (its checks key) nor the verdict
    cache judged this text against these records; the dated rules always run.
    """
    own = getattr(project, "judge_live", None)  # a view with its own checks (articles)
    if own is not None:
        return own(doc, source, live)
    context = check_context(project, source)
    key = verdict_key(doc, context)
    if key == live.checks_key:
        undated: list[str] = []
    elif cache is not None:
        head, tail = cache.undated(doc, context)
        undated = error_rules([*head, *tail])
    else:
        findings = check_body(doc.body, context, UNDATED_RULES, evidence=doc_evidence(doc))
        undated = error_rules(findings)
    judged_against = live.record_hash or doc.meta.provenance.source_hash
    return LiveVerdict(
        undated=undated,
        dated=error_rules(check_dated(context)),
        key=key,
        record_changed=judged_against != source.content_hash(),
    )


def failure_note(guide_id: str, verdict: LiveVerdict) -> str:
    """Say which current checks a live text fails, and what to run."""
    return (
        f"the approved version fails current checks ({', '.join(verdict.rules)}); "
        f"run `prepguide check {guide_id}`"
    )
