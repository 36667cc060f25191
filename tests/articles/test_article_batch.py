"""Articles through batch files: submitted beside the guides, collected, repaired in follow-ups."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from fakes.openai_server import FakeOpenAI
from test_article_generate import FAITHFUL, SLUG, TITLE, article, new_article, swapped_figure

from generator.batch.requests import BatchStore
from generator.cli import cli

ID = f"article:{SLUG}"


@pytest.fixture
def fake():
    with FakeOpenAI() as server:
        server.batch_schedule = ["validating"]  # the first retrieve ends a batch
        yield server


def run(workspace: Path, fake: FakeOpenAI, *args: str):
    env = {"OPENAI_API_KEY": "sk-test", "OPENAI_BASE_URL": fake.base_url}
    result = CliRunner().invoke(cli, ["--root", str(workspace), *args], env=env)
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result


def input_lines(fake: FakeOpenAI, batch_id: str) -> list[dict]:
    data = fake.files[fake.batches[batch_id]["input_file_id"]]["data"].decode()
    return [json.loads(line) for line in data.splitlines()]


def article_batches(fake: FakeOpenAI) -> list[str]:
    return [
        batch_id
        for batch_id in sorted(fake.batches)
        if input_lines(fake, batch_id)[0]["custom_id"].startswith(f"{ID}~")
    ]


def test_generate_batch_submits_the_article_in_its_own_batch_and_writes_it(workspace, fake):
    new_article(workspace)
    fake.answer_records({TITLE: [FAITHFUL]})
    result = run(workspace, fake, "generate", "--batch", "--wait", "--poll", "0")
    assert result.exit_code == 0, result.output
    assert "articles: openai via batch" in result.output
    [batch_id] = article_batches(fake)
    assert len(fake.batches) == 2  # the guides' batch and the article's
    [line] = input_lines(fake, batch_id)
    assert line["body"]["response_format"]["json_schema"]["name"] == "ArticleDraft"
    made = article(workspace).meta.provenance
    assert (made.backend, made.via, made.batch_id) == ("openai", "batch", batch_id)
    assert made.usage.total_tokens > 0
    kinds = sorted(record.kind for record in BatchStore(workspace / ".prepguide").load_all())
    assert kinds == ["article", "guide"]
    # Nothing changed since: an online run sends nothing for it.
    fake.reset()
    again = run(workspace, fake, "generate", ID)
    assert "skipped 1 unchanged" in again.output and fake.request_count == 0


def test_an_article_with_findings_is_reasked_in_a_follow_up_batch(workspace, fake):
    new_article(workspace)
    fake.answer_records({TITLE: [swapped_figure(), FAITHFUL]}, reask="next")
    result = run(workspace, fake, "generate", "--batch", ID, "--wait", "--poll", "0")
    assert result.exit_code == 0, result.output
    assert not fake.requests or all("article" in json.dumps(r) for r in fake.requests)
    first, follow = article_batches(fake)
    [line] = input_lines(fake, follow)
    assert line["custom_id"].startswith(f"{ID}~1~")
    repair = line["body"]["messages"][-1]["content"]
    assert "figures.reports" in repair and "shopify-catalog-clustering" in repair
    made = article(workspace).meta.provenance
    assert (made.via, made.batch_id, made.rounds) == ("batch", follow, 2)
    assert made.repairs[0].rules[0] == "figures.reports"
    assert "2.5x more model complexity" not in (workspace / "guides/articles/gpus.md").read_text()


def test_an_article_in_a_submitted_batch_is_not_sent_twice_and_collects_later(workspace, fake):
    new_article(workspace)
    fake.answer_records({TITLE: [FAITHFUL]})
    fake.batch_schedule = ["validating", "in_progress"]
    first = run(workspace, fake, "generate", "--batch", ID)
    assert first.exit_code == 0, first.output
    again = run(workspace, fake, "generate", "--batch", ID)
    assert "1 already in a submitted batch; not sent again" in again.output
    assert len(fake.batches) == 1
    assert not (workspace / "guides/articles/gpus.md").exists()
    fake.batch_schedule = ["validating"]
    collected = run(workspace, fake, "batch", "collect")
    assert collected.exit_code == 0, collected.output
    assert "1 written" in collected.output
    assert article(workspace).meta.provenance.via == "batch"


def test_finish_online_redrafts_a_rejected_article_without_a_follow_up_batch(workspace, fake):
    new_article(workspace)
    fake.answer_records({TITLE: [swapped_figure(), FAITHFUL]}, reask="next")
    result = run(
        workspace, fake, "generate", "--batch", ID, "--wait", "--poll", "0", "--finish-online"
    )
    assert result.exit_code == 0, result.output
    assert len(article_batches(fake)) == 1  # no follow-up batch
    assert "finished online: 1 written, 0 failed" in result.output
    made = article(workspace).meta.provenance
    assert made.via is None and made.rounds == 2


def answer_file(fake: FakeOpenAI, requests: Path, output: Path) -> list[dict]:
    """Answer an exported request file as a self-hosted engine would; return its lines."""
    lines = [json.loads(line) for line in requests.read_text(encoding="utf-8").splitlines()]
    answers = [fake.answer_line(line, json.dumps(line), n) for n, line in enumerate(lines)]
    output.write_text("\n".join(json.dumps(a) for a in reversed(answers)) + "\n", "utf-8")
    return lines


def offline(workspace: Path, *args: str):
    env = {"OPENAI_API_KEY": "", "OPENAI_BASE_URL": ""}
    result = CliRunner().invoke(cli, ["--root", str(workspace), *args], env=env)
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result


def test_an_exported_file_carries_the_article_and_its_import_writes_it_checked(
    workspace, tmp_path, fake
):
    new_article(workspace)
    fake.answer_records({TITLE: [FAITHFUL]})
    requests, output = tmp_path / "requests.jsonl", tmp_path / "answers.jsonl"
    exported = offline(workspace, "generate", "--batch-export", str(requests))
    assert exported.exit_code == 0, exported.output
    assert "wrote 5 requests" in exported.output
    lines = answer_file(fake, requests, output)
    assert fake.uploads == 0
    [line] = [line for line in lines if line["custom_id"].startswith(f"{ID}~")]
    assert line["body"]["response_format"]["json_schema"]["name"] == "ArticleDraft"
    assert len(lines) == 5  # four guides, then the article, in one file
    imported = offline(workspace, "generate", "--batch-import", str(output))
    assert imported.exit_code == 0, imported.output
    assert "5 written" in imported.output
    doc = article(workspace)
    made = doc.meta.provenance
    assert (made.backend, made.via) == ("openai", "batch")
    assert made.usage.total_tokens > 0
    assert [e.source for e in doc.meta.evidence] == [s.id for s in doc.meta.sources]
    assert not [f for f in doc.meta.findings if not f.rule.startswith("citations.")]
    assert len(list((workspace / "guides").glob("*.md"))) == 4
    # Nothing changed since: the next export holds nothing for it.
    again = offline(workspace, "generate", "--batch-export", str(requests), ID)
    assert "wrote 0 requests" in again.output


def test_an_imported_article_with_findings_is_not_written_and_is_exported_again(
    workspace, tmp_path, fake
):
    new_article(workspace)
    fake.answer_records({TITLE: [swapped_figure()]})
    requests, output = tmp_path / "requests.jsonl", tmp_path / "answers.jsonl"
    exported = offline(workspace, "generate", "--batch-export", str(requests), ID)
    assert exported.exit_code == 0, exported.output
    [line] = answer_file(fake, requests, output)
    assert line["custom_id"].startswith(f"{ID}~0~")
    imported = offline(workspace, "generate", "--batch-import", str(output))
    assert "0 written" in imported.output and "1 re-asked" in imported.output
    assert not (workspace / "guides/articles/gpus.md").exists()
    assert not list((workspace / "guides").glob("*.md"))  # article ids alone: no guide
    again = offline(workspace, "generate", "--batch-export", str(requests), ID)
    assert "wrote 1 request" in again.output
