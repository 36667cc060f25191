"""Reviewing articles with the guides' review: the same states, audit trail and revisions.

An article is reviewed through a view of the project whose store is guides/articles/ (state in
guides/articles/.review/, history in guides/articles/.history/) and whose record for an article
is the article itself: the text of its sources as they resolve now, hashed as the article's
inputs. A source record that changes, a query whose result changes or an edited article file
makes the article stale, and an article whose file or records are gone cannot be approved.
"""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import PrivateAttr

from generator.checks.articles import merged_record, split_article
from generator.checks.memo import GuideCheck
from generator.core.errors import PrepguideError
from generator.drafting.article_build import check_article_doc, input_hash
from generator.guides.articles import ArticleJob, article_files, article_jobs
from generator.guides.document import GuideDoc
from generator.guides.findings import Finding
from generator.guides.project import Project
from generator.guides.store import PREFIX
from generator.review import spans
from generator.review.queue import GuideReview, inspect
from generator.review.recheck import LiveVerdict, error_rules
from generator.review.state import LiveRecord
from generator.sources.records import Source


class ArticleRecord(Source):
    """An article's sources joined into one record, whose hash is the article's inputs."""

    _inputs: str = PrivateAttr(default="")

    def content_hash(self) -> str:
        return self._inputs


class ArticleView(Project):
    """The project as review sees articles: their store, and each article as its record."""

    def __init__(self, project: Project) -> None:
        self.__dict__.update(project.__dict__)
        self.base = project
        self.guides = article_files(project).store()
        self._jobs: dict[str, ArticleJob | None] = {}

    def job(self, slug: str) -> ArticleJob | None:
        """Return the article as it resolves now, or None (no file, invalid, or no records)."""
        if slug not in self._jobs:
            jobs, _ = article_jobs(self.base, [slug])
            self._jobs[slug] = jobs[0] if jobs else None
        return self._jobs[slug]

    def source(self, source_id: str) -> Source | None:
        job = self.job(source_id)
        if job is None:
            return None
        merged = merged_record(list(job.sources), "these teams")
        record = ArticleRecord.model_validate(
            {**merged.model_dump(exclude={"id"}), "id": job.slug, "citations": []}
        )
        record._inputs = input_hash(job)
        return record

    def findings(self, doc: GuideDoc, source: Source | None = None) -> list[Finding]:
        """Check an article document against its records as they are now."""
        return check_article_doc(self.base, doc, self.job(doc.meta.id))

    def judge_live(self, doc: GuideDoc, source: Source, live: LiveRecord) -> LiveVerdict:
        """Judge an article's live text with the article checks (see review/recheck.py)."""
        findings = self.findings(doc, source)
        dated = [f for f in findings if f.rule.startswith("citations.")]
        undated = [f for f in findings if not f.rule.startswith("citations.")]
        return LiveVerdict(
            undated=error_rules(undated),
            dated=error_rules(dated),
            key=live.checks_key or "",
            record_changed=(live.record_hash or "") != source.content_hash(),
        )


def article_view(project: Project) -> ArticleView:
    """Return the view review commands use for `article:SLUG` ids."""
    return ArticleView(project)


def review_article(view: ArticleView, slug: str) -> GuideReview:
    """Return an article's review row (its id as `article:SLUG`)."""
    row = inspect(view, slug, view.findings)
    row.id = f"{PREFIX}{slug}"
    key = row.id
    files = article_files(view.base)
    live = "the live version stays live; " if row.live else ""
    if row.doc is None and row.flags.missing_file:
        row.problem = (
            f"the draft {view.guides.path(slug)} is missing; {live}restore it from "
            f"guides/articles/.history/{slug}/, run `prepguide generate {key}`, or take it down "
            f"with `prepguide review withdraw {key}`"
        )
    elif row.doc is not None and view.job(slug) is None:
        _, problems = article_jobs(view.base, [slug])
        row.problem = (
            f"{problems.get(key) or files.path(slug)}; {live}restore the article file, or take "
            f"it down with `prepguide review withdraw {key}`"
        )
    return row


def article_queue(project: Project, status: str | None = None) -> list[GuideReview]:
    """Return every article for review, optionally only those in one status."""
    view = article_view(project)
    rows = [review_article(view, slug) for slug in view.guides.ids()]
    return [row for row in rows if status is None or row.status == status]


def check_articles(project: Project, slugs: Sequence[str] | None = None) -> list[GuideCheck]:
    """Check the named (or every drafted) article; a missing draft is an error row."""
    view = article_view(project)
    results = []
    for slug in slugs if slugs is not None else view.guides.ids():
        key = f"{PREFIX}{slug}"
        try:
            doc = view.guides.read(slug)
        except PrepguideError as exc:
            unreadable = Finding(rule="guide", severity="error", section="guide", message=str(exc))
            results.append(GuideCheck(id=key, status="unreadable", findings=[unreadable]))
            continue
        if doc is None:
            missing = Finding(
                rule="guide.missing",
                severity="error",
                section="guide",
                message=f"no draft of {key}; run `prepguide generate {key}`",
            )
            results.append(GuideCheck(id=key, status="missing", findings=[missing]))
            continue
        results.append(GuideCheck(id=key, status=doc.meta.status, findings=view.findings(doc)))
    return results


def block_evidence(view: ArticleView, doc: GuideDoc) -> list[dict]:
    """Each block beside its own record: its figures and quotes, located in that record only."""
    records = view.base.sources.by_id()
    sources = [records[item.id] for item in doc.meta.sources if item.id in records]
    parts = split_article(doc.body, sources, view.settings.site.name)
    blocks = []
    for source in sources:
        claims, shown = spans.marked_fields(parts.blocks.get(source.key, ""), source)
        blocks.append(
            {
                "source": source,
                "text": parts.blocks.get(source.key, ""),
                "claims": claims,
                "fields": shown,
            }
        )
    return blocks
