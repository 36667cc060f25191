"""No false flags: clean guides pass, and `prepguide check` reports what the rules find."""

from __future__ import annotations

import json
from pathlib import Path

import yaml
from checkhelp import complete_records, run_prepguide

from generator.checks import check_body
from generator.checks.runner import check_context
from generator.guides.compose import originals_block
from generator.guides.document import section_kind
from generator.guides.project import Project

DATA = Path(__file__).parents[1] / "data"
SEED_SITE = "H1B Sponsorship Jobs"
SEED_RECORD = {
    "id": "meta-gem-training",
    "company": "Meta",
    "title": "GEM Training: How Meta Doubled the Efficiency of Its LLM-Scale Ads Foundation Model",
    "url": "https://engineering.fb.com/2026/08/03/ml-applications/gem-training-llm-scale-ads/",
    "publisher": "Engineering at Meta",
    "published": "2026-08-03",
    "checked": "2026-10-22",
    "summary": (
        "Meta describes how it trains GEM, its ads-recommendation foundation model, at LLM-like "
        "compute scale while handling data and architecture properties specific to "
        "recommendations. The engineering account covers co-design across kernels, numerical "
        "precision, parallelism, networking and memory, and reports end-to-end training "
        "efficiency gains for the described system."
    ),
    "techniques": ["distributed training", "recommendation systems"],
    "stack": ["GPUs", "custom low-precision kernels"],
}


run = run_prepguide


def seed_body(views) -> str:
    """Turn the seed guide text into the body format compose produces."""
    lines = (DATA / "seed_004_guide.txt").read_text(encoding="utf-8").splitlines()
    parts: list[str] = []
    for line in lines:
        if section_kind(line) is not None:
            parts.append(f"## {line}")
            if line == "Read the originals":
                parts.append(originals_block(views))
                break
        elif line.startswith("- ") and parts[-1].startswith("- "):
            parts[-1] += f"\n{line}"
        else:
            parts.append(line)
    return "\n\n".join(parts) + "\n"


def seed_project(tmp_path: Path) -> Project:
    root = tmp_path / "seed"
    (root / "sources").mkdir(parents=True)
    (root / "sources" / "meta-gem-training.yaml").write_text(
        yaml.safe_dump(SEED_RECORD, sort_keys=False), encoding="utf-8"
    )
    (root / "prepguide.toml").write_text(f'[site]\nname = "{SEED_SITE}"\n', encoding="utf-8")
    return Project(root)


def test_human_written_seed_guide_raises_no_finding(tmp_path: Path) -> None:
    project = seed_project(tmp_path)
    assert project.sources.problems == []
    record = project.source("meta-gem-training")
    ctx = check_context(project, record)
    text = seed_body(ctx.originals)
    seed_lines = (DATA / "seed_004_guide.txt").read_text(encoding="utf-8").splitlines()
    # The record renders exactly the citation the seed shows.
    assert seed_lines[-1] in text
    assert f"- [{seed_lines[-2].removeprefix('- ')}](<{SEED_RECORD['url']}>)" in text
    assert check_body(text, ctx) == []


def test_seed_guide_with_an_injected_change_is_flagged(tmp_path: Path) -> None:
    project = seed_project(tmp_path)
    ctx = check_context(project, project.source("meta-gem-training"))
    text = seed_body(ctx.originals).replace(
        "It reports end-to-end gains", "It reports 3x end-to-end gains"
    )
    assert [f.rule for f in check_body(text, ctx)] == ["figures.reports"]


def test_offline_guides_of_complete_records_have_no_findings(workspace: Path) -> None:
    complete_records(workspace)
    assert run(workspace, "sources", "check").returncode == 0
    generated = run(workspace, "generate", "--backend", "offline")
    assert generated.returncode == 0, generated.stderr
    checked = run(workspace, "check", "--json")
    assert checked.returncode == 0, checked.stdout
    report = json.loads(checked.stdout)
    assert len(report["guides"]) == 4
    assert [g["findings"] for g in report["guides"]] == [[], [], [], []]


def test_sample_records_fail_only_on_their_missing_citation_facts(workspace: Path) -> None:
    assert run(workspace, "generate", "--backend", "offline").returncode == 0
    checked = run(workspace, "check", "--json")
    assert checked.returncode == 1
    report = json.loads(checked.stdout)
    assert set(report) == {"guides"}
    rules = {}
    for guide in report["guides"]:
        assert set(guide) == {"id", "status", "findings", "kind"}
        for item in guide["findings"]:
            assert set(item) == {"rule", "severity", "section", "message"}
        rules[guide["id"]] = sorted({f["rule"] for f in guide["findings"]})
    assert rules == {
        "meta-gem": ["citations.unverified", "citations.url"],
        "meta-llm-training-at-scale": ["citations.unverified"],
        "meta-prometheus": ["citations.published", "citations.unverified", "citations.url"],
        "shopify-catalog-clustering": [],
    }


def test_check_text_output_quotes_and_says_how_to_fix(workspace: Path) -> None:
    complete_records(workspace)
    assert run(workspace, "generate", "--backend", "offline").returncode == 0
    path = workspace / "guides" / "meta-gem.md"
    text = path.read_text(encoding="utf-8")
    path.write_text(
        text.replace("Interviewers in ranking", "Visit evil.example.com. Interviewers in ranking"),
        encoding="utf-8",
    )
    result = run(workspace, "check", "meta-gem")
    assert result.returncode == 1
    assert "links.foreign" in result.stdout
    assert "“evil.example.com”" in result.stdout and "remove it" in result.stdout
    assert run(workspace, "check", "shopify-catalog-clustering").returncode == 0


def test_check_reports_an_unreadable_guide_and_goes_on(workspace: Path) -> None:
    assert run(workspace, "generate", "--backend", "offline").returncode == 0
    (workspace / "guides" / "meta-gem.md").write_text("no front matter\n", encoding="utf-8")
    result = run(workspace, "check", "--json")
    assert result.returncode == 1
    rows = {row["id"]: row for row in json.loads(result.stdout)["guides"]}
    assert [f["rule"] for f in rows["meta-gem"]["findings"]] == ["guide.invalid"]
    assert "meta-gem.md" in rows["meta-gem"]["findings"][0]["message"]
    assert rows["shopify-catalog-clustering"]["findings"] == []
