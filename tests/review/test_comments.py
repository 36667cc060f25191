"""Comments between editors and assignments, kept in the audit trail, on the page and the CLI."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from test_review import FEATURES, SEARCH, STEP, STREAM, hand_edit, make_review_workspace, run

from generator import review
from generator.guides.project import Project
from generator.review.web import create_app


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    return make_review_workspace(tmp_path / "ws")


@pytest.fixture
def client(ws: Path):
    return create_app(ws, secret="t").test_client()


def audit_lines(ws: Path) -> list[dict]:
    text = (ws / "guides" / ".audit.jsonl").read_text(encoding="utf-8")
    return [json.loads(line) for line in text.splitlines()]


def test_a_comment_from_the_page_is_an_audit_line_shown_on_the_guide(ws, client) -> None:
    before = review.read_state(Project(ws), SEARCH)
    done = client.post(
        f"/guides/{SEARCH}/comment",
        data={"csrf_token": "t", "by": "Ada", "text": "Is 40% the p99 or the mean?\nSee the post."},
    )
    assert done.status_code == 303 and done.headers["Location"].endswith("#discussion")
    page = client.get(done.headers["Location"]).get_data(as_text=True)
    assert "Done: comment added." in page
    shown = re.search(r'<ol class="remarks">(.*?)</ol>', page, re.S).group(1)
    assert '<span class="who">Ada</span>' in shown
    assert '<p class="comment">Is 40% the p99 or the mean?\nSee the post.</p>' in shown
    last = audit_lines(ws)[-1]
    doc = Project(ws).guides.read(SEARCH)
    assert (last["action"], last["actor"], last["guide"], last["content_hash"]) == (
        "comment",
        "Ada",
        SEARCH,
        doc.content_hash,
    )
    assert (last["from_state"], last["to_state"]) == ("draft", "draft")
    assert review.read_state(Project(ws), SEARCH) == before  # a comment changes no state


def test_a_comment_on_an_earlier_text_says_so(ws, client) -> None:
    assert (
        run(ws, "review", "comment", SEARCH, "--text", "check step 1", "--by", "Bo").exit_code == 0
    )
    hand_edit(ws, SEARCH, STEP, STEP.replace("ranking.", "ranker."))
    page = client.get(f"/guides/{SEARCH}").get_data(as_text=True)
    assert "(on an earlier text," in page


def test_comments_are_escaped_and_empty_ones_refused(ws, client) -> None:
    client.post(
        f"/guides/{SEARCH}/comment", data={"csrf_token": "t", "by": "Eve", "text": "<b>hi</b>"}
    )
    page = client.get(f"/guides/{SEARCH}").get_data(as_text=True)
    assert "&lt;b&gt;hi&lt;/b&gt;" in page and "<b>hi</b>" not in page
    refused = client.post(
        f"/guides/{SEARCH}/comment", data={"csrf_token": "t", "by": "Eve", "text": "  \n "}
    )
    assert refused.status_code == 409 and "the comment (--text) is empty" in refused.text
    forged = client.post(f"/guides/{SEARCH}/comment", data={"by": "Eve", "text": "x"})
    assert forged.status_code == 403
    assert [e.note for e in review.remarks_of(Project(ws), SEARCH)] == ["<b>hi</b>"]


def test_an_assignment_is_audited_and_the_queue_filters_by_it(ws, client) -> None:
    done = client.post(
        f"/guides/{STREAM}/assign", data={"csrf_token": "t", "by": "Ada", "to": "Bo"}
    )
    assert done.status_code == 303
    assert '<span id="assignee">Bo</span>' in client.get(f"/guides/{STREAM}").text
    assert run(ws, "review", "assign", FEATURES, "--to", "Cy", "--by", "Ada").exit_code == 0

    def listed(url: str) -> list[str]:
        return re.findall(r'<tr data-guide="([^"]+)">', client.get(url).text)

    assert listed("/?assignee=Bo") == [STREAM]
    assert listed("/?assignee=cy") == [FEATURES]
    assert listed("/?assignee=(unassigned)") == [SEARCH]
    assert listed("/?sort=assignee") == [STREAM, FEATURES, SEARCH]
    options = re.search(r'<select name="assignee">(.*?)</select>', client.get("/").text, re.S)[1]
    assert re.findall(r"<option>([^<]+)</option>", options) == ["(unassigned)", "Bo", "Cy"]

    assert run(ws, "review", "assign", STREAM, "--nobody", "--by", "Ada").exit_code == 0
    assert listed("/?assignee=Bo") == []
    assigns = [
        (e["guide"], e["actor"], e["note"]) for e in audit_lines(ws) if e["action"] == "assign"
    ]
    assert assigns == [(STREAM, "Ada", "Bo"), (FEATURES, "Ada", "Cy"), (STREAM, "Ada", None)]


def test_the_cli_comments_assigns_and_shows_them(ws, monkeypatch) -> None:
    monkeypatch.setenv("PREPGUIDE_REVIEWER", "Ada")
    result = run(ws, "review", "comment", SEARCH, "--text", "the figures match")
    assert result.exit_code == 0, result.output
    assert result.output == f"{SEARCH}: comment by Ada kept in the audit log\n"
    assert run(ws, "review", "assign", SEARCH, "--to", "Bo").output == f"{SEARCH}: assigned to Bo\n"
    shown = run(ws, "review", "show", SEARCH).output
    assert "  assigned  Bo\n" in shown
    assert re.search(r"  comment   Ada at \S+: the figures match\n", shown)
    log = run(ws, "review", "log", SEARCH).output
    assert re.search(r" comment by Ada: draft -> draft .* - the figures match", log)
    assert run(ws, "review", "assign", SEARCH).exit_code == 2
    assert run(ws, "review", "comment", "no-such-guide", "--text", "x").exit_code == 1
