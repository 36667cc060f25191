"""Pages for readers and crawlers: canonical links, sitemap, feeds, See also, subscribe, index."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import feedparser
import pytest
import yaml
from click.testing import CliRunner
from test_publish import SITEMAP, published_workspace

from generator import review
from generator.cli import cli
from generator.guides.project import Project
from generator.site import publish

BASE = "https://prepguide.example.org/"
SUBSCRIBE = "https://news.acme.dev/subscribe"


@pytest.fixture
def site_root(workspace: Path) -> Path:
    return published_workspace(workspace)


def html_pages(out: Path) -> dict[str, str]:
    return {
        p.relative_to(out).as_posix(): p.read_text(encoding="utf-8")
        for p in sorted(out.rglob("*.html"))
    }


def canonical(page: str) -> str:
    return re.search(r'<link rel="canonical" href="([^"]+)">', page).group(1)


def sitemap_urls(out: Path) -> set[str]:
    root = ET.parse(out / "sitemap.xml").getroot()
    return {url.find(f"{SITEMAP}loc").text for url in root}


def set_config(root: Path, **sections: dict) -> None:
    """Rewrite prepguide.toml with these sections (strings and numbers only)."""
    lines = []
    for name, values in sections.items():
        lines.append(f"[{name}]")
        lines += [f"{key} = {value!r}".replace("'", '"') for key, value in values.items()]
    (root / "prepguide.toml").write_text("\n".join(lines) + "\n", encoding="utf-8")


def test_every_indexable_page_is_in_the_sitemap_under_its_canonical_url(site_root: Path):
    out = site_root / "site"
    publish(Project(site_root), out, preview=False)
    pages = html_pages(out)
    assert BASE + "404.html" not in sitemap_urls(out)
    # Kept out of search results: the page served for any missing address, and search.
    for relative in ("404.html", "search/index.html"):
        del pages[relative]
        assert BASE + relative.removesuffix("index.html") not in sitemap_urls(out)
    for relative, page in pages.items():
        assert canonical(page) == BASE + relative.removesuffix("index.html"), relative
        assert 'name="robots"' not in page, relative
    assert sitemap_urls(out) == {canonical(page) for page in pages.values()}
    for folder in ("topics/", "companies/", "digest/", "topics/gpus/", "companies/meta/"):
        assert BASE + folder in sitemap_urls(out), folder
    # Internal links keep index.html, so that the site works from file:// too.
    assert 'href="../../topics/index.html"' in pages["guides/shopify-catalog-clustering/index.html"]


def test_a_preview_has_no_sitemap_since_every_page_is_noindex(site_root: Path):
    out = site_root / "site-preview"
    report = publish(Project(site_root), out, preview=True)
    assert "sitemap.xml" not in report.pages and not (out / "sitemap.xml").exists()
    for relative, page in html_pages(out).items():
        assert '<meta name="robots" content="noindex, nofollow">' in page, relative
        assert canonical(page) == BASE + relative.removesuffix("index.html"), relative


@pytest.mark.parametrize(
    ("site", "warned"),
    [
        ({"name": "Prepguide", "base_url": "https://prepguide.example.org"}, "example address"),
        ({"base_url": "https://www.example.com/guides"}, "example address"),
        ({"name": "Prepguide"}, "is not set"),
        ({"base_url": "https://guides.acme.dev"}, None),
    ],
)
def test_publish_warns_once_when_the_base_url_is_unset_or_an_example(
    site_root: Path, site: dict, warned: str | None
):
    set_config(site_root, site=site)
    for _ in range(2):  # the first build and a build that changes nothing both say it
        result = CliRunner().invoke(cli, ["--root", str(site_root), "publish"])
        assert result.exit_code == 0, result.output
        lines = [line for line in result.stderr.splitlines() if "base_url" in line]
        if warned is None:
            assert lines == []
        else:
            assert len(lines) == 1 and warned in lines[0], result.stderr
            assert lines[0].startswith("warning: [site] base_url")


def test_feeds_parse_and_an_empty_feed_is_dated_by_the_last_review_or_today(
    site_root: Path, monkeypatch: pytest.MonkeyPatch
):
    out = site_root / "site"
    publish(Project(site_root), out, preview=False)
    feed = feedparser.parse((out / "feed.xml").read_bytes())
    assert not feed.bozo, feed.bozo_exception
    assert feed.version == "atom10" and feed.feed.title == "Prepguide"
    assert sorted(entry.link for entry in feed.entries) == [
        BASE + "guides/meta-llm-training-at-scale/",
        BASE + "guides/shopify-catalog-clustering/",
    ]
    for entry in feed.entries:
        assert entry.published.startswith("2026-11-30") and entry.updated.startswith("2026-11-30")
        assert "<h2>What " in entry.content[0].value
    # No issue has closed yet: the digest feed is empty, dated by the latest review.
    digest = feedparser.parse((out / "digest/feed.xml").read_bytes())
    assert not digest.bozo and digest.entries == []
    assert digest.feed.updated == "2026-11-30T00:00:00Z"
    # With nothing live at all, both feeds are dated today, never 1970-01-01.
    project = Project(site_root)
    for guide_id in ("meta-llm-training-at-scale", "shopify-catalog-clustering"):
        review.withdraw(project, guide_id, by="Ed", reason="superseded")
    monkeypatch.setenv("SOURCE_DATE_EPOCH", str(1795996800 + 3 * 86400))
    publish(Project(site_root), out, preview=False)
    for name in ("feed.xml", "digest/feed.xml"):
        empty = feedparser.parse((out / name).read_bytes())
        assert not empty.bozo and empty.entries == [], name
        assert empty.feed.updated == "2026-12-03T00:00:00Z", name


def test_see_also_links_the_company_and_the_strongest_hub_on_cards_and_guides(site_root: Path):
    lone = {
        "company": "Acme",
        "title": "A write-up whose tags no other record shares",
        "url": "https://acme.example.com/lone",
        "published": "2025-03-01",
        "summary": "Acme reports something no other write-up covers.",
        "techniques": ["bespoke thing"],
    }
    (site_root / "sources/acme-lone.yaml").write_text(yaml.safe_dump(lone), encoding="utf-8")
    out = site_root / "site"
    publish(Project(site_root), out, preview=False)

    def see_also(page: str, card: str | None = None) -> list[str]:
        if card is not None:
            page = page[page.index(f'id="{card}"') :].split("</article>", 1)[0]
        line = re.search(r'<p class="see-also">(.*?)</p>', page).group(1)
        return re.findall(r'<a href="(?:\.\./\.\./)?([^"]+)">', line)

    meta = (out / "companies/meta/index.html").read_text()
    # meta-gem: distributed training and GPUs both have 3 write-ups; the alphabetically first wins.
    assert see_also(meta, "meta-gem") == [
        "companies/meta/index.html",
        "topics/distributed-training/index.html",
    ]
    # A company with no guide on the site gets no page, so nothing links one.
    assert not (out / "companies/acme").exists()
    assert not any("companies/acme/" in page for page in html_pages(out).values())
    guide = (out / "guides/shopify-catalog-clustering/index.html").read_text()
    assert see_also(guide) == ["companies/shopify/index.html", "topics/gpus/index.html"]
    hub = (out / "topics/gpus/index.html").read_text()
    cards = hub.count('class="card source-card"')
    assert cards == 3 and hub.count('class="see-also"') == cards


def test_the_subscribe_box_appears_only_when_configured_and_posts_there(site_root: Path):
    out = site_root / "site"
    publish(Project(site_root), out, preview=False)
    forms = [name for name, page in html_pages(out).items() if "<form" in page]
    assert forms == ["search/index.html"]  # the search form, which stays on the site
    config = site_root / "prepguide.toml"
    config.write_text(
        config.read_text() + f'\n[digest]\nsubscribe_url = "{SUBSCRIBE}"\n', encoding="utf-8"
    )
    publish(Project(site_root), out, preview=False)
    pages = html_pages(out)
    with_box = sorted(name for name, page in pages.items() if 'class="subscribe"' in page)
    assert with_box == sorted(
        name
        for name in pages
        if name.startswith(("guides/", "topics/", "companies/", "digest/"))
        and name not in ("topics/index.html", "companies/index.html")
    )
    guide = pages["guides/shopify-catalog-clustering/index.html"]
    box = guide[guide.index('<aside class="subscribe"') :].split("</aside>", 1)[0]
    assert "The best engineering write-ups, weekly" in box and "One email a week. No spam." in box
    assert f'<form class="subscribe-form" method="post" action="{SUBSCRIBE}">' in box
    assert '<button type="submit">Subscribe</button>' in box
    assert re.search(r"<(script|iframe|img)\b", box) is None


def test_the_index_introduces_the_site_and_leads_into_topics_and_companies(site_root: Path):
    out = site_root / "site"
    publish(Project(site_root), out, preview=False)
    index = (out / "index.html").read_text()
    intro = index[index.index('<div class="intro">') : index.index('<h2 class="list-title">')]
    assert "2 guides on write-ups from 2 companies, drawn from the 4 write-ups" in intro
    links = re.findall(r'<a href="([^"]+)">', intro)
    assert {"topics/gpus/index.html", "topics/index.html", "companies/meta/index.html"} <= set(
        links
    )
    assert {"companies/index.html", "digest/index.html", "feed.xml"} <= set(links)
    for link in links:
        assert (out / link).is_file(), link
