"""The head metadata in Debian's Chromium on a static host: the policy holds, nothing fails."""

from __future__ import annotations

from pathlib import Path

import pytest
from browser import chromium_browser
from fakes.static_host import StaticHost
from test_publish import published_workspace

from generator.guides.project import Project
from generator.site import publish

pytestmark = pytest.mark.browser


@pytest.fixture
def site(workspace: Path) -> Path:
    root = published_workspace(workspace)
    publish(Project(root), root / "site", preview=False)
    return root / "site"


def test_pages_load_their_icon_and_styles_under_their_policy_with_no_error(site: Path):
    with StaticHost(site) as host, chromium_browser() as browser:
        page = browser.new_page()
        problems: list[str] = []
        page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda error: problems.append(str(error)))
        for path in ("", "guides/shopify-catalog-clustering/index.html", "topics/gpus/index.html"):
            page.goto(host.url + path)
            page.wait_for_load_state("networkidle")
            color = page.eval_on_selector("a.brand", "el => getComputedStyle(el).fontFamily")
            assert "system-ui" in color, f"style.css did not load on {path!r}"
            # The JSON-LD is there for crawlers and runs no code.
            blocks = page.eval_on_selector_all(
                'script[type="application/ld+json"]', "els => els.map(e => e.textContent)"
            )
            assert len(blocks) == 1
        served = {(p, status) for _, p, status in host.log}
        assert ("/favicon.svg", "200") in served
        assert not any(status == "404" for _, status in served), served
        page.goto(host.url + "no/such/page/")
        assert page.locator("h1").inner_text() == "Page not found"
        assert page.eval_on_selector("a.brand", "el => getComputedStyle(el).fontFamily")
        assert problems == [f for f in problems if "404" in f], problems
