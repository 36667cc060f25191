"""Approving every draft with no findings from the queue: each bound to its text and audited."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from test_review import FEATURES, SEARCH, STEP, STREAM, hand_edit, make_review_workspace

from generator import review
from generator.guides.project import Project
from generator.review.web import create_app


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    return make_review_workspace(tmp_path / "ws")


@pytest.fixture
def client(ws: Path):
    return create_app(ws, secret="t").test_client()


def bulk_form(client, url: str = "/") -> tuple[str, dict[str, str]]:
    """Return the bulk form's action and fields as the queue page at url shows them."""
    page = client.get(url).get_data(as_text=True)
    found = re.search(r'<form method="post" action="([^"]+)" id="approve-clean-form"', page)
    action = found.group(1).replace("&amp;", "&")
    seen = re.search(r'name="seen" value="([0-9a-f]+)"', page).group(1)
    return action, {"csrf_token": "t", "seen": seen, "by": "Ada"}


def approvals(ws: Path) -> list[tuple[str, str, str | None]]:
    return [
        (e.guide, e.actor, e.content_hash) for e in review.log(Project(ws)) if e.action == "approve"
    ]


def test_the_queue_approves_its_clean_drafts_each_with_its_own_audit_line(ws, client) -> None:
    hand_edit(ws, STREAM, "## Put it into practice", "## Steps")  # an error: not clean
    page = client.get("/").get_data(as_text=True)
    assert "2 drafts in this view have no findings" in page
    hashes = {g: Project(ws).guides.read(g).content_hash for g in (SEARCH, FEATURES)}
    action, fields = bulk_form(client)
    done = client.post(action, data=fields)
    assert done.status_code == 303
    assert "Done: approved 2 clean drafts." in client.get(done.headers["Location"]).text
    assert sorted(approvals(ws)) == [(g, "Ada", hashes[g]) for g in (SEARCH, FEATURES)]
    assert review.read_state(Project(ws), STREAM) is None
    assert 'id="approve-clean-form"' not in client.get("/").text  # none left


def test_only_the_view_s_clean_drafts_are_approved(ws, client) -> None:
    action, fields = bulk_form(client, "/?company=Globex")
    assert action == "/approve-clean?company=Globex"
    assert client.post(action, data=fields).status_code == 303
    assert [guide for guide, _, _ in approvals(ws)] == [STREAM]


def test_a_draft_edited_after_the_page_was_loaded_stops_the_whole_approval(ws, client) -> None:
    action, fields = bulk_form(client)
    hand_edit(ws, SEARCH, STEP, STEP.replace("ranking.", "ranker."))
    refused = client.post(action, data=fields)
    assert refused.status_code == 409
    assert "changed since the page was loaded; nothing was approved" in refused.text
    assert approvals(ws) == []


def test_a_text_changed_under_the_approval_is_refused_by_its_hash(ws) -> None:
    project = Project(ws)
    seen = {g: project.guides.read(g).content_hash for g in (SEARCH, STREAM)}
    hand_edit(ws, SEARCH, STEP, STEP.replace("ranking.", "ranker."))
    outcomes, refused = review.approve_many(
        project, list(seen), by="Ada", clean=True, expected=seen
    )
    assert [o.guide_id for o in outcomes] == [STREAM]
    assert [(e.record_id, e.rule) for e in refused] == [(SEARCH, "review.changed")]


def test_the_bulk_form_needs_its_csrf_token(ws, client) -> None:
    action, fields = bulk_form(client)
    assert client.post(action, data={**fields, "csrf_token": "guess"}).status_code == 403
    assert approvals(ws) == []
