"""One verdict cache for every command: each input a finding reads invalidates it."""

from __future__ import annotations

import itertools
import json
import os
import subprocess
import sys
import time
from datetime import timedelta
from pathlib import Path

import pytest
from test_review import SEARCH, STEP, STREAM, change_source, hand_edit, make_review_workspace, run

from generator.checks import check_guide
from generator.checks.runner import cached_findings, check_context, check_guides, findings_cache
from generator.core.clock import today
from generator.guides.project import Project

STAMP = itertools.count()


def age(root: Path) -> None:
    """Date every file an hour back (a new second each call), as if written long ago."""
    stamp = time.time() - 3600 + next(STAMP)
    for path in root.rglob("*"):
        if path.is_file() and ".prepguide" not in path.parts:
            os.utime(path, (stamp, stamp))


def results(root: Path, on_date=None) -> list[dict]:
    return [r.as_json() for r in check_guides(Project(root, on_date=on_date))]


def cold(root: Path, on_date=None) -> list[dict]:
    """The findings computed with no cache at all."""
    project = Project(root, on_date=on_date)
    out = []
    for guide_id in project.guides.ids():
        doc = project.guides.read(guide_id)
        findings = check_guide(doc, check_context(project, project.source(guide_id)))
        out.append(
            {
                "id": guide_id,
                "status": doc.meta.status,
                "findings": [f.model_dump() for f in findings],
            }
        )
    return out


def recomputed(root: Path, guide_id: str, on_date=None) -> int:
    """Return how many texts' undated rules ran to judge one guide (0: taken from the cache)."""
    project = Project(root, on_date=on_date)
    with findings_cache(project) as cache:
        cached_findings(project, cache, project.guides.read(guide_id), project.source(guide_id))
        return cache.computed


def change_text(root: Path) -> None:
    hand_edit(root, SEARCH, STEP, STEP + " TODO: check this figure, 97% of it.")


def change_record(root: Path) -> None:
    change_source(root, SEARCH, "serving 12 million", "serving 13 million")
    change_source(root, SEARCH, "[12 million", "[13 million")


def change_other_vocabulary(root: Path) -> None:
    change_source(
        root,
        STREAM,
        "techniques: [stream processing",
        "techniques: [exactly-once delivery, stream processing",
    )


def change_setting(root: Path) -> None:
    toml = root / "prepguide.toml"
    toml.write_text(toml.read_text().replace("freshness_days = 180", "freshness_days = 3"))


@pytest.mark.parametrize(
    "change", [change_text, change_record, change_other_vocabulary, change_setting]
)
def test_each_input_a_finding_reads_invalidates_the_cached_verdict(tmp_path: Path, change) -> None:
    root = make_review_workspace(tmp_path / "ws")
    age(root)
    before = results(root)
    assert before == cold(root)
    assert results(root) == before  # from the cache now
    assert recomputed(root, SEARCH) == 0
    change(root)
    age(root)
    after = results(root)
    assert after == cold(root), "a cached verdict outlived a change of its inputs"
    assert recomputed(root, SEARCH) == 0  # computed once, then kept
    if change is not change_other_vocabulary:
        assert after != before, "the change should alter what the checks report"
    # A vocabulary change judges every guide again (see test_a_record_in_another_file...).


def test_a_record_in_another_file_changes_every_guides_verdict_key(tmp_path: Path) -> None:
    from generator.checks import verdict_key

    root = make_review_workspace(tmp_path / "ws")
    project = Project(root)
    doc = project.guides.read(SEARCH)
    key = verdict_key(doc, check_context(project, project.source(SEARCH)))
    change_other_vocabulary(root)
    project = Project(root)
    assert verdict_key(doc, check_context(project, project.source(SEARCH))) != key
    assert recomputed(root, SEARCH) == 1


