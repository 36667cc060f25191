"""Which lesson a record gets: techniques before stack, the most specific lesson, else generic."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from generator.cli import cli
from generator.core.errors import ConfigError
from generator.drafting.offline import OfflineDrafter
from generator.drafting.playbook import load_playbook
from generator.drafting.prompts import default_prompts
from generator.guides.document import parse
from generator.sources.records import Source

REPO = Path(__file__).resolve().parents[2]
PLAYBOOK, PLAYBOOK_TEXT = load_playbook(REPO / "nowhere")  # the shipped playbook

FRAUD = {
    "company": "Initech",
    "title": "Scoring card payments for fraud in real time",
    "summary": "Initech scores every card payment for fraud before it is authorised.",
    "techniques": ["fraud scoring", "gradient boosted trees"],
    "stack": ["PyTorch", "GPUs", "Kafka"],
}
SIX_TOPICS = {
    "stream": {"techniques": ["stream processing", "exactly-once delivery"], "stack": ["Flink"]},
    "cdc": {"techniques": ["change data capture"], "stack": ["Debezium", "PostgreSQL"]},
    "shards": {"techniques": ["database sharding", "resharding"], "stack": ["MySQL"]},
    "cache": {"techniques": ["cache invalidation"], "stack": ["Redis"]},
    "traces": {"techniques": ["distributed tracing", "alerting"], "stack": ["OpenTelemetry"]},
    "fraud": {"techniques": ["risk scoring"], "stack": ["PyTorch"]},
}


def source(**fields) -> Source:
    record = {"company": "Acme", "title": "A write-up", "summary": "Acme wrote it up.", **fields}
    made = Source.model_validate(record)
    made.id = "rec"
    return made


def lesson_of(record: Source):
    return PLAYBOOK.choose(record.techniques, record.stack, record.title)


def test_a_fraud_scoring_record_with_a_pytorch_stack_gets_a_fraud_lesson_not_training() -> None:
    choice = lesson_of(source(**FRAUD))
    assert choice.lesson.id == "fraud-risk-scoring" and not choice.generic
    text = choice.lesson.prose().casefold()
    assert "training loop" not in text and "distributed" not in text


def test_six_records_from_six_topics_get_six_different_lessons() -> None:
    chosen = {name: lesson_of(source(**fields)).lesson.id for name, fields in SIX_TOPICS.items()}
    assert len(set(chosen.values())) == 6, chosen
    assert not any(lesson_of(source(**fields)).generic for fields in SIX_TOPICS.values())


def test_the_playbook_covers_the_common_topics_with_at_least_twenty_lessons() -> None:
    assert len(PLAYBOOK.lessons) >= 20
    topics = [
        "stream processing",
        "change data capture",
        "sharding",
        "caching",
        "observability",
        "search ranking",
        "schema migration",
        "cost optimization",
        "fraud detection",
    ]
    ids = [lesson_of(source(techniques=[topic])).lesson.id for topic in topics]
    assert len(set(ids)) == len(topics), dict(zip(topics, ids, strict=True))


def test_the_sample_records_get_the_lesson_their_techniques_name() -> None:
    from datetime import date

    from generator.sources.records import load_sources

    chosen = {
        s.key: lesson_of(s).lesson.id
        for s in load_sources(REPO / "sources", date(2026, 11, 30)).sources
    }
    assert chosen == {
        "meta-gem": "recsys-consolidation",
        "meta-llm-training-at-scale": "cluster-reliability",
        "meta-prometheus": "cluster-reliability",
        "shopify-catalog-clustering": "retrieval-cascade",
    }


def test_techniques_decide_before_the_stack_and_the_stack_breaks_ties() -> None:
    assert lesson_of(source(techniques=["caching"], stack=["PyTorch"])).lesson.id == "caching"
    only_stack = lesson_of(source(techniques=["platform work"], stack=["PyTorch"]))
    assert only_stack.lesson.id == "gpu-training-efficiency" and not only_stack.generic


def test_the_more_specific_term_wins() -> None:
    # "replication log" is change data capture; "replication" alone is consensus.
    assert lesson_of(source(techniques=["replication log tailing"])).lesson.id == (
        "change-data-capture"
    )
    assert lesson_of(source(techniques=["replication"])).lesson.id == "consensus-and-replication"


def test_a_record_no_lesson_fits_gets_the_generic_lesson() -> None:
    choice = lesson_of(source(techniques=["accessibility audits"], stack=["Swift"]))
    assert choice.generic and choice.lesson.id == "generic"
    assert "general interpretation" in choice.lesson.interpretation


def test_the_offline_prompt_hash_covers_only_the_chosen_lesson(tmp_path: Path) -> None:
    cache, fraud = source(techniques=["caching"]), source(**FRAUD)
    before = OfflineDrafter(PLAYBOOK, PLAYBOOK_TEXT)
    text = default_prompts().joinpath("playbook.yaml").read_text(encoding="utf-8")
    widened = text.replace(
        "lessons:\n",
        "lessons:\n  - id: new-topic\n    match: [quantum annealing]\n    angle: a new angle\n"
        "    interpretation: New words.\n    case_study_title: new\n    case_study: New.\n"
        "    steps: [One step., Another step., A last step.]\n\n",
        1,
    )
    assert widened != text
    (tmp_path / "playbook.yaml").write_text(widened, encoding="utf-8")
    after = OfflineDrafter(*load_playbook(tmp_path))
    assert after.prompt_hash != before.prompt_hash, "the whole playbook did change"
    assert after.prompt_hash_for(cache) == before.prompt_hash_for(cache)
    assert after.prompt_hash_for(fraud) == before.prompt_hash_for(fraud)
    reworded = text.replace("A cache is a promise about staleness.", "A cache promises staleness.")
    (tmp_path / "playbook.yaml").write_text(reworded, encoding="utf-8")
    edited = OfflineDrafter(*load_playbook(tmp_path))
    assert edited.prompt_hash_for(cache) != before.prompt_hash_for(cache)
    assert edited.prompt_hash_for(fraud) == before.prompt_hash_for(fraud)


def _write(root: Path, key: str, record: dict) -> None:
    text = yaml.safe_dump(record, sort_keys=False)
    (root / "sources" / f"{key}.yaml").write_text(text, encoding="utf-8")


def test_widening_the_playbook_keeps_approved_guides_whose_lesson_did_not_change(
    tmp_path: Path,
) -> None:
    root = tmp_path / "ws"
    shutil.copytree(REPO / "sources", root / "sources")
    shutil.copytree(REPO / "prompts", root / "prompts")
    run = CliRunner()
    assert run.invoke(cli, ["--root", str(root), "generate", "--backend", "offline"]).exit_code == 0
    approved = run.invoke(
        cli, ["--root", str(root), "review", "approve", "shopify-catalog-clustering", "--by", "Ada"]
    )
    assert approved.exit_code == 0, approved.output
    playbook = root / "prompts" / "playbook.yaml"
    text = playbook.read_text(encoding="utf-8")
    playbook.write_text(
        text.replace(
            "lessons:\n",
            "lessons:\n  - id: new-topic\n    match: [quantum annealing]\n    angle: new angle\n"
            "    interpretation: New words.\n    case_study_title: new\n    case_study: New.\n"
            "    steps: [One step., Another step., A last step.]\n\n",
            1,
        ),
        encoding="utf-8",
    )
    again = run.invoke(cli, ["--root", str(root), "generate", "--backend", "offline"])
    assert "generated 0, skipped 4 unchanged" in again.output
    listing = run.invoke(cli, ["--root", str(root), "review", "list"]).output
    line = next(x for x in listing.splitlines() if x.startswith("shopify-catalog-clustering"))
    assert "approved" in line


def test_a_generic_guide_is_recorded_in_provenance_and_flagged_in_review_list(
    tmp_path: Path,
) -> None:
    root = tmp_path / "ws"
    (root / "sources").mkdir(parents=True)
    long_id = "globex-a-very-long-record-id-about-accessibility-audits-in-mobile-apps"
    _write(root, long_id, source(techniques=["accessibility audits"]).model_dump(exclude={"id"}))
    _write(root, "acme-cache", source(techniques=["caching"]).model_dump(exclude={"id"}))
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "generator",
            "--root",
            str(root),
            "generate",
            "--backend",
            "offline",
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    generic = parse((root / "guides" / f"{long_id}.md").read_text(encoding="utf-8"))
    specific_text = (root / "guides" / "acme-cache.md").read_text(encoding="utf-8")
    assert generic.meta.provenance.generic_lesson is True
    assert parse(specific_text).meta.provenance.generic_lesson is False
    assert "generic_lesson" not in specific_text, "a guide with a real lesson is unchanged"
    listing = CliRunner().invoke(cli, ["--root", str(root), "review", "list"]).output.splitlines()
    rows = {line.split()[0]: line for line in listing[1:]}
    assert "generic offline lesson" in rows[long_id]
    assert "generic offline lesson" not in rows["acme-cache"]
    status_column = {line.index(" draft ") for line in listing[1:]}
    assert status_column == {listing[0].index(" STATUS ")}, "columns stay aligned"
    checked = CliRunner().invoke(cli, ["--root", str(root), "check", long_id])
    prose_errors = [
        line
        for line in checked.output.splitlines()
        if line.strip().startswith("error") and not line.split()[1].startswith("citations.")
    ]
    assert prose_errors == [], (
        "the generic lesson's prose passes the checks (the record lacks dates)"
    )


def test_a_lesson_heading_the_checks_would_refuse_is_refused_when_the_playbook_loads(tmp_path):
    prompts = tmp_path / "prompts"
    prompts.mkdir()
    shipped = (REPO / "prompts" / "playbook.yaml").read_text(encoding="utf-8")
    long_angle = "treat the database log as the source of truth for other systems"
    first_angle = "connect measurement to the bottleneck"
    (prompts / "playbook.yaml").write_text(shipped.replace(first_angle, long_angle, 1))
    with pytest.raises(ConfigError, match="has 12 words"):
        load_playbook(prompts)
    assert load_playbook(REPO / "prompts")[0].lessons  # the shipped lessons all pass
