"""Search and social metadata: descriptions, Open Graph, JSON-LD, robots.txt, 404, icon."""

from __future__ import annotations

import json
import re
import struct
import zlib
from datetime import date
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urlsplit

import pytest
import yaml
from test_publish import published_workspace
from test_publish_pages import set_config, sitemap_urls

from generator import review
from generator.core.errors import ConfigError
from generator.guides.project import Project
from generator.site import publish

BASE = "https://prepguide.example.org/"
GUIDE = "guides/shopify-catalog-clustering/index.html"


class Head(HTMLParser):
    """The metadata of a page's head: meta tags, links and JSON-LD blocks."""

    def __init__(self) -> None:
        super().__init__()
        self.meta: dict[str, str] = {}
        self.links: dict[str, dict[str, str]] = {}
        self.scripts: list[tuple[dict, str]] = []
        self._script: dict | None = None

    def handle_starttag(self, tag: str, attrs: list) -> None:
        found = {name: value or "" for name, value in attrs}
        if tag == "meta":
            name = found.get("property") or found.get("name") or found.get("http-equiv")
            if name:
                self.meta[name] = found.get("content", "")
        elif tag == "link":
            self.links[found["rel"]] = found
        elif tag == "script":
            self._script = found

    def handle_data(self, data: str) -> None:
        if self._script is not None:
            self.scripts.append((self._script, data))
            self._script = None

    def handle_endtag(self, tag: str) -> None:
        if tag == "script":
            self._script = None


def head_of(text: str) -> Head:
    parser = Head()
    parser.feed(text)
    return parser


def graph_of(head: Head) -> list[dict]:
    """Parse the page's one JSON-LD block and return its schema.org objects."""
    blocks = [data for attrs, data in head.scripts if attrs.get("type") == "application/ld+json"]
    assert len(blocks) == 1
    data = json.loads(blocks[0])
    assert data["@context"] == "https://schema.org"
    return data["@graph"]


def absolute(url: str) -> bool:
    parts = urlsplit(url)
    return parts.scheme == "https" and bool(parts.netloc)


def iso_date(text: str) -> date:
    return date.fromisoformat(text)


def check_breadcrumbs(trail: dict, canonical: str) -> None:
    """A BreadcrumbList as Google documents it: ListItems numbered from 1, named, with URLs."""
    items = trail["itemListElement"]
    assert len(items) >= 2
    for number, item in enumerate(items, start=1):
        assert item["@type"] == "ListItem" and item["position"] == number
        assert item["name"].strip() and absolute(item["item"]), item
    assert items[0]["item"] == BASE and items[-1]["item"] == canonical


def check_article(article: dict, canonical: str) -> None:
    """An Article with Google's recommended properties, dates ISO and URLs absolute."""
    assert article["@type"] == "Article"
    assert 0 < len(article["headline"]) <= 110
    assert article["url"] == article["mainEntityOfPage"] == canonical
    assert absolute(article["image"])
    for who in (article["author"], article["publisher"]):
        assert who["@type"] == "Organization" and who["name"] == "Prepguide"
        assert who["url"] == BASE
    assert iso_date(article["datePublished"]) <= iso_date(article["dateModified"])
    assert article["isBasedOn"] and all(absolute(url) for url in article["isBasedOn"])
    for work in article["citation"]:
        assert work["@type"] == "CreativeWork" and work["name"]
        assert absolute(work["url"])
        if "datePublished" in work:
            iso_date(work["datePublished"])


@pytest.fixture
def site(workspace: Path) -> Path:
    root = published_workspace(workspace)
    publish(Project(root), root / "site", preview=False)
    return root / "site"


def pages_of(out: Path) -> dict[str, str]:
    return {
        p.relative_to(out).as_posix(): p.read_text(encoding="utf-8")
        for p in sorted(out.rglob("*.html"))
    }


