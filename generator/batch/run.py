"""The batch commands' library side: submit, resume, wait, export and import."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

import openai

from generator.batch.collect import (
    Collector,
    CollectReport,
    collect,
    read_lines,
    settle,
    write_cached,
)
from generator.batch.recover import recover
from generator.batch.requests import (
    MAX_BYTES,
    MAX_REQUESTS,
    TERMINAL,
    BatchError,
    BatchStore,
    Submission,
    reconcile,
    request_lines,
    submit,
    write_parts,
)
from generator.batch.subjects import ArticleSubjects
from generator.core.fsio import remove_orphaned_temp_files
from generator.drafting.article_run import PlannedArticle, plan_articles, run_articles
from generator.drafting.plan import PlannedGuide, plan_generation
from generator.drafting.run import GenerateReport, run_generation
from generator.guides.articles import ArticleJob, article_jobs
from generator.guides.project import Project
from generator.sources.records import Source

T = TypeVar("T")


@dataclass
class Limits:
    max_requests: int = MAX_REQUESTS
    max_bytes: int = MAX_BYTES


@dataclass
class StartReport:
    """What `generate --batch` did: resumed and new submissions, answers taken from the cache."""

    resumed: list[Submission] = field(default_factory=list)
    submitted: list[Submission] = field(default_factory=list)
    pending: list[str] = field(default_factory=list)
    counts: list[int] = field(default_factory=list)
    skipped: int = 0
    cached: CollectReport = field(default_factory=CollectReport)
    recovered: list[Submission] = field(default_factory=list)
    notices: list[str] = field(default_factory=list)


def _store(project: Project) -> BatchStore:
    return BatchStore(project.workspace.state_dir)


async def resume(client, store: BatchStore, on_submitted=None) -> list[Submission]:
    """Finish the uploads and creations that a killed run left; never create a batch twice."""
    stored = store.load_all()
    busy = any(r.state == "submitted" for r in stored)
    waiting = [r for r in stored if r.state in ("prepared", "uploaded") and not (r.hold and busy)]
    for record in waiting:
        if record.hold:
            record.hold = False
            store.save(record)
            break
    waiting = [r for r in waiting if not r.hold]
    await reconcile(client, store, waiting)
    done = []
    for record in waiting:
        if record.state != "submitted":
            await submit(client, store, record)
        done.append(record)
        if on_submitted:
            on_submitted(record)
    return done


async def start(
    project: Project,
    drafter,
    ids: list[str] | None,
    force: bool,
    limits: Limits,
    on_submitted: Callable[[Submission], None] | None = None,
) -> StartReport:
    """Resume stored submissions, then submit requests for guides that need drafting."""
    store = _store(project)
    with store.lock():
        store.remove_orphans()
        return await _start(project, drafter, store, ids, force, limits, on_submitted)


async def _start(project, drafter, store, ids, force, limits, on_submitted) -> StartReport:
    client = drafter.client
    report = StartReport(notices=store.notices)
    report.resumed = await resume(client, store, on_submitted)
    report.recovered = await recover(client, project, drafter, store)
    pending = store.pending_guides()
    plan = plan_generation(project, drafter, ids, force)
    todo = []
    for item in plan:
        if item.action != "generate":
            report.skipped += 1
        elif item.source.key in pending:
            report.pending.append(item.source.key)
        else:
            todo.append(item.source)
    cached: list[tuple] = []
    lines = request_lines(drafter, todo, lambda source, result: cached.append((source, result)))
    for written in write_parts(store, lines, drafter.model, **vars(limits)):
        part = await submit(client, store, store.load(written.id))
        report.submitted.append(part.model_copy(update={"requests": {}}))
        report.counts.append(written.count)
        if on_submitted:
            on_submitted(part)
    write_cached(project, drafter, cached, report.cached)
    return report


async def start_articles(
    project: Project,
    drafter,
    slugs: list[str] | None,
    force: bool,
    limits: Limits,
    on_submitted: Callable[[Submission], None] | None = None,
) -> StartReport:
    """Submit requests for the articles that need drafting, in their own batch files.

    Articles already in a submitted batch are not sent again; answers already cached are
    written at once. Run after start(): stored submissions are resumed there.
    """
    store = _store(project)
    with store.lock():
        report = StartReport()
        jobs, problems = article_jobs(project, slugs)
        report.cached.failed.update(problems)
        pending = store.pending_guides()
        todo = []
        for item in plan_articles(project, drafter, jobs, force):
            if item.action != "generate":
                report.skipped += 1
            elif item.job.key in pending:
                report.pending.append(item.job.key)
            else:
                todo.append(item.job)
        cached: list[tuple] = []
        subjects = ArticleSubjects(project)
        lines = request_lines(drafter, todo, lambda job, r: cached.append((job, r)), subjects.hash)
        for written in write_parts(store, lines, drafter.model, kind="article", **vars(limits)):
            part = await submit(drafter.client, store, store.load(written.id))
            report.submitted.append(part.model_copy(update={"requests": {}}))
            report.counts.append(written.count)
            if on_submitted:
                on_submitted(part)
        write_cached(project, drafter, cached, report.cached, "article")
        return report


def open_records(project: Project, *, held: bool = False) -> list[Submission]:
    """Submitted batches not collected yet (and, with held, files waiting for capacity)."""
    return [r for r in _store(project).load_all() if r.state == "submitted" or (held and r.open)]


async def collect_open(
    project: Project,
    drafter,
    limits: Limits,
    *,
    only: str | None = None,
    finish_online: bool = False,
    articles=None,
) -> list[tuple[Submission, CollectReport]]:
    """Collect every ended batch (or one), submitting follow-ups; return what each gave.

    articles is the drafter of the article batches (their schema and prompts); without it,
    an article batch stays open for a later collect.
    """
    store = _store(project)
    with store.lock():
        return await _collect_open(project, drafter, store, limits, only, finish_online, articles)


async def _collect_open(project, drafter, store, limits, only, finish_online, articles=None):
    remove_orphaned_temp_files(project.guides.dir)
    await resume(drafter.client, store)
    await recover(drafter.client, project, drafter, store)
    records = [store.find(only)] if only else open_records(project)
    done = []
    for record in records:
        if record.state != "submitted":
            raise BatchError(f"{record.id} is {record.state}; nothing to collect", rule="batch")
        own = articles if record.kind == "article" else drafter
        if own is None:
            continue
        report = await collect(
            own.client,
            project,
            own,
            store,
            record,
            finish_online=finish_online,
            max_requests=limits.max_requests,
            max_bytes=limits.max_bytes,
        )
        done.append((record, report))
    return done


async def wait(
    project: Project,
    drafter,
    limits: Limits,
    *,
    poll: float,
    on_progress: Callable[[list[Submission]], None],
    on_collected: Callable[[Submission, CollectReport], None],
    finish_online: bool = False,
    articles=None,
) -> None:
    """Poll open batches until none is left, collecting each one as it ends."""
    while True:
        for record, report in await collect_open(
            project, drafter, limits, finish_online=finish_online, articles=articles
        ):
            if report.status in TERMINAL:
                on_collected(record, report)
        still = [r for r in open_records(project, held=True) if articles or r.kind != "article"]
        on_progress(still)
        if not still:
            return
        await asyncio.sleep(poll)


async def cancel(project: Project, drafter, name: str) -> Submission:
    """Ask the provider to cancel a batch; its partial output is collected as usual."""
    store = _store(project)
    record = store.find(name)
    if record.batch_id is None:
        raise BatchError(f"{record.id} has no batch yet", rule="batch")
    batch = await drafter.client.batches.cancel(record.batch_id)
    record.status = batch.status
    store.save(record)
    return record


def export(
    project: Project,
    drafter,
    ids: list[str] | None,
    force: bool,
    target: Path,
    *,
    guides: bool = True,
    articles=None,
    slugs: list[str] | None = None,
):
    """Write the request file for a self-hosted engine; nothing is uploaded.

    With the article drafter, the requests of the articles that need drafting (those named
    by slugs, or every active one) follow the guides' in the same file, under their own record.
    """
    store = _store(project)
    records = []
    report = CollectReport()
    if guides:
        plan = plan_generation(project, drafter, ids, force)
        todo = [item.source for item in plan if item.action == "generate"]
        cached: list[tuple] = []
        lines = request_lines(drafter, todo, lambda source, result: cached.append((source, result)))
        records.extend(write_parts(store, lines, drafter.model, **_exported(target)))
        write_cached(project, drafter, cached, report)
    if articles is not None:
        jobs, problems = article_jobs(project, slugs)
        report.failed.update(problems)
        plan = plan_articles(project, articles, jobs, force)
        todo = [item.job for item in plan if item.action == "generate"]
        cached = []
        hash_of = ArticleSubjects(project).hash
        lines = request_lines(
            articles, todo, lambda job, result: cached.append((job, result)), hash_of
        )
        parts = write_parts(
            store, lines, articles.model, kind="article", append=bool(records), **_exported(target)
        )
        records.extend(parts)
        write_cached(project, articles, cached, report, "article")
    return records, report


def _exported(target: Path) -> dict:
    return {"max_requests": 10**9, "max_bytes": 10**15, "state": "exported", "target": target}


async def import_answers(project: Project, drafter, path: Path, articles=None) -> CollectReport:
    """Collect an output file in the batch format for the exported requests it answers."""
    store = _store(project)
    with store.lock():
        remove_orphaned_temp_files(project.guides.dir)
        return await _import_answers(project, drafter, store, path, articles)


async def _import_answers(project: Project, drafter, store: BatchStore, path: Path, articles):
    report = CollectReport()
    records = [r for r in store.load_all() if r.state == "exported"]
    report.notices.extend(store.notices)
    ids = {str(line.get("custom_id")) for _, line in read_lines(path, report.notices)}
    matched = [r for r in records if ids & set(r.requests)]
    if not matched:
        raise BatchError(
            "no exported request matches the custom_id values of this file",
            path=path,
            rule="batch.import",
        )
    for record in matched:
        own = articles if record.kind == "article" else drafter
        if own is None:
            report.notices.append(f"{record.id}: an article batch; import it with articles")
            continue
        collector = Collector(project, own, store, record.kind)
        collector.apply(record, read_lines(path, []), f"import:{path.name}", report)
        await settle(None, project, own, store, record, report)
    return report


def run_with(drafter, work: Awaitable[T], *others) -> T:
    """Run a batch call to its end in a new event loop, then close the drafters' clients.

    What the provider answers with instead of a result becomes one BatchError saying what to do.
    """

    async def go() -> T:
        try:
            return await work
        except openai.APIError as exc:
            raise provider_error(exc, drafter.client.base_url) from None
        finally:
            for other in others:
                if other is not None:
                    await other.aclose()
            await drafter.aclose()

    return asyncio.run(go())


def provider_error(exc: openai.APIError, base_url) -> BatchError:
    """Say in one line what the files or batches endpoint answered, and what to do."""
    url = str(base_url).rstrip("/")
    if isinstance(exc, openai.APIConnectionError):  # a timeout too
        return BatchError(
            f"cannot reach {url} ({type(exc).__name__}); check OPENAI_BASE_URL and that the "
            "server is up, then run the command again (nothing recorded is lost)",
            rule="batch.connection",
        )
    if isinstance(exc, openai.APIStatusError):
        detail = " ".join(str(exc.message).split())[:300]
        what = f"{exc.request.method} {exc.request.url.path}" if exc.request else "a request"
        return BatchError(
            f"the batch API at {url} answered HTTP {exc.status_code} to {what}: {detail}; "
            "fix what it says (key, limits, file) and run the command again",
            rule="batch.provider",
        )
    detail = " ".join(str(exc).split())[:300]
    return BatchError(f"unusable answer from {url}: {detail}", rule="batch.provider")


def named_or_open(project: Project, name: str | None) -> list[Submission]:
    """Return the named submission, or every open one."""
    return [_store(project).find(name)] if name else open_records(project)


async def refresh(project: Project, drafter, records: list[Submission]) -> list[Submission]:
    """Ask the provider how each batch is doing; save what it says."""
    store = _store(project)
    for record in records:
        if record.batch_id:
            found = await drafter.client.batches.retrieve(record.batch_id)
            record.status = found.status
            if found.request_counts is not None:
                record.counts = found.request_counts.model_dump()
            store.save(record)
    return records


async def finish_online(
    project: Project, drafter, sources: list, articles=None
) -> GenerateReport | None:
    """Draft online, in the same event loop as the client, what the batches did not settle."""
    jobs = [item for item in sources if isinstance(item, ArticleJob)]
    records = [item for item in sources if not isinstance(item, ArticleJob)]
    if not records and not (jobs and articles is not None):
        return None
    concurrency = project.settings.llm.concurrency
    report = GenerateReport()
    if records:
        plan = [PlannedGuide(source, "generate", "finish online") for source in records]
        report = await run_generation(project, drafter, plan, concurrency=concurrency)
    if jobs and articles is not None:
        planned = [PlannedArticle(job, "generate", "finish online") for job in jobs]
        done = await run_articles(project, articles, planned, concurrency, close=False)
        report.generated = sorted([*report.generated, *done.generated])
        report.failed.update(done.failed)
    return report


def _online(done: list[tuple[Submission, CollectReport]]) -> list[Source]:
    return [source for _, report in done for source in report.online]


async def collect_and_finish(
    project: Project,
    drafter,
    limits: Limits,
    *,
    only: str | None,
    finish: bool,
    articles=None,
) -> tuple[list[tuple[Submission, CollectReport]], GenerateReport | None]:
    """Collect every ended batch (or one), then, if asked, draft online what they left."""
    done = await collect_open(
        project, drafter, limits, only=only, finish_online=finish, articles=articles
    )
    online = await finish_online(project, drafter, _online(done), articles) if finish else None
    return done, online


async def wait_and_finish(
    project: Project,
    drafter,
    limits: Limits,
    *,
    poll: float,
    on_progress: Callable[[list[Submission]], None],
    on_collected: Callable[[Submission, CollectReport], None],
    finish: bool,
    articles=None,
) -> tuple[list[tuple[Submission, CollectReport]], GenerateReport | None]:
    """Wait for every open batch, collecting each as it ends, then finish online if asked."""
    done: list[tuple[Submission, CollectReport]] = []

    def collected(record: Submission, report: CollectReport) -> None:
        done.append((record, report))
        on_collected(record, report)

    await wait(
        project,
        drafter,
        limits,
        poll=poll,
        on_progress=on_progress,
        on_collected=collected,
        finish_online=finish,
        articles=articles,
    )
    online = await finish_online(project, drafter, _online(done), articles) if finish else None
    return done, online
