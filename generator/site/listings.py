"""Listings: the index pages, topic hubs, company pages and their indexes, with source cards."""

from __future__ import annotations

from collections.abc import Callable

from markupsafe import Markup

from generator.core.names import plural
from generator.core.urls import url_path
from generator.site import issues
from generator.site.feeds import index_chunks, index_path
from generator.site.model import SiteModel
from generator.site.pages import page_environment, page_key, render_page
from generator.sources.records import Source, normalize_tag
from generator.sources.topics import Topic

PREVIEW_BANNER = "Preview build: drafts that are not reviewed are included. Not indexed."
INDEX_TOPICS = 8
INDEX_COMPANIES = 8
TOPIC_FIELD_LABELS = {"stack": "Stack", "techniques": "Technique", "both": "Technique and stack"}

# A page to render: its path, its template and its context.
Page = tuple[str, str, dict]


def card_html(model: SiteModel, source: Source) -> Markup:
    """Render a write-up's source card once per process; hubs and company pages share it."""
    cached = model.card_html.get(source.key)
    if cached is None:
        module = page_environment().get_template("cards.html").module
        cached = Markup(module.source_card(model.card(source), "../../"))
        model.card_html[source.key] = cached
    return cached


def listing_pages(model: SiteModel) -> list[tuple[str, ...]]:
    """Name every listing page (index pages, hubs, company pages) as a render task."""
    count = len(index_chunks(model))
    return [
        *(("index", str(number)) for number in range(1, count + 1)),
        *(("topic", topic.slug) for topic in model.topics),
        ("topics",),
        *(("company", slug) for slug in model.companies),
        ("companies",),
        *(("issue", label) for label in model.issue_labels),
        ("issues",),
    ]


def listing_page(
    model: SiteModel,
    task: tuple[str, ...],
    common: dict,
    preview: bool,
    card: Callable[[Source], object],
) -> Page:
    """Return one listing page's path, template and context (cards made by card)."""
    kind, *args = task
    if kind == "index":
        return _index_page(model, int(args[0]), common, preview)
    if kind == "topic":
        return _topic_page(model, model.topic_by_slug[args[0]], common, card)
    if kind == "topics":
        return _topics_index(model, common)
    if kind == "company":
        return _company_page(model, args[0], common, card)
    if kind == "companies":
        return _companies_index(model, common)
    if kind == "issue":
        return issues.issue_page(model, args[0], common)
    return issues.archive_page(model, common)


def listing_path(model: SiteModel, task: tuple[str, ...]) -> str:
    """Return the path of a listing page without making its context."""
    kind, *args = task
    if kind == "index":
        return index_path(int(args[0]))
    if kind == "topic":
        return f"topics/{args[0]}/index.html"
    if kind == "company":
        return f"companies/{args[0]}/index.html"
    if kind in ("topics", "companies"):
        return f"{kind}/index.html"
    if kind == "issue":
        return f"digest/{args[0]}/index.html"
    return issues.ARCHIVE


def listing_key(model: SiteModel, task: tuple[str, ...], common: dict, preview: bool) -> str:
    """Return the input key of a listing page: its context with each card by its key."""
    relative, template, context = listing_page(model, task, common, preview, model.card_key)
    return page_key(template, context)


def with_cards(context: dict, card: Callable[[Source], object]) -> dict:
    """Return a listing context made with its sources as cards, each card made by card."""
    if "cards" not in context:
        return context
    return {**context, "cards": [card(source) for source in context["cards"]]}


def render_listing(
    model: SiteModel, task: tuple[str, ...], common: dict, preview: bool
) -> tuple[str, str]:
    """Render one listing page; return its path and HTML."""
    relative, template, context = listing_page(
        model, task, common, preview, lambda source: card_html(model, source)
    )
    return relative, render_page(template, context)


def _index_page(model: SiteModel, number: int, common: dict, preview: bool) -> Page:
    chunks = index_chunks(model)
    count = len(chunks)
    chunk = chunks[number - 1]
    relative = index_path(number)
    root = "" if number == 1 else "../../"
    page_href = index_path

    items = [
        {
            "href": g.href,
            "title": g.meta.title,
            "company": g.meta.company,
            "summary": g.source.summary,
            "published": g.source.published.isoformat() if g.source.published else None,
            "updated": g.updated.isoformat() if g.updated else None,
            "draft": g.draft,
        }
        for g in chunk
    ]
    context = {
        **common,
        "root": root,
        "canonical": model.page_url(relative),
        "banner": PREVIEW_BANNER if preview else None,
        "intro": _index_intro(model) if number == 1 else None,
        "guides": items,
        "pager": {
            "number": number,
            "count": count,
            "prev": page_href(number - 1) if number > 1 else None,
            "next": page_href(number + 1) if number < count else None,
        },
    }
    return relative, "index.html", context


