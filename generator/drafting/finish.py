"""Finishing drafts: compose, check and write each guide, here or in one forked process.

A large online run finishes its drafts in a worker process forked before the SDK is imported:
the checks then never stall the event loop that sends the requests, and the worker reads the
records while this process imports the SDK, so both processes use them without reading twice.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import signal
from concurrent.futures import Future, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import TYPE_CHECKING, Any

from generator.core import collector
from generator.core.errors import PrepguideError, WorkerError
from generator.core.workers import available_cpus, die_with_parent
from generator.drafting.build import build_guide
from generator.drafting.plan import PlannedGuide, plan_generation
from generator.drafting.protocol import DrafterId
from generator.sources.records import source_files

if TYPE_CHECKING:
    from collections.abc import Callable

    from generator.drafting.protocol import Drafter, DraftResult
    from generator.guides.document import GuideDoc
    from generator.guides.project import Project
    from generator.sources.records import Source, SourceSet

# Below this many records a run finishes its own drafts: a worker would cost more than it saves.
PROCESS_MIN_RECORDS = 100
# What finishing a batch returns: failures by guide id, and unexpected errors by guide id.
Outcome = tuple[dict[str, str], dict[str, Exception]]


def build_docs(
    project: Project, drafter: Drafter | DrafterId, items: list[tuple[Source, DraftResult]]
) -> tuple[list[GuideDoc], dict[str, str], dict[str, Exception]]:
    """Compose and check each draft; return the documents, the failures and the bugs."""
    docs: list[GuideDoc] = []
    failed: dict[str, str] = {}
    bugs: dict[str, Exception] = {}
    for source, result in items:
        try:
            docs.append(build_guide(project, drafter, source, result))
        except PrepguideError as exc:
            failed[source.key] = exc.message
        except Exception as exc:  # a bug: it surfaces when the run ends
            bugs[source.key] = exc
    return docs, failed, bugs


def write_docs(project: Project, docs: list[GuideDoc], failed: dict[str, str]) -> dict[str, str]:
    """Write the documents with one flush to disk; add those not written to failed."""
    for guide_id, exc in project.guides.write_many(docs).items():
        failed[guide_id] = exc.message
    return failed


# The worker's copy of the run's project: set before the fork, so the worker inherits it.
_project: Project | None = None


def _worker_sources() -> SourceSet:
    assert _project is not None
    return _project.sources


def _worker_plan(
    identify: Callable[[Project, Any], DrafterId], spec: Any, ids: list[str] | None, force: bool
) -> tuple[DrafterId, list[tuple[str, str, str]]]:
    assert _project is not None
    ident = identify(_project, spec)
    plan = plan_generation(_project, ident, ids, force)
    return ident, [(item.source.key, item.action, item.reason) for item in plan]


def _worker_finish(drafter: DrafterId, items: list[tuple[str, DraftResult]]) -> Outcome:
    assert _project is not None
    records = _project.sources.by_id()
    docs, failed, bugs = build_docs(_project, drafter, [(records[k], r) for k, r in items])
    return write_docs(_project, docs, failed), bugs


def _worker_init(parent: int) -> None:
    # Ctrl-C stops the run in the parent, which still hands over the drafts it holds.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    die_with_parent(parent)


def _broken(exc: BaseException) -> WorkerError:
    return WorkerError(
        "the worker process that checks and writes guides died (killed, or out of memory); "
        "run again: finished guides are kept",
        rule="workers",
    )


class Finisher:
    """Turn validated drafts into checked, written guides.

    In-process, the checks run on the event loop and one writer thread does the file system
    work. With a worker, both happen in one forked process and only drafts cross the pipe.
    """

    def __init__(self, project: Project, *, process: bool = False) -> None:
        global _project
        self.project = project
        self._pool: ProcessPoolExecutor | None = None
        self._writer: ThreadPoolExecutor | None = None
        self._sources: Future | None = None
        self._plan: Future | None = None
        self._froze = False
        if not process:
            self._writer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="prepguide-writer")
            return
        _project = project
        # Objects made so far are shared with the worker; keep the collector away from them,
        # or the worker touches (and so copies) the whole inherited collector.
        self._froze = collector.freeze()
        self._pool = ProcessPoolExecutor(
            1,
            mp_context=multiprocessing.get_context("fork"),
            initializer=_worker_init,
            initargs=(os.getpid(),),
        )
        # The first task forks the worker, now, while this process runs no other thread.
        if "sources" in project.__dict__:
            self._pool.submit(int)
        else:
            self._sources = self._pool.submit(_worker_sources)

    @classmethod
    def for_run(cls, project: Project) -> Finisher:
        """Use a worker when the records are many and a second CPU can run it."""
        folder = project.workspace.sources_dir
        count = len(source_files(folder)) if folder.is_dir() else 0
        return cls(project, process=count >= PROCESS_MIN_RECORDS and available_cpus() > 1)

    @property
    def in_process(self) -> bool:
        return self._pool is None

    def take_sources(self) -> None:
        """Use the records the worker read, so that they are read once for both processes."""
        if self._sources is None:
            return
        future, self._sources = self._sources, None
        try:
            self.project.sources = future.result()
        except BrokenProcessPool as exc:
            raise _broken(exc) from exc

    def plan_ahead(
        self,
        identify: Callable[[Project, Any], DrafterId],
        spec: Any,
        ids: list[str] | None,
        force: bool,
    ) -> None:
        """Have the worker plan the run for the drafter identify(project, spec) names."""
        if self._pool is not None:
            self._plan = self._pool.submit(_worker_plan, identify, spec, ids, force)

    def planned(self, drafter: Drafter) -> list[PlannedGuide] | None:
        """Return the worker's plan if it was made for this very drafter, else None."""
        if self._plan is None:
            return None
        future, self._plan = self._plan, None
        try:
            ident, rows = future.result()
        except BrokenProcessPool as exc:
            raise _broken(exc) from exc
        except Exception:  # planning here again raises the same error with its context
            return None
        if ident != DrafterId.of(drafter) or getattr(drafter, "prompt_hash_for", None) is not None:
            return None
        records = self.project.sources.by_id()
        if len(records) != len(self.project.sources.sources) or any(
            key not in records for key, _, _ in rows
        ):
            return None  # ids not unique, or records not the worker's: plan here
        return [PlannedGuide(records[key], action, reason) for key, action, reason in rows]

    async def finish(self, drafter: Drafter, items: list[tuple[Source, DraftResult]]) -> Outcome:
        """Compose, check and write a batch of drafts; return its failures and bugs."""
        if self._pool is not None:
            self.take_sources()
            ident = DrafterId.of(drafter)
            payload = [(source.key, result) for source, result in items]
            try:
                return await asyncio.wrap_future(self._pool.submit(_worker_finish, ident, payload))
            except BrokenProcessPool as exc:
                raise _broken(exc) from exc
        docs, failed, bugs = build_docs(self.project, drafter, items)
        loop = asyncio.get_running_loop()
        failed = await loop.run_in_executor(self._writer, write_docs, self.project, docs, failed)
        return failed, bugs

    def close(self) -> None:
        """Wait for the writes in flight, then stop the writer or the worker."""
        global _project
        if self._writer is not None:
            self._writer.shutdown(wait=True)
            self._writer = None
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None
            _project = None
            collector.release(self._froze)
            self._froze = False

    def __enter__(self) -> Finisher:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
