"""Editorial review: every transition, refusals, content binding, revisions, audit, concurrency."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from click.testing import CliRunner

from generator import review
from generator.cli import cli
from generator.core.errors import ReviewError
from generator.guides.project import Project
from generator.review import spans

REPO = Path(__file__).resolve().parents[2]

# Complete, honest records: every figure in a summary is also in its scale list, every date is
# recorded and fresh relative to the pinned clock (2026-11-30), and every URL is https.
RECORDS = {
    "acme-search-ranking": """\
company: Acme
title: How Acme rebuilt search ranking with two-stage retrieval
url: https://engineering.acme.example/search-ranking
publisher: Acme Engineering
published: 2026-09-01
checked: 2026-11-20
summary: >-
  Acme replaced its keyword ranker with a two-stage retrieval and ranking system. The new
  system cut p99 latency by 40% while serving 12 million queries a day.
scale: [12 million queries a day, 40% lower p99 latency]
techniques: [search ranking, two-stage retrieval]
stack: [Elasticsearch, PyTorch]
""",
    "globex-stream-processing": """\
company: Globex
title: Exactly-once stream processing at Globex
url: https://tech.globex.example/exactly-once
publisher: Globex Tech Blog
published: 2026-08-15
checked: 2026-11-18
summary: >-
  Globex moved its billing events to an exactly-once streaming pipeline. The pipeline
  handles 3 billion events per day and reduced duplicate charges to zero.
scale: [3 billion events per day]
techniques: [stream processing, idempotency]
stack: [Kafka, Flink]
""",
    "initech-feature-store": """\
company: Initech
title: Building a feature store for real-time fraud models
url: https://blog.initech.example/feature-store
publisher: Initech Engineering
published: 2026-07-10
checked: 2026-11-25
summary: >-
  Initech built a feature store that serves the same features to training and to real-time
  fraud scoring. Online lookups stay under 10 ms at 50,000 requests per second.
