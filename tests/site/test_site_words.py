"""Dates and labels for people: long dates, issue names, reading time, breadcrumbs, language."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from datetime import date
from pathlib import Path

import pytest
from test_digest_site import digest_site
from test_publish import SITEMAP, published_workspace, site_files

from generator.core.catalogue import english, load_catalogue, packaged_catalogues
from generator.core.errors import ConfigError
from generator.digest.build import week_issue
from generator.digest.issue import parse_week
from generator.guides.project import Project
from generator.site import publish

ISO = re.compile(r"\d{4}-\d{2}-\d{2}")


@pytest.fixture
def site_root(workspace: Path) -> Path:
    return published_workspace(workspace)


def visible_text(page: str) -> str:
    """Return what a reader sees of a page's body: no tags, no attribute values."""
    body = page[page.index("<body>") :]
    return re.sub(r"<[^>]+>", " ", body)


def crumbs(page: str) -> list[str]:
    trail = re.search(r'<nav class="breadcrumbs" aria-label="Breadcrumb"><ol>(.*?)</ol>', page)
    assert trail, "the page has no breadcrumb trail"
    return [re.sub(r"<[^>]+>", "", item) for item in re.findall(r"<li>(.*?)</li>", trail[1])]


def set_site(root: Path, line: str) -> None:
    config = root / "prepguide.toml"
    config.write_text(config.read_text().replace("[site]\n", f"[site]\n{line}\n"))


def test_weeks_are_written_as_people_write_them():
    words = english()
    assert words.day(date(2026, 10, 13)) == "13 October 2026"
    assert words.day("2026-05-02") == "2 May 2026"
    assert words.week(date(2026, 12, 7), date(2026, 12, 13)) == "7–13 Dec 2026"
    assert words.week(date(2026, 11, 30), date(2026, 12, 6)) == "30 Nov – 6 Dec 2026"
    assert words.week(date(2026, 12, 28), date(2027, 1, 3)) == "28 Dec 2026 – 3 Jan 2027"
    assert words.issue(12, date(2026, 11, 30), date(2026, 12, 6)) == (
        "Issue 12 · 30 Nov – 6 Dec 2026"
    )


def test_pages_show_long_dates_while_markup_feeds_and_sitemap_keep_iso(site_root: Path):
    out = site_root / "site"
    publish(Project(site_root), out, preview=True)
    for name, data in site_files(out).items():
        if name.endswith(".html"):
            text = data.decode()
            assert not ISO.search(visible_text(text)), f"{name} shows an ISO date to readers"
            for iso, shown in re.findall(r'<time datetime="([^"]+)">([^<]+)</time>', text):
                assert ISO.fullmatch(iso) and shown == english().day(iso), (name, iso, shown)
    guide = (out / "guides/shopify-catalog-clustering/index.html").read_text()
    assert 'Last reviewed <time datetime="2026-11-30">30 November 2026</time>' in guide
    out = site_root / "public"
    publish(Project(site_root), out, preview=False)
    feed = ET.parse(out / "feed.xml").getroot()
    updated = [e.text for e in feed.iter("{http://www.w3.org/2005/Atom}updated")]
    assert updated and all(ISO.match(text) for text in updated)
    lastmods = [e.text for e in ET.parse(out / "sitemap.xml").getroot().iter(f"{SITEMAP}lastmod")]
    assert lastmods and all(ISO.fullmatch(text) for text in lastmods)


def test_no_card_pairs_published_with_draft(site_root: Path):
    out = site_root / "site"
    publish(Project(site_root), out, preview=True)
    drafts = 0
    for name, data in site_files(out).items():
        if not name.endswith(".html"):
            continue
        for kicker in re.findall(r'<p class="kicker">(.*?)</p>', data.decode()):
            if "Draft" in kicker:
                drafts += 1
                assert "published" not in kicker.casefold(), (name, kicker)
    assert drafts >= 2  # the preview shows the two draft guides' cards


def test_a_guide_page_says_how_long_it_takes_to_read(site_root: Path):
    out = site_root / "site"
    guide = (site_root / "guides/shopify-catalog-clustering.md").read_text()
    body = guide.split("\n---\n", 1)[1]
    minutes = max(1, round(len(body.split()) / 200))
    publish(Project(site_root), out, preview=False)
    page = (out / "guides/shopify-catalog-clustering/index.html").read_text()
    assert f'<span class="reading-time">{minutes} min read</span>' in page


