"""The rule registry: every rule documented, its examples run, the README table generated."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from generator.checks import check_body
from generator.checks.examples import run_example
from generator.checks.registry import RULE_DOCS, rules_table
from generator.checks.runner import check_context
from generator.core.codeversion import forget_versions, import_closure

ROOT = Path(__file__).resolve().parents[2]
RULE_ID = re.compile(
    r"[\"']((?:structure|figures|quotes|grounding|attribution|links|leftovers"
    r"|hidden|steps|ours|citations|originals|staleness)\.[a-z_]+)[\"']"
)


@pytest.mark.parametrize("rule", [r for r in RULE_DOCS if not r.judge], ids=lambda r: r.id)
def test_rule_flags_its_failing_example_and_passes_its_passing_one(rule) -> None:
    failing = [f for f in run_example(rule.failing) if f.rule == rule.id]
    assert failing, f"{rule.id} missed its failing example"
    assert {f.severity for f in failing} <= {rule.severity, "warning"}
    assert [f.rule for f in run_example(rule.passing) if f.rule == rule.id] == []


def test_every_rule_the_code_emits_is_in_the_registry_once() -> None:
    ids = [rule.id for rule in RULE_DOCS]
    assert len(ids) == len(set(ids))
    emitted = set()
    for path in (ROOT / "generator" / "checks").glob("*.py"):
        if path.name != "registry.py":
            emitted.update(RULE_ID.findall(path.read_text(encoding="utf-8")))
    assert emitted - set(ids) == set()
    assert all(rule.doc and rule.sections for rule in RULE_DOCS)


def test_readme_rule_table_is_the_registry() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = readme.split("<!-- rules-table -->\n", 1)[1].split("\n<!-- /rules-table -->", 1)[0]
    assert block == rules_table(), "regenerate the README table from rules_table()"


def test_check_rules_lists_every_rule(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "generator", "--root", str(tmp_path), "check", "--rules"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    listed = [line.split()[0] for line in done.stdout.splitlines()]
    assert listed == [rule.id for rule in RULE_DOCS]


def test_verdict_key_covers_every_module_of_the_checks_package(tmp_path, monkeypatch) -> None:
    closure = import_closure("checks.engine")
    assert {
        "checks",
        "checks.numbers",
        "checks.quoting",
        "guides.document",
        "sources.records",
    } <= closure
    package = tmp_path / "generator"
    package.mkdir()
    (package / "checks").mkdir()
    (package / "checks" / "__init__.py").write_text("from generator.checks.rule import x\n")
    (package / "checks" / "rule.py").write_text("from generator.helper import y\nx = 1\n")
    (package / "helper.py").write_text("y = 1\n")
    import generator.core.codeversion as codehash

    monkeypatch.setattr(codehash, "PACKAGE", package)
    forget_versions()
    assert codehash.import_closure("checks") == {"checks", "checks.rule", "helper"}
    before = codehash.module_version("checks")
    (package / "checks" / "rule.py").write_text("from generator.helper import y\nx = 2\n")
    forget_versions()
    assert codehash.module_version("checks") != before
    forget_versions()


# Keywords a strict structured output accepts; minLength/maxLength and uniqueItems are refused.
SCHEMA_KEYWORDS = {
    "type", "properties", "required", "additionalProperties", "items", "description", "title",
    "$defs", "$ref", "enum", "const", "anyOf", "pattern", "format", "minItems", "maxItems",
    "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf",
}  # fmt: skip


def _keywords(schema, found: set[str]) -> set[str]:
    if isinstance(schema, dict):
        for key, value in schema.items():
            found.add(key)
            if key in ("properties", "$defs"):
                for sub in value.values():
                    _keywords(sub, found)
            else:
                _keywords(value, found)
    elif isinstance(schema, list):
        for item in schema:
            _keywords(item, found)
    return found


def test_draft_schema_uses_only_keywords_strict_outputs_accept() -> None:
    from openai.lib._parsing import type_to_response_format_param

    from generator.guides.schema import Draft

    schema = type_to_response_format_param(Draft)["json_schema"]["schema"]
    assert _keywords(schema, set()) <= SCHEMA_KEYWORDS
    properties = schema["properties"]
    assert "pattern" in properties["angle"] and "pattern" in properties["steps"]["items"]


@pytest.mark.parametrize(
    ("field", "value", "rule"),
    [
        ("angle", "connect measurement to the bottleneck because Meta doubled it", "ours.angle"),
        ("angle", "cut costs by 40 percent", "ours.angle"),
        ("case_study_title", "systems. Then more", "ours.title"),
        ("steps", ["Profile first. Then scale.", "Report effects.", "Separate it."], "ours.steps"),
    ],
)
def test_schema_patterns_refuse_what_the_checks_refuse(field: str, value, rule: str) -> None:
    from openai.lib._parsing import type_to_response_format_param

    from generator.checks.examples import example_context
    from generator.guides.compose import compose_body
    from generator.guides.schema import Draft

    schema = type_to_response_format_param(Draft)["json_schema"]["schema"]["properties"]
    pattern = (schema[field].get("items") or schema[field])["pattern"]
    values = value if isinstance(value, list) else [value]
    assert not all(re.fullmatch(pattern, v) for v in values)
    good = {
        "reported": [{"text": "Meta replaced systems.", "quote": "Meta replaced"}],
        "angle": "connect measurement to the bottleneck",
        "interpretation": "Ours.",
        "case_study_title": "systems-oriented",
        "case_study": "Ours.",
        "steps": ["Profile first.", "Report effects.", "Separate measurements."],
    }
    assert all(
        re.fullmatch(pattern, v) for v in (good[field] if field == "steps" else [good[field]])
    )
    # A draft that breaks a pattern is still built; the checks refuse it with a message.
    ctx = example_context()
    text = compose_body(
        Draft.model_validate({**good, field: value}), ctx.source, ctx.originals, ctx.site_name
    )
    assert rule in {f.rule for f in check_body(text, ctx)}


def test_reask_states_the_limits() -> None:
    from generator.drafting.prompts import PromptSet

    prompts = PromptSet(ROOT / "prompts")
    text = prompts.repair(["angle: String should match pattern"])["content"]
    text = " ".join(text.split())
    assert "at most 8 words" in text and "one distinct imperative sentence" in text


def test_verdict_key_changes_with_every_undated_input_and_not_with_the_date(workspace) -> None:
    from dataclasses import replace
    from datetime import date

    from click.testing import CliRunner

    from generator.checks import verdict_key
    from generator.cli import cli
    from generator.guides.project import Project

    done = CliRunner().invoke(cli, ["--root", str(workspace), "generate", "--backend", "offline"])
    assert done.exit_code == 0, done.output
    project = Project(workspace)
    source = project.sources.sources[0]
    doc = project.guides.read(source.key)
    ctx = check_context(project, source)
    key = verdict_key(doc, ctx)
    assert verdict_key(doc, replace(ctx, today=date(2030, 1, 1))) == key
    changed = [
        replace(ctx, vocabulary=(*ctx.vocabulary, "slurm")),
        replace(ctx, companies=(*ctx.companies, "Acme")),
        replace(ctx, freshness_days=ctx.freshness_days + 1),
        replace(ctx, site_name="Other"),
        replace(ctx, originals=[]),
        replace(ctx, source=source.model_copy(update={"summary": source.summary + " More."})),
    ]
    assert [verdict_key(doc, other) != key for other in changed] == [True] * len(changed)
    edited = project.guides.read(project.sources.sources[1].key)
    assert verdict_key(edited, ctx) != key
