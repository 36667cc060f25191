"""Building one guide: compose a draft into a body, check it and wrap it with its provenance."""

from __future__ import annotations

from generator.checks import check_guide
from generator.checks.runner import check_context
from generator.core.clock import iso, now
from generator.core.fsio import sha256_text
from generator.drafting.protocol import Drafter, DrafterId, DraftResult
from generator.guides.compose import compose_body
from generator.guides.document import GuideDoc, GuideMeta, Provenance, ReportedEvidence
from generator.guides.project import Project
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
