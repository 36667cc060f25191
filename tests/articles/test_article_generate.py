"""Drafting articles offline and online: one answer per article, the cache, the log, repairs."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from fakes.openai_server import FakeOpenAI

from generator.cli import cli
from generator.guides.document import parse

TITLE = "How teams scaled GPUs"
SLUG = "gpus"

FAITHFUL = {
    "blocks": [
        {
            "source": "meta-gem",
            "reported": [
                {
                    "text": "Meta replaced separate per-surface ad prediction systems with GEM, "
                    "one central recommendation foundation model.",
                    "quote": "Meta replaced separate per-surface ad prediction systems with GEM, "
                    "one central recommendation foundation model",
                }
            ],
        },
        {
            "source": "shopify-catalog-clustering",
            "reported": [
                {
                    "text": "Shopify groups the same real-world product sold by different "
                    "merchants under one Universal Product Identifier.",
                    "quote": "Shopify groups the same real-world product sold by different "
                    "merchants under one Universal Product Identifier",
                }
            ],
        },
        {
            "source": "meta-llm-training-at-scale",
            "reported": [
                {
                    "text": "Meta covers the hardware, networking and reliability work needed to "
                    "train LLMs across very large GPU clusters.",
                    "quote": "Meta covers the hardware, networking and reliability work needed "
                    "to train LLMs across very large GPU clusters",
                }
            ],
        },
    ],
    "angle": "measure before you scale",
    "interpretation": "Read side by side, these write-ups describe very different systems. "
    "A candidate can practise the same habit of measuring a small workload before proposing "
    "a larger design.",
    "case_study_title": "measurement-first",
    "case_study": "Pick a small workload that fits your own hardware, record a baseline and "
    "change one thing at a time.",
    "steps": [
        "Measure a baseline before changing anything.",
        "Change one bottleneck at a time and record the effect.",
        "Label any part you did not run as a proposal.",
    ],
}


def swapped_figure() -> dict:
    """The faithful draft with Meta's 2.5x figure moved into Shopify's block."""
    draft = copy.deepcopy(FAITHFUL)
    draft["blocks"][1]["reported"][0]["text"] = (
        "Shopify groups the same real-world product sold by different merchants under one "
        "Universal Product Identifier, with 2.5x more model complexity."
    )
    return draft


@pytest.fixture
def fake():
    with FakeOpenAI() as server:
        yield server


def run(workspace: Path, fake: FakeOpenAI | None, *args: str):
    env = {"OPENAI_API_KEY": "sk-test", "OPENAI_BASE_URL": fake.base_url} if fake else {}
    result = CliRunner().invoke(cli, ["--root", str(workspace), *args], env=env)
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result


def new_article(workspace: Path) -> None:
    result = run(workspace, None, "articles", "new", SLUG, "--title", TITLE, "--topic", "GPUs")
    assert result.exit_code == 0, result.output


def article(workspace: Path):
    return parse((workspace / "guides" / "articles" / f"{SLUG}.md").read_text())


def test_offline_article_is_deterministic_and_keeps_each_source_apart(workspace):
    new_article(workspace)
    result = run(workspace, None, "generate", f"article:{SLUG}", "--backend", "offline")
    assert result.exit_code == 0, result.output
    assert "articles (offline): generated 1" in result.output
    first = (workspace / "guides" / "articles" / f"{SLUG}.md").read_text()
    doc = article(workspace)
    assert doc.meta.kind == "article"
    assert [s.id for s in doc.meta.sources] == [
        "meta-gem",
        "shopify-catalog-clustering",
        "meta-llm-training-at-scale",
    ]
    headings = [line for line in doc.body.splitlines() if line.startswith("## ")]
    assert headings[:3] == [
        "## What Meta reports: Meta's Generative Ads Model (GEM): Scaling the Central Model and "
        "Compute Engine for Frontier Ads AI",
        "## What Shopify reports: Cross-store product clustering across millions of stores",
        "## What Meta reports: How Meta trains large language models at scale",
    ]
    assert headings[-1] == "## Read the originals"
    # The prose passes: only the records' own citation gaps are reported.
    assert {f.rule.split(".")[0] for f in doc.meta.findings if f.severity == "error"} <= {
        "citations"
    }
    again = run(workspace, None, "generate", f"article:{SLUG}", "--backend", "offline")
    assert "skipped 1 unchanged" in again.output
    forced = run(workspace, None, "generate", f"article:{SLUG}", "--backend", "offline", "--force")
    assert forced.exit_code == 0
    assert (workspace / "guides" / "articles" / f"{SLUG}.md").read_text() == first


def test_generate_with_no_ids_drafts_guides_then_articles(workspace):
    new_article(workspace)
    result = run(workspace, None, "generate", "--backend", "offline")
    assert result.exit_code == 0, result.output
    assert "generated 4" in result.output
    assert "articles (offline): generated 1" in result.output


def test_online_article_is_one_request_cached_and_logged(workspace, fake):
    new_article(workspace)
    fake.answer_records({TITLE: [FAITHFUL]})
    result = run(workspace, fake, "generate", f"article:{SLUG}", "--backend", "openai")
    assert result.exit_code == 0, result.output
    assert fake.request_count == 1
    request = fake.requests[0]
    user = request["messages"][1]["content"]
    # Every write-up's text is fenced apart as untrusted data.
    assert len(re.findall(r"<source-data [0-9a-f]{16}>", user)) == 4
    assert request["response_format"]["json_schema"]["name"] == "ArticleDraft"
    doc = article(workspace)
    assert doc.meta.provenance.backend == "openai"
    assert doc.meta.provenance.usage.total_tokens > 0
    assert [e.source for e in doc.meta.evidence] == [s.id for s in doc.meta.sources]
    assert not [f for f in doc.meta.findings if not f.rule.startswith("citations.")]
    logs = json.loads(run(workspace, fake, "logs", "--json").output)["calls"]
    assert [call["guide_id"] for call in logs] == [f"article:{SLUG}"]
    fake.reset()
    again = run(workspace, fake, "generate", f"article:{SLUG}", "--backend", "openai", "--force")
    assert again.exit_code == 0, again.output
    assert fake.request_count == 0  # the cached answer


def test_a_figure_of_another_source_is_repaired_in_the_loop(workspace, fake):
    new_article(workspace)
    fake.answer_records({TITLE: [swapped_figure(), FAITHFUL]}, reask="next")
    result = run(workspace, fake, "generate", f"article:{SLUG}", "--backend", "openai")
    assert result.exit_code == 0, result.output
    assert fake.request_count == 2
    repair = fake.requests[1]["messages"][-1]["content"]
    assert "figures.reports" in repair and "shopify-catalog-clustering" in repair
    made = article(workspace).meta.provenance
    assert made.rounds == 2
    # the block's figure is not in its own record, nor in the statement it quotes
    assert made.repairs[0].rules[0] == "figures.reports"
    assert set(made.repairs[0].rules) <= {"figures.reports", "figures.claim"}


def test_a_figure_of_another_source_is_an_error_in_that_block(workspace, fake):
    new_article(workspace)
    fake.answer_records({TITLE: [swapped_figure()]}, reask="repeat")
    result = run(workspace, fake, "generate", f"article:{SLUG}", "--backend", "openai")
    assert result.exit_code == 0, result.output
    assert fake.request_count == 3  # two re-asks, then written as a draft with its findings
    errors = [f for f in article(workspace).meta.findings if f.rule == "figures.reports"]
    assert errors and "in the block of shopify-catalog-clustering" in errors[0].message


def test_a_quote_from_another_source_is_refused(workspace, fake):
    new_article(workspace)
    draft = copy.deepcopy(FAITHFUL)
    draft["blocks"][1]["reported"][0]["quote"] = FAITHFUL["blocks"][0]["reported"][0]["quote"]
    fake.answer_records({TITLE: [draft]}, reask="repeat")
    result = run(workspace, fake, "generate", f"article:{SLUG}", "--backend", "openai")
    assert result.exit_code == 1
    assert "not a verbatim span of the write-up shopify-catalog-clustering" in result.output
    assert not (workspace / "guides" / "articles" / f"{SLUG}.md").exists()


def test_revise_sends_the_text_and_the_rejection_note_and_keeps_the_diff(workspace, fake):
    new_article(workspace)
    fake.answer_records({TITLE: [FAITHFUL]})
    assert run(workspace, fake, "generate", f"article:{SLUG}", "--backend", "openai").exit_code == 0
    rejected = run(
        workspace,
        fake,
        "review",
        "reject",
        f"article:{SLUG}",
        "--by",
        "Ana",
        "--note",
        "Shorten the interpretation.",
    )
    assert rejected.exit_code == 0, rejected.output
    shorter = copy.deepcopy(FAITHFUL)
    shorter["interpretation"] = "Read side by side, these write-ups describe different systems."
    fake.reset()
    fake.answer_records({TITLE: [shorter]})
    result = run(workspace, fake, "generate", f"article:{SLUG}", "--revise", "--backend", "openai")
    assert result.exit_code == 0, result.output
    assert fake.request_count == 1
    asked = fake.requests[0]["messages"][-1]["content"]
    assert "Shorten the interpretation." in asked
    assert "What Shopify reports: Cross-store product clustering" in asked
    diff = run(workspace, fake, "review", "diff", f"article:{SLUG}")
    assert diff.exit_code == 0
    assert "-Read side by side, these write-ups describe very different systems." in diff.output
    assert "+Read side by side, these write-ups describe different systems." in diff.output
    assert "revise" in run(workspace, fake, "review", "log", f"article:{SLUG}").output
