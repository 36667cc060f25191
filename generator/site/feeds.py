"""Atom feed and sitemap: pure functions from published entries to XML text."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from xml.sax.saxutils import escape, quoteattr

EPOCH = date(1970, 1, 1)


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
