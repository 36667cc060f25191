"""Reviewing articles: check, list, show, approve bound to the text, reject, withdraw, stale."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from generator.cli import cli

ID = "article:gpus"


def run(workspace: Path, *args: str):
    result = CliRunner().invoke(cli, ["--root", str(workspace), *args])
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result


def verified_root(workspace: Path) -> None:
    """Give every original of the GPU article a URL and a Checked date, so it can pass."""
    for path in (workspace / "sources").glob("*.yaml"):
        text = path.read_text()
        if "url:" not in text.split("citations:")[0]:
            text = text.replace("\ntitle:", f"\nurl: https://example.com/{path.stem}\ntitle:", 1)
        if "\nchecked:" not in text.split("citations:")[0]:
            text = text.replace("\npublished:", "\nchecked: 2026-11-20\npublished:", 1)
        text = text.replace(
            "    publisher: Engineering at Meta\n    published: 2026-08-03\n"
            "    checked: 2026-10-22",
            "    url: https://example.com/gem-training\n    publisher: Engineering at Meta\n"
            "    published: 2026-08-03\n    checked: 2026-11-20",
        )
        path.write_text(text)


def drafted(workspace: Path) -> None:
    assert (
        run(
            workspace,
            "articles",
            "new",
            "gpus",
            "--title",
            "How teams scaled GPUs",
            "--source",
            "meta-gem",
            "--source",
            "shopify-catalog-clustering",
        ).exit_code
        == 0
    )
    result = run(workspace, "generate", ID, "--backend", "offline")
    assert result.exit_code == 0, result.output


def test_check_reports_articles_with_their_kind(workspace):
    drafted(workspace)
    result = run(workspace, "check", "--json", ID)
    rows = json.loads(result.output)["guides"]
    assert [(row["id"], row["kind"]) for row in rows] == [(ID, "article")]
    # The sample records lack URLs and Checked dates: an article with such a source is refused.
    assert result.exit_code == 1
    assert {f["rule"] for f in rows[0]["findings"]} >= {"citations.unverified"}
    assert run(workspace, "generate", "--backend", "offline").exit_code == 0
    everything = json.loads(run(workspace, "check", "--json").output)["guides"]
    assert {row["kind"] for row in everything} == {"guide", "article"}


def test_an_unverified_source_blocks_approval(workspace):
    drafted(workspace)
    result = run(workspace, "review", "approve", ID, "--by", "Ana")
    assert result.exit_code == 1
    assert "cannot approve" in result.output and "citations.unverified" in result.output


def test_approve_reject_withdraw_and_the_audit_trail(workspace):
    verified_root(workspace)
    drafted(workspace)
    check = run(workspace, "check", ID)
    assert check.exit_code == 0, check.output
    listed = json.loads(run(workspace, "review", "list", "--json", "--kind", "article").output)
    assert [(row["id"], row["status"], row["stale"]) for row in listed["guides"]] == [
        (ID, "draft", False)
    ]
    approved = run(workspace, "review", "approve", ID, "--by", "Ana")
    assert approved.exit_code == 0, approved.output
    assert "article:gpus: draft -> approved" in approved.output
    state = json.loads((workspace / "guides" / "articles" / ".review" / "gpus.json").read_text())
    assert state["status"] == "approved"
    shown = run(workspace, "review", "show", ID)
    assert "approved by Ana" in shown.output
    assert "in the block of shopify-catalog-clustering (Shopify), against its own record" in (
        shown.output
    )
    log = run(workspace, "review", "log", ID).output
    assert "approve by Ana" in log
    withdrawn = run(workspace, "review", "withdraw", ID, "--by", "Ana", "--reason", "superseded")
    assert withdrawn.exit_code == 0, withdrawn.output
    assert "withdraw" in run(workspace, "review", "log", ID).output


def test_a_changed_record_flags_the_article_stale(workspace):
    verified_root(workspace)
    drafted(workspace)
    path = workspace / "sources" / "shopify-catalog-clustering.yaml"
    path.write_text(path.read_text().replace("groups the same", "groups the very same"))
    rows = json.loads(run(workspace, "review", "list", "--json", "--kind", "article").output)
    assert rows["guides"][0]["stale"] is True
    findings = json.loads(run(workspace, "check", "--json", ID).output)["guides"][0]["findings"]
    assert "staleness.source" in {f["rule"] for f in findings}


def test_reject_then_the_same_text_cannot_be_approved(workspace):
    verified_root(workspace)
    drafted(workspace)
    rejected = run(workspace, "review", "reject", ID, "--by", "Ana", "--note", "Too long.")
    assert rejected.exit_code == 0, rejected.output
    again = run(workspace, "review", "approve", ID, "--by", "Ana")
    assert again.exit_code == 1 and "rejected" in again.output


def test_the_review_page_shows_each_block_beside_its_own_record_and_approves(workspace):
    from generator.review.web import create_app

    verified_root(workspace)
    drafted(workspace)
    client = create_app(workspace, secret="t").test_client()
    queue = client.get("/").get_data(as_text=True)
    assert "/articles/gpus" in queue
    page = client.get("/articles/gpus").get_data(as_text=True)
    assert 'id="block-shopify-catalog-clustering"' in page
    assert "Its record: shopify-catalog-clustering" in page
    assert "found in its own record" in page and "NOT FOUND" not in page
    assert '<mark class="claim"' in page
    content_hash = page.split('name="content_hash" value="')[1].split('"')[0]
    done = client.post(
        "/articles/gpus/approve",
        data={"csrf_token": "t", "by": "Ana", "content_hash": content_hash},
    )
    assert done.status_code == 303
    state = json.loads((workspace / "guides" / "articles" / ".review" / "gpus.json").read_text())
    assert state["status"] == "approved"
    stale = client.post(
        "/articles/gpus/reject",
        data={"csrf_token": "t", "by": "Ana", "note": "No.", "content_hash": "0" * 64},
    )
    assert stale.status_code == 409


def test_a_live_article_is_rechecked_with_the_article_checks(workspace):
    verified_root(workspace)
    drafted(workspace)
    assert run(workspace, "review", "approve", ID, "--by", "Ana").exit_code == 0
    path = workspace / "guides" / "articles" / "gpus.yaml"
    path.write_text(path.read_text() + "angle: measure before you scale\n")
    assert run(workspace, "generate", ID, "--backend", "offline").exit_code == 0
    row = json.loads(run(workspace, "review", "list", "--json", "--kind", "article").output)
    row = row["guides"][0]
    assert row["status"] == "draft" and row["live_hash"]
    assert row["live_failures"] == [] and row["fails_current_checks"] is False
    record = workspace / "sources" / "meta-gem.yaml"
    record.write_text(record.read_text().replace("2.5x", "2x"))
    row = json.loads(run(workspace, "review", "list", "--json", "--kind", "article").output)
    assert row["guides"][0]["live_failures"] == ["figures.reports"]


def test_a_deleted_article_file_is_flagged_and_cannot_be_approved(workspace):
    verified_root(workspace)
    drafted(workspace)
    (workspace / "guides" / "articles" / "gpus.yaml").unlink()
    rows = json.loads(run(workspace, "review", "list", "--json", "--kind", "article").output)
    assert "no article file" in rows["guides"][0]["problem"]
    refused = run(workspace, "review", "approve", ID, "--by", "Ana")
    assert refused.exit_code == 1


def test_an_unreadable_draft_is_an_error_row_not_a_crash(workspace):
    drafted(workspace)
    (workspace / "guides" / "articles" / "gpus.md").write_text("no front matter\n")
    result = run(workspace, "check", "--json", ID)
    assert result.exit_code == 1
    row = json.loads(result.output)["guides"][0]
    assert row["status"] == "unreadable" and "front matter" in row["findings"][0]["message"]


def test_an_edited_reading_list_is_an_originals_error(workspace):
    drafted(workspace)
    path = workspace / "guides" / "articles" / "gpus.md"
    text = path.read_text()
    head, _, tail = text.partition("## Read the originals")
    path.write_text(
        head
        + "## Read the originals"
        + tail.replace("Published 2026-05-20", "Published 2026-05-21")
    )
    findings = json.loads(run(workspace, "check", "--json", ID).output)["guides"][0]["findings"]
    assert "originals.mismatch" in {f["rule"] for f in findings}


def test_a_query_whose_result_changes_flags_the_article_stale(workspace):
    assert (
        run(
            workspace,
            "articles",
            "new",
            "gpus",
            "--title",
            "How teams scaled GPUs",
            "--topic",
            "GPUs",
        ).exit_code
        == 0
    )
    assert run(workspace, "generate", ID, "--backend", "offline").exit_code == 0
    (workspace / "sources" / "acme-gpu-fleet.yaml").write_text(
        "company: Acme\ntitle: Scheduling a GPU fleet\nurl: https://example.com/acme\n"
        "published: 2026-01-05\nsummary: Acme schedules training jobs across a GPU fleet.\n"
        "scale: [one, two, three, four, five]\nstack: [GPUs]\n"
    )
    findings = json.loads(run(workspace, "check", "--json", ID).output)["guides"][0]["findings"]
    assert "staleness.query" in {f["rule"] for f in findings}
    rows = json.loads(run(workspace, "review", "list", "--json", "--kind", "article").output)
    assert rows["guides"][0]["stale"] is True
