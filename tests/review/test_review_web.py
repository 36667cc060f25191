"""The review page through Flask's test client: evidence, refusals, CSRF, local-only."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from test_review import FEATURES, SEARCH, STREAM, hand_edit, make_review_workspace

from generator import review
from generator.guides.project import Project
from generator.review.web import create_app


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    return make_review_workspace(tmp_path / "ws")


@pytest.fixture
def app(ws: Path):
    return create_app(ws, secret="test-token")


def form(**fields: str) -> dict[str, str]:
    return {"csrf_token": "test-token", **fields}


def test_queue_lists_status_flags_and_counts(ws: Path, app) -> None:
    hand_edit(ws, STREAM, "## Put it into practice", "## Steps")
    page = app.test_client().get("/").get_data(as_text=True)
    row = re.search(rf'<tr data-guide="{STREAM}">(.*?)</tr>', page, re.S).group(1)
    assert "status-draft" in row and 'class="errors">1<' in row
    assert f'href="/guides/{SEARCH}"' in page


def test_guide_view_marks_each_figure_and_highlights_its_span(ws: Path, app) -> None:
    hand_edit(ws, SEARCH, "12 million queries a day.", "12 million queries a day and 99.9% uptime.")
    page = app.test_client().get(f"/guides/{SEARCH}").get_data(as_text=True)
    assert re.search(r'class="found">figure “40%”:\s*found in the source', page)
    assert re.search(r'class="not-found">figure “99.9%”:\s*NOT FOUND', page)
    summary = re.search(r'<div id="src-summary">(.*?)</div>', page, re.S).group(1)
    assert re.search(r'<mark class="claim"[^>]*>40%</mark>', summary)
    assert "99.9%" not in summary


def test_post_without_csrf_token_is_refused_and_changes_nothing(ws: Path, app) -> None:
    client = app.test_client()
    for data in ({"by": "Mallory"}, {"by": "Mallory", "csrf_token": "guess"}):
        response = client.post(f"/guides/{SEARCH}/approve", data=data)
        assert response.status_code == 403
        assert "CSRF token is missing or wrong" in response.get_data(as_text=True)
    assert review.live_version(Project(ws), SEARCH) is None
    assert "approve" not in [e.action for e in review.log(Project(ws))]


def test_refused_action_shows_the_reason_on_the_page(ws: Path, app) -> None:
    hand_edit(ws, STREAM, "## Put it into practice", "## Steps")
    response = app.test_client().post(f"/guides/{STREAM}/approve", data=form(by="Ada"))
    assert response.status_code == 409
    message = re.search(r'id="message">(.*?)</p>', response.get_data(as_text=True), re.S).group(1)
    assert "cannot approve while checks report 1 error" in message
    assert "structure.heading" in message


def test_a_page_opened_before_an_edit_cannot_approve_the_new_text(ws: Path, app) -> None:
    seen = Project(ws).guides.read(FEATURES).content_hash
    hand_edit(ws, FEATURES, "## Put it into practice\n\nYour", "## Put it into practice\n\nOur")
    response = app.test_client().post(
        f"/guides/{FEATURES}/approve", data=form(by="Ada", content_hash=seen)
    )
    assert response.status_code == 409
    assert "changed since you opened it" in response.get_data(as_text=True)


def test_approve_then_withdraw_through_the_forms(ws: Path, app) -> None:
    client = app.test_client()
    doc = Project(ws).guides.read(SEARCH)
    done = client.post(
        f"/guides/{SEARCH}/approve", data=form(by="Ada", content_hash=doc.content_hash)
    )
    assert done.status_code == 303
    assert "Done: approved" in client.get(done.headers["Location"]).get_data(as_text=True)
    assert review.live_version(Project(ws), SEARCH).approved_by == "Ada"
    out = client.post(f"/guides/{SEARCH}/withdraw", data=form(by="Ada", reason="superseded"))
    assert out.status_code == 303
    assert review.read_state(Project(ws), SEARCH).status == "withdrawn"


def test_guide_text_is_escaped(ws: Path, app) -> None:
    hand_edit(ws, SEARCH, STEP_TEXT, "- <script>alert(1)</script> step")
    page = app.test_client().get(f"/guides/{SEARCH}").get_data(as_text=True)
    assert "<script>alert(1)</script>" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page


def test_unknown_guides_and_foreign_hosts_are_refused(app) -> None:
    client = app.test_client()
    assert client.get("/guides/nope").status_code == 404
    assert client.get("/guides/..%2Fetc").status_code == 404
    assert client.get("/", headers={"Host": "evil.example"}).status_code == 400


def test_the_page_uses_no_external_assets(ws: Path, app) -> None:
    client = app.test_client()
    for url in ("/", f"/guides/{SEARCH}"):
        page = client.get(url).get_data(as_text=True)
        assert not re.search(r'(src|href)="(https?:)?//', page.split('id="guide"')[0])
        assert re.findall(r"<link[^>]*>", page) == [
            '<link rel="stylesheet" href="/static/review.css">'
        ]
        assert "<script" not in page


STEP_TEXT = "- Build a judged query set before changing the ranking."