def test_the_date_and_the_checks_code_version_invalidate_the_verdict(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = make_review_workspace(tmp_path / "ws")
    age(root)
    before = results(root)
    later = today() + timedelta(days=400)
    assert results(root, later) == cold(root, later) != before  # the Checked dates are old now
    assert results(root) == before
    import generator.checks.engine as checks
    import generator.checks.memo as memo

    monkeypatch.setattr(checks, "module_version", lambda name: "another checks version")
    monkeypatch.setattr(memo, "code_version", lambda cache=None: "another checks version")
    assert recomputed(root, SEARCH) == 1
    assert results(root) == cold(root)


def test_a_damaged_or_deleted_cache_changes_no_output(tmp_path: Path) -> None:
    root = make_review_workspace(tmp_path / "ws")
    age(root)
    first = run(root, "check", "--json")
    listed = run(root, "review", "list", "--json")
    cache = root / ".prepguide" / "verdicts.sqlite"
    assert cache.is_file()
    for suffix in ("-wal", "-shm"):
        Path(f"{cache}{suffix}").unlink(missing_ok=True)
    cache.write_bytes(b"this is not a SQLite database" * 100)
    again = run(root, "check", "--json")
    assert json.loads(again.stdout[again.stdout.index("{") :]) == json.loads(first.stdout)
    assert "not a usable verdict cache" in again.output
    assert (root / ".prepguide" / "verdicts.sqlite.corrupt-1").is_file()
    assert run(root, "review", "list", "--json").stdout == listed.stdout
    cache.unlink()
    assert run(root, "check", "--json").stdout == first.stdout
    assert run(root, "review", "list", "--json").stdout == listed.stdout


# Run in a fresh interpreter: which modules a command over unchanged files loads.
PLAN = """
import json, sys
from pathlib import Path
from generator.checks import plan_check
from generator.guides.project import Project
from generator.review import plan_queue
project = Project(Path(sys.argv[1]))
if sys.argv[2] == "check":
    plan = plan_check(project)
    rows = None if plan.results is None else [r.as_json() for r in plan.results]
else:
    rows = plan_queue(project).rows
print(json.dumps({"rows": rows, "engine": "generator.checks.engine" in sys.modules}))
"""


def planned(root: Path, what: str = "check") -> dict:
    """Return what a fresh process takes as kept (a check or the queue), and if it loaded rules."""
    done = subprocess.run(
        [sys.executable, "-c", PLAN, str(root), what], capture_output=True, text=True, check=True
    )
    return json.loads(done.stdout)


def test_a_check_of_unchanged_files_gives_the_last_results_without_the_rules(
    tmp_path: Path,
) -> None:
    root = make_review_workspace(tmp_path / "ws")
    age(root)
    assert planned(root)["rows"] is None  # nothing kept yet
    first = run(root, "check", "--json")
    kept = planned(root)
    assert kept["rows"] == results(root) == cold(root)
    assert not kept["engine"], "a run over unchanged files loaded the rule engine"
    again = run(root, "check", "--json")
    assert again.stdout == first.stdout and again.exit_code == first.exit_code
    change_text(root)
    age(root)
    assert planned(root)["rows"] is None  # one guide changed: the run is made again
    assert results(root) == cold(root)
    assert planned(root)["rows"] == cold(root)


def test_a_listing_of_unchanged_files_gives_the_last_queue_without_the_rules(
    tmp_path: Path,
) -> None:
    from generator.review import queue_index

    root = make_review_workspace(tmp_path / "ws")
    age(root)
    assert planned(root, "queue")["rows"] is None  # nothing kept yet
    first = run(root, "review", "list", "--json")
    kept = planned(root, "queue")
    assert kept["rows"] == queue_index(Project(root))
    assert not kept["engine"], "a listing of unchanged files loaded the rule engine"
    assert run(root, "review", "list", "--json").stdout == first.stdout
    run(root, "review", "approve", SEARCH, "--by", "ed")
    age(root)
    assert planned(root, "queue")["rows"] is None  # a state changed: the queue is made again
    listed = json.loads(run(root, "review", "list", "--json").stdout)["guides"]
    assert {row["id"]: row["status"] for row in listed}[SEARCH] == "approved"
    assert planned(root, "queue")["rows"] == queue_index(Project(root))


@pytest.mark.parametrize("damage", ["not json at all", '{"ids": ["x"], "statuses": []}', "[{}]"])
def test_a_damaged_kept_run_or_queue_is_made_again_with_the_same_output(
    tmp_path: Path, damage: str
) -> None:
    import sqlite3

    root = make_review_workspace(tmp_path / "ws")
    age(root)
    first = run(root, "check", "--json")
    listed = run(root, "review", "list", "--json")
    db = sqlite3.connect(root / ".prepguide" / "verdicts.sqlite")
    with db:  # every entry of both tables, the whole runs and queues among them
        db.execute("UPDATE checks SET value = ?", (damage,))
        db.execute("UPDATE queue SET value = ?", (damage,))
    db.close()
    assert planned(root)["rows"] is None and planned(root, "queue")["rows"] is None
    again = run(root, "check", "--json")
    assert again.stdout == first.stdout and again.exit_code == first.exit_code
    assert run(root, "review", "list", "--json").stdout == listed.stdout
    assert planned(root)["rows"] == cold(root)  # kept again, sound this time