def test_every_page_has_a_description_social_cards_and_valid_json_ld(site: Path):
    pages = pages_of(site)
    assert len(pages) > 10
    for relative, text in pages.items():
        head = head_of(text)
        canonical = head.links["canonical"]["href"]
        description = head.meta["description"]
        assert description.strip() and len(description) <= 300, relative
        assert head.meta["og:description"] == head.meta["twitter:description"] == description
        assert head.meta["og:title"] == head.meta["twitter:title"] != "", relative
        assert head.meta["og:url"] == canonical and head.meta["og:site_name"] == "Prepguide"
        assert head.meta["twitter:card"] == "summary"
        assert head.links["icon"]["type"] == "image/svg+xml"
        assert head.links["manifest"]["href"].endswith("site.webmanifest")
        if relative in ("404.html", "search/index.html"):
            assert not head.scripts or relative == "search/index.html"
            continue
        graph = graph_of(head)
        kinds = [thing["@type"] for thing in graph]
        if relative == "index.html":
            assert kinds == ["WebSite"]
            assert graph[0]["url"] == BASE and graph[0]["name"] == "Prepguide"
            action = graph[0]["potentialAction"]
            assert action["target"]["urlTemplate"] == BASE + "search/?q={query}"
            assert action["query-input"] == "required name=query"
        elif relative.startswith("guides/"):
            assert kinds == ["Article", "BreadcrumbList"], relative
            assert head.meta["og:type"] == "article"
            check_article(graph[0], canonical)
            check_breadcrumbs(graph[1], canonical)
        else:
            assert kinds == ["BreadcrumbList"], relative
            assert head.meta["og:type"] == "website"
            check_breadcrumbs(graph[0], canonical)


def test_a_guide_says_its_first_reported_sentence_its_review_date_and_its_originals(
    site: Path, workspace: Path
):
    head = head_of((site / GUIDE).read_text(encoding="utf-8"))
    assert head.meta["description"] == (
        "Shopify groups the same real-world product sold by different merchants under one "
        "Universal Product Identifier."
    )
    article, trail = graph_of(head)
    state = review.read_state(Project(workspace), "shopify-catalog-clustering")
    assert article["dateModified"] == state.live.approved_at[:10]
    assert head.meta["article:modified_time"] == article["dateModified"]
    record = yaml.safe_load((workspace / "sources/shopify-catalog-clustering.yaml").read_text())
    urls = [record["url"], *(c["url"] for c in record.get("citations", []))]
    assert article["isBasedOn"] == urls
    assert [work["url"] for work in article["citation"]] == urls
    assert article["citation"][0]["name"] == record["title"]
    assert [item["name"] for item in trail["itemListElement"]] == [
        "Prepguide",
        "Companies",
        "Shopify",
        record["title"],
    ]
    assert trail["itemListElement"][2]["item"] == BASE + "companies/shopify/"


def test_a_hub_describes_itself_by_its_statistics_sentence(site: Path):
    head = head_of((site / "topics/gpus/index.html").read_text(encoding="utf-8"))
    assert head.meta["description"] == (
        "3 of the 4 engineering write-ups in our database mention GPUs in their stack."
    )
    listing = head_of((site / "topics/index.html").read_text(encoding="utf-8"))
    assert listing.meta["description"].startswith("Every technique and stack tag")


def test_robots_txt_names_the_sitemap_and_a_preview_disallows_everything(
    site: Path, workspace: Path
):
    robots = (site / "robots.txt").read_text()
    assert "Sitemap: https://prepguide.example.org/sitemap.xml" in robots
    assert "Disallow: /" not in robots
    preview = workspace / "site-preview"
    publish(Project(workspace), preview, preview=True)
    lines = (preview / "robots.txt").read_text().splitlines()
    assert "User-agent: *" in lines and "Disallow: /" in lines
    assert not any(line.startswith("Sitemap:") for line in lines)


def test_the_not_found_page_links_from_the_site_path_and_stays_out_of_the_sitemap(
    workspace: Path,
):
    root = published_workspace(workspace)
    set_config(root, site={"name": "Prepguide", "base_url": "https://acme.dev/guides"})
    publish(Project(root), root / "site", preview=False)
    text = (root / "site/404.html").read_text(encoding="utf-8")
    assert "Page not found" in text
    assert 'href="/guides/index.html"' in text and 'href="/guides/style.css"' in text
    assert '<meta name="robots" content="noindex, nofollow">' in text
    assert not any(url.endswith("404.html") for url in sitemap_urls(root / "site"))


