"""`prepguide verify` end to end: a workspace whose records cite a loopback site."""

from __future__ import annotations

import json
import shutil
from datetime import UTC, date, datetime
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner
from fakes.link_server import LinkServer

from generator.checks.runner import check_context
from generator.cli import cli
from generator.guides.project import Project
from generator.sources.records import load_sources
from generator.verify.ledger import Ledger, LedgerRow
from generator.verify.run import VerifyError

REPO = Path(__file__).resolve().parents[2]
TODAY = "2026-11-30"  # pinned by conftest's SOURCE_DATE_EPOCH


def epoch(day: str) -> str:
    return str(int(datetime.fromisoformat(day).replace(tzinfo=UTC).timestamp()))


@pytest.fixture
def root(tmp_path: Path, site: LinkServer) -> Path:
    root = tmp_path / "ws"
    (root / "sources").mkdir(parents=True)
    shutil.copytree(REPO / "prompts", root / "prompts")
    (root / "prepguide.toml").write_text(
        "[verify]\ntimeout = 0.3\nhost_interval = 0\n", encoding="utf-8"
    )
    base = {"company": "Meta", "summary": "Meta trained GEM on thousands of GPUs."}
    records = {
        "alpha": {
            "title": "GEM training",
            "url": site.url("/live"),
            "published": "2026-01-05",
            "checked": "2026-01-10",
            "stack": ["GPUs"],
            "citations": [{"title": "Moved follow-up", "url": site.url("/moved")}],
        },
        "beta": {"title": "Gone post", "url": site.url("/gone"), "published": "2026-02-01"},
        "gamma": {
            "title": "Busy post",
            "url": site.url("/busy"),
            "published": "2026-03-01",
            "checked": "2026-11-29",
        },
        "delta": {"title": "Post without a link", "published": "2026-03-01"},
        "omega": {"title": "Drifting post", "url": site.url("/changing")},
    }
    for key, fields in records.items():
        text = yaml.safe_dump({**base, **fields}, sort_keys=False)
        (root / "sources" / f"{key}.yaml").write_text(text, encoding="utf-8")
    return root


def verify(root: Path, *args: str):
    return CliRunner().invoke(cli, ["--root", str(root), "verify", *args])


def rows_of(result) -> dict[str, dict]:
    return {row["url"].rsplit("/", 1)[-1]: row for row in json.loads(result.stdout)}


def test_json_rows_exit_code_and_ledger(root, site):
    before = {p.name: p.read_bytes() for p in (root / "sources").glob("*.yaml")}
    result = verify(root, "--json")
    assert result.exit_code == 1, result.output
    rows = rows_of(result)
    assert set(rows) == {"live", "moved", "gone", "busy", "changing"}, "delta has no URL"
    assert rows["live"] == {
        "id": "alpha",
        "url": site.url("/live"),
        "status": "live",
        "http_status": 200,
        "checked": TODAY,
        "final_url": site.url("/live"),
    }
    assert rows["moved"]["id"] == "alpha"
    assert rows["moved"]["final_url"] == site.url("/new-home")
    assert rows["moved"]["checked"] == TODAY
    assert rows["gone"] | {} == {
        "id": "beta",
        "url": site.url("/gone"),
        "status": "failing",
        "http_status": 404,
        "checked": None,
        "final_url": site.url("/gone"),
    }
    assert rows["busy"]["status"] == "inconclusive"
    assert rows["busy"]["checked"] == "2026-11-29", "the record's own date stands"

    ledger_file = root / "sources" / ".verification.jsonl"
    lines = ledger_file.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 5
    parsed = [LedgerRow.model_validate_json(line) for line in lines]
    assert {row.url: row.outcome for row in parsed}[site.url("/gone")] == "failure"
    assert all(row.at == datetime(2026, 11, 30, tzinfo=UTC) for row in parsed)

    after = {p.name: p.read_bytes() for p in (root / "sources").glob("*.yaml")}
    assert after == before, "the editors' YAML is never rewritten"
    loaded = load_sources(root / "sources", date(2026, 11, 30))
    assert loaded.problems == [] and len(loaded.sources) == 5


def test_effective_checked_date_reaches_check_and_guides(root, site):
    project = Project(root)
    alpha = project.source("alpha")
    assert project.originals(alpha)[0].checked == date(2026, 1, 10)
    assert project.originals(alpha)[1].checked is None

    assert verify(root, "alpha").exit_code == 0

    project = Project(root)
    views = check_context(project, project.source("alpha")).originals
    assert [v.checked for v in views] == [date(2026, 11, 30), date(2026, 11, 30)]
    assert [v.link_status for v in views] == ["live", "live"]

    result = CliRunner().invoke(
        cli, ["--root", str(root), "generate", "alpha", "--backend", "offline"]
    )
    assert result.exit_code == 0, result.output
    guide = (root / "guides" / "alpha.md").read_text(encoding="utf-8")
    assert f"Checked {TODAY}" in guide
    assert "Checked 2026-01-10" not in guide


