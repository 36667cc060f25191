"""Generating articles: plan which need drafting, draft them, check and write each one."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from generator.core.errors import AuthError, ConfigError, GuideError, PrepguideError
from generator.drafting.article_build import build_article, input_hash
from generator.drafting.backends import make_article_drafter, resolve_backend
from generator.drafting.protocol import Drafter, Revision, prompt_hash_for
from generator.drafting.run import GenerateReport
from generator.guides.articles import ArticleJob, article_files, article_jobs
from generator.guides.compose import disclaimer
from generator.guides.document import GuideDoc
from generator.guides.project import Project
from generator.guides.store import article_slug


@dataclass(frozen=True)
class PlannedArticle:
    job: ArticleJob
    action: str  # generate or skip
    reason: str


@dataclass
class ArticleGeneration:
    """What generating articles did: the drafter's name, the plan, the report, the problems."""

    backend: str
    model: str | None
    plan: list[PlannedArticle]
    report: GenerateReport
    problems: dict[str, str] = field(default_factory=dict)


def plan_articles(
    project: Project, drafter: Drafter, jobs: Sequence[ArticleJob], force: bool
) -> list[PlannedArticle]:
    """Decide, per article, whether it must be drafted: its records, file or prompts changed."""
    store = article_files(project).store()
    plan = []
    for job in jobs:
        if force:
            plan.append(PlannedArticle(job, "generate", "--force"))
            continue
        try:
            existing = store.read(job.slug)
        except GuideError as exc:
            plan.append(PlannedArticle(job, "generate", f"existing draft unreadable: {exc}"))
            continue
        if existing is None:
            plan.append(PlannedArticle(job, "generate", "new"))
            continue
        made = existing.meta.provenance
        current = (input_hash(job), prompt_hash_for(drafter, job), drafter.backend, drafter.model)  # type: ignore[arg-type]
        if (made.source_hash, made.prompt_hash, made.backend, made.model) != current:
            reason = "sources changed" if made.source_hash != current[0] else "prompt changed"
            plan.append(PlannedArticle(job, "generate", reason))
        elif disclaimer(project.settings.site.name) not in existing.body:
            plan.append(PlannedArticle(job, "generate", "site name or disclaimer changed"))
        else:
            plan.append(PlannedArticle(job, "skip", "unchanged"))
    return plan


async def run_articles(
    project: Project,
    drafter: Drafter,
    plan: Sequence[PlannedArticle],
    concurrency: int,
    *,
    close: bool = True,
) -> GenerateReport:
    """Draft the planned articles; one failure never stops the others (then close the drafter)."""
    report = GenerateReport(skipped=[p.job.key for p in plan if p.action == "skip"])
    started = time.monotonic()
    store = article_files(project).store()
    slots = asyncio.Semaphore(max(1, concurrency))

    async def one(job: ArticleJob) -> None:
        async with slots:
            if report.aborted:
                return
            try:
                result = await drafter.draft(job)  # type: ignore[arg-type]
                doc = build_article(project, drafter, job, result)
                store.write(doc)
            except AuthError as exc:
                report.aborted = exc.message
                return
            except PrepguideError as exc:
                report.failed[job.key] = exc.message
                return
        report.generated.append(job.key)
        report.prompt_tokens += result.usage.prompt_tokens
        report.completion_tokens += result.usage.completion_tokens

    try:
        await asyncio.gather(*(one(p.job) for p in plan if p.action == "generate"))
    finally:
        closing = getattr(drafter, "aclose", None) if close else None
        if closing is not None:
            await closing()
    report.generated.sort()
    report.elapsed = time.monotonic() - started
    return report


def article_ids(ids: Sequence[str]) -> tuple[list[str], list[str]]:
    """Split command-line ids into article slugs and guide ids."""
    slugs = [slug for slug in (article_slug(i) for i in ids) if slug is not None]
    return slugs, [i for i in ids if article_slug(i) is None]


def generate_articles(
    project: Project,
    slugs: Sequence[str] | None = None,
    backend: str = "auto",
    model: str | None = None,
    *,
    force: bool = False,
    no_cache: bool = False,
    concurrency: int | None = None,
) -> ArticleGeneration:
    """Draft the named articles (or every active one whose inputs changed) and write them."""
    jobs, problems = article_jobs(project, slugs)
    chosen = resolve_backend(backend)
    drafter = make_article_drafter(project, chosen, model, cache=not no_cache)
    plan = plan_articles(project, drafter, jobs, force)
    report = asyncio.run(
        run_articles(project, drafter, plan, concurrency or project.settings.llm.concurrency)
    )
    report.failed.update(problems)
    return ArticleGeneration(drafter.backend, drafter.model, plan, report, problems)


@dataclass
class ArticlePlan:
    """What a dry run of articles found: the plan and the articles that cannot run."""

    plan: list[PlannedArticle]
    problems: dict[str, str]


def plan_only(
    project: Project,
    slugs: Sequence[str] | None,
    backend: str,
    model: str | None,
    force: bool,
) -> ArticlePlan:
    """Plan an article generation; send nothing, write nothing."""
    jobs, problems = article_jobs(project, slugs)
    drafter = make_article_drafter(project, resolve_backend(backend), model, cache=False)
    try:
        return ArticlePlan(plan_articles(project, drafter, jobs, force), problems)
    finally:
        close = getattr(drafter, "aclose", None)
        if close is not None:
            asyncio.run(close())


def revise_article(
    project: Project,
    slug: str,
    note: str,
    backend: str = "auto",
    model: str | None = None,
    *,
    no_cache: bool = False,
) -> tuple[GuideDoc, GuideDoc]:
    """Ask the model to revise an article after a note; write the answer as a new draft.

    The answer is checked and repaired like any draft; the note never overrides the policy.
    Return the new document and the one it replaced.
    """
    if resolve_backend(backend) != "openai":
        raise ConfigError(
            "--revise needs the openai backend (the offline drafter cannot follow a note); "
            "set OPENAI_API_KEY, or edit the article by hand",
            rule="revise.backend",
        )
    note = " ".join(note.split())
    if not note:
        raise ConfigError("the revision note is empty; pass --note", rule="revise.note")
    jobs, problems = article_jobs(project, [slug])
    if not jobs:
        raise GuideError(problems.get(f"article:{slug}", "no such article"), rule="revise.source")
    store = article_files(project).store()
    current = store.read(slug)
    if current is None:
        raise GuideError(
            f"no draft of article:{slug} to revise; run `prepguide generate article:{slug}`",
            record_id=slug,
            rule="revise.missing",
        )
    drafter = make_article_drafter(project, "openai", model, cache=not no_cache)

    async def ask():
        try:
            return await drafter.draft(jobs[0], Revision(current.body, note))  # type: ignore[call-arg]
        finally:
            await drafter.aclose()  # type: ignore[attr-defined]

    result = asyncio.run(ask())
    doc = build_article(project, drafter, jobs[0], result)
    store.write(doc)
    return doc, current
