"""Running a generation: draft the planned guides concurrently, finish and write each one."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial

from generator.core import collector
from generator.core.errors import AuthError, PrepguideError
from generator.core.fsio import remove_orphaned_temp_files
from generator.drafting.backends import make_drafter, openai_drafter_id, resolve_backend
from generator.drafting.finish import Finisher
from generator.drafting.plan import Planned, PlannedGuide, missing_ids, plan_generation
from generator.drafting.protocol import Drafter, DraftResult
from generator.guides.project import Project
from generator.sources.records import Source

# Finished drafts wait at most this long (or until this many are ready) to be written together.
WRITE_DELAY = 0.25
WRITE_BATCH = 64


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


@dataclass
class Generation:
    """What `generate` did: the drafter, its plan and the run's report."""

    planned: Planned
    report: GenerateReport


def generate(
    project: Project,
    ids: list[str] | tuple[str, ...] = (),
    backend: str = "auto",
    model: str | None = None,
    *,
    concurrency: int | None = None,
    force: bool = False,
    no_cache: bool = False,
    on_planned: Callable[[Planned], None] | None = None,
    on_progress: Callable[[GenerateReport], None] | None = None,
) -> Generation:
    """Draft the guides of new or changed records (or the named ones) and write them."""
    chosen = resolve_backend(backend)
    if chosen != "openai":
        return _generate(
            project, ids, chosen, model, concurrency, force, no_cache, None, on_planned, on_progress
        )
    # A large run forks its finishing worker now: it reads the records and plans the run
    # (reading every existing guide) while this process imports the SDK (with the OpenAI
    # drafter), so neither waits for the other.
    with Finisher.for_run(project) as finisher:
        if not finisher.in_process:
            finisher.plan_ahead(openai_drafter_id, model, list(ids) or None, force)
            with collector.paused():
                import generator.drafting.openai_drafter  # noqa: F401
                import generator.llm.transport  # noqa: F401
        return _generate(
            project,
            ids,
            chosen,
            model,
            concurrency,
            force,
            no_cache,
            finisher,
            on_planned,
            on_progress,
        )


def _generate(
    project: Project,
    ids: list[str] | tuple[str, ...],
    chosen: str,
    model: str | None,
    concurrency: int | None,
    force: bool,
    no_cache: bool,
    finisher: Finisher | None,
    on_planned: Callable[[Planned], None] | None,
    on_progress: Callable[[GenerateReport], None] | None,
) -> Generation:
    """Plan (or take the worker's plan), then draft."""
    # The drafter needs no records: it is made while a finishing worker may still read them.
    drafter = make_drafter(project, chosen, model, cache=not no_cache)
    if finisher is not None:
        finisher.take_sources()
    missing = missing_ids(project, ids)
    plan = finisher.planned(drafter) if finisher is not None else None
    if plan is None:
        plan = plan_generation(project, drafter, list(ids) or None, force)
    planned = Planned(drafter, plan, missing)
    if on_planned is not None:
        on_planned(planned)
    report = asyncio.run(
        run_generation(
            project,
            drafter,
            plan,
            concurrency=concurrency or project.settings.llm.concurrency,
            on_progress=on_progress,
            finisher=finisher,
        )
    )
    return Generation(planned, report)