def test_record_date_wins_when_newer_than_the_ledger(root, site):
    ledger = Ledger.load(root / "sources" / ".verification.jsonl")
    ledger.append(
        [
            LedgerRow(
                at=datetime(2026, 1, 8, tzinfo=UTC),
                url=site.url("/live"),
                ids=["alpha"],
                outcome="manual",
                method="manual",
                by="Ana",
            )
        ]
    )
    project = Project(root)
    view = project.originals(project.source("alpha"))[0]
    assert view.checked == date(2026, 1, 10)
    assert view.link_status == "live"


def test_rerun_same_day_skips_finished_work(root, site):
    verify(root)
    hits = len(site.hits)
    again = verify(root)
    assert "checking 1 link (4 already checked today)" in again.stdout
    retried = {hit.path for hit in site.hits[hits:]}
    assert retried == {"/busy"}, "only the inconclusive link is tried again the same day"
    forced = verify(root, "--force", "beta")
    assert "checking 1 link (0 already checked today)" in forced.stdout
    assert site.requests("/gone") == ["HEAD", "HEAD"]


def test_manual_verification_by_an_editor(root, site):
    result = verify(root, "--manual", "beta", "--by", "Ana Editor")
    assert result.exit_code == 0, result.output
    assert f"verified {site.url('/gone')} by Ana Editor on {TODAY}" in result.stdout
    assert site.hits == [], "a manual verification sends no request"
    row = Ledger.load(root / "sources" / ".verification.jsonl").rows[-1]
    assert (row.outcome, row.by, row.ids) == ("manual", "Ana Editor", ["beta"])

    rows = rows_of(verify(root, "beta", "--json"))
    assert rows["gone"]["status"] == "live" and rows["gone"]["checked"] == TODAY


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--manual", "beta"], "--manual needs --by NAME"),
        (["--by", "Ana"], "--by and --url go with --manual ID"),
        (["--manual", "nope", "--by", "Ana"], "no valid source record with id 'nope'"),
        (["--manual", "beta", "--by", "Ana", "alpha"], "drop the other ids"),
    ],
)
def test_usage_errors(root, site, args, message):
    result = verify(root, *args)
    assert result.exit_code == 2
    assert message in result.stderr
    assert site.hits == []


def test_manual_refuses_a_record_without_url(root):
    result = verify(root, "--manual", "delta", "--by", "Ana")
    assert isinstance(result.exception, VerifyError)
    assert "has no URL to verify" in str(result.exception)
    assert str(root / "sources" / "delta.yaml") in str(result.exception)
    assert not (root / "sources" / ".verification.jsonl").exists()


def test_unknown_id_is_reported(root, site):
    result = verify(root, "alpha", "nope")
    assert result.exit_code == 1
    assert "no valid source record with id 'nope'" in result.stderr
    assert {r["id"] for r in json.loads(verify(root, "alpha", "--json", "--force").stdout)} == {
        "alpha"
    }


def test_dead_after_three_failures_three_days_apart(root, monkeypatch):
    seen = []
    for day in ("2026-11-20", "2026-11-22", "2026-11-23", "2026-11-26"):
        monkeypatch.setenv("SOURCE_DATE_EPOCH", epoch(day))
        seen.append(rows_of(verify(root, "beta", "--json"))["gone"]["status"])
    assert seen == ["failing", "failing", "failing", "dead"]
    monkeypatch.setenv("SOURCE_DATE_EPOCH", epoch("2026-11-27"))
    result = verify(root, "beta")
    assert "dead" in result.stdout
    assert "fix the url (or point it at an archived copy)" in result.stdout


def test_changed_source_flags_its_guide(root, site, monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", epoch("2026-11-28"))
    assert rows_of(verify(root, "omega", "--json"))["changing"]["status"] == "live"
    site.changing_text = "A new version that reports different numbers."
    monkeypatch.setenv("SOURCE_DATE_EPOCH", epoch("2026-11-29"))
    result = verify(root, "omega")
    assert result.exit_code == 1
    assert "changed" in result.stdout
    assert "re-review the guides of: omega" in result.stdout
    project = Project(root)
    view = project.originals(project.source("omega"))[0]
    assert (view.link_status, view.checked) == ("changed", date(2026, 11, 28))


def test_bad_ledger_line_is_named_and_the_run_goes_on(root, site):
    ledger_file = root / "sources" / ".verification.jsonl"
    good = LedgerRow(
        at=datetime(2026, 11, 1, tzinfo=UTC),
        url=site.url("/live"),
        ids=["alpha"],
        outcome="manual",
        method="manual",
        by="Ana",
    ).model_dump_json()
    ledger_file.write_text(
        good + "\n" + '{"url": "x", "surprise": 1}\n' + '{"at": "2026-11-0', encoding="utf-8"
    )
    result = verify(root, "alpha")
    assert result.exit_code == 0, result.output
    assert f"{ledger_file}" in result.stderr and "line 2" in result.stderr
    lines = ledger_file.read_text(encoding="utf-8").splitlines()
    assert lines[:2] == [good, '{"url": "x", "surprise": 1}']
    assert all(LedgerRow.model_validate_json(line) for line in lines[2:]), "torn tail removed"
    assert len(lines) == 4
