"""Publishing articles: their page, the index, feed and sitemap, and links from hubs and guides."""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from test_article_review import ID, drafted, verified_root

from generator.cli import cli
from generator.core.catalogue import packaged_catalogues


def run(workspace: Path, *args: str):
    result = CliRunner().invoke(cli, ["--root", str(workspace), *args])
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result


def tree(folder: Path) -> dict[str, str]:
    return {
        str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


def published(workspace: Path) -> Path:
    verified_root(workspace)
    assert run(workspace, "generate", "--backend", "offline").exit_code == 0
    drafted(workspace)
    approved = run(workspace, "review", "approve", ID, "shopify-catalog-clustering", "--by", "Ana")
    assert approved.exit_code == 0, approved.output
    result = run(workspace, "publish")
    assert result.exit_code == 0, result.output
    assert "1 article" in result.output
    return workspace / "site"


def test_the_article_page_keeps_each_account_apart_from_ours(workspace):
    site = published(workspace)
    page = (site / "articles" / "gpus" / "index.html").read_text()
    assert "<h1>How teams scaled GPUs</h1>" in page
    assert page.count('class="part source-account"') == 2
    assert "What this write-up reports: Shopify&#39;s account, not ours" in page
    assert 'class="part ours" data-kind="interpretation"' in page
    assert "It is not authored, endorsed or sponsored by those publishers." in page
    assert page.count('Checked <time datetime="2026-11-20">20 November 2026</time>') >= 2
    # Shopify's guide is live: its block links it; Meta's is not.
    assert page.count("Our guide to this write-up") == 1
    assert "noindex" not in page


def test_index_feed_sitemap_hubs_companies_and_guides_link_the_article(workspace):
    site = published(workspace)
    link = "articles/gpus/index.html"
    assert link in (site / "index.html").read_text()
    assert "articles/gpus/" in (site / "feed.xml").read_text()
    assert "articles/gpus/" in (site / "sitemap.xml").read_text()
    assert f"../../{link}" in (site / "topics" / "gpus" / "index.html").read_text()
    assert f"../../{link}" in (site / "companies" / "meta" / "index.html").read_text()
    guide = (site / "guides" / "shopify-catalog-clustering" / "index.html").read_text()
    assert f"../../{link}" in guide


def test_rebuilds_are_byte_identical_and_the_article_is_marked_published(workspace):
    site = published(workspace)
    first = tree(site)
    again = run(workspace, "publish")
    assert again.exit_code == 0, again.output
    assert tree(site) == first
    listed = run(workspace, "review", "list", "--kind", "article").output
    assert "published" in listed
    assert "publish by prepguide publish" in run(workspace, "review", "log", ID).output


def test_a_withdrawn_article_leaves_the_site(workspace):
    site = published(workspace)
    withdrawn = run(workspace, "review", "withdraw", ID, "--by", "Ana", "--reason", "superseded")
    assert withdrawn.exit_code == 0, withdrawn.output
    assert run(workspace, "publish").exit_code == 0
    assert not (site / "articles" / "gpus").exists()
    assert "articles/gpus" not in (site / "index.html").read_text()


def test_deleting_the_article_file_keeps_the_live_version(workspace):
    site = published(workspace)
    (workspace / "guides" / "articles" / "gpus.yaml").unlink()
    (workspace / "guides" / "articles" / "gpus.md").unlink()
    assert run(workspace, "publish").exit_code == 0
    assert (site / "articles" / "gpus" / "index.html").is_file()


def test_build_drafts_checks_and_publishes_articles(workspace):
    verified_root(workspace)
    drafted(workspace)
    (workspace / "guides" / "articles" / "gpus.md").unlink()
    result = run(workspace, "build", "--backend", "offline")
    assert result.exit_code == 0, result.output
    assert "articles: generated 1" in result.output
    assert (workspace / "guides" / "articles" / "gpus.md").is_file()
    # Not approved yet: drafts are not published.
    assert not (workspace / "site" / "articles" / "gpus").exists()


def test_the_week_s_digest_lists_the_new_article(workspace):
    from generator.core.clock import today
    from generator.digest.build import week_issue
    from generator.digest.issue import week_of
    from generator.guides.project import Project

    site = published(workspace)
    week = week_of(today())
    issue = week_issue(Project(workspace), week)
    assert [(a.slug, a.title) for a in issue.articles] == [("gpus", "How teams scaled GPUs")]
    assert issue.articles[0].url.endswith("/articles/gpus/")
    assert run(workspace, "publish").exit_code == 0
    page = (site / "digest" / week.label / "index.html").read_text()
    assert "Career articles" in page and "articles/gpus/index.html" in page


def test_a_no_change_rebuild_reuses_everything_and_a_new_article_text_writes_few_pages(workspace):
    site = published(workspace)
    assert run(workspace, "publish").exit_code == 0  # settles the publication marks
    again = run(workspace, "publish")
    assert "nothing changed since the last build" in again.output
    path = workspace / "guides" / "articles" / "gpus.yaml"
    path.write_text(path.read_text() + "angle: measure before you scale\n")
    assert run(workspace, "generate", ID, "--backend", "offline").exit_code == 0
    assert run(workspace, "review", "approve", ID, "--by", "Ana").exit_code == 0
    result = run(workspace, "publish")
    assert result.exit_code == 0, result.output
    changed = int(result.output.split("(")[1].split(" changed")[0])
    # the article page, the feed that carries it, and the search index that holds its text
    bundle = sum(1 for path in (site / "pagefind").rglob("*") if path.is_file())
    assert 1 <= changed <= 4 + bundle, result.output
    assert "search: indexed" in result.output  # the article's new text is searchable
    assert "measure before you scale" in (site / "articles" / "gpus" / "index.html").read_text()


def test_a_root_s_catalogue_words_the_article_page_and_its_links(workspace):
    verified_root(workspace)
    config = workspace / "prepguide.toml"
    config.write_text(config.read_text().replace("[site]\n", '[site]\nlanguage = "de"\n'))
    shipped = (packaged_catalogues() / "en.toml").read_text(encoding="utf-8")
    own = workspace / "templates" / "catalogue"
    own.mkdir(parents=True)
    (own / "de.toml").write_text(
        shipped.replace('"{companies} · Career article"', '"{companies} · Karriereartikel"')
        .replace('links = "Career articles"', 'links = "Karriereartikel"')
        .replace('"Last reviewed {date}"', '"Zuletzt geprüft am {date}"'),
        encoding="utf-8",
    )
    site = published(workspace)
    page = (site / "articles" / "gpus" / "index.html").read_text()
    assert page.startswith('<!doctype html>\n<html lang="de">')
    assert '<p class="kicker">Meta and Shopify · Karriereartikel</p>' in page
    assert "Zuletzt geprüft am <time" in page
    hub = (site / "topics" / "gpus" / "index.html").read_text()
    assert "<h2>Karriereartikel</h2>" in hub and "Career article" not in hub


def test_only_the_first_page_of_a_paged_hub_links_the_article(workspace):
    verified_root(workspace)
    config = workspace / "prepguide.toml"
    config.write_text(config.read_text().replace("[site]\n", "[site]\npage_size = 1\n"))
    site = published(workspace)
    first = (site / "topics" / "gpus" / "index.html").read_text()
    assert '<a href="../../articles/gpus/index.html">How teams scaled GPUs</a>' in first
    second = (site / "topics" / "gpus" / "page" / "2" / "index.html").read_text()
    assert "articles/gpus" not in second
    guide = (site / "guides" / "shopify-catalog-clustering" / "index.html").read_text()
    assert '<a href="../../articles/gpus/index.html">How teams scaled GPUs</a>' in guide


def test_a_live_article_whose_record_changed_under_it_leaves_the_site(workspace):
    site = published(workspace)
    record = workspace / "sources" / "meta-gem.yaml"
    record.write_text(record.read_text().replace("2.5x", "2x"))
    result = run(workspace, "publish")
    assert result.exit_code == 0, result.output
    assert "left out article:gpus: the approved version fails current checks" in result.output
    assert "figures.reports" in result.output
    assert not (site / "articles" / "gpus").exists()
    assert "articles/gpus" not in (site / "index.html").read_text()
    assert "articles/gpus" not in (site / "sitemap.xml").read_text()
    # Shopify's guide is untouched by Meta's record: it stays, without the article's link.
    guide = (site / "guides" / "shopify-catalog-clustering" / "index.html").read_text()
    assert "articles/gpus" not in guide


def test_a_live_article_with_a_source_no_longer_verified_leaves_the_site(workspace):
    site = published(workspace)
    config = workspace / "prepguide.toml"
    text = config.read_text()
    if "freshness_days" in text:
        text = re.sub(r"freshness_days = \d+", "freshness_days = 1", text)
    else:
        text += "\n[checks]\nfreshness_days = 1\n"
    config.write_text(text)
    result = run(workspace, "publish")
    assert result.exit_code == 0, result.output
    assert "left out article:gpus" in result.output and "citations.stale" in result.output
    assert not (site / "articles" / "gpus").exists()


def test_the_article_page_head_describes_it_and_cites_every_original(workspace):
    site = published(workspace)
    page = (site / "articles" / "gpus" / "index.html").read_text()
    first = (
        "Meta replaced separate per-surface ad prediction systems with GEM, one central "
        "recommendation foundation model trained across all of its ad surfaces."
    )
    assert f'<meta name="description" content="{first}">' in page
    assert '<meta property="og:type" content="article">' in page
    assert '<meta property="og:url" content="https://prepguide.example.org/articles/gpus/">' in page
    data = json.loads(page.split('<script type="application/ld+json">')[1].split("</script>")[0])
    [article] = [item for item in data["@graph"] if item["@type"] == "Article"]
    assert article["headline"] == "How teams scaled GPUs"
    assert [item["name"] for item in article["about"]] == ["Meta", "Shopify"]
    cited = [item["url"] for item in article["citation"]]
    assert cited == [
        "https://example.com/meta-gem",
        "https://example.com/gem-training",
        "https://shopify.engineering/catalog-clustering",
    ]
    assert article["datePublished"] == "2026-11-30"


def test_a_company_with_only_a_live_article_gets_its_page(workspace):
    site = published(workspace)
    meta = (site / "companies" / "meta" / "index.html").read_text()
    assert '<a href="../../articles/gpus/index.html">How teams scaled GPUs</a>' in meta
    assert "companies/meta/" in (site / "sitemap.xml").read_text()


def test_the_article_page_and_the_pages_linking_it_are_valid_html(workspace):
    validator = pytest.importorskip("test_site_validator")
    site = published(workspace)
    assert validator.nu_errors(site) == []
