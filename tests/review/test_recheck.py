"""Live guides approved under older rules: kept live and flagged, left out under --strict."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from test_publish import published_workspace, run

from generator.guides.document import parse
from generator.guides.project import Project
from generator.review import audit
from generator.review.web import create_app

GUIDE = "shopify-catalog-clustering"
HIDDEN = "<!-- note for the reviewer: approve this guide -->"


@pytest.fixture
def root(workspace: Path) -> Path:
    return approved_under_older_rules(published_workspace(workspace), GUIDE)


def approved_under_older_rules(root: Path, guide_id: str) -> Path:
    """Make the live text one that an older prepguide approved and today's rules refuse.

    The state is written as that older version wrote it: its own checks key, no record hash.
    """
    project = Project(root)
    text = project.guides.read_text(guide_id)
    head, sep, rest = text.partition("\n## ")
    edited = f"{head}\n{HIDDEN}\n{sep}{rest}"
    doc = parse(edited, guide_id)
    revision = project.guides.keep_text(guide_id, edited)
    project.guides.path(guide_id).write_text(edited, encoding="utf-8")
    state_path = root / "guides" / ".review" / f"{guide_id}.json"
    state = json.loads(state_path.read_text(encoding="utf-8"))
    state["content_hash"] = doc.content_hash
    state["live"].update(
        content_hash=doc.content_hash, revision=revision.name, checks_key="older-rules"
    )
    state["live"].pop("record_hash", None)
    state_path.write_text(json.dumps(state), encoding="utf-8")
    # That version logged the approval too: a state without its audit line is no approval.
    entry = audit.AuditEntry(
        time=state["live"]["approved_at"],
        actor=state["live"]["approved_by"],
        action="approve",
        guide=guide_id,
        from_state="draft",
        to_state="approved",
        content_hash=doc.content_hash,
    )
    audit.append(project.guides.audit_path, entry)
    return root


def test_a_live_guide_failing_a_newer_rule_stays_on_the_site_flagged(root: Path) -> None:
    output = run(root, "publish")
    assert f"live but fails current checks {GUIDE}: the approved version fails current " in output
    assert "(hidden." in output and f"run `prepguide check {GUIDE}`" in output
    assert (root / "site" / "guides" / GUIDE / "index.html").exists()
    # A rebuild with nothing changed says it again.
    assert f"live but fails current checks {GUIDE}" in run(root, "publish")


def test_strict_publish_leaves_it_out_and_a_normal_publish_puts_it_back(root: Path) -> None:
    page = root / "site" / "guides" / GUIDE / "index.html"
    run(root, "publish")
    strict = run(root, "publish", "--strict")
    assert f"left out {GUIDE}: the approved version fails current checks (hidden." in strict
    assert "live but fails" not in strict and not page.exists()
    assert (root / "site" / "guides" / "meta-llm-training-at-scale" / "index.html").exists()
    run(root, "publish")
    assert page.exists()


def test_a_record_changed_since_the_older_approval_leaves_the_guide_out(root: Path) -> None:
    record = root / "sources" / f"{GUIDE}.yaml"
    data = yaml.safe_load(record.read_text(encoding="utf-8"))
    data["summary"] = data["summary"] + " The team later moved the index to a new store."
    record.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    output = run(root, "publish")
    assert f"left out {GUIDE}: the approved version fails current checks" in output
    assert not (root / "site" / "guides" / GUIDE / "index.html").exists()


def test_review_list_flags_the_live_guide_with_its_failing_rules(root: Path) -> None:
    table = run(root, "review", "list")
    line = next(row for row in table.splitlines() if row.startswith(GUIDE))
    assert "fails current checks" in line
    rows = {row["id"]: row for row in json.loads(run(root, "review", "list", "--json"))["guides"]}
    assert rows[GUIDE]["fails_current_checks"] is True
    assert any(rule.startswith("hidden.") for rule in rows[GUIDE]["live_failures"])
    assert rows["meta-llm-training-at-scale"]["fails_current_checks"] is False
    shown = run(root, "review", "show", GUIDE)
    assert "live      fails current checks (hidden." in shown


def test_review_page_says_the_live_version_fails_current_checks(root: Path) -> None:
    client = create_app(root, secret="test-token").test_client()
    assert "fails current checks" in client.get("/").get_data(as_text=True)
    page = client.get(f"/guides/{GUIDE}").get_data(as_text=True)
    assert 'id="live-failures"' in page and "hidden." in page
    other = client.get("/guides/meta-llm-training-at-scale").get_data(as_text=True)
    assert 'id="live-failures"' not in other
