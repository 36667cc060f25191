"""Hostile batch answers: twice-answered requests, huge numbers and lines, dead servers."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from fakes.openai_server import (
    BadUsage,
    FakeOpenAI,
    RateLimit,
    Reply,
    ServerError,
    draft_for,
)
from test_batch import cli_env, guides, input_lines, records, run

from generator.batch.requests import BatchStore

SHOPIFY = "shopify-catalog-clustering"
HUGE = 100 * 1024 * 1024


@pytest.fixture
def fake():
    with FakeOpenAI() as server:
        server.batch_schedule = ["validating"]  # the first retrieve ends a batch
        yield server


def second(request: dict) -> dict:
    return {**draft_for(request), "angle": "the answer that came second"}


def prepguide(workspace: Path, env: dict[str, str], *args: str) -> subprocess.CompletedProcess:
    """Run the CLI in a child process, as a user does; return what it printed."""
    return subprocess.run(
        [sys.executable, "-m", "generator", "--root", str(workspace), *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


# Linux counts the memory of the process that started a child in the child's ru_maxrss, so a
# small launcher starts the CLI and reports the figure that wait4 gives for it alone.
LAUNCHER = """
import os, subprocess, sys
proc = subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
_, status, usage = os.wait4(proc.pid, 0)
print(os.waitstatus_to_exitcode(status), usage.ru_maxrss // 1024)
"""


def peak_rss(workspace: Path, env: dict[str, str], *args: str) -> tuple[int, int]:
    """Run the CLI in a child; return its exit code and its peak resident memory in MB."""
    command = [sys.executable, "-m", "generator", "--root", str(workspace), *args]
    done = subprocess.run(
        [sys.executable, "-c", LAUNCHER, *command],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    code, peak = map(int, done.stdout.split())
    return code, peak


def export_answers(workspace: Path, tmp_path: Path, fake: FakeOpenAI) -> list[dict]:
    requests = tmp_path / "requests.jsonl"
    result = run(workspace, None, "generate", "--batch-export", str(requests))
    assert result.exit_code == 0, result.output
    lines = [json.loads(line) for line in requests.read_text(encoding="utf-8").splitlines()]
    return [fake.answer_line(line, json.dumps(line), n) for n, line in enumerate(lines)]


def write_jsonl(path: Path, rows: list) -> Path:
    path.write_text("".join(r if isinstance(r, str) else json.dumps(r) + "\n" for r in rows))
    return path


def test_a_request_answered_twice_keeps_its_first_answer(workspace, fake):
    fake.batch_twice = (SHOPIFY, Reply(second))
    result = run(workspace, fake, "generate", "--batch", "--wait", "--poll", "0")
    assert result.exit_code == 0, result.output
    made = guides(workspace)
    assert len(made) == 4
    assert "the answer that came second" not in made[SHOPIFY].body
    assert f"{SHOPIFY}" in result.output and "answered twice" in result.output


def test_an_imported_file_answering_a_request_twice_keeps_the_first(workspace, tmp_path, fake):
    answers = export_answers(workspace, tmp_path, fake)
    [line] = [a for a in answers if a["custom_id"].startswith(SHOPIFY)]
    fake.script(Reply(second))
    request = {"custom_id": line["custom_id"], "body": fake.requests[-1]}
    late = fake.answer_line(request, "", 9)
    output = write_jsonl(tmp_path / "output.jsonl", [*answers, late])
    result = run(workspace, None, "generate", "--batch-import", str(output))
    assert result.exit_code == 0, result.output
    assert "answered twice" in result.output
    assert "the answer that came second" not in guides(workspace)[SHOPIFY].body


def test_usage_of_ten_to_the_thirty_fails_one_collected_guide(workspace, fake):
    usage = {"prompt_tokens": 10**30, "completion_tokens": 1, "total_tokens": 10**30}
    fake.script(BadUsage(usage), match="Shopify")
    run(workspace, fake, "generate", "--batch")
    done = prepguide(workspace, cli_env(fake), "batch", "collect")
    assert done.returncode == 1, done.stderr
    assert "Traceback" not in done.stderr
    assert f"failed {SHOPIFY}: the answer is not a valid chat completion: usage" in done.stderr
    assert len(guides(workspace)) == 3


def test_usage_of_ten_to_the_thirty_fails_one_imported_guide(workspace, tmp_path, fake):
    answers = export_answers(workspace, tmp_path, fake)
    for answer in answers:
        if answer["custom_id"].startswith(SHOPIFY):
            answer["response"]["body"]["usage"]["completion_tokens"] = 10**30
    output = write_jsonl(tmp_path / "output.jsonl", answers)
    done = prepguide(workspace, cli_env(fake), "generate", "--batch-import", str(output))
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert f"failed {SHOPIFY}: the answer is not a valid chat completion: usage" in done.stderr
    assert len(guides(workspace)) == 3


def test_a_100_mb_batch_output_line_fails_its_guide_in_bounded_memory(workspace, fake):
    fake.batch_huge_line = HUGE
    run(workspace, fake, "generate", "--batch")
    code, peak = peak_rss(workspace, cli_env(fake), "batch", "collect")
    print(f"batch collect, one 100 MB line: peak RSS {peak} MB")
    assert code == 1
    assert peak < 300  # the line is never held whole (970 MB before)
    assert len(guides(workspace)) == 3
    [record] = records(workspace)
    [failed] = [q for q in record.requests.values() if q.state == "failed"]
    assert "larger than" in failed.note


def test_a_100_mb_imported_line_fails_its_guide_in_bounded_memory(workspace, tmp_path, fake):
    answers = export_answers(workspace, tmp_path, fake)
    [first] = [a for a in answers if a["custom_id"].startswith(SHOPIFY)]
    first["response"]["body"]["choices"][0]["message"]["content"] = "x" * HUGE
    output = write_jsonl(tmp_path / "output.jsonl", answers)
    del answers, first
    code, peak = peak_rss(workspace, cli_env(fake), "generate", "--batch-import", str(output))
    print(f"--batch-import, one 100 MB line: peak RSS {peak} MB")
    assert code == 1
    assert peak < 300  # 365 MB before
    assert len(guides(workspace)) == 3


@pytest.mark.parametrize("command", [["batch", "status"], ["batch", "collect"]])
def test_an_unreachable_server_is_one_line_naming_it(workspace, fake, command):
    run(workspace, fake, "generate", "--batch")
    env = {**cli_env(fake), "OPENAI_BASE_URL": "http://127.0.0.1:9/v1"}
    done = prepguide(workspace, env, *command)
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    [line] = done.stderr.strip().splitlines()
    assert "cannot reach http://127.0.0.1:9/v1" in line and "OPENAI_BASE_URL" in line


@pytest.mark.parametrize("transient", [ServerError(), RateLimit(retry_after=0)])
def test_a_transient_line_error_joins_the_follow_up_batch(workspace, fake, transient):
    fake.script(transient, match="Shopify")
    result = run(workspace, fake, "generate", "--batch", "--wait", "--poll", "0")
    assert result.exit_code == 0, result.output
    first, follow = sorted(fake.batches)
    [line] = input_lines(fake, follow)
    assert line["custom_id"].startswith(f"{SHOPIFY}~1~")
    assert len(guides(workspace)) == 4


def test_a_line_that_keeps_failing_with_500_fails_after_the_bounded_rounds(workspace, fake):
    fake.script(ServerError(), match="Shopify", times=None)
    result = run(workspace, fake, "generate", "--batch", "--wait", "--poll", "0")
    assert result.exit_code == 1
    assert len(fake.batches) == 3  # the first answer and two more rounds, no more
    assert f"failed {SHOPIFY}: HTTP 500" in result.output
    assert len(guides(workspace)) == 3


def test_a_damaged_record_of_a_running_batch_is_recovered_not_paid_twice(workspace, fake):
    fake.batch_schedule = ["validating", "in_progress", "finalizing"]
    run(workspace, fake, "generate", "--batch")
    [path] = (workspace / ".prepguide" / "batches").glob("sub-*.json")
    path.write_bytes(b'{"id": "sub-x", "requests": ')
    result = run(workspace, fake, "generate", "--batch")
    assert result.exit_code == 0, result.output
    [batch_id] = fake.batches
    assert fake.uploads == 1  # nothing submitted again
    assert f"recovered {path.stem}" in result.output and batch_id in result.output
    assert "4 already in a submitted batch; not sent again" in result.output
    for _ in range(3):  # finalizing, then completed
        result = run(workspace, fake, "batch", "collect")
    assert "(completed): 4 written" in result.output
    assert len(guides(workspace)) == 4 and fake.request_count == 4


def test_collect_removes_temp_files_of_a_killed_writer(workspace, fake):
    run(workspace, fake, "generate", "--batch")
    code = "import os; print(os.getpid())"
    dead = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True).stdout
    dead = dead.strip()
    folder = workspace / "guides"
    folder.mkdir(exist_ok=True)
    stale = folder / f".meta-gem.md.{dead}.abc123.tmp"
    live = folder / f".meta-gem.md.{os.getpid()}.def456.tmp"
    stale.write_text("half a guide")
    live.write_text("being written")
    result = run(workspace, fake, "batch", "collect")
    assert result.exit_code == 0, result.output
    assert not stale.exists() and live.exists()


def test_batch_import_takes_the_batch_lock(workspace, tmp_path, fake):
    output = write_jsonl(tmp_path / "output.jsonl", export_answers(workspace, tmp_path, fake))
    with BatchStore(workspace / ".prepguide").lock():
        done = prepguide(workspace, cli_env(fake), "generate", "--batch-import", str(output))
    assert done.returncode == 1
    assert "another batch command is running" in done.stderr
    assert "Traceback" not in done.stderr
    assert guides(workspace) == {}


def test_a_provider_error_on_the_files_endpoint_is_one_line(workspace, fake):
    fake.files_error = (400, "File is too large for this organization.")
    done = prepguide(workspace, cli_env(fake), "generate", "--batch")
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    [line] = [x for x in done.stderr.splitlines() if x.startswith("error:")]
    assert "HTTP 400" in line and "File is too large" in line


def test_online_generate_skips_guides_waiting_in_a_batch(workspace, fake):
    fake.batch_schedule = ["validating", "in_progress", "finalizing"]
    run(workspace, fake, "generate", "--batch")
    [batch_id] = fake.batches
    fake.reset()
    result = run(workspace, fake, "generate")
    assert result.exit_code == 0, result.output
    assert f"4 waiting in batch {batch_id}" in result.output
    assert fake.request_count == 0 and guides(workspace) == {}
    result = run(workspace, fake, "generate", "--force", "meta-gem")
    assert result.exit_code == 0, result.output
    assert fake.request_count == 1 and list(guides(workspace)) == ["meta-gem"]
