"""Model: what the pages are made from (topic hubs, companies, related stories, cards)."""

from __future__ import annotations

import heapq
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date, timedelta
from functools import cached_property
from urllib.parse import urlsplit

from markupsafe import Markup

from generator.core.catalogue import Catalogue
from generator.core.config import SiteSettings
from generator.core.urls import url_path
from generator.digest.issue import DigestArticle, DigestIssue, Week, build_issue, week_of
from generator.guides.markdown import safe_link
from generator.guides.project import Project
from generator.site.pages import content_key as content_key
from generator.site.pages import page_templates
from generator.site.select import SiteGuide
from generator.site.theme import Theme, load_theme
from generator.sources.records import Source, normalize_tag, slugify
from generator.sources.topics import Topic, compute_topics, join_names, recency_key, unique_slugs

MAX_RELATED = 3
EXAMPLE_HOSTS = ("example.org", "example.com", "example.net")


class RelatedIndex:
    """An index over the database that answers "what is related to this write-up"."""

    def __init__(self, sources: Sequence[Source]) -> None:
        self.sources = list(sources)
        self._tags: dict[str, frozenset[str]] = {}
        self._by_tag: dict[str, list[str]] = {}
        self._company: dict[str, str] = {}
        self._by_company_tag: dict[tuple[str, str], list[str]] = {}
        for source in self.sources:
            tags = frozenset(normalize_tag(tag) for tag in source.tags)
            company = normalize_tag(source.company)
            self._tags[source.key] = tags
            self._company[source.key] = company
            for tag in tags:
                self._by_tag.setdefault(tag, []).append(source.key)
                self._by_company_tag.setdefault((company, tag), []).append(source.key)
        self._by_id = {source.key: source for source in self.sources}
        # Rank 0 is the oldest: newest first, undated last, then by id.
        newest_first = sorted(self.sources, key=recency_key)
        self._rank = {s.key: len(newest_first) - i for i, s in enumerate(newest_first)}
        self._span = len(newest_first) + 1
        # Each company's write-ups, newest first.
        self._newest: dict[str, list[str]] = {}
        for source in newest_first:
            self._newest.setdefault(self._company[source.key], []).append(source.key)

    def related(self, source: Source, limit: int = MAX_RELATED) -> list[Source]:
        """Return up to limit other write-ups that share the company or at least one tag.

        Reads the company's write-ups that share a tag and its newest few: a write-up of the
        company sharing none ranks below those newest ones, as it is older.
        """
        key = source.key
        mine = self._tags.get(key) or frozenset(normalize_tag(t) for t in source.tags)
        tags, rank = self._tags, self._rank
        company = normalize_tag(source.company)
        # Same company first, by shared tags then recency; others need a shared tag.
        members = self._newest.get(company, [])
        same = {k for tag in mine for k in self._by_company_tag.get((company, tag), ())}
        same.update(members[: limit + 1])
        same.discard(key)
        best = heapq.nlargest(limit, [(len(tags[k] & mine), rank[k], k) for k in same])
        if len(best) < limit:  # the company has fewer other write-ups than limit: all in best
            shared: Counter[str] = Counter()
            for tag in mine:
                shared.update(self._by_tag.get(tag, ()))
            for k in (key, *members):
                shared.pop(k, None)
            others = heapq.nlargest(
                limit - len(best), [(count, rank[k], k) for k, count in shared.items()]
            )
            best += others
        return [self._by_id[k] for _, _, k in best]


def related_stories(
    source: Source, sources: Sequence[Source], limit: int = MAX_RELATED
) -> list[Source]:
    """Rank other write-ups: shared company first, then shared tags, ties by recency."""
    return RelatedIndex(sources).related(source, limit)


@dataclass(frozen=True)
class IssuePage:
    """A week's digest issue on the site; its items link to guide pages (site-relative)."""

    week: Week
    issue: DigestIssue
    # The week has ended: the issue is final, and digest/feed.xml carries it.
    closed: bool
    # The day the issue last changed: the day after its week when closed, else its newest item.
    updated: date

    @property
    def href(self) -> str:
        return f"digest/{self.week.label}/index.html"


