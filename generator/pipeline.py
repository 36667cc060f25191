"""The main job: generate, check and publish as library functions, and build in that order."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from generator.checks.memo import GuideCheck
from generator.checks.runner import blocked, check_guides
from generator.drafting.article_run import ArticleGeneration, generate_articles
from generator.drafting.plan import Planned
from generator.drafting.run import GenerateReport, Generation, generate
from generator.guides.articles import article_files
from generator.guides.project import Project
from generator.review.articles import check_articles
from generator.site import PublishReport
from generator.site import publish as publish_site


@dataclass
class Checked:
    """The findings of every checked guide."""

    results: list[GuideCheck]

    @property
    def held(self) -> list[GuideCheck]:
        """Return the guides whose error findings block approval and publishing."""
        return blocked(self.results)


@dataclass
class Published:
    """Where the site went and what publishing it did."""

    out_dir: Path
    preview: bool
    report: PublishReport


@dataclass
class Built:
    """What each stage of a build did."""

    generation: Generation
    checked: Checked
    published: Published
    articles: ArticleGeneration | None = None  # when the root has article files


Stage = Generation | ArticleGeneration | Checked | Published


def check(project: Project, ids: list[str] | tuple[str, ...] = (), jobs: int | None = 1) -> Checked:
    """Check the named guides, or every guide."""
    return Checked(check_guides(project, ids, jobs))


def publish(
    project: Project,
    out: Path | None = None,
    *,
    preview: bool = False,
    jobs: int | None = None,
    strict: bool = False,
) -> Published:
    """Write the site (by default to the project's site folder; a preview to site-preview/)."""
    workspace = project.workspace
    out_dir = out or (workspace.preview_dir if preview else workspace.site_dir)
    report = publish_site(project, out_dir, preview=preview, jobs=jobs, strict=strict)
    return Published(out_dir, preview, report)


def build(
    project: Project,
    *,
    preview: bool = False,
    backend: str = "auto",
    model: str | None = None,
    concurrency: int | None = None,
    no_cache: bool = False,
    jobs: int | None = None,
    on_planned: Callable[[Planned], None] | None = None,
    on_progress: Callable[[GenerateReport], None] | None = None,
    on_stage: Callable[[Stage], None] | None = None,
) -> Built:
    """Generate, check and publish, in this order; on_stage hears each stage as it ends."""

    def done(result):
        if on_stage is not None:
            on_stage(result)
        return result

    generation = done(
        generate(
            project,
            (),
            backend,
            model,
            concurrency=concurrency,
            no_cache=no_cache,
            on_planned=on_planned,
            on_progress=on_progress,
        )
    )
    articles = None
    if article_files(project).slugs():
        articles = done(
            generate_articles(
                project, None, backend, model, concurrency=concurrency, no_cache=no_cache
            )
        )
    checked = check(project, [source.key for source in project.sources.sources], jobs)
    if articles is not None:
        checked.results += check_articles(project)
    done(checked)
    published = done(publish(project, preview=preview, jobs=jobs))
    return Built(generation, checked, published, articles)


__all__ = [
    "ArticleGeneration",
    "Built",
    "Checked",
    "Published",
    "build",
    "check",
    "generate",
    "publish",
]
