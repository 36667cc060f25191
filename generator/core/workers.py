"""Forked worker processes for the CPU-bound steps of a large build."""

from __future__ import annotations

import ctypes
import multiprocessing
import os
import signal
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, as_completed, wait
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from generator.core import collector
from generator.core.errors import WorkerError

# Below this many items per process, forking costs more than it saves.
MIN_ITEMS_PER_WORKER = 250
CHUNK_SIZE = 32
# With share, the chunks each worker has queued while this process works through one itself.
QUEUED_PER_WORKER = 2

# The task of the running map. Workers are forked after it is set, so they inherit it (and
# everything it closes over) without pickling; only item chunks and results cross the pipe.
_task: Callable[[Any], Any] | None = None


def available_cpus() -> int:
    """Return how many CPUs this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def worker_count(jobs: int | None, items: int) -> int:
    """Return the processes to use: jobs when given, else one per CPU for large inputs."""
    if jobs is not None:
        return max(1, min(jobs, items))
    return max(1, min(available_cpus(), items // MIN_ITEMS_PER_WORKER))


PR_SET_PDEATHSIG = 1


def _load_prctl() -> Callable[..., int] | None:
    try:
        return ctypes.CDLL(None, use_errno=True).prctl
    except (AttributeError, OSError):  # pragma: no cover - not Linux
        return None


_PRCTL = _load_prctl()  # looked up once, before any fork


def die_with_parent(parent: int) -> None:
    """Have the kernel kill this worker when the process that forked it dies (Linux)."""
    if _PRCTL is None:  # pragma: no cover - not Linux
        return
    _PRCTL(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent:  # the parent died before the request took effect
        os._exit(1)


def _run_chunk(chunk: list[Any]) -> list[Any]:
    assert _task is not None
    return [_task(item) for item in chunk]


class WorkerMap:
    """Apply a task to items in forked processes, started on entry; iterate for the results.

    Results come in item order, or as they are done with ordered=False. With one process the
    items run here, lazily, while iterating. A task's exception reaches the caller when its
    result is due. Forking happens on entry, so the workers see the state the caller built
    before it, without pickling it. With share, this process works through chunks of items
    too, while iterating, and forks one worker fewer: each forked worker holds a copy of
    this process's memory, so one fewer of them is that much less memory for the same CPUs.
    """

    def __init__(
        self,
        task: Callable[[Any], Any],
        items: Sequence[Any],
        processes: int,
        *,
        ordered: bool = True,
        share: bool = False,
    ) -> None:
        self.task = task
        self.ordered = ordered
        self.share = share
        self.items = list(items)
        self.processes = processes if len(self.items) > 1 else 1
        self._pool: Any = None
        self._outermost_freeze = False
        self._results: Iterator[list[Any]] | None = None

    def __enter__(self) -> WorkerMap:
        global _task
        if self.processes > 1:
            size = CHUNK_SIZE
            chunks = [self.items[i : i + size] for i in range(0, len(self.items), size)]
            _task = self.task
            # Objects made so far are shared with the workers; keep the collector away from
            # them, or every worker touches (and so copies) the whole inherited collector.
            self._outermost_freeze = collector.freeze()
            # A worker that dies (killed, out of memory) breaks the pool with an error here
            # instead of leaving the build waiting for its results.
            self._pool = ProcessPoolExecutor(
                self.processes - 1 if self.share else self.processes,
                mp_context=multiprocessing.get_context("fork"),
                initializer=die_with_parent,
                initargs=(os.getpid(),),
            )
            if self.share:
                self._results = self._shared(chunks)
            else:
                try:
                    futures = [self._pool.submit(_run_chunk, chunk) for chunk in chunks]
                except BrokenProcessPool as exc:  # a worker died while chunks were handed out
                    self.__exit__(None, None, None)
                    raise _died() from exc
                done = futures if self.ordered else as_completed(futures)
                self._results = (future.result() for future in done)
        return self

    def _shared(self, chunks: list[list[Any]]) -> Iterator[list[Any]]:
        """Yield the chunks' results, running a chunk here whenever the workers have enough."""
        queued: dict[Future, int] = {}
        finished: dict[int, list[Any]] = {}
        ahead = QUEUED_PER_WORKER * (self.processes - 1)
        taken = due = 0  # chunks handed out; the next chunk to yield in order
        while due < len(chunks):
            while len(queued) < ahead and taken < len(chunks):
                queued[self._pool.submit(_run_chunk, chunks[taken])] = taken
                taken += 1
            if taken < len(chunks):
                finished[taken] = [self.task(item) for item in chunks[taken]]
                taken += 1
            elif not any(future.done() for future in queued):
                wait(queued, return_when=FIRST_COMPLETED)
            for future in [future for future in queued if future.done()]:
                finished[queued.pop(future)] = future.result()
            if self.ordered:
                while due in finished:
                    yield finished.pop(due)
                    due += 1
            else:
                for number in list(finished):
                    due += 1
                    yield finished.pop(number)

    def __iter__(self) -> Iterator[Any]:
        if self._results is None:
            yield from (self.task(item) for item in self.items)
            return
        try:
            for chunk in self._results:
                yield from chunk
        except BrokenProcessPool as exc:
            raise _died() from exc

    def __exit__(self, *exc: object) -> None:
        global _task
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None
            collector.release(self._outermost_freeze)
        _task = None


def _died() -> WorkerError:
    return WorkerError(
        "a worker process died (killed, or out of memory); run again, or with --jobs 1",
        rule="workers",
    )