def site_issues(
    guides: Sequence[SiteGuide],
    today: date,
    site_name: str,
    words: Catalogue | None = None,
    articles: Sequence[tuple[DigestArticle, date]] = (),
) -> list[IssuePage]:
    """Build the issue of every week in which a guide (or an article) was first published."""
    published = [(g.source, g.first_published) for g in guides if g.first_published and not g.draft]
    hrefs = {g.source.key: g.href for g in guides}
    days = [day for _, day in published] + [day for _, day in articles]
    weeks = sorted({week_of(day) for day in days}, key=lambda w: w.label, reverse=True)
    pages = []
    for position, week in enumerate(weeks):
        issue = build_issue(
            week,
            published,
            site_name=site_name,
            guide_url=hrefs.__getitem__,
            articles=articles,
            number=len(weeks) - position,
            words=words,
        )
        closed = week.sunday < today
        newest = max(day for day in days if week.holds(day))
        updated = week.sunday + timedelta(days=1) if closed else newest
        pages.append(IssuePage(week, issue, closed, updated))
    return pages


def site_records(project: Project, preview: bool) -> list[Source]:
    """Return the records a site is made of, sorted by key: examples only in a preview."""
    records = sorted(project.sources.sources, key=lambda s: s.key)
    return records if preview else [s for s in records if not s.example]


def example_records(project: Project) -> list[Source]:
    """Return the example records (example: true), which a published site leaves out."""
    return sorted((s for s in project.sources.sources if s.example), key=lambda s: s.key)


def site_topics(project: Project, ordered: list[Source] | None = None) -> list[Topic]:
    """Compute the topic hubs of the records (ordered: the records sorted by key, if made)."""
    if ordered is None:
        ordered = sorted(project.sources.sources, key=lambda s: s.key)
    return compute_topics(ordered, project.settings.topics.min_sources)


def paged_path(folder: str, number: int) -> str:
    """Return the path of a listing's page number in folder ("", "topics/gpus/"); 1 is its front."""
    return f"{folder}index.html" if number == 1 else f"{folder}page/{number}/index.html"


