"""Building one guide: compose a draft into a body, check it and wrap it with its provenance."""

from __future__ import annotations

from generator.checks import Evidence, check_body, check_guide
from generator.checks.runner import check_context
from generator.core.clock import iso, now
from generator.core.fsio import sha256_text
from generator.drafting.protocol import Drafter, DrafterId, DraftResult
from generator.guides.compose import compose_body
from generator.guides.document import GuideDoc, GuideMeta, Provenance, ReportedEvidence
from generator.guides.findings import Finding
from generator.guides.project import Project
from generator.guides.schema import Draft
from generator.sources.records import Source


def build_guide(
    project: Project, drafter: Drafter | DrafterId, source: Source, result: DraftResult
) -> GuideDoc:
    """Compose, check and wrap a draft into a guide document."""
    ctx = check_context(project, source)
    body = compose_body(result.draft, source, ctx.originals, project.settings.site.name)
    meta = GuideMeta(
        id=source.key,
        source=source.key,
        company=source.company,
        title=source.title,
        provenance=Provenance(
            backend=drafter.backend,
            model=result.model or drafter.model,
            drafter_version=drafter.version,
            prompt_hash=result.prompt_hash or drafter.prompt_hash,
            source_hash=source.content_hash(),
            generated_at=iso(now()),
            usage=result.usage,
            via="batch" if result.batch_id else None,
            batch_id=result.batch_id,
            generic_lesson=result.generic_lesson,
            rounds=result.rounds,
            repairs=result.repairs,
        ),
        generated_hash=sha256_text(body),
        # The model's quote behind each reported statement: the checks and review use it.
        evidence=[
            ReportedEvidence(text=" ".join(s.text.split()), quote=s.quote)
            for s in result.draft.reported
        ]
        if drafter.backend != "offline"
        else [],
    )
    doc = GuideDoc(meta=meta, body=body)
    doc.meta.findings = check_guide(doc, ctx)
    return doc


def draft_findings(project: Project, source: Source, draft: Draft) -> list[Finding]:
    """Compose a draft as it would be written and return what the checks find in it."""
    ctx = check_context(project, source)
    body = compose_body(draft, source, ctx.originals, project.settings.site.name)
    evidence = tuple(Evidence(" ".join(s.text.split()), s.quote) for s in draft.reported)
    return check_body(body, ctx, evidence=evidence)
