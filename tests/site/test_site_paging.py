"""Paginated listings: hubs, company pages and the digest archive, a page of cards at a time."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from test_digest_site import digest_site
from test_publish import published_workspace
from test_publish_pages import canonical, html_pages, sitemap_urls

from generator.guides.project import Project
from generator.site import publish

BASE = "https://prepguide.example.org/"


def set_page_size(root: Path, size: int) -> None:
    config = root / "prepguide.toml"
    config.write_text(config.read_text().replace("[site]\n", f"[site]\npage_size = {size}\n"))


def card_ids(page: str) -> list[str]:
    return re.findall(r'<article class="card source-card" id="([^"]+)">', page)


def head_links(page: str) -> dict[str, str]:
    head = page[: page.index("</head>")]
    return dict(re.findall(r'<link rel="(prev|next)" href="([^"]+)">', head))


@pytest.fixture
def paged_root(workspace: Path) -> Path:
    root = published_workspace(workspace)
    set_page_size(root, 1)
    return root


def test_a_hub_is_split_into_pages_with_the_statistics_on_the_first(paged_root: Path):
    out = paged_root / "site"
    report = publish(Project(paged_root), out, preview=True)
    hub = [p for p in report.pages if p.startswith("topics/gpus/")]
    assert hub == [
        "topics/gpus/index.html",
        "topics/gpus/page/2/index.html",
        "topics/gpus/page/3/index.html",
    ]
    pages = [(out / p).read_text() for p in hub]
    # Every write-up of the hub once, a page each, in the hub's order (newest first).
    assert [card_ids(p) for p in pages] == [
        ["meta-gem"],
        ["shopify-catalog-clustering"],
        ["meta-llm-training-at-scale"],
    ]
    first, second, last = pages
    assert first.count('class="hub-stats"') == 1 and "3 of the 4 engineering write-ups" in first
    for later in (second, last):
        body = later[later.index("<main>") :]
        assert "hub-stats" not in body and "engineering write-ups in our database" not in body
        assert '<a href="../../../../topics/gpus/index.html">' in later
    assert head_links(first) == {"next": "../../topics/gpus/page/2/index.html"}
    assert head_links(second) == {
        "prev": "../../../../topics/gpus/index.html",
        "next": "../../../../topics/gpus/page/3/index.html",
    }
    assert head_links(last) == {"prev": "../../../../topics/gpus/page/2/index.html"}
    assert "<span>Page 2 of 3</span>" in second
    assert '<a rel="next" href="../../../../topics/gpus/page/3/index.html">' in second
    title = "How teams scaled GPUs: 3 real case studies"
    assert f"<title>{title} · page 2 · Prepguide</title>" in second
    # Links in a card two folders further down still reach their pages.
    assert 'href="../../../../guides/shopify-catalog-clustering/index.html"' in second
    assert 'href="../../../../style.css"' in second


def test_a_related_story_links_to_the_company_page_that_shows_its_card(paged_root: Path):
    out = paged_root / "site"
    publish(Project(paged_root), out, preview=False)
    company = [card_ids((out / p).read_text()) for p in sorted(html_pages(out)) if "meta/" in p]
    assert sorted(sum(company, [])) == ["meta-gem", "meta-llm-training-at-scale", "meta-prometheus"]
    guide = (out / "guides/meta-llm-training-at-scale/index.html").read_text()
    for card in ("meta-gem", "meta-prometheus"):
        (href,) = re.findall(rf'href="\.\./\.\./(companies/meta/[^"#]*)#{card}"', guide)
        assert card_ids((out / href).read_text()) == [card], href
    assert (out / "companies/meta/page/3/index.html").is_file()
    assert "hub-stats" not in (out / "companies/meta/page/2/index.html").read_text()


def test_every_page_of_every_listing_is_in_the_sitemap(paged_root: Path):
    out = paged_root / "site"
    publish(Project(paged_root), out, preview=False)
    pages = html_pages(out)
    assert "companies/meta/page/3/index.html" in pages and "page/2/index.html" in pages
    for relative, page in pages.items():
        assert canonical(page) == BASE + relative.removesuffix("index.html"), relative
    indexed = {canonical(page) for page in pages.values() if "noindex" not in page}
    assert sitemap_urls(out) == indexed


def test_the_digest_archive_is_paginated_newest_first(
    workspace: Path, monkeypatch: pytest.MonkeyPatch
):
    root = digest_site(workspace, monkeypatch, subscribe=False)
    set_page_size(root, 1)
    out = root / "site"
    publish(Project(root), out, preview=False)
    first = (out / "digest/index.html").read_text()
    second = (out / "digest/page/2/index.html").read_text()
    assert not (out / "digest/page/3").exists()
    assert "2026-W50/index.html" in first and "2026-W49" not in first
    assert "2026-W49/index.html" in second and "2026-W50" not in second
    assert head_links(first) == {"next": "../digest/page/2/index.html"}
    assert head_links(second) == {"prev": "../../../digest/index.html"}
    assert '<a rel="next" href="../digest/page/2/index.html">Older issues →</a>' in first
    assert BASE + "digest/page/2/" in sitemap_urls(out)


def test_a_listing_that_fits_on_one_page_has_no_pager(workspace: Path):
    root = published_workspace(workspace)
    out = root / "site"
    publish(Project(root), out, preview=True)
    for relative, page in html_pages(out).items():
        assert "/page/" not in relative, relative
        assert 'class="pager"' not in page or relative.startswith("digest/20"), relative
        assert head_links(page) == {}, relative
