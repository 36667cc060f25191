"""Digest pages: each week's issue, the archive and digest/feed.xml, built from the model.

The issues come from generator.digest.issue.build_issue over the guides' first-published
dates (see model.site_issues), so a clean rebuild makes the same pages.
"""

from __future__ import annotations

from collections.abc import Callable

from generator.site.feeds import FeedEntry, atom_feed, empty_feed_date
from generator.site.model import (
    IssuePage,
    SiteModel,
    page_count,
    page_slice,
    paged_path,
    pager,
    root_of,
)
from generator.sources.records import normalize_tag

FEED_ISSUES = 20
FOLDER = "digest/"
ARCHIVE = "digest/index.html"
FEED = "digest/feed.xml"

# A page to render: its path, its template and its context.
Page = tuple[str, str, dict]


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
                "topic": group.topic or model.words.digest.more,
                "href": link(hub) if hub else None,
                "entries": items,
            }
        )
    return {
        "label": page.week.label,
        "name": issue.name,
        "site_name": model.site.name,
        "title": model.words.digest.title.format(issue=issue.name, site=model.site.name),
        "subject": issue.subject,
        "opening": issue.opening,
        "closed": page.closed,
        "closes": page.week.sunday.isoformat(),
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
        "breadcrumbs": [*model.crumbs(ARCHIVE), {"name": view["name"], "href": None}],
        "pager": {
            "newer": pages[number - 1].href if number > 0 else None,
            "older": pages[number + 1].href if number + 1 < len(pages) else None,
        },
    }
    return page.href, "issue.html", context


def archive_page(model: SiteModel, number: int, common: dict) -> Page:
    """Return page number of the digest archive, digest/index.html: every issue, newest first."""
    size = model.site.page_size
    count = page_count(len(model.issues), size)
    relative = paged_path(FOLDER, number)
    weekly = model.words.chrome.weekly
    trail = [{"name": weekly, "href": None}]
    if number > 1:
        page = model.words.pager.title.format(number=number)
        trail = [{"name": weekly, "href": ARCHIVE}, {"name": page, "href": None}]
    items = [
        {
            "href": page.href,
            "label": page.week.label,
            "name": page.issue.name,
            "opening": page.issue.opening,
            "closed": page.closed,
        }
        for page in page_slice(model.issues, number, size)
    ]
    context = {
        **common,
        "root": root_of(relative),
        "canonical": model.page_url(relative),
        "banner": None,
        "subscribe": model.subscribe_url,
        "description": model.words.digest.description.format(site=model.site.name),
        "issues": items,
        "feed": FEED,
        "pager": pager(FOLDER, number, count),
        "breadcrumbs": [*model.crumbs(), *trail],
    }
    return relative, "issues.html", context


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
        title=model.words.digest.feed_title.format(site=model.site.name),
        site_url=model.page_url(ARCHIVE),
        feed_url=model.page_url(FEED),
        entries=entries,
        empty_updated=empty_feed_date(model),
        limit=FEED_ISSUES,
        language=model.words.language,
    )
