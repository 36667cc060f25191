"""The digest on the site: an issue page per week, the archive and digest/feed.xml."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path
from urllib.parse import unquote, urlsplit

import feedparser
import pytest
from browser import ARTIFACTS
from goldens import assert_golden
from test_digest import EXTRA_RECORDS, run
from test_publish import SITEMAP, site_files

from generator.digest.build import week_issue
from generator.digest.issue import parse_week
from generator.guides.project import Project
from generator.site import publish

DAY = 86400
W49 = 1795996800  # Monday 2026-11-30, the pinned clock
W50 = W49 + 7 * DAY
W51 = W49 + 14 * DAY
BASE = "https://prepguide.example.org/"
SUBSCRIBE = "https://news.acme.dev/subscribe"


def at(monkeypatch: pytest.MonkeyPatch, epoch: int) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", str(epoch))


def digest_site(
    root: Path, monkeypatch: pytest.MonkeyPatch, *, subscribe: bool, until: int = W51
) -> Path:
    """Publish two guides in 2026-W49 and two in 2026-W50, then build once more at until."""
    for name, text in EXTRA_RECORDS.items():
        (root / "sources" / f"{name}.yaml").write_text(text, encoding="utf-8")
    if subscribe:
        config = root / "prepguide.toml"
        config.write_text(
            config.read_text() + f'\n[digest]\nsubscribe_url = "{SUBSCRIBE}"\n', encoding="utf-8"
        )
    at(monkeypatch, W49)
    run(root, "generate", "--backend", "offline")
    run(root, "verify", "--manual", "meta-llm-training-at-scale", "--by", "Ed")
    first = ("shopify-catalog-clustering", "meta-llm-training-at-scale")
    run(root, "review", "approve", *first, "--by", "Ed")
    run(root, "publish")
    at(monkeypatch, W50)
    run(root, "review", "approve", "acme-stream", "globex-cdc", "--by", "Ed")
    run(root, "publish")
    at(monkeypatch, until)
    run(root, "publish")
    return root


def items_of(page: str) -> list[tuple[str, str]]:
    """Return (title, what the source reports) of every item on an issue page."""
    return re.findall(
        r'<h3 class="card-title"><a href="[^"]+">([^<]+)</a></h3>\s*'
        r'<p class="issue-reports"><strong>What [^<]+ reports:</strong> ([^<]+)</p>',
        page,
    )


def test_publish_renders_each_week_from_first_published_dates(
    workspace: Path, monkeypatch: pytest.MonkeyPatch
):
    root = digest_site(workspace, monkeypatch, subscribe=False)
    out = root / "site"
    project = Project(root)
    for label in ("2026-W49", "2026-W50"):
        page = (out / f"digest/{label}/index.html").read_text()
        issue = week_issue(project, parse_week(label))  # the issue the mail is frozen from
        assert items_of(page) == [(item.title, item.reports) for item in issue.items]
        assert f'<p class="issue-opening">{issue.opening}</p>' in page
        assert "not over yet" not in page
    archive = (out / "digest/index.html").read_text()
    assert archive.index("2026-W50/index.html") < archive.index("2026-W49/index.html")
    locs = {u.find(f"{SITEMAP}loc").text for u in ET.parse(out / "sitemap.xml").getroot()}
    assert {BASE + "digest/", BASE + "digest/2026-W49/", BASE + "digest/2026-W50/"} <= locs
    assert_golden("site/digest-2026-W49.html", (out / "digest/2026-W49/index.html").read_text())


def test_only_live_guides_reach_an_issue(workspace: Path, monkeypatch: pytest.MonkeyPatch):
    root = digest_site(workspace, monkeypatch, subscribe=False)
    run(root, "review", "withdraw", "globex-cdc", "--by", "Ed", "--reason", "superseded")
    out = root / "site"
    run(root, "publish")
    titles = [title for title, _ in items_of((out / "digest/2026-W50/index.html").read_text())]
    assert titles == ["Exactly-once stream processing for billing events"]
    for name, data in site_files(out).items():
        if name.startswith("digest/"):
            text = data.decode()
            for left_out in ("globex-cdc", "meta-gem", "meta-prometheus", "Change data capture"):
                assert left_out not in text, (name, left_out)


def test_the_digest_feed_carries_each_ended_week_in_full(
    workspace: Path, monkeypatch: pytest.MonkeyPatch
):
    root = digest_site(workspace, monkeypatch, subscribe=False, until=W50)
    out = root / "site"
    # 2026-W50 has begun: its page says so, and the feed waits for the week to end.
    current = (out / "digest/2026-W50/index.html").read_text()
    assert (
        'This week is not over yet: the issue is final after <time datetime="2026-12-13">'
        "13 December 2026</time>." in current
    )
    feed = feedparser.parse((out / "digest/feed.xml").read_bytes())
    assert not feed.bozo, feed.bozo_exception
    assert [entry.link for entry in feed.entries] == [BASE + "digest/2026-W49/"]

    at(monkeypatch, W51)
    report = publish(Project(root), out, preview=False)
    assert "digest/2026-W50/index.html" in report.pages
    assert "not over yet" not in (out / "digest/2026-W50/index.html").read_text()
    feed = feedparser.parse((out / "digest/feed.xml").read_bytes())
    assert not feed.bozo, feed.bozo_exception
    assert feed.feed.title == "Prepguide weekly" and feed.feed.link == BASE + "digest/"
    assert [entry.link for entry in feed.entries] == [
        BASE + "digest/2026-W50/",
        BASE + "digest/2026-W49/",
    ]
    project = Project(root)
    weeks = [("2026-W50", "12-14"), ("2026-W49", "12-07")]  # each closes the Monday after
    for entry, (label, closed) in zip(feed.entries, weeks, strict=True):
        issue = week_issue(project, parse_week(label))
        assert entry.title == issue.subject and entry.summary == issue.opening
        assert entry.published == entry.updated == f"2026-{closed}T00:00:00Z"
        content = entry.content[0].value
        for item in issue.items:  # the whole issue, with absolute links a mail can carry
            assert item.title in content and item.reports in content
            assert f'href="{item.url}"' in content
        assert not re.search(r'href="(?!https://)', content)
    # The incremental build equals a cold build of the same inputs.
    cold = root / "cold"
    publish(Project(root), cold, preview=False)
    assert site_files(cold) == site_files(out)


@pytest.mark.browser
def test_an_issue_page_fits_a_phone_and_every_link_resolves(
    workspace: Path, monkeypatch: pytest.MonkeyPatch
):
    from browser import chromium_browser
    from test_site_browser import local_only

    root = digest_site(workspace, monkeypatch, subscribe=True)
    out = root / "site"
    ARTIFACTS.mkdir(exist_ok=True)
    with chromium_browser() as browser:
        page = browser.new_page(viewport={"width": 375, "height": 800})
        requests: list[str] = []
        page.on("request", lambda request: requests.append(request.url))
        page.goto((out / "digest/2026-W50/index.html").as_uri())
        assert page.locator("h1").inner_text() == "Issue 2 · 7–13 Dec 2026"
        assert page.locator(".issue-item").count() == 2
        overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
        assert overflow <= 0, f"the issue page scrolls sideways on a phone by {overflow}px"
        form = page.locator("form.subscribe-form")
        assert form.get_attribute("action") == SUBSCRIBE and form.get_attribute("method") == "post"
        page.screenshot(path=str(ARTIFACTS / "site-digest-issue-375.png"), full_page=True)
        links = page.eval_on_selector_all("a[href]", "links => links.map(a => a.href)")
        local_only(requests)
    assert len(links) > 10
    for link in links:
        parts = urlsplit(link)
        assert parts.scheme == "file", f"an issue page links outside the site: {link}"
        target = Path(unquote(parts.path))
        assert target.is_file() and target.is_relative_to(out), f"broken link {link}"
        if parts.fragment:
            assert f'id="{parts.fragment}"' in target.read_text(), f"no anchor for {link}"
