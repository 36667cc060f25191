"""Search finds a career article, in Debian's Chromium on a static host."""

from __future__ import annotations

import pytest
from browser import chromium_browser
from fakes.static_host import StaticHost
from test_article_site import published

pytestmark = pytest.mark.browser


def test_search_finds_the_article_by_a_word_of_its_title(workspace):
    site = published(workspace)
    with StaticHost(site) as host, chromium_browser() as browser:
        page = browser.new_page()
        problems: list[str] = []
        page.on("pageerror", lambda error: problems.append(str(error)))
        page.goto(host.url + "search/index.html?q=scaled")
        first = page.locator("#search-results li a").first
        first.wait_for(timeout=15000)
        assert "How teams scaled GPUs" in page.locator("#search-results li a").all_inner_texts()
        page.get_by_role("link", name="How teams scaled GPUs", exact=True).click()
        page.wait_for_load_state()
        assert page.url == host.url + "articles/gpus/index.html"
        assert problems == [], problems
