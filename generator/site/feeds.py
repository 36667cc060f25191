"""Atom feed and sitemap: pure functions from the site model to XML text."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import date
from xml.sax.saxutils import escape, quoteattr

from generator.codehash import code_version
from generator.site.model import SiteModel, content_key
from generator.site.select import SiteGuide
from generator.sources import Source

EPOCH = date(1970, 1, 1)
FEED_SIZE = 50


@dataclass(frozen=True)
class FeedEntry:
    """One published guide as the feed shows it."""

    url: str
    title: str
    author: str
    summary: str
    content_html: str
    published: date
    updated: date


@dataclass(frozen=True)
class SitemapEntry:
    url: str
    lastmod: date | None


def atom_time(day: date) -> str:
    """Format a date as an Atom timestamp at midnight UTC."""
    return f"{day.isoformat()}T00:00:00Z"


def atom_feed(
    *, title: str, site_url: str, feed_url: str, entries: Sequence[FeedEntry], limit: int = 50
) -> str:
    """Render an Atom 1.0 feed with full content, newest update first."""
    chosen = sorted(entries, key=lambda e: (e.updated, e.published, e.url), reverse=True)[:limit]
    updated = max((e.updated for e in chosen), default=EPOCH)
    lines = [
        '<?xml version="1.0" encoding="utf-8"?>',
        '<feed xmlns="http://www.w3.org/2005/Atom">',
        f"  <title>{escape(title)}</title>",
        f"  <id>{escape(site_url)}</id>",
        f'  <link rel="alternate" type="text/html" href={quoteattr(site_url)}/>',
        f'  <link rel="self" type="application/atom+xml" href={quoteattr(feed_url)}/>',
        f"  <updated>{atom_time(updated)}</updated>",
        f"  <author><name>{escape(title)}</name></author>",
    ]
    for entry in chosen:
        lines += [
            "  <entry>",
            f"    <title>{escape(entry.title)}</title>",
            f"    <id>{escape(entry.url)}</id>",
            f'    <link rel="alternate" type="text/html" href={quoteattr(entry.url)}/>',
            f"    <published>{atom_time(entry.published)}</published>",
            f"    <updated>{atom_time(entry.updated)}</updated>",
            f"    <author><name>{escape(entry.author)}</name></author>",
            f"    <summary>{escape(entry.summary)}</summary>",
            f'    <content type="html">{escape(entry.content_html)}</content>',
            "  </entry>",
        ]
    lines.append("</feed>")
    return "\n".join(lines) + "\n"


def sitemap(entries: Sequence[SitemapEntry]) -> str:
    """Render a sitemaps.org urlset, sorted by URL."""
    lines = [
        '<?xml version="1.0" encoding="utf-8"?>',
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ]
    for entry in sorted(entries, key=lambda e: e.url):
        lastmod = f"<lastmod>{entry.lastmod.isoformat()}</lastmod>" if entry.lastmod else ""
        lines.append(f"  <url><loc>{escape(entry.url)}</loc>{lastmod}</url>")
    lines.append("</urlset>")
    return "\n".join(lines) + "\n"


def feed_guides(guides: Iterable[SiteGuide]) -> list[SiteGuide]:
    """Return the live guides the feed carries: the most recently updated first."""
    live = [g for g in guides if not g.draft and g.updated]
    live.sort(key=lambda g: (g.updated, g.published, g.id), reverse=True)
    return live[:FEED_SIZE]


def feed_entries(model: SiteModel, bodies: Callable[[SiteGuide], str]) -> list[FeedEntry]:
    """Return the feed's entries; bodies gives each guide's body HTML (or its key)."""
    return [
        FeedEntry(
            url=f"{model.base_url}/guides/{guide.id}/",
            title=guide.doc.meta.title,
            author=model.site.name,
            summary=guide.source.summary,
            content_html=bodies(guide),
            published=guide.published or guide.updated,
            updated=guide.updated,
        )
        for guide in sorted(feed_guides(model.guides), key=lambda g: g.id)
    ]


def feed_key(model: SiteModel) -> str:
    """Return the input key of feed.xml: its entries, each body by its text."""
    entries = feed_entries(model, lambda guide: guide.doc.content_hash)
    return content_key(code_version(), "feed", model.site, [e.__dict__ for e in entries])


def render_feed(model: SiteModel, bodies: Callable[[SiteGuide], str]) -> str:
    """Render the Atom feed."""
    return atom_feed(
        title=model.site.name,
        site_url=f"{model.base_url}/",
        feed_url=f"{model.base_url}/feed.xml",
        entries=feed_entries(model, bodies),
        limit=FEED_SIZE,
    )


def render_sitemap(model: SiteModel) -> str:
    """Render sitemap.xml: every live guide, hub and company page with its last review."""
    site_url = f"{model.base_url}/"
    live = [g for g in model.guides if not g.draft]
    latest = max((g.updated for g in live if g.updated), default=None)
    urls = [SitemapEntry(site_url, latest)]
    urls += [SitemapEntry(f"{model.base_url}/guides/{g.id}/", g.updated) for g in live]

    def lastmod(sources: Iterable[Source]) -> date | None:
        dates = [
            model.guide_of[s.key].updated
            for s in sources
            if s.key in model.guide_of and not model.guide_of[s.key].draft
        ]
        return max((d for d in dates if d), default=None)

    urls += [
        SitemapEntry(f"{model.base_url}/topics/{t.slug}/", lastmod(t.sources)) for t in model.topics
    ]
    urls += [
        SitemapEntry(f"{model.base_url}/companies/{slug}/", lastmod(members))
        for slug, (_, members) in model.companies.items()
    ]
    return sitemap(urls)


# --- the render stage -----------------------------------------------------------------------
