"""The review desk in Debian's Chromium: keys, word diffs, bulk approval and comments."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from browser import chromium_browser, contrast_violations, press_access_key
from test_review import FEATURES, SEARCH, STEP, STREAM, hand_edit, make_review_workspace, run

from generator import review
from generator.guides.project import Project
from generator.review.web import make_server

pytestmark = pytest.mark.browser


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    return make_review_workspace(tmp_path / "ws")


@pytest.fixture
def base(ws: Path):
    """Run the real review app on 127.0.0.1 on a free port; yield its base URL."""
    server = make_server(ws, "127.0.0.1", 0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        thread.join(timeout=10)


def test_a_one_word_edit_shows_as_that_word_struck_and_inserted(ws: Path, base: str) -> None:
    assert run(ws, "review", "approve", SEARCH, "--by", "Ada").exit_code == 0
    hand_edit(ws, SEARCH, STEP, STEP.replace("ranking.", "ranker."))
    with chromium_browser() as browser:
        page = browser.new_page()
        page.goto(f"{base}/guides/{SEARCH}")
        live = page.locator("#diffs .word-diff").last
        assert live.locator("del").all_inner_texts() == ["ranking"]
        assert live.locator("ins").all_inner_texts() == ["ranker"]
        assert live.locator(".words").inner_text() == STEP.replace("ranking.", "rankingranker.")
        struck = live.locator("del").evaluate("e => getComputedStyle(e).textDecorationLine")
        assert struck == "line-through"
        assert live.locator("ins").evaluate("e => getComputedStyle(e).backgroundColor") != (
            "rgba(0, 0, 0, 0)"
        )


def test_a_reviewer_approves_with_the_keyboard_and_lands_on_the_next_guide(
    ws: Path, base: str, monkeypatch
) -> None:
    monkeypatch.setenv("PREPGUIDE_REVIEWER", "Kay Board")
    with chromium_browser() as browser:
        page = browser.new_page()
        page.goto(f"{base}/guides/{SEARCH}")
        assert page.locator("#decide-form input[name=by]").input_value() == "Kay Board"
        press_access_key(page, "t")
        assert page.evaluate("document.activeElement.id") == "note"
        page.keyboard.type("figures match the record")
        with page.expect_navigation():
            press_access_key(page, "a")
        assert page.url.startswith(f"{base}/guides/{STREAM}?")
        assert page.locator("#done").inner_text() == f"Done: approved {SEARCH}."
        with page.expect_navigation():
            press_access_key(page, "n")
        assert page.url == f"{base}/guides/{FEATURES}"
        with page.expect_navigation():
            press_access_key(page, "p")
        assert page.url == f"{base}/guides/{STREAM}"
        with page.expect_navigation():
            press_access_key(page, "q")
        assert page.url == f"{base}/"
    approved = review.live_version(Project(ws), SEARCH)
    assert (approved.approved_by, review.read_state(Project(ws), SEARCH).note) == (
        "Kay Board",
        "figures match the record",
    )


def test_bulk_approval_of_the_clean_drafts_from_the_queue(ws: Path, base: str) -> None:
    hand_edit(ws, STREAM, "## Put it into practice", "## Steps")  # an error finding
    with chromium_browser() as browser:
        page = browser.new_page()
        page.goto(f"{base}/")
        form = page.locator("#approve-clean-form")
        assert "2 drafts in this view have no findings" in form.inner_text()
        page.click("#list-clean")
        shown = page.locator("#queue tbody tr").evaluate_all(
            "rows => rows.map(r => r.dataset.guide)"
        )
        assert shown == [SEARCH, FEATURES]
        page.fill("#approve-clean-form input[name=by]", "Bea Bulk")
        with page.expect_navigation():
            page.click("#approve-clean")
        assert page.locator("#done").inner_text() == "Done: approved 2 clean drafts."
        page.goto(f"{base}/")
        statuses = {
            guide: page.locator(f'tr[data-guide="{guide}"] .status').inner_text()
            for guide in (SEARCH, STREAM, FEATURES)
        }
        assert statuses == {SEARCH: "approved", STREAM: "draft", FEATURES: "approved"}
    lines = [e for e in review.log(Project(ws)) if e.action == "approve"]
    assert sorted((e.guide, e.actor) for e in lines) == [
        (SEARCH, "Bea Bulk"),
        (FEATURES, "Bea Bulk"),
    ]
    for entry in lines:
        assert entry.content_hash == Project(ws).guides.read(entry.guide).content_hash


def test_an_editor_leaves_a_comment_the_next_one_reads(ws: Path, base: str) -> None:
    with chromium_browser() as browser:
        page = browser.new_page()
        page.goto(f"{base}/guides/{STREAM}")
        assert page.locator("#discussion").inner_text().count("No comments yet.") == 1
        page.fill("#comment-form input[name=by]", "Ada")
        page.fill("#comment-form textarea[name=text]", "Does the billing angle hold?")
        with page.expect_navigation():
            page.click("#comment-form button[type=submit]")
        assert page.url.endswith("#discussion")
        page.fill("#assign-form input[name=by]", "Ada")
        page.fill("#assign-form input[name=to]", "Bo")
        with page.expect_navigation():
            page.click("#assign-form button[type=submit]")
        other = browser.new_page()  # another editor, later
        other.goto(f"{base}/?assignee=Bo")
        other.click(f'a[href^="/guides/{STREAM}"]')
        remarks = other.locator("#discussion ol.remarks li")
        assert remarks.count() == 2
        assert "Ada" in remarks.nth(0).inner_text()
        assert other.locator("#discussion p.comment").inner_text() == "Does the billing angle hold?"
        assert "assigned it to Bo" in remarks.nth(1).inner_text()
        assert other.locator("#assignee").inner_text() == "Bo"
    comments = [e for e in review.log(Project(ws), STREAM) if e.action == "comment"]
    assert [(e.actor, e.note) for e in comments] == [("Ada", "Does the billing angle hold?")]


def test_the_desk_follows_a_dark_scheme_and_keeps_aa_contrast(ws: Path, base: str) -> None:
    assert run(ws, "review", "approve", SEARCH, "--by", "Ada").exit_code == 0
    hand_edit(ws, SEARCH, STEP, STEP.replace("ranking.", "ranker."))
    ground = "() => getComputedStyle(document.body).backgroundColor"
    found = {}
    with chromium_browser() as browser:
        for scheme in ("dark", "light"):
            page = browser.new_page(viewport={"width": 1280, "height": 900}, color_scheme=scheme)
            for path in ("/", f"/guides/{SEARCH}", f"/guides/{STREAM}"):
                page.goto(base + path)
                red, green, blue = (int(c) for c in page.evaluate(ground)[4:-1].split(", ")[:3])
                dark = max(red, green, blue) < 40
                assert dark == (scheme == "dark"), (scheme, path, red, green, blue)
                found[f"{scheme} {path}"] = [
                    f"{v['id']} at {[n['target'] for n in v['nodes']]}"
                    for v in contrast_violations(page)
                ]
            page.close()
    assert not any(found.values()), found
