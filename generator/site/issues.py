"""Digest pages: each week's issue, the archive and digest/feed.xml, built from the model.

The issues come from generator.digest.issue.build_issue over the guides' first-published
dates (see model.site_issues), so a clean rebuild makes the same pages.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date

from generator.site.feeds import FeedEntry, atom_feed, empty_feed_date
from generator.site.model import IssuePage, SiteModel
from generator.sources.records import normalize_tag

FEED_ISSUES = 20
MONTHS = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)
ARCHIVE = "digest/index.html"
FEED = "digest/feed.xml"

# A page to render: its path, its template and its context.
Page = tuple[str, str, dict]


def long_date(day: date, *, year: bool = True) -> str:
    """Format a date as "30 November 2026" (English month names, whatever the locale)."""
    text = f"{day.day} {MONTHS[day.month - 1]}"
    return f"{text} {day.year}" if year else text


def week_span(page: IssuePage) -> str:
    """Say which days an issue covers: "30 November to 6 December 2026"."""
    monday, sunday = page.week.monday, page.week.sunday
    return f"{long_date(monday, year=monday.year != sunday.year)} to {long_date(sunday)}"


def issue_view(model: SiteModel, page: IssuePage, link: Callable[[str], str]) -> dict:
    """Return an issue as template data; link turns a site-relative page path into an href."""
    issue = page.issue
    groups = []
    for group in issue.groups:
        hub = model.topic_href.get(normalize_tag(group.topic)) if group.topic else None
        items = []
        for item in group.items:
            company = model.company_href.get(normalize_tag(item.company))
            items.append(
                {
                    "title": item.title,
                    "company": item.company,
                    "company_href": link(company) if company else None,
                    "year": item.year,
                    "reports": item.reports,
                    "href": link(item.url),
                }
            )
        groups.append(
            {
                "topic": group.topic or "More write-ups",
                "href": link(hub) if hub else None,
                "entries": items,
            }
        )
    return {
        "label": page.week.label,
        "site_name": model.site.name,
        "title": f"{model.site.name} weekly: {page.week.label}",
        "subject": issue.subject,
        "span": week_span(page),
        "opening": issue.opening,
        "closed": page.closed,
        "closes": long_date(page.week.sunday),
        "count": len(issue.items),
        "groups": groups,
        "articles": [
            {"title": a.title, "companies": a.companies, "href": link(a.url)}
            for a in issue.articles
        ],
    }


def issue_page(model: SiteModel, label: str, common: dict) -> Page:
    """Return the page of one week's issue: digest/<YYYY-Www>/index.html."""
    pages = model.issues
    number = next(i for i, page in enumerate(pages) if page.week.label == label)
    page = pages[number]
    view = issue_view(model, page, lambda relative: relative)
    context = {
        **common,
        "root": "../../",
        "canonical": model.page_url(page.href),
        "banner": None,
        "subscribe": model.subscribe_url,
        "description": page.issue.opening,
        "issue": view,
        "pager": {
            "newer": pages[number - 1].href if number > 0 else None,
            "older": pages[number + 1].href if number + 1 < len(pages) else None,
        },
    }
    return page.href, "issue.html", context


def archive_page(model: SiteModel, common: dict) -> Page:
    """Return the digest archive, digest/index.html: every issue, newest first."""
    items = [
        {
            "href": page.href,
            "label": page.week.label,
            "span": week_span(page),
            "opening": page.issue.opening,
            "closed": page.closed,
        }
        for page in model.issues
    ]
    context = {
        **common,
        "root": "../",
        "canonical": model.page_url(ARCHIVE),
        "banner": None,
        "subscribe": model.subscribe_url,
        "description": f"Every weekly issue of {model.site.name}: the guides first published "
        "each week.",
        "issues": items,
        "feed": FEED,
    }
    return ARCHIVE, "issues.html", context


def digest_feed(model: SiteModel, content: Callable[[dict], str]) -> str:
    """Render digest/feed.xml: the full text of every ended week's issue, newest first.

    Only ended weeks go in, so that a service mailing from the feed sends each issue once,
    whole. content renders an issue view (absolute links) as HTML.
    """
    closed = [page for page in model.issues if page.closed][:FEED_ISSUES]
    entries = [
        FeedEntry(
            url=model.page_url(page.href),
            title=page.issue.subject,
            author=model.site.name,
            summary=page.issue.opening,
            content_html=content(issue_view(model, page, model.page_url)),
            published=page.updated,
            updated=page.updated,
        )
        for page in closed
    ]
    return atom_feed(
        title=f"{model.site.name} weekly",
        site_url=model.page_url(ARCHIVE),
        feed_url=model.page_url(FEED),
        entries=entries,
        empty_updated=empty_feed_date(model),
        limit=FEED_ISSUES,
    )
