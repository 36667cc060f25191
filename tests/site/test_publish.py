"""Publishing: scope, leaks, feed and sitemap, reproducibility, escaping, confinement, goldens."""

from __future__ import annotations

import json
import os
import pickle
import re
import stat
import xml.etree.ElementTree as ET
from datetime import date
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner
from goldens import assert_golden

from generator import review
from generator.cli import cli
from generator.core.errors import PublishError
from generator.guides.document import parse, serialize
from generator.guides.project import Project
from generator.site import publish
from generator.site.write import confined

ATOM = "{http://www.w3.org/2005/Atom}"


def current_umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


SITEMAP = "{http://www.sitemaps.org/schemas/sitemap/0.9}"


def run(root: Path, *args: str) -> str:
    result = CliRunner().invoke(cli, ["--root", str(root), *args], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.output


def published_workspace(root: Path) -> Path:
    """Generate offline drafts and approve the two sample guides that can pass the checks."""
    run(root, "generate", "--backend", "offline")
    run(root, "verify", "--manual", "meta-llm-training-at-scale", "--by", "Ed")
    project = Project(root)
    review.approve(project, "shopify-catalog-clustering", by="Ed")
    review.approve(project, "meta-llm-training-at-scale", by="Ed")
    return root


@pytest.fixture
def site_root(workspace: Path) -> Path:
    return published_workspace(workspace)


def site_files(out: Path) -> dict[str, bytes]:
    files = sorted(p for p in out.rglob("*") if p.is_file())
    return {p.relative_to(out).as_posix(): p.read_bytes() for p in files}


def test_only_approved_guides_that_pass_checks_are_published(site_root: Path):
    out = site_root / "site"
    report = publish(Project(site_root), out, preview=False)
    assert report.guides == ["meta-llm-training-at-scale", "shopify-catalog-clustering"]
    assert set(report.left_out) == {"meta-gem", "meta-prometheus"}
    assert "not approved" in report.left_out["meta-gem"]
    for path in [
        "index.html",
        "feed.xml",
        "sitemap.xml",
        "style.css",
        "guides/shopify-catalog-clustering/index.html",
        "topics/gpus/index.html",
        "topics/index.html",
        "companies/meta/index.html",
        "companies/index.html",
    ]:
        assert (out / path).is_file(), path
    assert not (out / "guides" / "meta-gem").exists()
    # The drafts' guides are linked nowhere; their records still show as source cards.
    for name, data in site_files(out).items():
        text = data.decode("utf-8", "replace")
        assert "guides/meta-gem/" not in text, name
        assert "guides/meta-prometheus/" not in text, name
        assert "Draft" not in text, name
        # Only the not-found and search pages keep out of search results.
        assert ('name="robots"' in text) == (name in ("404.html", "search/index.html")), name
    hub = (out / "topics/gpus/index.html").read_text()
    assert 'id="meta-gem"' in hub
    assert "../../guides/shopify-catalog-clustering/index.html" in hub
    # Publishing records the first-published date through the review module.
    state = review.read_state(Project(site_root), "shopify-catalog-clustering")
    assert state.status == "published" and state.first_published.isoformat() == "2026-11-30"


def test_guide_page_labels_sources_and_our_view_and_shows_citations(site_root: Path):
    out = site_root / "site"
    publish(Project(site_root), out, preview=False)
    page = (out / "guides/shopify-catalog-clustering/index.html").read_text()
    reports = page.index('class="part source-account" data-kind="reports"')
    ours = page.index('class="part ours" data-kind="interpretation"')
    assert reports < ours
    assert "<h2>What Shopify reports</h2>" in page
    assert "Last reviewed <time" in page
    assert re.search(
        r'<a href="https://shopify.engineering/catalog-clustering" rel="noopener">'
        r"Cross-store product clustering across millions of stores ↗</a>\s*"
        r'<span class="cite-meta">Shopify Engineering · '
        r'Published <time datetime="2026-05-20">20 May 2026</time> · '
        r'Checked <time datetime="2026-10-22">22 October 2026</time></span>',
        page,
    )
    related = page[page.index("Related stories") :]
    # The other approved guide links to its page; an unpublished record to its source card.
    assert "../../guides/meta-llm-training-at-scale/index.html" in related
    assert "../../companies/meta/index.html#meta-gem" in related
    assert_golden("site/guide-shopify-catalog-clustering.html", page)
    assert_golden("site/topic-gpus.html", (out / "topics/gpus/index.html").read_text())


def test_an_approved_guide_is_checked_again_when_its_record_changes(site_root: Path):
    out = site_root / "site"
    assert "shopify-catalog-clustering" in publish(Project(site_root), out, preview=False).guides
    record = site_root / "sources/shopify-catalog-clustering.yaml"
    data = yaml.safe_load(record.read_text(encoding="utf-8"))
    data["summary"] = "Shopify groups the same product sold by different merchants."
    data["scale"] = []
    record.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    report = publish(Project(site_root), out, preview=False)
    assert report.guides == ["meta-llm-training-at-scale"]
    reason = report.left_out["shopify-catalog-clustering"]
    assert reason.startswith("the approved version fails current checks (figures.reports")
    assert not (out / "guides/shopify-catalog-clustering/index.html").exists()


def test_dated_checks_still_run_for_a_text_checked_at_approval(site_root: Path):
    later = Project(site_root, on_date=date(2027, 9, 1))
    report = publish(later, site_root / "site", preview=False)
    assert report.guides == []
    for guide_id in ("meta-llm-training-at-scale", "shopify-catalog-clustering"):
        assert "citations.stale" in report.left_out[guide_id]


def test_preview_adds_drafts_bannered_and_noindexed_but_not_to_feed_or_sitemap(site_root: Path):
    out = site_root / "preview"
    report = publish(Project(site_root), out, preview=True)
    assert report.drafts == ["meta-gem", "meta-prometheus"]
    draft = (out / "guides/meta-gem/index.html").read_text()
    assert "Draft: not reviewed" in draft
    assert '<meta name="robots" content="noindex, nofollow">' in draft
    assert '<meta name="robots"' in (out / "index.html").read_text()
    assert "guides/meta-gem/index.html" in (out / "index.html").read_text()
    assert "meta-gem" not in (out / "feed.xml").read_text()
    # Every page of a preview is noindex, so a preview lists none in a sitemap.
    assert not (out / "sitemap.xml").exists()
    # A preview never marks anything published.
    assert review.read_state(Project(site_root), "shopify-catalog-clustering").status == "approved"


def test_switching_from_preview_to_publish_removes_draft_pages(site_root: Path):
    out = site_root / "site"
    publish(Project(site_root), out, preview=True)  # a folder with no published site yet
    assert (out / "guides/meta-gem/index.html").exists()
    report = publish(Project(site_root), out, preview=False)
    assert "guides/meta-gem/index.html" in report.removed
    assert not (out / "guides/meta-gem").exists()
    assert "Draft" not in (out / "index.html").read_text()


def test_withdrawn_and_rejected_guides_leave_the_site(site_root: Path):
    out = site_root / "site"
    publish(Project(site_root), out, preview=False)
    review.withdraw(Project(site_root), "shopify-catalog-clustering", by="Ed", reason="superseded")
    project = Project(site_root)
    review.reject(project, "meta-gem", by="Ed", note="not ready")
    publish(Project(site_root), out, preview=False)
    assert not (out / "guides/shopify-catalog-clustering").exists()
    preview = site_root / "site-preview"
    report = publish(Project(site_root), preview, preview=True)
    assert report.left_out["shopify-catalog-clustering"] == "withdrawn (superseded)"
    assert report.left_out["meta-gem"] == "rejected"
    for folder in (out, preview):
        assert not (folder / "guides/shopify-catalog-clustering").exists()
        assert not (folder / "guides/meta-gem").exists()
        for name, data in site_files(folder).items():
            assert b"guides/shopify-catalog-clustering/" not in data, name
            assert b"guides/meta-gem/" not in data, name


def test_an_edit_after_approval_keeps_the_approved_text_live(site_root: Path):
    project = Project(site_root)
    doc = project.guides.read("shopify-catalog-clustering")
    doc.body = doc.body.replace("## Put it into practice", "Unapproved sentence.\n\n## Put it")
    project.guides.path(doc.meta.id).write_text(serialize(doc), encoding="utf-8")
    out = site_root / "site"
    publish(Project(site_root), out, preview=True)
    page = (out / "guides/shopify-catalog-clustering/index.html").read_text()
    assert "Unapproved sentence" not in page
    assert "Draft: not reviewed" not in page


def test_feed_and_sitemap_are_valid_xml_with_record_dates(site_root: Path):
    out = site_root / "site"
    publish(Project(site_root), out, preview=False)
    feed = ET.parse(out / "feed.xml").getroot()
    assert feed.tag == f"{ATOM}feed"
    for name in ("title", "id", "updated", "author"):
        assert feed.find(f"{ATOM}{name}") is not None, name
    entries = feed.findall(f"{ATOM}entry")
    assert len(entries) == 2
    for entry in entries:
        for name in ("title", "id", "updated", "published", "summary", "link"):
            assert entry.find(f"{ATOM}{name}") is not None, name
        content = entry.find(f"{ATOM}content")
        assert content.get("type") == "html"
        assert "<h2>What " in content.text and "Our career interpretation" in content.text
        assert entry.find(f"{ATOM}updated").text == "2026-11-30T00:00:00Z"
    urls = ET.parse(out / "sitemap.xml").getroot()
    assert urls.tag == f"{SITEMAP}urlset"
    locs = {u.find(f"{SITEMAP}loc").text: u.find(f"{SITEMAP}lastmod") for u in urls}
    guide = "https://prepguide.example.org/guides/shopify-catalog-clustering/"
    assert locs[guide].text == "2026-11-30"
    assert "https://prepguide.example.org/topics/gpus/" in locs
    assert not any("meta-gem" in loc for loc in locs)


def test_feed_dates_come_from_review_dates_not_the_build_time(
    site_root: Path, monkeypatch: pytest.MonkeyPatch
):
    out = site_root / "site"
    publish(Project(site_root), out, preview=False)
    monkeypatch.setenv("SOURCE_DATE_EPOCH", str(1795996800 + 40 * 86400))
    publish(Project(site_root), out, preview=False)
    feed = (out / "feed.xml").read_text()
    assert "2027-01" not in feed and "2026-11-30T00:00:00Z" in feed
    assert "2027-01" not in (out / "sitemap.xml").read_text()


def test_two_builds_are_byte_identical(site_root: Path, tmp_path: Path):
    first, second = tmp_path / "one", tmp_path / "two"
    publish(Project(site_root), first, preview=False)
    publish(Project(site_root), second, preview=False)
    publish(Project(site_root), first, preview=False)
    assert site_files(first) == site_files(second)


@pytest.mark.parametrize("preview", [False, True])
def test_worker_processes_build_the_same_site_as_one_process(
    site_root: Path, tmp_path: Path, preview: bool
):
    publish(Project(site_root), tmp_path / "first", preview=False)  # records first publication
    one = publish(Project(site_root), tmp_path / "one", preview=preview, jobs=1)
    two = publish(Project(site_root), tmp_path / "two", preview=preview, jobs=2)
    assert site_files(tmp_path / "two") == site_files(tmp_path / "one")
    assert (two.guides, two.drafts, two.left_out) == (one.guides, one.drafts, one.left_out)
    assert two.written == len(two.pages)


def test_an_error_raised_in_a_worker_keeps_its_file_and_rule():
    error = PublishError("two pages want 'x'", path="site/x", rule="slug", field="slug")
    copy = pickle.loads(pickle.dumps(error))
    assert (type(copy), str(copy), copy.rule) == (PublishError, str(error), "slug")


def test_a_new_site_appears_whole_and_a_killed_build_leaves_nothing_behind(site_root: Path):
    out = site_root / "public" / "site"
    killed = out.parent / ".site.999999999.x1.tmp"  # a build whose process is gone
    running = out.parent / f".site.{os.getpid()}.x2.tmp"  # a build still running
    for folder in (killed, running):
        (folder / "guides").mkdir(parents=True)
    report = publish(Project(site_root), out, preview=False)
    assert report.written == len(report.pages) and (out / "index.html").is_file()
    assert stat.S_IMODE(out.stat().st_mode) == 0o777 & ~current_umask()
    # Beside the site: the build still running, and the pages linked as the next build's tree.
    assert {p.name for p in out.parent.iterdir()} == {running.name, "site", ".site.previous"}
    spare = out.parent / ".site.previous"
    assert (spare / "index.html").stat().st_ino == (out / "index.html").stat().st_ino


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_first_build_keeps_every_page_as_the_same_file_in_the_spare_tree(
    site_root: Path, jobs: int
):
    out = site_root / "site"
    report = publish(Project(site_root), out, preview=False, jobs=jobs)
    spare = site_root / ".site.previous"
    kept = sorted(str(p.relative_to(spare)) for p in spare.rglob("*") if p.is_file())
    assert kept == report.pages
    for relative in report.pages:
        assert (spare / relative).stat().st_ino == (out / relative).stat().st_ino
    assert [p.name for p in site_root.glob(".site.*.tmp")] == []


def test_unchanged_pages_are_not_rewritten(site_root: Path):
    out = site_root / "site"
    first = publish(Project(site_root), out, preview=False)
    assert first.written == len(first.pages)
    again = publish(Project(site_root), out, preview=False)
    assert again.reused and again.written == 0
    stamp = (out / "guides/shopify-catalog-clustering/index.html").stat().st_mtime_ns
    source = site_root / "sources/meta-prometheus.yaml"
    data = yaml.safe_load(source.read_text())
    data["summary"] += " An added sentence."
    source.write_text(yaml.safe_dump(data), encoding="utf-8")
    changed = publish(Project(site_root), out, preview=False)
    assert not changed.reused and 0 < changed.written < len(changed.pages)
    assert (out / "guides/shopify-catalog-clustering/index.html").stat().st_mtime_ns == stamp
    assert "An added sentence." in (out / "companies/meta/index.html").read_text()


def test_record_values_and_prose_are_escaped_and_unsafe_links_dropped(workspace: Path):
    source = workspace / "sources/shopify-catalog-clustering.yaml"
    data = yaml.safe_load(source.read_text())
    data["title"] = "Clustering <script>alert('title')</script>"
    data["summary"] = 'Summary with <img src=x onerror="alert(1)"> markup.'
    data["techniques"].append("<b>bold</b>")
    source.write_text(yaml.safe_dump(data), encoding="utf-8")
    run(workspace, "generate", "--backend", "offline")
    project = Project(workspace)
    doc = project.guides.read("shopify-catalog-clustering")
    doc.body = doc.body.replace(
        "## Put it into practice",
        "<script>alert('body')</script> [click](javascript:alert(1)) "
        "[data](data:text/html,hi) [ok](https://example.org/ok)\n\n## Put it into practice",
    )
    project.guides.path(doc.meta.id).write_text(serialize(doc), encoding="utf-8")
    out = workspace / "site"
    publish(Project(workspace), out, preview=True)
    for name, data_bytes in site_files(out).items():
        text = data_bytes.decode("utf-8", "replace")
        # The only script elements are JSON-LD data, in which no "<" can end the element.
        blocks = re.findall(r'<script type="application/ld\+json">(.*?)</script>', text, re.S)
        assert all("<" not in block for block in blocks), name
        text = re.sub(r'<script type="application/ld\+json">.*?</script>', "", text, flags=re.S)
        if name == "search/index.html":  # the one page that runs a script: the site's own
            text = text.replace('<script type="module" src="search.js"></script>', "")
        assert "<script" not in text.lower(), name
        assert "<img" not in text, name
        assert "<b>bold" not in text, name
        assert 'href="javascript:' not in text.lower(), name
        assert 'href="data:' not in text.lower(), name
    page = (out / "guides/shopify-catalog-clustering/index.html").read_text()
    data = re.search(r'<script type="application/ld\+json">(.*?)</script>', page, re.S).group(1)
    assert json.loads(data)["@graph"][0]["headline"] == "Clustering <script>alert('title')</script>"
    assert "&lt;script&gt;alert('body')&lt;/script&gt; [click](javascript:alert(1))" in page
    assert '<a href="https://example.org/ok">ok</a>' in page
    feed = ET.parse(out / "feed.xml")  # still well-formed XML
    assert feed.getroot().tag == f"{ATOM}feed"


def test_output_paths_are_confined_to_the_output_folder(tmp_path: Path):
    out = tmp_path / "site"
    out.mkdir()
    assert confined(out, "guides/a/index.html") == (out / "guides/a/index.html").resolve()
    for bad in ("../escape.html", "guides/../../escape.html", "/etc/passwd", "."):
        with pytest.raises(PublishError):
            confined(out, bad)
    outside = tmp_path / "outside"
    outside.mkdir()
    (out / "guides").symlink_to(outside, target_is_directory=True)
    with pytest.raises(PublishError):
        confined(out, "guides/x/index.html")
    # A string-prefix test would wrongly accept a sibling folder that shares the prefix.
    (tmp_path / "site-evil").mkdir()
    with pytest.raises(PublishError):
        confined(out, "../site-evil/index.html")


def test_slug_collisions_are_reported_not_overwritten(site_root: Path):
    extra = {
        "company": "META!",
        "title": "Another write-up",
        "url": "https://example.org/meta-bang",
        "published": "2025-01-01",
        "summary": "A record from a company whose name slugs like Meta.",
        "stack": ["C++", "C#"],
        "techniques": [],
    }
    (site_root / "sources/meta-bang.yaml").write_text(yaml.safe_dump(extra), encoding="utf-8")
    other = dict(extra, company="Zed", url="https://example.org/zed", stack=["C++", "C#"])
    (site_root / "sources/zed.yaml").write_text(yaml.safe_dump(other), encoding="utf-8")
    out = site_root / "site"
    report = publish(Project(site_root), out, preview=False)
    problems = "\n".join(report.problems)
    assert "company slug 'meta' is shared by 'Meta' and 'META!'" in problems
    assert "topic slug 'c' is shared by 'C#' and 'C++'" in problems
    meta = (out / "companies/meta/index.html").read_text()
    assert "Another write-up" not in meta and "How Meta trains" in meta


def test_cli_publish_and_topics(site_root: Path):
    output = run(site_root, "publish")
    assert "published 2 guides in" in output
    assert "left out meta-gem: draft, not approved yet" in output
    output = run(site_root, "publish")
    assert "(0 changed, 0 removed, nothing changed since the last build)" in output
    output = run(site_root, "publish", "--jobs", "2", "--out", str(site_root / "copy"))
    assert "published 2 guides in" in output
    assert site_files(site_root / "copy") == site_files(site_root / "site")
    topics = run(site_root, "topics")
    assert "3 of the 4 engineering write-ups in our database mention GPUs in their stack." in topics

    data = json.loads(run(site_root, "topics", "--json"))
    assert data["total"] == 4
    assert [t["slug"] for t in data["topics"]] == [
        "distributed-training",
        "gpus",
        "hardware-reliability",
        "pytorch",
    ]


def test_publish_leaves_the_guide_text_alone_and_records_the_status(site_root: Path):
    before = parse((site_root / "guides/shopify-catalog-clustering.md").read_text())
    publish(Project(site_root), site_root / "site", preview=False)
    after = parse((site_root / "guides/shopify-catalog-clustering.md").read_text())
    assert after.body == before.body
    assert (before.meta.status, after.meta.status) == ("approved", "published")


def test_a_check_between_two_publishes_leaves_the_second_a_no_change_build(site_root: Path):
    out = site_root / "site"
    publish(Project(site_root), out, preview=False)
    checked = CliRunner().invoke(cli, ["--root", str(site_root), "check"])
    assert checked.exit_code in (0, 1) and "checked" in checked.output
    assert (site_root / ".prepguide/verdicts.sqlite").is_file()
    again = publish(Project(site_root), out, preview=False)
    assert again.reused and again.written == 0


def test_a_corrupt_build_cache_is_rebuilt_not_fatal(site_root: Path):
    out = site_root / "site"
    publish(Project(site_root), out, preview=False)
    cache = site_root / ".prepguide/verdicts.sqlite"  # the verdict cache of every command
    assert cache.is_file()
    cache.write_bytes(b"not a database")
    index = (out / "index.html").read_bytes()
    (out / "index.html").unlink()
    report = publish(Project(site_root), out, preview=False)
    # The deleted page is back, as the very file the last build wrote (kept in its next tree).
    assert report.written == 0 and (out / "index.html").read_bytes() == index
    assert any("not a usable verdict cache" in w for w in report.warnings)


def test_index_is_newest_first_and_paginated(site_root: Path):
    config = site_root / "prepguide.toml"
    config.write_text(config.read_text().replace("[site]\n", "[site]\npage_size = 1\n"))
    out = site_root / "site"
    report = publish(Project(site_root), out, preview=True)
    assert "page/4/index.html" in report.pages and "page/5/index.html" not in report.pages
    first = (out / "index.html").read_text()
    second = (out / "page/2/index.html").read_text()
    assert '<a rel="next" href="page/2/index.html">' in first
    assert '<a rel="prev" href="../../index.html">' in second
    assert 'href="../../style.css"' in second
    # Newest write-up first, undated last, and each card shows that date (not the guide's).
    cards = [
        re.search(
            r'<li class="card guide-card"><p class="kicker">(.*?)</p>\s*'
            r'<h3 class="card-title"><a href="(?:\.\./\.\./)?guides/([^/]+)/',
            (out / p).read_text(),
        )
        for p in ["index.html", "page/2/index.html", "page/3/index.html", "page/4/index.html"]
    ]
    assert [(m.group(2), re.sub("<[^>]+>", "", m.group(1))) for m in cards] == [
        ("meta-gem", "Meta · write-up of 13 October 2026 · Draft guide"),
        ("shopify-catalog-clustering", "Shopify · write-up of 20 May 2026"),
        ("meta-llm-training-at-scale", "Meta · write-up of 12 June 2024"),
        ("meta-prometheus", "Meta · date not recorded · Draft guide"),
    ]


def test_code_fingerprints_follow_imports_into_the_site_package():
    from generator.core.codeversion import import_closure

    closure = import_closure("site")
    assert {"site", "site.select", "site.model", "site.render", "site.write", "checks"} <= closure
    assert {"guides.markdown", "review.transitions", "site.feeds", "checks.verdicts"} <= closure
    assert not {m for m in import_closure("checks.engine") if m.startswith("site")}
