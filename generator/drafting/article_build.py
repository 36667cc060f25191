"""Building one article: compose the draft, check it source by source, wrap its provenance."""

from __future__ import annotations

from collections.abc import Sequence

from generator.checks.articles import ArticleContext, check_article_body
from generator.checks.base import Evidence, finding
from generator.checks.runner import check_context
from generator.core.clock import iso, now
from generator.core.fsio import sha256_text
from generator.drafting.protocol import Drafter, DrafterId, DraftResult
from generator.guides.article_draft import (
    ArticleDraft,
    company_names,
    compose_article_body,
    sources_hash,
)
from generator.guides.articles import ArticleJob
from generator.guides.document import (
    ArticleSource,
    GuideDoc,
    GuideMeta,
    Provenance,
    ReportedEvidence,
)
from generator.guides.findings import Finding
from generator.guides.project import Project
from generator.sources.records import Source


def article_context(project: Project, sources: Sequence[Source]) -> ArticleContext:
    """Return what an article's checks read: each record with its own context and originals."""
    contexts = {source.key: check_context(project, source) for source in sources}
    return ArticleContext(
        sources=tuple(sources),
        contexts=contexts,
        originals={key: tuple(ctx.originals) for key, ctx in contexts.items()},
        site_name=project.settings.site.name,
    )


def input_hash(job: ArticleJob) -> str:
    """Hash what an article is drafted from: its records and the file's title, angle, audience."""
    spec = job.article.spec
    wanted = f"{spec.title}\0{spec.angle or ''}\0{spec.audience or ''}\0{job.query or ''}"
    return sha256_text(f"{sources_hash(job.sources)}\0{wanted}")


def _evidence(draft: ArticleDraft) -> list[tuple[str, Evidence]]:
    return [
        (block.source, Evidence(" ".join(s.text.split()), s.quote))
        for block in draft.blocks
        for s in block.reported
    ]


def compose(project: Project, job: ArticleJob, draft: ArticleDraft) -> tuple[str, ArticleContext]:
    """Compose an article's body as it would be written, and its check context."""
    ctx = article_context(project, job.sources)
    views = [view for source in job.sources for view in ctx.originals[source.key]]
    body = compose_article_body(draft, job.sources, views, project.settings.site.name)
    return body, ctx


def article_findings(project: Project, job: ArticleJob, draft: ArticleDraft) -> list[Finding]:
    """Compose a draft as it would be written and return what the checks find in it."""
    body, ctx = compose(project, job, draft)
    return check_article_body(body, ctx, _evidence(draft))


def build_article(
    project: Project, drafter: Drafter | DrafterId, job: ArticleJob, result: DraftResult
) -> GuideDoc:
    """Compose, check and wrap an article draft into a document for guides/articles/."""
    draft: ArticleDraft = result.draft  # type: ignore[assignment]
    body, ctx = compose(project, job, draft)
    meta = GuideMeta(
        id=job.slug,
        source=job.slug,  # an article's record is the article: see review/articles.py
        company=company_names(job.sources),
        title=job.article.spec.title,
        kind="article",
        sources=[
            ArticleSource(id=s.key, company=s.company, source_hash=s.content_hash())
            for s in job.sources
        ],
        query=job.query,
        provenance=Provenance(
            backend=drafter.backend,
            model=result.model or drafter.model,
            drafter_version=drafter.version,
            prompt_hash=result.prompt_hash or drafter.prompt_hash,
            source_hash=input_hash(job),
            generated_at=iso(now()),
            usage=result.usage,
            generic_lesson=result.generic_lesson,
            rounds=result.rounds,
            repairs=result.repairs,
            via="batch" if result.batch_id else None,
            batch_id=result.batch_id,
        ),
        generated_hash=sha256_text(body),
        evidence=[
            ReportedEvidence(text=item.text, quote=item.quote, source=key)
            for key, item in _evidence(draft)
        ]
        if drafter.backend != "offline"
        else [],
    )
    doc = GuideDoc(meta=meta, body=body)
    doc.meta.findings = check_article_body(body, ctx, _evidence(draft) if meta.evidence else ())
    return doc


def doc_sources(project: Project, doc: GuideDoc) -> tuple[list[Source], list[str]]:
    """Return the current records an article document was drafted from, and those now missing."""
    by_id = project.sources.by_id()
    wanted = [item.id for item in doc.meta.sources]
    return [by_id[key] for key in wanted if key in by_id], [k for k in wanted if k not in by_id]


def check_article_doc(
    project: Project, doc: GuideDoc, job: ArticleJob | None = None
) -> list[Finding]:
    """Check an article document against its records as they are now; flag what changed."""
    sources, missing = doc_sources(project, doc)
    if missing:
        return [
            finding(
                "record.missing",
                "error",
                "guide",
                f"no valid record for {', '.join(missing)}; restore it or generate the article "
                "again",
            )
        ]
    evidence = [(item.source or "", Evidence(item.text, item.quote)) for item in doc.meta.evidence]
    findings = check_article_body(doc.body, article_context(project, sources), evidence)
    changed = [
        item.id
        for item, source in zip(doc.meta.sources, sources, strict=True)
        if item.source_hash != source.content_hash()
    ]
    if changed:
        findings.append(
            finding(
                "staleness.source",
                "warning",
                "guide",
                f"source changed since generation: {', '.join(changed)} no longer match the "
                f"records this article was drafted from; regenerate with `prepguide generate "
                f"article:{doc.meta.id}`",
            )
        )
    if job is not None and [s.key for s in job.sources] != [s.key for s in sources]:
        findings.append(
            finding(
                "staleness.query",
                "warning",
                "guide",
                f"the article's sources now resolve to {', '.join(s.key for s in job.sources)}; "
                f"regenerate with `prepguide generate article:{doc.meta.id}`",
            )
        )
    return findings