def _index_intro(model: SiteModel) -> dict:
    """Return what the first index page opens with: counts and the ways into hubs and companies."""
    listed = model.guides
    companies = {normalize_tag(g.source.company) for g in listed}
    top_topics = sorted(model.topics, key=lambda t: (-t.count, t.key, t.slug))[:INDEX_TOPICS]
    by_count = sorted(
        model.companies.items(), key=lambda pair: (-len(pair[1][1]), pair[1][0].casefold(), pair[0])
    )
    guides = f"{len(listed)} {'guide' if len(listed) == 1 else 'guides'}"
    noun = "company" if len(companies) == 1 else "companies"
    return {
        "counts": f"{guides} on write-ups from {len(companies)} {noun}, "
        f"drawn from the {plural(len(model.sources), 'write-up')} in our database",
        "topics": [
            {"name": t.name, "href": model.topic_href[t.key], "count": t.count} for t in top_topics
        ],
        "topic_count": len(model.topics),
        "companies": [
            {"name": name, "href": url_path(f"companies/{slug}/index.html"), "count": len(members)}
            for slug, (name, members) in by_count[:INDEX_COMPANIES]
        ],
        "company_count": len(model.companies),
    }


def _card_note(topic: Topic, model: SiteModel) -> str:
    if all(source.key in model.guide_of for source in topic.sources):
        return "Each card below links to our short summary and the original post."
    return "Each card below links to the original post, and to our guide where one is published."


def _topic_page(
    model: SiteModel, topic: Topic, common: dict, card: Callable[[Source], object]
) -> Page:
    return _card_page(
        model,
        f"topics/{topic.slug}/index.html",
        "hub.html",
        common,
        topic.paragraph,
        [card(source) for source in topic.sources],
        topic={
            "title": topic.title,
            "paragraph": topic.paragraph,
            "card_note": _card_note(topic, model),
            "field_label": TOPIC_FIELD_LABELS[topic.field],
        },
    )


def _card_page(
    model: SiteModel,
    relative: str,
    template: str,
    common: dict,
    description: str,
    cards: list,
    **fields: object,
) -> Page:
    """Return a page two folders down that lists source cards (a hub or a company)."""
    context = {
        **common,
        "root": "../../",
        "canonical": model.page_url(relative),
        "banner": None,
        "subscribe": model.subscribe_url,
        "description": description,
        **fields,
        "cards": cards,
    }
    return relative, template, context


def _topics_index(model: SiteModel, common: dict) -> Page:
    items = [
        {
            "href": url_path(f"topics/{t.slug}/index.html"),
            "name": t.name,
            "note": f"{plural(t.count, 'write-up')} · {TOPIC_FIELD_LABELS[t.field].lower()}",
        }
        for t in sorted(model.topics, key=lambda t: (-t.count, t.name.casefold(), t.slug))
    ]
    threshold = model.project.settings.topics.min_sources
    context = {
        **common,
        "root": "../",
        "canonical": model.page_url("topics/index.html"),
        "banner": None,
        "heading": "Topics",
        "intro": f"Every technique and stack tag that at least {threshold} write-ups in our "
        "database mention and one of our guides covers, most common first.",
        "items": items,
    }
    return "topics/index.html", "listing.html", context


def _company_noun(members: list[Source]) -> str:
    return "write-up" if len(members) == 1 else "write-ups"


def _company_page(
    model: SiteModel, slug: str, common: dict, card: Callable[[Source], object]
) -> Page:
    name, members = model.companies[slug]
    with_guides = sum(1 for s in members if s.key in model.guide_of)
    years = sorted(s.published.year for s in members if s.published)
    span = ""
    if years:
        span = (
            f", published in {years[0]}"
            if years[0] == years[-1]
            else f", published between {years[0]} and {years[-1]}"
        )
    sentence = (
        f"{len(members)} engineering {_company_noun(members)} from {name} in our database"
        f"{span}. {with_guides} of them {'has' if with_guides == 1 else 'have'} a published "
        "guide."
    )
    return _card_page(
        model,
        f"companies/{slug}/index.html",
        "company.html",
        common,
        sentence,
        [card(source) for source in members],
        company={"name": name, "sentence": sentence},
    )


def _companies_index(model: SiteModel, common: dict) -> Page:
    items = [
        {
            "href": url_path(f"companies/{slug}/index.html"),
            "name": name,
            "note": f"{len(members)} {_company_noun(members)}",
        }
        for slug, (name, members) in model.companies.items()
    ]
    context = {
        **common,
        "root": "../",
        "canonical": model.page_url("companies/index.html"),
        "banner": None,
        "heading": "Companies",
        "intro": "Every company with a guide on this site.",
        "items": sorted(items, key=lambda i: (i["name"].casefold(), i["href"])),
    }
    return "companies/index.html", "listing.html", context
