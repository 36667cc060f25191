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