scale: [under 10 ms online lookups, "50,000 requests per second"]
techniques: [feature stores, fraud detection]
stack: [Redis, Spark]
""",
}
SEARCH, STREAM, FEATURES = RECORDS
STEP = "- Build a judged query set before changing the ranking."
EDITED_STEP = "- Build a judged query set first, then change the ranking."


def make_review_workspace(root: Path) -> Path:
    """Create a root with complete records and generate their guides with the offline drafter."""
    (root / "sources").mkdir(parents=True)
    shutil.copytree(REPO / "prompts", root / "prompts")
    shutil.copy(REPO / "prepguide.toml", root / "prepguide.toml")
    for key, text in RECORDS.items():
        (root / "sources" / f"{key}.yaml").write_text(text, encoding="utf-8")
    generate(root)
    return root


def generate(root: Path, *ids: str) -> None:
    result = CliRunner().invoke(
        cli, ["--root", str(root), "generate", "--backend", "offline", *ids]
    )
    assert result.exit_code == 0, result.output


def run(root: Path, *args: str):
    return CliRunner().invoke(cli, ["--root", str(root), *args])


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    return make_review_workspace(tmp_path / "ws")


def project(root: Path) -> Project:
    return Project(root)


def hand_edit(root: Path, guide_id: str, old: str, new: str) -> None:
    path = root / "guides" / f"{guide_id}.md"
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def change_source(root: Path, guide_id: str, old: str, new: str) -> None:
    path = root / "sources" / f"{guide_id}.yaml"
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def actions(root: Path, guide_id: str) -> list[tuple[str, str | None, str]]:
    return [(e.action, e.from_state, e.to_state) for e in review.log(project(root), guide_id)]


def test_generated_guides_start_as_drafts_without_findings(ws: Path) -> None:
    rows = review.review_queue(project(ws))
    assert [row.id for row in rows] == sorted(RECORDS)
    for row in rows:
        assert row.status == "draft"
        assert (row.errors, row.warnings) == (0, 0), row.findings
        assert row.flags.labels() == []


def test_approve_binds_the_exact_text_and_records_who(ws: Path) -> None:
    p = project(ws)
    doc = p.guides.read(SEARCH)
    outcome = review.approve(p, SEARCH, by="Ada Editor", note="figures match")
    assert (outcome.from_state, outcome.to_state) == ("draft", "approved")
    state = review.read_state(p, SEARCH)
    assert state.status == "approved"
    assert state.live.content_hash == doc.content_hash
    assert state.live.approved_by == "Ada Editor"
    live = review.live_version(p, SEARCH)
    assert live.doc.body == doc.body
    assert live.approved_at == "2026-11-30T00:00:00Z"
    assert live.updated.isoformat() == "2026-11-30"
    assert live.first_published is None
    assert review.live_version(p, STREAM) is None
    front_matter = p.guides.read(SEARCH).meta
    assert front_matter.status == "approved"
    assert p.guides.read(SEARCH).body == doc.body


def test_approve_needs_a_reviewer_name(ws: Path) -> None:
    with pytest.raises(ReviewError, match="reviewer name"):
        review.approve(project(ws), SEARCH, by="  ")
    assert review.inspect(project(ws), SEARCH).status == "draft"
    result = run(ws, "review", "approve", SEARCH)
    assert result.exit_code == 2
    assert "--by" in result.output


def test_approve_is_refused_with_the_reasons_while_checks_report_errors(ws: Path) -> None:
    hand_edit(ws, SEARCH, "## Put it into practice", "## Next steps")
    with pytest.raises(ReviewError) as caught:
        review.approve(project(ws), SEARCH, by="Ada")
    assert caught.value.rule == "review.findings"
    assert "structure.heading" in caught.value.message
    assert "Put it into practice" in caught.value.message
    assert review.read_state(project(ws), SEARCH).status == "draft"
    assert review.live_version(project(ws), SEARCH) is None
    assert "approve" not in [a for a, _, _ in actions(ws, SEARCH)]
    result = run(ws, "review", "approve", SEARCH, "--by", "Ada")
    assert result.exit_code == 1
    assert "structure.heading" in result.output


def test_approving_twice_is_refused_and_names_the_first_approver(ws: Path) -> None:
    review.approve(project(ws), SEARCH, by="Ada")
    with pytest.raises(ReviewError, match="already approved: approved by Ada"):
        review.approve(project(ws), SEARCH, by="Bob")


def test_a_stale_view_cannot_approve_a_changed_text(ws: Path) -> None:
    seen = project(ws).guides.read(SEARCH).content_hash
    hand_edit(ws, SEARCH, STEP, EDITED_STEP)
    with pytest.raises(ReviewError, match="changed since you opened it") as caught:
        review.approve(project(ws), SEARCH, by="Ada", expected_hash=seen)
    assert caught.value.rule == "review.changed"
    assert review.live_version(project(ws), SEARCH) is None


def test_editing_after_approval_unapproves_but_keeps_the_approved_text_live(ws: Path) -> None:
    p = project(ws)
    approved_body = p.guides.read(SEARCH).body
    review.approve(p, SEARCH, by="Ada")
    hand_edit(ws, SEARCH, STEP, EDITED_STEP)
    row = review.inspect(project(ws), SEARCH)
    assert row.status == "draft"
    assert row.flags.edited_after_approval
    assert review.guide_flags(project(ws), SEARCH).edited_after_approval
    assert review.live_version(project(ws), SEARCH).doc.body == approved_body
    listing = run(ws, "review", "list")
    line = next(line for line in listing.output.splitlines() if line.startswith(SEARCH))
    assert "draft" in line and "edited after approval" in line and "live: approved" in line
    # Approving the edit makes it the live version.
    review.approve(project(ws), SEARCH, by="Bob")
    live = review.live_version(project(ws), SEARCH)
    assert "judged query set first" in live.doc.body and live.approved_by == "Bob"
    assert not review.guide_flags(project(ws), SEARCH).edited_after_approval


def test_regenerating_a_published_guide_never_takes_it_down(ws: Path) -> None:
    published_body = project(ws).guides.read(STREAM).body
    review.approve(project(ws), STREAM, by="Ada")
    review.mark_published(project(ws), [STREAM])
    assert review.read_state(project(ws), STREAM).status == "published"

    change_source(ws, STREAM, "reduced duplicate charges to zero", "removed duplicate charges")
    assert review.guide_flags(project(ws), STREAM).stale
    line = next(r for r in run(ws, "review", "list").output.splitlines() if r.startswith(STREAM))
    assert "stale" in line

    generate(ws, STREAM)
    row = review.inspect(project(ws), STREAM)
    assert row.status == "draft"
    assert not row.flags.stale
    assert row.flags.edited_after_approval
    live = review.live_version(project(ws), STREAM)
    assert live.doc.body == published_body
    assert live.first_published.isoformat() == "2026-11-30"
    assert "removed duplicate charges" in review.diff_published(project(ws), STREAM).text()


def test_publishing_sets_first_published_once_and_updated_per_approval(
    ws: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    review.approve(project(ws), SEARCH, by="Ada")
    review.mark_published(project(ws), [SEARCH])
    review.mark_published(project(ws), [SEARCH])  # a second run with the same version: no-op
    assert [a for a, _, _ in actions(ws, SEARCH)].count("publish") == 1

    monkeypatch.setenv("SOURCE_DATE_EPOCH", str(1795996800 + 5 * 86400))  # 2026-12-05
    hand_edit(ws, SEARCH, STEP, EDITED_STEP)
    review.approve(project(ws), SEARCH, by="Bob")
    live = review.live_version(project(ws), SEARCH)
    assert (live.first_published.isoformat(), live.updated.isoformat()) == (
        "2026-11-30",
        "2026-12-05",
    )
    assert review.read_state(project(ws), SEARCH).status == "approved"
    review.mark_published(project(ws), [SEARCH])
    state = review.read_state(project(ws), SEARCH)
    assert state.status == "published" and state.first_published.isoformat() == "2026-11-30"


def test_mark_published_refuses_a_guide_with_nothing_approved(ws: Path) -> None:
    with pytest.raises(ReviewError, match="no live version"):
        review.mark_published(project(ws), [SEARCH])


def test_reject_needs_a_note_and_keeps_the_draft_off_the_site(ws: Path) -> None:
    with pytest.raises(ReviewError, match="note"):
        review.reject(project(ws), SEARCH, by="Ada", note=" ")
    assert run(ws, "review", "reject", SEARCH, "--by", "Ada").exit_code == 2
    result = run(ws, "review", "reject", SEARCH, "--by", "Ada", "--note", "angle too generic")
    assert result.exit_code == 0, result.output
    state = review.read_state(project(ws), SEARCH)
    assert (state.status, state.by, state.note) == ("rejected", "Ada", "angle too generic")
    assert review.live_version(project(ws), SEARCH) is None
    # The same text cannot be approved or rejected again; an edit starts a new draft.
    with pytest.raises(ReviewError, match="was rejected by Ada"):
        review.approve(project(ws), SEARCH, by="Bob")
    with pytest.raises(ReviewError, match="already rejected"):
        review.reject(project(ws), SEARCH, by="Bob", note="again")
    hand_edit(ws, SEARCH, STEP, EDITED_STEP)
    assert review.inspect(project(ws), SEARCH).status == "draft"
    review.approve(project(ws), SEARCH, by="Bob")


def test_rejecting_a_new_draft_keeps_the_published_version(ws: Path) -> None:
    body = project(ws).guides.read(SEARCH).body
    review.approve(project(ws), SEARCH, by="Ada")
    review.mark_published(project(ws), [SEARCH])
    hand_edit(ws, SEARCH, STEP, EDITED_STEP)
    review.reject(project(ws), SEARCH, by="Bob", note="keep the old wording")
    assert review.live_version(project(ws), SEARCH).doc.body == body


@pytest.mark.parametrize("status", ["approved", "published", "withdrawn"])
def test_reject_is_refused_unless_the_text_is_a_draft(ws: Path, status: str) -> None:
    review.approve(project(ws), SEARCH, by="Ada")
    if status in ("published", "withdrawn"):
        review.mark_published(project(ws), [SEARCH])
    if status == "withdrawn":
        review.withdraw(project(ws), SEARCH, by="Ada", reason="superseded")
    assert review.read_state(project(ws), SEARCH).status == status
    with pytest.raises(ReviewError, match=f"only a draft can be rejected; it is {status}"):
        review.reject(project(ws), SEARCH, by="Bob", note="no")


def test_withdraw_needs_an_allowed_reason_and_removes_the_live_version(ws: Path) -> None:
    review.approve(project(ws), SEARCH, by="Ada")
    review.mark_published(project(ws), [SEARCH])
    with pytest.raises(ReviewError, match="not allowed; use one of: published in error"):
        review.withdraw(project(ws), SEARCH, by="Ada", reason="boring")
    bad = run(ws, "review", "withdraw", SEARCH, "--by", "Ada", "--reason", "boring")
    assert bad.exit_code == 2
    result = run(ws, "review", "withdraw", SEARCH, "--by", "Ada", "--reason", "Published in error")
    assert result.exit_code == 0, result.output
    state = review.read_state(project(ws), SEARCH)
    assert (state.status, state.note) == ("withdrawn", "published in error")
    assert review.live_version(project(ws), SEARCH) is None
    assert state.first_published.isoformat() == "2026-11-30"
    with pytest.raises(ReviewError, match="no approved or published version to withdraw"):
        review.withdraw(project(ws), SEARCH, by="Ada", reason="superseded")
    # An editor may approve the guide again after a withdrawal.
    review.approve(project(ws), SEARCH, by="Bob")
    assert review.live_version(project(ws), SEARCH).first_published.isoformat() == "2026-11-30"


@pytest.mark.parametrize("status", ["draft", "rejected"])
def test_withdraw_is_refused_without_an_approved_version(ws: Path, status: str) -> None:
    if status == "rejected":
        review.reject(project(ws), SEARCH, by="Ada", note="no")
    with pytest.raises(ReviewError, match=f"it is {status} and has no approved"):
        review.withdraw(project(ws), SEARCH, by="Ada", reason="superseded")


def test_every_generated_and_edited_version_is_kept(ws: Path) -> None:
    first = project(ws).guides.read_text(SEARCH)
    hand_edit(ws, SEARCH, STEP, EDITED_STEP)
    edited = project(ws).guides.read_text(SEARCH)
    review.inspect(project(ws), SEARCH)  # the review tools notice and keep the hand edit
    diff = review.diff_previous(project(ws), SEARCH)
    assert (
        "-- Build a judged query set before" in diff.text()
        and "+- Build a judged query set first" in diff.text()
    )
    generate(ws, SEARCH)  # unchanged source and prompt: skipped, the edit stays
    assert project(ws).guides.read_text(SEARCH) == edited
    result = run(ws, "generate", "--backend", "offline", "--force", SEARCH)
    assert result.exit_code == 0, result.output
    kept = [r.read_text() for r in project(ws).guides.revisions(SEARCH)]
    assert len(kept) == 2  # regeneration reproduced the first text exactly: no duplicate kept
    assert kept[0] == first and kept[1] == edited
    assert [r.seq for r in project(ws).guides.revisions(SEARCH)] == [1, 2]
    back = review.diff_previous(project(ws), SEARCH).text()  # against the overwritten edit
    assert (
        "-- Build a judged query set first" in back and "+- Build a judged query set before" in back
    )


def test_the_audit_trail_records_every_action_with_provenance(ws: Path) -> None:
    review.approve(project(ws), SEARCH, by="Ada", note="ok")
    review.mark_published(project(ws), [SEARCH])
    hand_edit(ws, SEARCH, STEP, EDITED_STEP)
    review.reject(project(ws), SEARCH, by="Bob", note="keep wording")
    review.withdraw(project(ws), SEARCH, by="Cy", reason="withdrawn by request")
    assert actions(ws, SEARCH) == [
        ("revise", None, "draft"),
        ("approve", "draft", "approved"),
        ("publish", "approved", "published"),
        ("revise", "published", "draft"),
        ("reject", "draft", "rejected"),
        ("withdraw", "rejected", "withdrawn"),
    ]
    entries = review.log(project(ws), SEARCH)
    assert [e.actor for e in entries[1:]] == [
        "Ada",
        "prepguide publish",
        "editor (hand edit)",
        "Bob",
        "Cy",
    ]
    assert entries[0].actor == "generator (offline)"
    assert entries[3].note.startswith("edited after approval")
    assert entries[5].note == "withdrawn by request"
    assert entries[5].content_hash == entries[1].content_hash  # the live text was withdrawn
    source_hash = project(ws).source(SEARCH).content_hash()
    for entry in entries:
        assert entry.time == "2026-11-30T00:00:00Z"
        assert entry.backend == "offline" and entry.prompt_hash and entry.source_hash == source_hash
    printed = run(ws, "review", "log", SEARCH)
    assert printed.exit_code == 0
    assert len(printed.output.splitlines()) == 6
    assert "approve by Ada: draft -> approved" in printed.output
    # Append-only: earlier lines are never rewritten.
    before = (ws / "guides" / ".audit.jsonl").read_text(encoding="utf-8")
    review.approve(project(ws), STREAM, by="Ada")
    assert (ws / "guides" / ".audit.jsonl").read_text(encoding="utf-8").startswith(before)


def test_concurrent_approvals_in_threads_let_exactly_one_win(ws: Path) -> None:
    start = threading.Barrier(8)
    wins: list[str] = []
    refusals: list[str] = []

    def attempt(name: str) -> None:
        start.wait()
        try:
            review.approve(project(ws), FEATURES, by=name)
        except ReviewError as exc:
            refusals.append(exc.message)
        else:
            wins.append(name)

    threads = [threading.Thread(target=attempt, args=(f"editor-{i}",)) for i in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(wins) == 1 and len(refusals) == 7
    assert all(f"already approved: approved by {wins[0]}" in m for m in refusals)
    assert [a for a, _, _ in actions(ws, FEATURES)].count("approve") == 1


def test_concurrent_approvals_in_processes_let_exactly_one_win(ws: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    procs = [
        subprocess.Popen(
            [
                sys.executable,
                "-m",
                "generator",
                "--root",
                str(ws),
                "review",
                "approve",
                FEATURES,
                "--by",
                f"proc-{i}",
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
        )
        for i in range(4)
    ]
    results = [(proc.wait(timeout=60), *proc.communicate()) for proc in procs]
    assert sorted(code for code, _, _ in results) == [0, 1, 1, 1]
    refused = [err for code, _, err in results if code == 1]
    assert all("already approved" in err for err in refused)
    assert [a for a, _, _ in actions(ws, FEATURES)].count("approve") == 1


def test_a_bulk_approval_and_one_guide_approvals_at_once_let_exactly_one_win(ws: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    base = [sys.executable, "-m", "generator", "--root", str(ws), "review", "approve"]
    bulk = [*base, FEATURES, SEARCH, "--by", "bulk"]
    commands = [bulk, *([*base, FEATURES, "--by", f"proc-{i}"] for i in range(3))]
    procs = [
        subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
        for cmd in commands
    ]
    results = [(proc.wait(timeout=60), *proc.communicate()) for proc in procs]
    approvals = [a for a, _, _ in actions(ws, FEATURES)].count("approve")
    assert approvals == 1, "the group and the single approvals never both approve"
    state = review.read_state(project(ws), FEATURES)
    winner = state.live.approved_by
    assert sum("already approved" in err for _, _, err in results) == 3
    assert review.read_state(project(ws), SEARCH).status == "approved"
    assert winner in {"bulk", "proc-0", "proc-1", "proc-2"}


def test_review_list_json_and_status_filter(ws: Path) -> None:
    review.approve(project(ws), SEARCH, by="Ada")
    hand_edit(ws, STREAM, "## Put it into practice", "## Steps")
    result = run(ws, "review", "list", "--json")
    assert result.exit_code == 0
    import json

    rows = {row["id"]: row for row in json.loads(result.output)["guides"]}
    assert rows[SEARCH]["status"] == "approved"
    assert rows[STREAM]["errors"] >= 1 and rows[STREAM]["status"] == "draft"
    assert rows[FEATURES] | {"content_hash": None} == {
        "id": FEATURES,
        "status": "draft",
        "stale": False,
        "edited_after_approval": False,
        "missing_file": False,
        "errors": 0,
        "warnings": 0,
        "content_hash": None,
        "live_hash": None,
        "live_published": False,
        "fails_current_checks": False,
        "unaudited": False,
        "live_failures": [],
        "problem": None,
    }
    only = run(ws, "review", "list", "--status", "approved")
    assert SEARCH in only.output and STREAM not in only.output


def test_cli_approves_several_ids_and_reports_each_refusal(ws: Path) -> None:
    hand_edit(ws, STREAM, "## Put it into practice", "## Steps")
    result = run(ws, "review", "approve", SEARCH, STREAM, FEATURES, "--by", "Ada")
    assert result.exit_code == 1
    assert f"{SEARCH}: draft -> approved" in result.output
    assert f"{FEATURES}: draft -> approved" in result.output
    assert f"refused: {STREAM}: cannot approve" in result.output


def test_cli_show_and_diff(ws: Path) -> None:
    shown = run(ws, "review", "show", SEARCH)
    assert shown.exit_code == 0
    assert "figure '40%': scale[1], summary" in shown.output
    assert run(ws, "review", "diff", SEARCH).output.strip().endswith("this is the first version")
    assert (
        "no approved or published version"
        in run(ws, "review", "diff", SEARCH, "--published").output
    )
    review.approve(project(ws), SEARCH, by="Ada")
    hand_edit(ws, SEARCH, STEP, EDITED_STEP)
    diff = run(ws, "review", "diff", SEARCH, "--published").output
    assert (
        "+- Build a judged query set first" in diff and "-- Build a judged query set before" in diff
    )


def test_locate_claims_marks_found_and_missing_figures_and_quotes() -> None:
    fields = [
        (
            "summary",
            'Latency fell 40%  while serving\n12 million queries. They called it "a   boring win".',
        ),
        ("scale[0]", "20-25% MFU"),
    ]
    text = (
        'Acme saw 40% lower latency, 12 million queries, 20–25% MFU and 7x gains: "a boring win".'
    )
    claims = {c.text: c for c in spans.locate_claims(text, fields)}
    assert claims["40%"].spans == (spans.Span("summary", 13, 16),)
    assert claims["12 million"].found
    assert claims["20–25%"].spans == (spans.Span("scale[0]", 0, 6),)
    assert not claims["7x"].found
    quote = claims["a boring win"]
    assert quote.kind == "quote" and quote.spans[0].field == "summary"
    start, end = quote.spans[0].start, quote.spans[0].end
    assert fields[0][1][start:end] == "a   boring win"
    hyphen = spans.locate_claims("20-25% MFU", [("summary", "reached 20-25% MFU")])[0]
    assert hyphen.text == "20-25%" and hyphen.spans == (spans.Span("summary", 8, 14),)
    # "140%" must not count as finding "40%".
    assert not spans.locate_claims("40%", [("summary", "grew 140%")])[0].found
    assert not spans.locate_claims("12 servers", [("summary", "12.5 servers")])[0].found


def test_evidence_agrees_with_the_checks_on_normalised_figures() -> None:
    fields = [("summary", "Goodput passed 54,000 GPU hours with 2.5x more complexity.")]
    claims = {c.text: c for c in spans.locate_claims("54K GPU hours and 2.5× complexity", fields)}
    assert claims["54K"].found, "the checks accept 54K for 54,000; the page must agree"
    assert claims["2.5×"].spans == (spans.Span("summary", 37, 41),)


def test_highlight_splits_text_around_claim_spans() -> None:
    segments = spans.highlight("abcdef", [(1, 3, 1), (2, 5, 2)])
    assert [(s.text, s.claims) for s in segments] == [
        ("a", ()),
        ("b", (1,)),
        ("c", (1, 2)),
        ("de", (2,)),
        ("f", ()),
    ]