def page_count(total: int, size: int) -> int:
    """Return how many pages of size items a listing of total items takes (at least one)."""
    return max(1, -(-total // size))


def page_slice(items: Sequence, number: int, size: int) -> list:
    """Return the items on page number (from 1) of a listing of size items a page."""
    return list(items[(number - 1) * size : number * size])


def pager(folder: str, number: int, count: int) -> dict:
    """Return the template data of page number of count: site-relative links to its neighbours."""
    return {
        "number": number,
        "count": count,
        "first": paged_path(folder, 1),
        "prev": paged_path(folder, number - 1) if number > 1 else None,
        "next": paged_path(folder, number + 1) if number < count else None,
    }


def root_of(relative: str) -> str:
    """Return the relative link from a page to the site's root ("../../" two folders down)."""
    return "../" * relative.count("/")


def listing_order(guide: SiteGuide) -> tuple:
    """Sort key of the index: the newest write-up first (the date its card shows), undated last."""
    return (*recency_key(guide.source), guide.id)


class SiteModel:
    """Everything the pages are made from, computed once per build."""

    def __init__(
        self,
        project: Project,
        guides: list[SiteGuide],
        topics: list[Topic] | None = None,
        related: RelatedIndex | None = None,
        theme: Theme | None = None,
        *,
        preview: bool = False,
        articles: Sequence = (),
    ) -> None:
        """Model the site; topics and related, when given, are made from these records.

        A topic or company with neither a guide nor a live article on the site gets no page;
        articles are the live ones (and, in a preview, drafts: see site/articles.py).
        """
        self.project = project
        self.site = project.settings.site
        self.theme = theme if theme is not None else load_theme(project)
        look = self.theme
        self.pages = page_templates(look.templates, look.words, look.origins, look.logo)
        self.words = self.pages.words
        self.base_url = self.site.base_url.rstrip("/")
        self.sources = site_records(project, preview)
        self.guides = guides
        self.articles: list = list(articles)
        self.guide_of: dict[str, SiteGuide] = {g.source.key: g for g in guides}
        # The records a page of the site is about: its guides' and its live articles'.
        shown = set(self.guide_of)
        shown |= {s.key for a in self.articles if not a.draft for s in a.sources}
        self.problems: list[str] = []
        if topics is None:
            topics = site_topics(project, self.sources)
        self.all_topics = topics
        hubs, clashes = unique_slugs(topics)
        self.topics = [t for t in hubs if any(s.key in shown for s in t.sources)]
        for clash in clashes:
            if clash.kept:
                self.problems.append(
                    f"topic slug {clash.slug!r} is shared by {clash.kept!r} and "
                    f"{join_names([repr(n) for n in clash.dropped])}; only {clash.kept!r} "
                    "gets a hub: rename the other tags"
                )
            else:
                self.problems.append(
                    f"tag {join_names([repr(n) for n in clash.dropped])} has no letters or "
                    "digits for a hub address; no hub written"
                )
        self.topic_href = {t.key: url_path(f"topics/{t.slug}/index.html") for t in self.topics}
        self.companies = self._companies(shown)
        self.company_href = {
            normalize_tag(name): url_path(f"companies/{slug}/index.html")
            for slug, (name, _) in self.companies.items()
        }
        # The page of its company's listing that shows a write-up's card.
        size = self.site.page_size
        self.company_page = {
            source.key: url_path(paged_path(f"companies/{slug}/", i // size + 1))
            for slug, (_, members) in self.companies.items()
            for i, source in enumerate(members)
        }
        self.related = related or RelatedIndex(self.sources)
        self.topic_by_slug = {topic.slug: topic for topic in self.topics}
        self.topic_by_key = {topic.key: topic for topic in self.topics}
        self.subscribe_url = project.settings.digest.subscribe_url
        self.listing_order = sorted(guides, key=listing_order)
        self._cards: dict[str, dict] = {}
        self._card_keys: dict[str, str] = {}
        # By the id of the item: the items live in _items as long as the model.
        self._item_keys: dict[int, str] = {}
        # Source cards as HTML, filled by the render stage: each is rendered once per process.
        self.card_html: dict[tuple[str, str], Markup] = {}
        self._related: dict[str, list[dict]] = {}
        self._items: dict[str, dict | None] = {}
        self._tag_links: dict[str, dict] = {}

    @cached_property
    def issues(self) -> list[IssuePage]:
        """Return the weeks' digest issues (built when a page or feed needs them)."""
        articles = [
            (DigestArticle(a.slug, a.title, a.doc.meta.company, a.href), a.first_published)
            for a in self.articles
            if not a.draft and a.first_published
        ]
        return site_issues(self.guides, self.project.today, self.site.name, self.words, articles)

    @cached_property
    def issue_labels(self) -> list[str]:
        """Return the labels of the weeks with an issue, newest first, without building them."""
        days = {g.first_published for g in self.guides if g.first_published and not g.draft}
        days |= {a.first_published for a in self.articles if a.first_published and not a.draft}
        weeks = {week_of(day).label for day in days}
        return sorted(weeks, reverse=True)

    def _companies(self, shown: set[str]) -> dict[str, tuple[str, list[Source]]]:
        groups: dict[str, dict[str, list[Source]]] = {}
        for source in self.sources:
            groups.setdefault(slugify(source.company), {}).setdefault(
                normalize_tag(source.company), []
            ).append(source)
        companies = {}
        for slug, by_name in sorted(groups.items()):
            ranked = sorted(by_name.values(), key=lambda group: (-len(group), group[0].company))
            name = ranked[0][0].company
            if not slug:
                self.problems.append(
                    f"company {name!r} has no letters or digits for a page address; "
                    "no company page written"
                )
                continue
            if len(ranked) > 1:
                others = join_names([repr(group[0].company) for group in ranked[1:]])
                self.problems.append(
                    f"company slug {slug!r} is shared by {name!r} and {others}; only {name!r} "
                    "gets the page: make the company names consistent"
                )
            if any(source.key in shown for source in ranked[0]):
                companies[slug] = (name, sorted(ranked[0], key=recency_key))
        return companies

    def crumbs(self, section: str | None = None) -> list[dict]:
        """Return the start of a page's breadcrumb trail: the front page, then its section."""
        chrome = self.words.chrome
        names = {
            "topics/index.html": chrome.topics,
            "companies/index.html": chrome.companies,
            "digest/index.html": chrome.weekly,
        }
        trail = [{"name": self.site.name, "href": "index.html"}]
        if section is not None:
            trail.append({"name": names[section], "href": section})
        return trail

    def page_url(self, relative: str) -> str:
        """Return a page's absolute URL in the sitemap's form (…/guides/ID/, not …/index.html)."""
        return f"{self.base_url}/{url_path(relative.removesuffix('index.html'))}"

    def strongest_topic(self, source: Source) -> Topic | None:
        """Return the hub of the write-up's tag with the most write-ups (ties: alphabetical)."""
        hubs = [self.topic_by_key.get(normalize_tag(tag)) for tag in source.tags]
        return min(
            (topic for topic in hubs if topic is not None),
            key=lambda t: (-t.count, t.key, t.slug),
            default=None,
        )

    def see_also(self, source: Source) -> list[dict]:
        """Return the "See also" links of a write-up: its company's page and strongest hub."""
        links = []
        company = slugify(source.company)
        if normalize_tag(source.company) in self.company_href:
            count = len(self.companies[company][1])
            links.append(
                {
                    "name": self.companies[company][0],
                    "note": self.words.counts.write_ups.of(count),
                    "href": self.company_href[normalize_tag(source.company)],
                }
            )
        topic = self.strongest_topic(source)
        if topic is not None:
            links.append(
                {
                    "name": topic.name,
                    "note": self.words.counts.write_ups.of(topic.count),
                    "href": self.topic_href[topic.key],
                }
            )
        return links

    def tag_links(self, tags: Iterable[str]) -> list[dict]:
        """Return each tag's link to its hub (None when it has none); pages only read them."""
        links = self._tag_links
        found = []
        for tag in tags:
            link = links.get(tag)
            if link is None:
                link = links[tag] = {"name": tag, "href": self.topic_href.get(normalize_tag(tag))}
            found.append(link)
        return found

    def source_href(self, source: Source) -> str | None:
        """Link to the guide when it is on the site, else to the write-up's source card."""
        guide = self.guide_of.get(source.key)
        if guide is not None:
            return guide.href
        page = self.company_page.get(source.key)
        return f"{page}#{source.key}" if page else None

    def related_items(self, source: Source) -> list[dict]:
        """Return the related-story items of a write-up (computed once per build)."""
        cached = self._related.get(source.key)
        if cached is not None:
            return cached
        items: list[dict] = []
        self._related[source.key] = items
        for other in self.related.related(source):
            item = self._related_item(other)
            if item is not None:
                items.append(item)
        return items

    def _related_item(self, other: Source) -> dict | None:
        """Return a write-up as a related-story item, made once: every page showing it shares it."""
        if other.key in self._items:
            return self._items[other.key]
        href = self.source_href(other)
        item = None
        if href is not None:
            item = {
                "title": other.title,
                "company": other.company,
                "year": other.published.year if other.published else None,
                "summary": other.summary,
                "href": href,
                "is_guide": other.key in self.guide_of,
                "tags": self.tag_links(other.tags),
            }
        self._items[other.key] = item
        return item

    def card(self, source: Source) -> dict:
        """Return the data of a write-up's source card (computed once per build)."""
        cached = self._cards.get(source.key)
        if cached is None:
            guide = self.guide_of.get(source.key)
            cached = {
                "id": source.key,
                "company": source.company,
                "year": source.published.year if source.published else None,
                "title": source.title,
                "url": safe_url(source.url),
                "summary": source.summary,
                "published": source.published.isoformat() if source.published else None,
                "scale": source.scale,
                "techniques": self.tag_links(source.techniques),
                "stack": self.tag_links(source.stack),
                "guide_href": guide.href if guide else None,
                "draft": bool(guide and guide.draft),
                "related": self.related_items(source),
                "see_also": self.see_also(source),
            }
            self._cards[source.key] = cached
        return cached

    def forget_cards(self) -> None:
        """Let the source cards go once every listing page that shows them is placed."""
        self._cards.clear()
        self.card_html.clear()

    def card_key(self, source: Source) -> str:
        """Return a hash of a source card's data: a page's input, without rendering it."""
        key = self._card_keys.get(source.key)
        if key is None:
            card = self.card(source)
            # Each related story by its own key: many cards share it, hashed once.
            related = [self.item_key(item) for item in card["related"]]
            key = content_key({**card, "related": related})
            self._card_keys[source.key] = key
        return key

    def item_key(self, item: dict) -> str:
        """Return the key of a related-story item (shared, see _related_item), made once."""
        key = self._item_keys.get(id(item))
        if key is None:
            key = self._item_keys[id(item)] = content_key(item)
        return key


def base_url_problem(site: SiteSettings) -> str | None:
    """Say why [site] base_url cannot be the site's address: unset, or an example host."""
    if "base_url" not in site.model_fields_set:
        return (
            f"[site] base_url is not set in prepguide.toml, so the feed, sitemap and canonical "
            f"links point at {site.base_url}: set it to the address the site is served from"
        )
    host = (urlsplit(site.base_url).hostname or "").rstrip(".")
    if host in EXAMPLE_HOSTS or host.endswith(tuple(f".{name}" for name in EXAMPLE_HOSTS)):
        return (
            f"[site] base_url {site.base_url} is an example address, so the feed, sitemap and "
            "canonical links point nowhere: set it in prepguide.toml to the address the site "
            "is served from"
        )
    return None


def safe_url(url: str | None) -> str | None:
    """Return the URL when it is absolute http(s), else None."""
    return url if url and safe_link(url) and not url.strip().startswith("#") else None
