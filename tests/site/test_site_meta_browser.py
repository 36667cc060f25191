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


def test_search_finds_a_guide_by_a_word_of_its_title_on_a_static_host(site: Path):
    with StaticHost(site) as host, chromium_browser() as browser:
        page = browser.new_page()
        problems: list[str] = []
        page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda error: problems.append(str(error)))
        page.goto(host.url + "index.html")
        page.click("nav.site-nav >> text=Search")
        page.fill("#search-q", "clustering")
        page.press("#search-q", "Enter")
        first = page.locator("#search-results li a").first
        first.wait_for(timeout=15000)
        assert first.inner_text() == "Cross-store product clustering across millions of stores"
        assert "result" in page.locator("#search-status").inner_text()
        assert "?q=clustering" in page.url
        first.click()
        page.wait_for_load_state()
        assert page.url == host.url + "guides/shopify-catalog-clustering/index.html"
        # A company is found by its name, and the address of a search can be shared.
        page.goto(host.url + "search/index.html?q=Shopify")
        page.locator("#search-results li a").first.wait_for(timeout=15000)
        found = page.locator("#search-results li a").all_inner_texts()
        assert "Shopify" in found
        assert problems == [], problems
        served = [path for _, path, status in host.log if status == "404"]
        assert served == []


def test_without_script_the_search_page_is_a_list_of_links(site: Path):
    with StaticHost(site) as host, chromium_browser() as browser:
        context = browser.new_context(java_script_enabled=False)
        page = context.new_page()
        page.goto(host.url + "search/index.html?q=clustering")
        assert page.locator("#search-results li").count() == 0
        links = page.locator(".search-browse a")
        hrefs = links.evaluate_all("els => els.map(e => e.getAttribute('href'))")
        assert "../index.html" in hrefs
        assert "../topics/gpus/index.html" in hrefs and "../companies/shopify/index.html" in hrefs
        page.click(".search-browse >> text=Shopify")
        assert page.url == host.url + "companies/shopify/index.html"