def test_breadcrumbs_lead_from_the_front_page_to_each_page(site_root: Path):
    set_site(site_root, "page_size = 1")
    out = site_root / "site"
    publish(Project(site_root), out, preview=False)
    page = (out / "guides/shopify-catalog-clustering/index.html").read_text()
    assert crumbs(page) == [
        "Prepguide",
        "Companies",
        "Shopify",
        "Cross-store product clustering across millions of stores",
    ]
    assert '<a href="../../companies/shopify/index.html">Shopify</a>' in page
    assert '<span aria-current="page">Cross-store' in page
    assert crumbs((out / "topics/gpus/index.html").read_text()) == ["Prepguide", "Topics", "GPUs"]
    second = (out / "topics/gpus/page/2/index.html").read_text()
    assert crumbs(second) == ["Prepguide", "Topics", "GPUs", "page 2"]
    assert '<a href="../../../../topics/gpus/index.html">GPUs</a>' in second
    assert crumbs((out / "companies/index.html").read_text()) == ["Prepguide", "Companies"]
    assert "breadcrumbs" not in (out / "index.html").read_text()


def test_digest_issues_are_numbered_and_named_by_their_days(
    workspace: Path, monkeypatch: pytest.MonkeyPatch
):
    root = digest_site(workspace, monkeypatch, subscribe=False)
    out = root / "site"
    archive = (out / "digest/index.html").read_text()
    listing = archive[archive.index('<ol class="listing issue-list">') :]
    names = re.findall(r'<li><a href="[^"]+/index.html">([^<]+)</a>', listing)
    assert names == ["Issue 2 · 7–13 Dec 2026", "Issue 1 · 30 Nov – 6 Dec 2026"]
    issue = (out / "digest/2026-W50/index.html").read_text()
    assert "<h1>Issue 2 · 7–13 Dec 2026</h1>" in issue
    assert "<title>Issue 2 · 7–13 Dec 2026 · Prepguide weekly</title>" in issue
    # The week code stays the address; readers see the name.
    assert "2026-W50" not in visible_text(issue)
    # The mail of a week carries the same number and name as its page.
    mail = week_issue(Project(root), parse_week("2026-W50"))
    assert mail.name == "Issue 2 · 7–13 Dec 2026"
    assert mail.subject == "Prepguide weekly, Issue 2 · 7–13 Dec 2026: 2 new write-ups"


def test_the_language_setting_sets_lang_and_falls_back_to_the_base_language(site_root: Path):
    set_site(site_root, 'language = "en-GB"')
    out = site_root / "site"
    publish(Project(site_root), out, preview=False)
    for name, data in site_files(out).items():
        if name.endswith(".html"):
            assert data.decode().startswith('<!doctype html>\n<html lang="en-GB">'), name
    for feed in ("feed.xml", "digest/feed.xml"):
        root = ET.parse(out / feed).getroot()
        assert root.get("{http://www.w3.org/XML/1998/namespace}lang") == "en-GB", feed


def test_a_language_without_a_catalogue_is_refused_naming_the_file_to_add(site_root: Path):
    set_site(site_root, 'language = "de"')
    with pytest.raises(ConfigError) as caught:
        publish(Project(site_root), site_root / "site", preview=False)
    assert "templates/catalogue/de.toml" in str(caught.value)
    assert not (site_root / "site").exists()


@pytest.mark.parametrize("tag", ["English", "en_GB", "e", "en-"])
def test_a_language_setting_that_is_no_language_tag_is_refused(site_root: Path, tag: str):
    set_site(site_root, f'language = "{tag}"')
    with pytest.raises(ConfigError) as caught:
        Project(site_root)
    assert "language" in str(caught.value)


def test_a_catalogue_with_a_missing_or_misspelt_placeholder_is_refused():
    text = (packaged_catalogues() / "en.toml").read_text(encoding="utf-8")
    broken = text.replace('reading_time = "{minutes} min read"', 'reading_time = "{minute} min"')
    with pytest.raises(ConfigError) as caught:
        load_catalogue("fr", lambda name: (broken, "fr.toml") if name == "fr.toml" else None)
    assert "guide.reading_time" in str(caught.value) and "{minutes}" in str(caught.value)
    missing = text.replace('reading_time = "{minutes} min read"\n', "")
    with pytest.raises(ConfigError) as caught:
        load_catalogue("fr", lambda name: (missing, "fr.toml") if name == "fr.toml" else None)
    assert "guide.reading_time" in str(caught.value)
