"""Batch drafting through the real CLI against the fake Files and Batch API (official client)."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from fakes.openai_server import FakeOpenAI, LineError, SchemaInvalid, write_synthetic_sources

from generator.batch.requests import BatchStore
from generator.cli import cli
from generator.guides.document import parse
from generator.guides.project import Project

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def fake():
    with FakeOpenAI() as server:
        server.batch_schedule = ["validating"]  # the first retrieve ends a batch
        yield server


def env_for(fake: FakeOpenAI) -> dict[str, str]:
    return {"OPENAI_API_KEY": "sk-test", "OPENAI_BASE_URL": fake.base_url}


def run(workspace: Path, fake: FakeOpenAI | None, *args: str):
    env = env_for(fake) if fake else {"OPENAI_API_KEY": "", "OPENAI_BASE_URL": ""}
    result = CliRunner().invoke(cli, ["--root", str(workspace), *args], env=env)
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result


def guides(workspace: Path) -> dict[str, object]:
    return {
        path.stem: parse(path.read_text(encoding="utf-8"), str(path))
        for path in (workspace / "guides").glob("*.md")
    }


def records(workspace: Path):
    return BatchStore(workspace / ".prepguide").load_all()


def input_lines(fake: FakeOpenAI, batch_id: str) -> list[dict]:
    data = fake.files[fake.batches[batch_id]["input_file_id"]]["data"].decode()
    return [json.loads(line) for line in data.splitlines()]


def cli_env(fake: FakeOpenAI) -> dict[str, str]:
    return {**os.environ, **env_for(fake), "PYTHONPATH": str(REPO), "PYTHONUNBUFFERED": "1"}


def test_full_run_writes_every_guide_with_batch_provenance(workspace, fake):
    result = run(workspace, fake, "generate", "--batch", "--wait", "--poll", "0")
    assert result.exit_code == 0, result.output
    ids = sorted(Project(workspace).sources.by_id())
    made = guides(workspace)
    assert sorted(made) == ids
    [batch_id] = fake.batches
    assert f"submitted batch {batch_id}" in result.output
    for doc in made.values():
        provenance = doc.meta.provenance
        assert (provenance.backend, provenance.via, provenance.batch_id) == (
            "openai",
            "batch",
            batch_id,
        )
        assert provenance.usage.total_tokens > 0
    lines = input_lines(fake, batch_id)
    assert {line["url"] for line in lines} == {"/v1/chat/completions"}
    assert all(line["body"]["response_format"]["type"] == "json_schema" for line in lines)
    assert fake.request_count == len(ids)  # each request answered once, none online
    # A later online run sees the same backend and model: nothing changed, nothing sent.
    fake.reset()
    result = run(workspace, fake, "generate")
    assert f"skipped {len(ids)} unchanged" in result.output
    assert fake.request_count == 0


def test_answers_already_cached_are_not_sent(workspace, fake):
    run(workspace, fake, "generate")
    result = run(workspace, fake, "generate", "--batch", "--force")
    assert result.exit_code == 0, result.output
    assert "4 written from cached answers, nothing sent" in result.output
    assert fake.uploads == 0 and fake.batches == {}


def test_schema_invalid_answer_is_reasked_in_one_follow_up_batch(workspace, fake):
    fake.script(SchemaInvalid(), match="Shopify")
    result = run(workspace, fake, "generate", "--batch", "--wait", "--poll", "0")
    assert result.exit_code == 0, result.output
    first, follow = sorted(fake.batches)
    [line] = input_lines(fake, follow)
    assert line["custom_id"].startswith("shopify-catalog-clustering~1~")
    roles = [message["role"] for message in line["body"]["messages"]]
    assert roles == ["system", "user", "assistant", "user"]
    assert "steps" in line["body"]["messages"][-1]["content"]
    assert len(guides(workspace)) == 4


def test_error_lines_fail_their_guide_and_the_rest_are_written(workspace, fake):
    fake.script(LineError("server_error", "boom"), match="Shopify")
    result = run(workspace, fake, "generate", "--batch", "--wait", "--poll", "0")
    assert result.exit_code == 1
    assert "failed shopify-catalog-clustering: batch line: boom" in result.output
    assert len(guides(workspace)) == 3


def test_expired_batch_keeps_its_answers_and_requeues_the_rest(workspace, fake):
    fake.batch_end, fake.batch_answer_limit = "expired", 2
    run(workspace, fake, "generate", "--batch")
    result = run(workspace, fake, "batch", "collect")
    fake.batch_end = "completed"
    assert result.exit_code == 0, result.output
    assert "(expired): 2 written" in result.output and "2 requeued" in result.output
    first, follow = sorted(fake.batches)
    assert len(input_lines(fake, follow)) == 2
    assert len(guides(workspace)) == 2
    result = run(workspace, fake, "batch", "collect")
    assert "(completed): 2 written" in result.output
    assert len(guides(workspace)) == 4
    assert fake.request_count == 4  # nothing was asked twice


def test_split_at_a_lowered_limit(workspace, fake):
    write_synthetic_sources(workspace / "sources", 6)
    result = run(
        workspace, fake, "generate", "--batch", "--wait", "--poll", "0", "--batch-max-requests", "3"
    )
    assert result.exit_code == 0, result.output
    sizes = sorted(len(input_lines(fake, batch_id)) for batch_id in fake.batches)
    assert sizes == [1, 3, 3, 3]
    assert len(guides(workspace)) == 10
    models = {line["body"]["model"] for b in fake.batches for line in input_lines(fake, b)}
    assert models == {"gpt-4o-mini"}


def test_split_at_a_lowered_byte_limit(workspace, fake):
    run(workspace, fake, "generate", "--batch", "--batch-max-bytes", "12000")
    for batch_id in fake.batches:
        data = fake.files[fake.batches[batch_id]["input_file_id"]]["data"]
        assert len(data) <= 12000
    assert sum(len(input_lines(fake, b)) for b in fake.batches) == 4
    assert len(fake.batches) >= 2


def test_export_then_import_a_self_hosted_engines_output(workspace, tmp_path, fake):
    requests = tmp_path / "requests.jsonl"
    result = run(workspace, None, "generate", "--batch-export", str(requests))
    assert result.exit_code == 0, result.output
    lines = [json.loads(line) for line in requests.read_text(encoding="utf-8").splitlines()]
    assert len(lines) == 4 and fake.uploads == 0
    assert {line["method"] for line in lines} == {"POST"}
    # Answer the file as an engine would (vLLM run_batch writes the same format), reversed.
    answers = [fake.answer_line(line, json.dumps(line), n) for n, line in enumerate(lines)]
    output = tmp_path / "output.jsonl"
    output.write_text("\n".join(json.dumps(a) for a in reversed(answers)) + "\n", "utf-8")
    result = run(workspace, None, "generate", "--batch-import", str(output))
    assert result.exit_code == 0, result.output
    made = guides(workspace)
    assert len(made) == 4
    assert {doc.meta.provenance.via for doc in made.values()} == {"batch"}


def test_stale_answer_is_dropped_and_redrafted(workspace, fake):
    run(workspace, fake, "generate", "--batch")
    path = workspace / "sources" / "meta-gem.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("summary: >-\n", "summary: >-\n  New first line.\n"), "utf-8")
    result = run(workspace, fake, "batch", "collect")
    assert "1 stale" in result.output and "3 written" in result.output
    assert "meta-gem" not in guides(workspace)
    first, follow = sorted(fake.batches)
    [line] = input_lines(fake, follow)
    assert "New first line." in line["body"]["messages"][1]["content"]
    run(workspace, fake, "batch", "collect")
    made = guides(workspace)["meta-gem"]
    assert made.meta.provenance.source_hash == Project(workspace).source("meta-gem").content_hash()


def test_an_answer_never_overwrites_a_guide_edited_by_hand(workspace, fake):
    run(workspace, fake, "generate", "meta-gem")
    path = workspace / "guides" / "meta-gem.md"
    edited = path.read_text(encoding="utf-8") + "\nAn editor's own paragraph.\n"
    path.write_text(edited, encoding="utf-8")
    result = run(workspace, fake, "generate", "--batch", "--force", "--no-cache", "meta-gem")
    assert result.exit_code == 0, result.output
    result = run(workspace, fake, "batch", "collect")
    assert "1 kept" in result.output
    assert path.read_text(encoding="utf-8") == edited


def test_sigkill_after_upload_before_the_batch_id_is_known(workspace, fake):
    fake.batch_create_delay = 30
    proc = subprocess.Popen(
        [sys.executable, "-m", "generator", "--root", str(workspace), "generate", "--batch"],
        env=cli_env(fake),
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 30
    while fake.batch_creates == 0 and time.monotonic() < deadline:
        time.sleep(0.01)
    proc.send_signal(signal.SIGKILL)
    out = proc.communicate()[0].decode()
    assert "submitted batch" not in out
    [record] = records(workspace)
    assert (record.state, record.batch_id) == ("uploaded", None)
    fake.batch_create_delay = 0
    result = run(workspace, fake, "generate", "--batch", "--wait", "--poll", "0")
    assert result.exit_code == 0, result.output
    assert fake.batch_creates == 1 and fake.uploads == 1  # found through batches.list
    assert len(guides(workspace)) == 4
    assert fake.request_count == 4


def test_sigkill_during_collect_loses_nothing_and_pays_nothing_twice(workspace, fake):
    write_synthetic_sources(workspace / "sources", 600)
    run(workspace, fake, "generate", "--batch")
    [batch_id] = fake.batches
    proc = subprocess.Popen(
        [sys.executable, "-m", "generator", "--root", str(workspace), "batch", "collect"],
        env=cli_env(fake),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    folder = workspace / "guides"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and len(list(folder.glob("*.md"))) < 100:
        time.sleep(0.005)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    before = len(list(folder.glob("*.md")))
    assert 100 <= before < 604
    answered = fake.request_count
    result = run(workspace, fake, "batch", "collect", batch_id)
    assert result.exit_code == 0, result.output
    assert len(guides(workspace)) == 604
    assert fake.request_count == answered == 604
    assert list(fake.batches) == [batch_id]  # no follow-up, nothing resubmitted


def test_usage_and_cost_sum_the_fakes_tokens_with_reasks(workspace, fake):
    config = workspace / "prepguide.toml"
    config.write_text(
        config.read_text(encoding="utf-8")
        + '\n[llm.prices."gpt-4o-mini"]\ninput = 0.15\noutput = 0.6\nbatch_discount = 0.5\n',
        encoding="utf-8",
    )
    fake.script(SchemaInvalid(), match="Shopify")
    run(workspace, fake, "generate", "--batch", "--wait", "--poll", "0")
    run(workspace, fake, "generate", "--force", "--no-cache", "meta-gem")
    result = run(workspace, fake, "logs", "--usage", "--json")
    rows = json.loads(result.output)["usage"]
    assert sum(row["calls"] for row in rows) == 6  # 4 + 1 re-ask in batches, 1 online
    assert sum(row["prompt_tokens"] for row in rows) == fake.tokens["prompt"]
    assert sum(row["completion_tokens"] for row in rows) == fake.tokens["completion"]
    batch = next(row for row in rows if row["via"] == "batch")
    online = next(row for row in rows if row["via"] == "online")
    assert batch["calls"] == 5 and online["calls"] == 1
    for row, factor in ((batch, 0.5), (online, 1.0)):
        expected = (row["prompt_tokens"] * 0.15 + row["completion_tokens"] * 0.6) / 1e6 * factor
        assert row["cost"] == pytest.approx(expected)
    text = run(workspace, fake, "logs", "--usage").output
    assert "openai (batch)" in text and "total:" in text


def test_dry_run_prints_tokens_and_cost_online_and_in_batch(workspace, fake):
    config = workspace / "prepguide.toml"
    config.write_text(
        config.read_text(encoding="utf-8")
        + '\n[llm.prices."gpt-4o-mini"]\ninput = 1.0\noutput = 2.0\nbatch_discount = 0.5\n',
        encoding="utf-8",
    )
    result = run(workspace, fake, "generate", "--dry-run", "--backend", "openai")
    assert result.exit_code == 0, result.output
    line = next(x for x in result.output.splitlines() if x.startswith("estimate:"))
    online, batch = map(
        float, re.search(r"cost at most ([\d.]+) online, ([\d.]+) in a", line).groups()
    )
    assert online > 0
    assert batch == pytest.approx(online / 2, rel=1e-3)
    assert fake.request_count == 0


def test_status_list_and_cancel(workspace, fake):
    fake.batch_schedule = ["validating", "in_progress", "finalizing"]
    run(workspace, fake, "generate", "--batch")
    [batch_id] = fake.batches
    result = run(workspace, fake, "batch", "status")
    assert f"{batch_id}  in_progress  2/4 done" in result.output
    assert batch_id in run(workspace, fake, "batch", "list").output
    result = run(workspace, fake, "batch", "cancel", batch_id)
    assert "cancelling" in result.output
    result = run(workspace, fake, "batch", "collect")
    assert "(cancelled): 0 written" in result.output and "4 requeued" in result.output


def test_token_limit_exceeded_resubmits_smaller_batches_as_capacity_frees(workspace, fake):
    run(workspace, fake, "generate", "--batch")
    fake.batch_end, fake.batch_error_code = "failed", "token_limit_exceeded"
    result = run(workspace, fake, "batch", "collect")
    assert "(failed): 0 written" in result.output and "4 requeued" in result.output
    first, follow = sorted(fake.batches)
    assert len(input_lines(fake, follow)) == 2  # half now, the other half held back
    [held] = [r for r in records(workspace) if r.hold]
    assert len(held.requests) == 2 and held.batch_id is None
    fake.batch_end = "completed"
    result = run(workspace, fake, "generate", "--batch", "--wait", "--poll", "0")
    assert result.exit_code == 0, result.output
    assert len(fake.batches) == 3
    assert len(guides(workspace)) == 4
    assert fake.request_count == 4


def test_a_damaged_batch_record_is_kept_aside_with_a_warning(workspace, fake):
    run(workspace, fake, "generate", "--batch")
    [record] = list((workspace / ".prepguide" / "batches").glob("sub-*.json"))
    record.write_bytes(b'{"id": "sub-x", "requests": ')
    result = run(workspace, fake, "batch", "list")
    assert "could not be read" in result.output and "no batches" in result.output
    assert Path(f"{record}.corrupt-1").read_bytes() == b'{"id": "sub-x", "requests": '


def test_a_concurrent_batch_run_is_refused_and_a_rerun_sends_nothing_twice(workspace, fake):
    from generator.batch.requests import BatchError

    store = BatchStore(workspace / ".prepguide")
    busy = pytest.raises(BatchError, match="another batch command is running")
    with store.lock(), busy, store.lock():
        pass
    result = run(workspace, fake, "generate", "--batch")
    assert result.exit_code == 0, result.output
    result = run(workspace, fake, "generate", "--batch")
    assert "4 already in a submitted batch; not sent again" in result.output
    assert len(fake.batches) == 1


def test_finish_online_drafts_rejected_answers_without_a_follow_up_batch(workspace, fake):
    fake.script(SchemaInvalid(), match="Shopify")
    run(workspace, fake, "generate", "--batch")
    result = run(workspace, fake, "batch", "collect", "--finish-online")
    assert result.exit_code == 0, result.output
    assert "1 re-asked" in result.output and "finished online: 1 written" in result.output
    assert len(fake.batches) == 1
    made = guides(workspace)
    assert len(made) == 4
    assert made["shopify-catalog-clustering"].meta.provenance.via is None


def test_a_kill_after_the_call_log_commit_logs_no_answer_twice(workspace, fake):
    """Kill collect right after it commits the call log, before it saves its progress."""
    from generator.llm.calllog import CallLog

    run(workspace, fake, "generate", "--batch")
    pid = os.fork()
    if pid == 0:  # the child never returns to pytest
        real_commit = CallLog.commit

        def commit_then_die(self) -> None:
            real_commit(self)
            os.kill(os.getpid(), signal.SIGKILL)

        CallLog.commit = commit_then_die
        try:
            run(workspace, fake, "batch", "collect")
        finally:
            os._exit(0)
    _, status = os.waitpid(pid, 0)
    assert os.WIFSIGNALED(status)
    [record] = records(workspace)  # killed before its progress was saved
    assert {request.state for request in record.requests.values()} == {"sent"}
    result = run(workspace, fake, "batch", "collect")
    assert result.exit_code == 0, result.output
    assert len(guides(workspace)) == 4
    rows = json.loads(run(workspace, fake, "logs", "--usage", "--json").output)["usage"]
    assert sum(row["calls"] for row in rows) == 4
    assert sum(row["prompt_tokens"] for row in rows) == fake.tokens["prompt"]
