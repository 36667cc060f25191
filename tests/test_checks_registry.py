"""The rule registry: every rule documented, its examples run, the README table generated."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from generator.checks.registry import RULE_DOCS, rules_table, run_example
from generator.codehash import import_closure, module_version

ROOT = Path(__file__).resolve().parents[1]
RULE_ID = re.compile(
    r"[\"']((?:structure|figures|quotes|grounding|attribution|links|leftovers"
    r"|hidden|steps|ours|citations|originals|staleness)\.[a-z_]+)[\"']"
)


@pytest.mark.parametrize("rule", RULE_DOCS, ids=lambda rule: rule.id)
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
    closure = import_closure("checks")
    assert {"checks", "figures", "quotes", "guides", "sources"} <= closure
    package = tmp_path / "generator"
    package.mkdir()
    (package / "checks").mkdir()
    (package / "checks" / "__init__.py").write_text("from generator.checks.rule import x\n")
    (package / "checks" / "rule.py").write_text("from generator.helper import y\nx = 1\n")
    (package / "helper.py").write_text("y = 1\n")
    import generator.codehash as codehash

    monkeypatch.setattr(codehash, "PACKAGE", package)
    module_version.cache_clear()
    assert codehash.import_closure("checks") == {"checks", "helper"}
    before = codehash.module_version("checks")
    (package / "checks" / "rule.py").write_text("from generator.helper import y\nx = 2\n")
    module_version.cache_clear()
    assert codehash.module_version("checks") != before
    module_version.cache_clear()
