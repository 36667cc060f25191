"""Atom feeds and the sitemap: pure functions from the site's model to XML text."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import date
from xml.sax.saxutils import escape, quoteattr

from generator.core.codeversion import code_version
from generator.site.model import SiteModel, content_key, page_count, page_slice, paged_path
from generator.site.select import SiteGuide
from generator.sources.records import Source

FEED_SIZE = 50


@dataclass(frozen=True)
class FeedEntry:
    """One published guide (or digest issue) as a feed shows it."""

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
    *,
    title: str,
    site_url: str,
    feed_url: str,
    entries: Sequence[FeedEntry],
    empty_updated: date,
    limit: int = FEED_SIZE,
    language: str = "en",
) -> str:
    """Render an Atom 1.0 feed with full content, newest update first.

    A feed without entries is dated empty_updated: Atom requires <updated>. language is the
    feed's xml:lang, the site's language.
    """
    chosen = sorted(entries, key=lambda e: (e.updated, e.published, e.url), reverse=True)[:limit]
    updated = max((e.updated for e in chosen), default=empty_updated)
    lines = [
        '<?xml version="1.0" encoding="utf-8"?>',
        f'<feed xmlns="http://www.w3.org/2005/Atom" xml:lang={quoteattr(language)}>',
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


# --- the site's feed and sitemap ------------------------------------------------------------


def feed_guides(guides: Iterable[SiteGuide]) -> list[SiteGuide]:
    """Return the live guides the feed carries: the most recently updated first."""
    live = [g for g in guides if not g.draft and g.updated]
    live.sort(key=lambda g: (g.updated, g.published, g.id), reverse=True)
    return live[:FEED_SIZE]


def empty_feed_date(model: SiteModel) -> date:
    """Return the date of a feed with nothing in it: the latest review, else today."""
    reviews = [g.updated for g in model.guides if not g.draft and g.updated]
    return max(reviews, default=model.project.today)


def feed_entries(model: SiteModel, bodies: Callable[[SiteGuide], str]) -> list[FeedEntry]:
    """Return the feed's entries; bodies gives each guide's body HTML (or its key)."""
    return [
        FeedEntry(
            url=model.page_url(guide.href),
            title=guide.meta.title,
            author=model.site.name,
            summary=guide.source.summary,
            content_html=bodies(guide),
            published=guide.published or guide.updated,
            updated=guide.updated,
        )
        for guide in sorted(feed_guides(model.guides), key=lambda g: g.id)
    ] + [
        FeedEntry(
            url=model.page_url(article.href),
            title=article.title,
            author=model.site.name,
            summary=model.words.article.feed_summary.format(
                write_ups=model.words.counts.write_ups.of(len(article.sources))
            ),
            content_html=bodies(article),
            published=article.updated,
            updated=article.updated,
        )
        for article in model.articles
        if not article.draft and article.updated
    ]


def feed_key(model: SiteModel) -> str:
    """Return the input key of feed.xml: its entries, each body by its text."""
    entries = feed_entries(model, lambda guide: guide.content_hash)
    return content_key(
        code_version(), "feed", model.site, [e.__dict__ for e in entries], empty_feed_date(model)
    )


def render_feed(model: SiteModel, bodies: Callable[[SiteGuide], str]) -> str:
    """Render the Atom feed of the guides."""
    return atom_feed(
        title=model.site.name,
        site_url=model.page_url("index.html"),
        feed_url=model.page_url("feed.xml"),
        entries=feed_entries(model, bodies),
        empty_updated=empty_feed_date(model),
        limit=FEED_SIZE,
        language=model.words.language,
    )


def index_chunks(model: SiteModel) -> list[list[SiteGuide]]:
    """Split the index into its pages (at least one, empty when no guide is published)."""
    size = model.site.page_size
    order = model.listing_order
    return [order[start : start + size] for start in range(0, len(order), size)] or [[]]


def index_path(number: int) -> str:
    """Return the path of the index's page number (1 is the front page)."""
    return paged_path("", number)


def render_sitemap(model: SiteModel) -> str:
    """Render sitemap.xml: every indexable page, dated by the last review it shows.

    Preview builds have no sitemap: every page of a preview is noindex.
    """
    live = [g for g in model.guides if not g.draft]

    def newest(dates: Iterable[date | None]) -> date | None:
        return max((d for d in dates if d), default=None)

    def lastmod(sources: Iterable[Source]) -> date | None:
        guides = (model.guide_of.get(s.key) for s in sources)
        return newest(g.updated for g in guides if g is not None and not g.draft)

    latest = newest(g.updated for g in live)
    size = model.site.page_size

    def paged(folder: str, items: Sequence, first: date | None, day) -> list:
        """Every page of a listing: the first dated as a whole, the others by what they show."""
        count = page_count(len(items), size)
        found = [(paged_path(folder, 1), first)]
        for number in range(2, count + 1):
            found.append((paged_path(folder, number), day(page_slice(items, number, size))))
        return found

    pages = [
        (index_path(number), newest(g.updated for g in chunk))
        for number, chunk in enumerate(index_chunks(model), start=1)
    ]
    pages[0] = ("index.html", latest)
    pages += [(g.href, g.updated) for g in live]
    pages += [(a.href, a.updated) for a in model.articles if not a.draft]
    topics = {t.slug: lastmod(t.sources) for t in model.topics}
    pages.append(("topics/index.html", newest(topics.values())))
    for topic in model.topics:
        pages += paged(f"topics/{topic.slug}/", topic.sources, topics[topic.slug], lastmod)
    companies = {slug: lastmod(members) for slug, (_, members) in model.companies.items()}
    pages.append(("companies/index.html", newest(companies.values())))
    for slug, (_, members) in model.companies.items():
        pages += paged(f"companies/{slug}/", members, companies[slug], lastmod)
    issues = model.issues
    pages += paged("digest/", issues, newest(p.updated for p in issues), _issues_lastmod)
    pages += [(page.href, page.updated) for page in issues]
    return sitemap([SitemapEntry(model.page_url(relative), day) for relative, day in pages])


def _issues_lastmod(pages: Iterable) -> date | None:
    return max((page.updated for page in pages), default=None)
