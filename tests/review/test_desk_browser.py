"""The review desk in Debian's Chromium: keys, word diffs, bulk approval and comments."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from browser import chromium_browser
from test_review import SEARCH, STEP, hand_edit, make_review_workspace, run

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
