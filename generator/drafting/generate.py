"""Generation: plan which guides need drafting, draft them concurrently, write each atomically."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from typing import Literal

from generator.core import collector
from generator.core.clock import iso, now
from generator.core.errors import AuthError, GuideError, PrepguideError
from generator.core.fsio import remove_orphaned_temp_files, sha256_text
from generator.drafting.finish import Finisher
from generator.drafting.protocol import Drafter, DraftResult, prompt_hash_for
from generator.guides.compose import compose_body, disclaimer
from generator.guides.document import GuideDoc, GuideMeta, Provenance, ReportedEvidence
from generator.guides.project import Project
from generator.sources.records import Source

Action = Literal["generate", "skip"]
# Finished drafts wait at most this long (or until this many are ready) to be written together.
WRITE_DELAY = 0.25
WRITE_BATCH = 64


@dataclass(frozen=True)
class PlannedGuide:
    source: Source
    action: Action
    reason: str


@dataclass
class GenerateReport:
    """What a generation run did."""

    generated: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    failed: dict[str, str] = field(default_factory=dict)
    prompt_tokens: int = 0
    completion_tokens: int = 0
    elapsed: float = 0.0
    aborted: str | None = None


def plan_generation(
    project: Project, drafter: Drafter, ids: list[str] | None, force: bool
) -> list[PlannedGuide]:
    """Decide, per valid source, whether its guide must be drafted."""
    wanted = set(ids) if ids else None
    plan = []
    for source in project.sources.sources:
        if wanted is not None and source.key not in wanted:
            continue
        plan.append(_plan_one(project, drafter, source, force))
    return plan


def _plan_one(project: Project, drafter: Drafter, source: Source, force: bool) -> PlannedGuide:
    if force:
        return PlannedGuide(source, "generate", "--force")
    try:
        existing = project.guides.read(source.key)
    except GuideError as exc:
        return PlannedGuide(source, "generate", f"existing guide unreadable: {exc.message}")
    if existing is None:
        return PlannedGuide(source, "generate", "new")
    made = existing.meta.provenance
    source_hash = source.content_hash()
    current = (source_hash, prompt_hash_for(drafter, source), drafter.backend, drafter.model)
    if (made.source_hash, made.prompt_hash, made.backend, made.model) == current:
        if disclaimer(project.settings.site.name) not in existing.body:
            return PlannedGuide(source, "generate", "site name or disclaimer changed")
        return PlannedGuide(source, "skip", "unchanged")
    if made.source_hash != source_hash:
        return PlannedGuide(source, "generate", "source changed")
    return PlannedGuide(source, "generate", "prompt or backend changed")


def build_guide(project: Project, drafter: Drafter, source: Source, result) -> GuideDoc:
    """Compose, check and wrap a draft into a guide document."""
    from generator.checks import check_guide

    ctx = project.check_context(source)
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


async def run_generation(
    project: Project,
    drafter: Drafter,
    plan: list[PlannedGuide],
    *,
    concurrency: int,
    on_progress: Callable[[GenerateReport], None] | None = None,
    finisher: Finisher | None = None,
) -> GenerateReport:
    """Draft every planned guide; one failure never stops the others.

    The finisher composes, checks and writes the drafts (by default here, with one writer
    thread); a caller's finisher is left open.
    """
    report = GenerateReport(skipped=[p.source.key for p in plan if p.action == "skip"])
    started = time.monotonic()
    remove_orphaned_temp_files(project.guides.dir)
    # What exists now (the SDK's modules, the records) lives until the end: the collector need
    # not scan it again each time the requests' short-lived objects start a full collection.
    outermost_freeze = collector.freeze()
    stop = asyncio.Event()

    tasks: list[asyncio.Task] = []
    loop = asyncio.get_running_loop()
    # Finished drafts are finished in batches, with one flush to disk each; the writes never
    # stall the requests in flight and stay serial.
    own = finisher is None
    finishing = finisher if finisher is not None else Finisher(project)
    jobs: set[asyncio.Task] = set()
    pending: list[tuple[Source, DraftResult, asyncio.Future]] = []
    timer: asyncio.TimerHandle | None = None
    drafting = sum(1 for p in plan if p.action == "generate")

    def settle(batch: list[tuple[Source, DraftResult, asyncio.Future]], job) -> None:
        jobs.discard(job)
        error = None if job.cancelled() else job.exception()
        failed, bugs = ({}, {}) if error is not None or job.cancelled() else job.result()
        for source, _, done in batch:
            if done.done():
                continue
            if error is not None:
                done.set_exception(error)
            elif source.key in bugs:
                done.set_exception(bugs[source.key])
            else:
                done.set_result(failed.get(source.key))

    def flush() -> None:
        nonlocal timer
        if timer is not None:
            timer.cancel()
            timer = None
        if not pending:
            return
        batch = pending.copy()
        pending.clear()
        job = loop.create_task(finishing.finish(drafter, [(s, r) for s, r, _ in batch]))
        jobs.add(job)
        job.add_done_callback(partial(settle, batch))

    def write_later(source: Source, result: DraftResult) -> asyncio.Future:
        """Queue a draft for the finisher; flush when the batch is full, old or the last one."""
        nonlocal timer
        done = loop.create_future()
        pending.append((source, result, done))
        if len(pending) >= WRITE_BATCH or drafting == 0:
            flush()
        elif timer is None:
            timer = loop.call_later(WRITE_DELAY, flush)
        return done

    async def one(source: Source) -> DraftResult | None:
        """Draft one guide in a slot; None when it failed or the run stopped."""
        nonlocal drafting
        try:
            if stop.is_set():
                return None
            return await drafter.draft(source)
        except AuthError as exc:
            report.aborted = exc.message
            stop.set()
            for task in tasks:
                if task is not asyncio.current_task():
                    task.cancel()
            return None
        except PrepguideError as exc:
            report.failed[source.key] = exc.message
            return None
        finally:
            drafting -= 1

    async def written(source: Source, result: DraftResult | None) -> None:
        """Wait until the finisher wrote a draft (or note a failure), then report progress."""
        if result is None:
            if drafting == 0:
                flush()
        else:
            failure = await write_later(source, result)
            if failure is not None:
                report.failed[source.key] = failure
            else:
                report.generated.append(source.key)
                report.prompt_tokens += result.usage.prompt_tokens
                report.completion_tokens += result.usage.completion_tokens
        report.elapsed = time.monotonic() - started
        if on_progress:
            on_progress(report)

    # One task per slot takes the next planned guide as soon as its draft is in: no task waits
    # for a slot, and waiting for the finisher happens outside the slot.
    todo = iter([p.source for p in plan if p.action == "generate"])
    finishing_tasks: list[asyncio.Task] = []
    bugs: list[Exception] = []

    async def slot() -> None:
        for source in todo:
            if stop.is_set():
                return
            try:
                result = await one(source)
            except Exception as exc:  # a bug: it surfaces when the run ends
                bugs.append(exc)
                continue
            finishing_tasks.append(asyncio.create_task(written(source, result)))

    tasks.extend(asyncio.create_task(slot()) for _ in range(min(max(1, concurrency), drafting)))
    try:
        outcomes = await asyncio.gather(*tasks, return_exceptions=True)
        outcomes += await asyncio.gather(*finishing_tasks, return_exceptions=True)
    finally:
        flush()
        if jobs:
            await asyncio.wait(set(jobs))
        if own:
            finishing.close()
        collector.release(outermost_freeze)
        close = getattr(drafter, "aclose", None)
        if close is not None:
            await close()
    for outcome in [*bugs, *outcomes]:
        if isinstance(outcome, Exception):
            raise outcome
    report.generated.sort()
    report.elapsed = time.monotonic() - started
    return report