def test_the_packaged_icon_and_the_web_manifest(site: Path):
    assert (site / "favicon.svg").read_bytes().startswith(b"<svg")
    manifest = json.loads((site / "site.webmanifest").read_text())
    assert manifest["name"] == "Prepguide" and manifest["start_url"] == "./index.html"
    assert manifest["icons"] == [{"src": "favicon.svg", "sizes": "any", "type": "image/svg+xml"}]


def png(width: int, height: int) -> bytes:
    """Return a real one-colour PNG image."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    rows = b"".join(b"\x00" + b"\x1f\x5f\xbf" * width for _ in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(rows))
        + chunk(b"IEND", b"")
    )


def test_a_configured_logo_is_the_icon_the_manifest_icon_and_the_preview_image(
    workspace: Path,
):
    root = published_workspace(workspace)
    (root / "static").mkdir()
    (root / "static/logo.png").write_bytes(png(48, 32))
    set_config(
        root,
        site={"name": "Prepguide", "base_url": BASE.rstrip("/"), "logo": "logo.png"},
    )
    out = root / "site"
    publish(Project(root), out, preview=False)
    assert (out / "favicon.png").read_bytes() == png(48, 32)
    assert not (out / "favicon.svg").exists()
    manifest = json.loads((out / "site.webmanifest").read_text())
    assert manifest["icons"] == [{"src": "favicon.png", "sizes": "48x32", "type": "image/png"}]
    head = head_of((out / GUIDE).read_text(encoding="utf-8"))
    assert head.links["icon"] == {"rel": "icon", "href": "../../favicon.png", "type": "image/png"}
    assert head.meta["og:image"] == BASE + "favicon.png"
    # A new logo reaches the site on the next build, although no record or guide changed.
    (root / "static/logo.png").write_bytes(png(64, 64))
    report = publish(Project(root), out, preview=False)
    assert not report.reused
    assert (out / "favicon.png").read_bytes() == png(64, 64)


def test_a_logo_that_is_missing_or_outside_the_root_is_refused(workspace: Path, tmp_path: Path):
    root = published_workspace(workspace)
    set_config(root, site={"name": "Prepguide", "logo": "logo.svg"})
    with pytest.raises(ConfigError) as missing:
        publish(Project(root), root / "site", preview=False)
    assert missing.value.field == "site.logo" and "does not hold" in missing.value.message
    outside = tmp_path / "elsewhere.svg"
    outside.write_text("<svg/>")
    (root / "static").mkdir()
    (root / "static/logo.svg").symlink_to(outside)
    with pytest.raises(ConfigError) as linked:
        publish(Project(root), root / "site", preview=False)
    assert linked.value.rule == "static.symlink"
    set_config(root, site={"name": "Prepguide", "logo": "../logo.svg"})
    with pytest.raises(ConfigError, match="not a path inside the site"):
        Project(root)


def test_every_page_has_a_content_policy_that_runs_no_script_but_search(site: Path):
    for relative, text in pages_of(site).items():
        policy = head_of(text).meta["Content-Security-Policy"]
        rules = dict(rule.strip().split(" ", 1) for rule in policy.split(";"))
        assert rules["default-src"] == "'self'", relative
        if relative == "search/index.html":
            assert rules["script-src"] == "'self' 'wasm-unsafe-eval'"
            assert re.findall(r"<script[^>]*>", text) == ['<script type="module" src="search.js">']
            continue
        assert rules["script-src"] == "'none'", relative
        assert rules["object-src"] == "'none'" and rules["base-uri"] == "'none'"
        # Nothing but JSON-LD data sits in a script element.
        assert re.findall(r"<script[^>]*>", text) == ['<script type="application/ld+json">'] * (
            relative != "404.html"
        ), relative
