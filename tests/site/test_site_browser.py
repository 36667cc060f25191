"""The published site in Debian's Chromium: labelled sections look different, nothing external."""

from __future__ import annotations

from contextlib import contextmanager
from pathlib import Path

import pytest
from browser import ARTIFACTS, chromium_browser
from test_publish import published_workspace

from generator.guides.project import Project
from generator.site import publish

pytestmark = pytest.mark.browser


@contextmanager
def chromium_page(width: int = 1100, height: int = 900):
    """Open a page in Debian's Chromium, recording every request; fail if it is missing."""
    with chromium_browser() as browser:
        page = browser.new_page(viewport={"width": width, "height": height})
        requests: list[str] = []
        page.on("request", lambda request: requests.append(request.url))
        yield page, requests


def style_of(page, selector: str) -> dict:
    return page.eval_on_selector(
        selector,
        """el => { const s = getComputedStyle(el); return {
            background: s.backgroundColor, borderStyle: s.borderLeftStyle,
            borderColor: s.borderLeftColor,
            fontStyle: getComputedStyle(el.querySelector('p:not(.part-label)')).fontStyle,
            label: el.querySelector('.part-label').innerText }; }""",
    )


def local_only(requests: list[str]) -> None:
    outside = [
        url for url in requests if not url.startswith(("file://", "http://127.0.0.1", "data:"))
    ]
    assert outside == [], f"the page fetched something outside file:// and 127.0.0.1: {outside}"


@pytest.fixture
def site(workspace: Path) -> Path:
    root = published_workspace(workspace)
    out = root / "site"
    publish(Project(root), out, preview=True)
    ARTIFACTS.mkdir(exist_ok=True)
    return out


def test_guide_page_sections_look_different_and_stay_local(site: Path):
    with chromium_page() as (page, requests):
        page.goto((site / "guides/shopify-catalog-clustering/index.html").as_uri())
        reports = style_of(page, "section[data-kind=reports]")
        ours = style_of(page, "section[data-kind=interpretation]")
        assert reports["label"].upper() == "THE SOURCE'S ACCOUNT"
        assert ours["label"].upper() == "OUR INTERPRETATION"
        assert reports["background"] != ours["background"]
        assert (reports["borderStyle"], ours["borderStyle"]) == ("solid", "dashed")
        assert reports["fontStyle"] == "italic" and ours["fontStyle"] == "normal"
        assert page.locator("aside.related h2").inner_text() == "Related stories"
        assert page.get_by_text("Last reviewed").is_visible()
        assert page.locator(".citations a").first.inner_text().endswith("↗")
        stylesheet = page.evaluate("document.styleSheets.length")
        assert stylesheet == 1, "the stylesheet did not load"
        page.screenshot(path=str(ARTIFACTS / "site-guide.png"), full_page=True)
        local_only(requests)


def test_hub_page_and_draft_banner_in_a_narrow_viewport(site: Path):
    with chromium_page(width=390, height=844) as (page, requests):
        page.goto((site / "topics/gpus/index.html").as_uri())
        stats = page.locator(".hub-stats").inner_text()
        assert stats.startswith("3 of the 4 engineering write-ups in our database mention GPUs")
        assert page.locator("article.source-card").count() == 3
        overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
        assert overflow <= 0, "the hub page scrolls sideways on a phone"
        page.screenshot(path=str(ARTIFACTS / "site-hub.png"), full_page=True)
        page.goto((site / "guides/meta-gem/index.html").as_uri())
        banner = page.locator(".banner")
        assert banner.is_visible() and banner.inner_text().startswith("Draft: not reviewed")
        robots = page.locator("meta[name=robots]").get_attribute("content")
        assert "noindex" in robots
        local_only(requests)


def test_following_next_through_a_paginated_hub_shows_each_card_once(workspace: Path):
    root = published_workspace(workspace)
    config = root / "prepguide.toml"
    config.write_text(config.read_text().replace("[site]\n", "[site]\npage_size = 1\n"))
    out = root / "site"
    publish(Project(root), out, preview=False)
    seen, stats = [], []
    with chromium_page(width=390, height=844) as (page, requests):
        page.goto((out / "topics/gpus/index.html").as_uri())
        while True:
            seen += page.locator("article.source-card h2").all_inner_texts()
            stats.append(page.locator(".hub-stats").count())
            assert page.locator("nav.pager").is_visible()
            following = page.locator("nav.pager a[rel=next]")
            if following.count() == 0:
                break
            assert page.locator("link[rel=next]").get_attribute("href") == following.get_attribute(
                "href"
            )
            following.click()
            page.wait_for_load_state()
        assert page.locator("nav.pager").inner_text().count("Page 3 of 3") == 1
        page.locator("nav.pager a[rel=prev]").click()
        assert page.url.endswith("topics/gpus/page/2/index.html")
        local_only(requests)
    assert len(seen) == len(set(seen)) == 3
    assert stats == [1, 0, 0]
