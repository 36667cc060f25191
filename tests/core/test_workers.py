"""Worker processes: results like one process, errors that name the cause, no hang on a death."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from generator.core.errors import SourceError, WorkerError
from generator.core.workers import WorkerMap, worker_count


def square_with_pid(x: int) -> tuple[int, int]:
    time.sleep(0.002)  # long enough that both workers take a share, even on a busy machine
    return x * x, os.getpid()


def test_workers_return_every_result_in_order_from_other_processes():
    with WorkerMap(square_with_pid, range(200), 2) as results:
        out = list(results)
    assert [value for value, _ in out] == [x * x for x in range(200)]
    assert os.getpid() not in {pid for _, pid in out}
    assert len({pid for _, pid in out}) == 2


def test_one_process_runs_the_tasks_here():
    with WorkerMap(square_with_pid, range(5), 1) as results:
        assert {pid for _, pid in results} == {os.getpid()}


def test_a_task_error_reaches_the_caller_with_its_fields():
    def fail_on_seven(x: int) -> int:
        if x == 7:
            raise SourceError("bad record", path="sources/x.yaml", field="url", rule="source")
        return x

    with pytest.raises(SourceError) as caught, WorkerMap(fail_on_seven, range(50), 2) as results:
        list(results)
    assert (caught.value.path, caught.value.field) == ("sources/x.yaml", "url")


def test_a_worker_that_dies_stops_the_map_with_a_clear_error_instead_of_hanging():
    def die_on_fifty(x: int) -> int:
        if x == 50:
            os.kill(os.getpid(), signal.SIGKILL)
        return x

    with (
        pytest.raises(WorkerError, match="worker process died"),
        WorkerMap(die_on_fifty, range(100), 2) as results,
    ):
        list(results)


def test_small_inputs_stay_in_one_process_unless_asked():
    assert worker_count(None, 10) == 1
    assert worker_count(3, 10) == 3
    assert worker_count(8, 2) == 2


def test_a4_workers_exit_when_their_parent_is_killed():
    script = (
        "import os, sys, time\n"
        "from generator.core.workers import WorkerMap\n"
        "def task(x):\n"
        "    os.write(1, b'%d\\n' % os.getpid())\n"
        "    time.sleep(60)\n"
        "with WorkerMap(task, range(64), 2) as results:\n"
        "    list(results)\n"
    )
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    parent = subprocess.Popen(
        [sys.executable, "-c", script], stdout=subprocess.PIPE, text=True, env=env
    )
    try:
        workers = {int(parent.stdout.readline()) for _ in range(2)}
    finally:
        parent.kill()
        parent.wait()
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and any(_running(pid) for pid in workers):
        time.sleep(0.05)
    orphans = [pid for pid in workers if _running(pid)]
    for pid in orphans:  # leave nothing behind even when the test fails
        os.kill(pid, signal.SIGKILL)
    assert not orphans, "workers outlived their parent"


def _running(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as handle:
            return handle.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def test_with_share_this_process_takes_chunks_too_and_forks_one_worker_fewer():
    with WorkerMap(square_with_pid, range(400), 2, share=True) as results:
        out = list(results)
    assert [value for value, _ in out] == [x * x for x in range(400)]
    pids = {pid for _, pid in out}
    assert os.getpid() in pids
    assert len(pids) == 2


def test_with_share_unordered_results_are_every_result_once():
    with WorkerMap(square_with_pid, range(300), 3, ordered=False, share=True) as results:
        out = sorted(value for value, _ in results)
    assert out == [x * x for x in range(300)]


def test_with_share_an_error_here_or_in_a_worker_reaches_the_caller():
    def fail_on(x: int) -> int:
        if x in (3, 250):
            raise SourceError("bad record", path="sources/x.yaml", field="url", rule="source")
        return x

    with pytest.raises(SourceError), WorkerMap(fail_on, range(300), 2, share=True) as results:
        list(results)


def test_with_share_a_worker_that_dies_stops_the_map_with_a_clear_error():
    parent = os.getpid()

    def die_in_worker(x: int) -> int:
        if os.getpid() != parent:
            os.kill(os.getpid(), signal.SIGKILL)
        time.sleep(0.002)
        return x

    with (
        pytest.raises(WorkerError, match="worker process died"),
        WorkerMap(die_in_worker, range(400), 2, share=True) as results,
    ):
        list(results)
