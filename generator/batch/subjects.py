"""What a batch drafts: guides from their records, or career articles from theirs.

A submission's requests are named by what they draft: a guide by its record id, an article
as `article:SLUG`. Collecting reads, builds and writes each through its subjects, so the
answers of both are judged, repaired in follow-up rounds and written the same way.
"""

from __future__ import annotations

from collections.abc import Sequence

from generator.core.errors import PrepguideError
from generator.drafting.article_build import build_article, input_hash
from generator.drafting.build import build_guide
from generator.drafting.protocol import DraftResult
from generator.guides.articles import ArticleJob, article_files, article_jobs
from generator.guides.document import GuideDoc
from generator.guides.project import Project
from generator.guides.store import PREFIX
from generator.sources.records import Source


class GuideSubjects:
    """Guides: one request per record, written to guides/<id>.md."""

    kind = "guide"

    def __init__(self, project: Project) -> None:
        self.project = project

    def by_id(self) -> dict[str, Source]:
        return self.project.sources.by_id()

    def hash(self, source: Source) -> str:
        return source.content_hash()

    def build(self, drafter, source: Source, result: DraftResult) -> GuideDoc:
        return build_guide(self.project, drafter, source, result)

    def read(self, name: str) -> GuideDoc | None:
        return self.project.guides.read(name)

    def write_many(self, docs: Sequence[GuideDoc]) -> dict[str, PrepguideError]:
        """Write the documents; return those not written, by request name."""
        return dict(self.project.guides.write_many(list(docs)))

    def name(self, doc: GuideDoc) -> str:
        return doc.meta.id


class ArticleSubjects:
    """Career articles: one request per article, written to guides/articles/<slug>.md."""

    kind = "article"

    def __init__(self, project: Project) -> None:
        self.project = project
        self.store = article_files(project).store()
        self._jobs: dict[str, ArticleJob] | None = None

    def by_id(self) -> dict[str, ArticleJob]:
        if self._jobs is None:
            jobs, _ = article_jobs(self.project)
            self._jobs = {job.key: job for job in jobs}
        return self._jobs

    def hash(self, job: ArticleJob) -> str:
        return input_hash(job)

    def build(self, drafter, job: ArticleJob, result: DraftResult) -> GuideDoc:
        return build_article(self.project, drafter, job, result)

    def read(self, name: str) -> GuideDoc | None:
        return self.store.read(name.removeprefix(PREFIX))

    def write_many(self, docs: Sequence[GuideDoc]) -> dict[str, PrepguideError]:
        """Write the documents; return those not written, by request name."""
        failed = self.store.write_many(list(docs))
        return {f"{PREFIX}{slug}": error for slug, error in failed.items()}

    def name(self, doc: GuideDoc) -> str:
        return f"{PREFIX}{doc.meta.id}"


def subjects_of(project: Project, kind: str) -> GuideSubjects | ArticleSubjects:
    """Return the subjects of a submission's kind."""
    return ArticleSubjects(project) if kind == "article" else GuideSubjects(project)
