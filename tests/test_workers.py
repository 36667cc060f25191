"""Worker processes: results like one process, errors that name the cause, no hang on a death."""

from __future__ import annotations

import os
import signal

import pytest

from generator.errors import SourceError, WorkerError
from generator.workers import WorkerMap, worker_count


def square_with_pid(x: int) -> tuple[int, int]:
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
