"""The review desk: actions at the top, the next guide after a decision, the reviewer's name."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from test_review import FEATURES, SEARCH, STREAM, change_source, make_review_workspace, run

from generator import review
from generator.guides.project import Project
from generator.review.web import create_app


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    return make_review_workspace(tmp_path / "ws")


@pytest.fixture
def client(ws: Path):
    return create_app(ws, secret="test-token").test_client()


def form(**fields: str) -> dict[str, str]:
    return {"csrf_token": "test-token", **fields}


def hash_of(ws: Path, guide_id: str) -> str:
    return Project(ws).guides.read(guide_id).content_hash


def set_reviewer(ws: Path, name: str) -> None:
    with (ws / "prepguide.toml").open("a", encoding="utf-8") as handle:
        handle.write(f'\n[review]\nreviewer = "{name}"\n')


def test_the_decision_form_comes_before_the_findings_and_the_text(client) -> None:
    page = client.get(f"/guides/{SEARCH}").get_data(as_text=True)
    assert page.index('id="decide-form"') < page.index('id="findings"') < page.index('id="guide"')


def test_approve_then_reject_each_go_on_to_the_next_draft_then_to_the_queue(ws, client) -> None:
    done = client.post(
        f"/guides/{SEARCH}/approve", data=form(by="Ada", content_hash=hash_of(ws, SEARCH))
    )
    assert done.status_code == 303
    assert done.headers["Location"].startswith(f"/guides/{STREAM}?")
    page = client.get(done.headers["Location"]).get_data(as_text=True)
    assert f"Done: approved {SEARCH}." in page
    assert '<span class="status status-draft" id="status">draft</span>' in page

    done = client.post(
        f"/guides/{STREAM}/reject",
        data=form(by="Ada", note="needs the billing angle", content_hash=hash_of(ws, STREAM)),
    )
    assert done.headers["Location"].startswith(f"/guides/{FEATURES}?")
    # The last draft: back to the queue, which says what was done.
    done = client.post(
        f"/guides/{FEATURES}/approve", data=form(by="Ada", content_hash=hash_of(ws, FEATURES))
    )
    assert done.headers["Location"].startswith("/?")
    assert f"Done: approved {FEATURES}." in client.get(done.headers["Location"]).get_data(
        as_text=True
    )
    assert [review.read_state(Project(ws), g).status for g in (SEARCH, STREAM, FEATURES)] == [
        "approved",
        "rejected",
        "approved",
    ]


def test_the_next_draft_wraps_to_the_top_and_skips_decided_guides(ws, client) -> None:
    assert run(ws, "review", "approve", SEARCH, "--by", "Ada").exit_code == 0
    done = client.post(
        f"/guides/{FEATURES}/approve", data=form(by="Bo", content_hash=hash_of(ws, FEATURES))
    )
    assert done.headers["Location"].startswith(f"/guides/{STREAM}?")


def test_a_refused_decision_stays_on_the_guide_and_says_why(ws, client) -> None:
    response = client.post(f"/guides/{STREAM}/reject", data=form(by="Ada", note=" "))
    assert response.status_code == 409
    assert "note (--note) is required" in response.get_data(as_text=True)
    assert review.read_state(Project(ws), STREAM) is None


def reviewer_field(client) -> str:
    page = client.get(f"/guides/{SEARCH}").get_data(as_text=True)
    return re.search(r'<input type="text" name="by" value="([^"]*)"', page).group(1)


def test_the_reviewer_name_comes_from_the_environment_then_the_settings(
    ws, client, monkeypatch
) -> None:
    assert reviewer_field(client) == ""
    set_reviewer(ws, "Rita Settings")
    assert reviewer_field(client) == "Rita Settings"
    monkeypatch.setenv("PREPGUIDE_REVIEWER", "Enzo Env")
    assert reviewer_field(client) == "Enzo Env"
    # A decision made under one name does not change the default: it is never "the last used".
    client.post(f"/guides/{SEARCH}/approve", data=form(by="Other Name"))
    monkeypatch.delenv("PREPGUIDE_REVIEWER")
    assert reviewer_field(client) == "Rita Settings"


def test_the_cli_uses_the_same_default_for_by(ws, monkeypatch) -> None:
    result = run(ws, "review", "approve", SEARCH)
    assert result.exit_code == 2
    assert "name the reviewer with --by NAME, or set PREPGUIDE_REVIEWER" in result.output
    assert review.read_state(Project(ws), SEARCH) is None

    set_reviewer(ws, "Rita Settings")
    assert run(ws, "review", "approve", SEARCH).exit_code == 0
    assert review.read_state(Project(ws), SEARCH).by == "Rita Settings"
    monkeypatch.setenv("PREPGUIDE_REVIEWER", "Enzo Env")
    assert run(ws, "review", "reject", STREAM, "--note", "no").exit_code == 0
    assert review.read_state(Project(ws), STREAM).by == "Enzo Env"
    assert run(ws, "review", "approve", FEATURES, "--by", "Given").exit_code == 0
    assert review.read_state(Project(ws), FEATURES).by == "Given"


def test_a_reviewer_setting_with_a_control_character_is_refused(ws) -> None:
    set_reviewer(ws, "Rita\\u0007")
    result = run(ws, "review", "approve", SEARCH)
    assert result.exit_code != 0
    assert "review.reviewer: contains the control character U+0007" in str(result.exception)


def test_a_record_edited_while_the_page_runs_is_read_again(ws, client) -> None:
    old, new = "engineering.acme.example/search-ranking", "engineering.acme.example/ranking-v2"
    assert old in client.get(f"/guides/{SEARCH}").get_data(as_text=True)
    change_source(ws, SEARCH, old, new)
    page = client.get(f"/guides/{SEARCH}").get_data(as_text=True)
    source = page[page.index('id="source"') : page.index('id="diffs"')]
    assert new in source and old not in source
    assert (
        "stale"
        in re.search(rf'<tr data-guide="{SEARCH}">(.*?)</tr>', client.get("/").text, re.S)[1]
    )


def access_keys(page: str) -> dict[str, str]:
    """Map each access key of a page to the id of the element that carries it."""
    return {
        key: element_id
        for element_id, key in re.findall(r'<[^>]*\bid="([^"]+)"[^>]*\baccesskey="(.)"', page)
    }


def test_every_action_has_an_access_key_and_the_page_lists_them(client) -> None:
    page = client.get(f"/guides/{STREAM}").get_data(as_text=True)
    assert access_keys(page) == {
        "q": "to-queue",
        "p": "previous",
        "n": "next",
        "t": "note",
        "a": "approve",
        "r": "reject",
    }
    keys = re.search(r'<p class="keys" id="shortcuts">(.*?)</p>', page, re.S).group(1)
    names = ("approve", "reject", "the note", "next", "previous", "queue")
    for key, what in zip("ARTNPQ", names, strict=True):
        assert re.search(rf"<kbd>{key}</kbd> [a-z ]*{what}", keys), key
    assert "<script" not in page
    first = client.get(f"/guides/{SEARCH}").get_data(as_text=True)
    assert "p" not in access_keys(first) and "<kbd>P</kbd>" not in first  # no previous guide
    queue = client.get("/?per_page=1&page=2").get_data(as_text=True)
    assert access_keys(queue) == {"s": "search", "p": "previous-page", "n": "next-page"}


def test_the_source_url_and_each_citation_are_links(ws, client) -> None:
    with (ws / "sources" / f"{SEARCH}.yaml").open("a", encoding="utf-8") as handle:
        handle.write(
            "citations:\n"
            "  - {title: Ranking talk, url: 'https://talks.acme.example/ranking?a=1&b=2',"
            " publisher: Acme Talks, published: 2026-09-10}\n"
            "  - {title: Internal memo}\n"
        )
    page = client.get(f"/guides/{SEARCH}").get_data(as_text=True)
    source = page[page.index('id="source"') : page.index('id="diffs"')]
    assert (
        '<a href="https://engineering.acme.example/search-ranking" id="source-url" '
        'rel="noopener noreferrer">https://engineering.acme.example/search-ranking</a>'
    ) in source
    citations = re.search(r'<div id="citations">(.*?)</div>', source, re.S).group(1)
    assert re.findall(r'<a href="([^"]+)" rel="noopener noreferrer">([^<]+)</a>', citations) == [
        ("https://talks.acme.example/ranking?a=1&amp;b=2", "Ranking talk")
    ]
    assert "Internal memo (no URL)" in citations
    assert "Acme Talks · 2026-09-10" in citations
