"""The review page in Debian's Chromium: approve and reject through the forms, then audit."""

from __future__ import annotations

import json
import threading
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import pytest
from browser import ARTIFACTS, chromium_browser
from test_review import FEATURES, SEARCH, STREAM, make_review_workspace

from generator import review
from generator.guides.project import Project
from generator.review.web import make_server

pytestmark = pytest.mark.browser


@pytest.fixture
def served(tmp_path: Path):
    """Run the real review app on 127.0.0.1 on a free port; yield (root, base URL)."""
    root = make_review_workspace(tmp_path / "ws")
    server = make_server(root, "127.0.0.1", 0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield root, f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        thread.join(timeout=10)


def test_review_page_approves_and_rejects_in_a_real_browser(served) -> None:
    root, base = served
    with chromium_browser() as browser:
        check_review_flow(root, base, browser.new_page())


def check_review_flow(root: Path, base: str, page) -> None:
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))

    page.goto(base + "/")
    rows = page.locator("#queue tbody tr")
    assert rows.count() == 3
    assert page.locator(f'tr[data-guide="{SEARCH}"] .status').inner_text() == "draft"

    page.click(f'a[href="/guides/{SEARCH}"]')
    assert page.locator("#evidence li.found").count() >= 2
    assert page.locator("#evidence li.not-found").count() == 0
    assert page.locator("#source mark.claim").first.is_visible()
    page.fill("#decide-form input[name=by]", "Ada Editor")
    page.fill("#decide-form textarea[name=note]", "figures match the record")
    page.click("#approve")
    page.wait_for_selector("#done")
    # The page goes on to the next draft of the queue.
    assert page.url.startswith(f"{base}/guides/{STREAM}?")
    assert page.locator("#done").inner_text() == f"Done: approved {SEARCH}."
    assert page.locator("#status").inner_text() == "draft"

    # A refused action shows its reason on the page.
    page.fill("#decide-form input[name=by]", "Bo Reviewer")
    page.click("#reject")
    assert "note (--note) is required" in page.locator("#message").inner_text()
    page.fill("#decide-form input[name=by]", "Bo Reviewer")
    page.fill("#decide-form textarea[name=note]", "the angle ignores billing correctness")
    page.click("#reject")
    page.wait_for_selector("#done")
    assert page.url.startswith(f"{base}/guides/{FEATURES}?")

    page.goto(base + "/")
    assert page.locator(f'tr[data-guide="{SEARCH}"] .status').inner_text() == "approved"
    assert page.locator(f'tr[data-guide="{STREAM}"] .status').inner_text() == "rejected"
    assert page.locator(f'tr[data-guide="{FEATURES}"] .status').inner_text() == "draft"
    ARTIFACTS.mkdir(exist_ok=True)
    page.goto(base + f"/guides/{SEARCH}")
    page.screenshot(path=str(ARTIFACTS / "review-guide.png"), full_page=True)
    page.goto(base + "/")
    page.screenshot(path=str(ARTIFACTS / "review-queue.png"), full_page=True)
    assert all(url.startswith(base) for url in requests), "the page loaded an external asset"

    state = json.loads((root / "guides" / ".review" / f"{SEARCH}.json").read_text())
    doc = Project(root).guides.read(SEARCH)
    assert state["status"] == "approved"
    assert state["live"]["content_hash"] == doc.content_hash
    assert state["live"]["approved_by"] == "Ada Editor"
    rejected = json.loads((root / "guides" / ".review" / f"{STREAM}.json").read_text())
    assert (rejected["status"], rejected["by"], rejected["note"]) == (
        "rejected",
        "Bo Reviewer",
        "the angle ignores billing correctness",
    )
    lines = (root / "guides" / ".audit.jsonl").read_text().splitlines()
    acted = [json.loads(line) for line in lines if json.loads(line)["action"] != "revise"]
    assert [
        (e["guide"], e["action"], e["actor"], e["from_state"], e["to_state"]) for e in acted
    ] == [
        (SEARCH, "approve", "Ada Editor", "draft", "approved"),
        (STREAM, "reject", "Bo Reviewer", "draft", "rejected"),
    ]
    assert acted[0]["note"] == "figures match the record"
    assert acted[0]["content_hash"] == doc.content_hash


def test_direct_post_without_csrf_token_is_refused(served) -> None:
    root, base = served
    body = urllib.parse.urlencode({"by": "Mallory"}).encode()
    request = urllib.request.Request(f"{base}/guides/{FEATURES}/approve", data=body)
    with pytest.raises(urllib.error.HTTPError) as caught:
        urllib.request.urlopen(request, timeout=10)
    assert caught.value.code == 403
    assert "CSRF token" in caught.value.read().decode()
    assert review.live_version(Project(root), FEATURES) is None
