"""Listings: the index pages, topic hubs, company pages and their indexes, with source cards."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from markupsafe import Markup

from generator.core.urls import url_path
from generator.site import issues
from generator.site.feeds import index_chunks, index_path
from generator.site.model import SiteModel, page_count, page_slice, paged_path, pager, root_of
from generator.sources.records import Source, normalize_tag
from generator.sources.topics import Topic, topic_paragraph

INDEX_TOPICS = 8
INDEX_COMPANIES = 8

# A page to render: its path, its template and its context.
Page = tuple[str, str, dict]


def card_html(model: SiteModel, source: Source, root: str = "../../") -> Markup:
    """Render a write-up's source card once per process and depth; listings share it."""
    cached = model.card_html.get((source.key, root))
    if cached is None:
        module = model.pages.module("cards.html")
        cached = Markup(module.source_card(model.card(source), root))
        model.card_html[(source.key, root)] = cached
    return cached


def _pages(total: int, model: SiteModel) -> range:
    return range(1, page_count(total, model.site.page_size) + 1)


def listing_pages(model: SiteModel) -> list[tuple[str, ...]]:
    """Name every listing page (index pages, hubs, company pages) as a render task."""
    count = len(index_chunks(model))
    return [
        *(("index", str(number)) for number in range(1, count + 1)),
        *(
            ("topic", topic.slug, str(number))
            for topic in model.topics
            for number in _pages(len(topic.sources), model)
        ),
        ("topics",),
        *(
            ("company", slug, str(number))
            for slug, (_, members) in model.companies.items()
            for number in _pages(len(members), model)
        ),
        ("companies",),
        *(("issue", label) for label in model.issue_labels),
        *(("issues", str(number)) for number in _pages(len(model.issue_labels), model)),
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
        return _topic_page(model, model.topic_by_slug[args[0]], int(args[1]), common, card)
    if kind == "topics":
        return _topics_index(model, common)
    if kind == "company":
        return _company_page(model, args[0], int(args[1]), common, card)
    if kind == "companies":
        return _companies_index(model, common)
    if kind == "issue":
        return issues.issue_page(model, args[0], common)
    return issues.archive_page(model, int(args[0]), common)


def listing_path(model: SiteModel, task: tuple[str, ...]) -> str:
    """Return the path of a listing page without making its context."""
    kind, *args = task
    if kind == "index":
        return index_path(int(args[0]))
    if kind == "topic":
        return paged_path(f"topics/{args[0]}/", int(args[1]))
    if kind == "company":
        return paged_path(f"companies/{args[0]}/", int(args[1]))
    if kind in ("topics", "companies"):
        return f"{kind}/index.html"
    if kind == "issue":
        return f"digest/{args[0]}/index.html"
    return paged_path(issues.FOLDER, int(args[0]))


def listing_key(model: SiteModel, task: tuple[str, ...], common: dict, preview: bool) -> str:
    """Return the input key of a listing page: its context with each card by its key."""
    relative, template, context = listing_page(model, task, common, preview, model.card_key)
    return model.pages.key(template, context)


def with_cards(context: dict, card: Callable[[Source, str], object]) -> dict:
    """Return a listing context made with its sources as cards, each made by card(source, root)."""
    if "cards" not in context:
        return context
    root = context["root"]
    return {**context, "cards": [card(source, root) for source in context["cards"]]}


def render_listing(
    model: SiteModel, task: tuple[str, ...], common: dict, preview: bool
) -> tuple[str, str]:
    """Render one listing page; return its path and HTML."""
    relative, template, context = listing_page(model, task, common, preview, lambda source: source)
    context = with_cards(context, lambda source, root: card_html(model, source, root))
    return relative, model.pages.render(template, context)


def _index_page(model: SiteModel, number: int, common: dict, preview: bool) -> Page:
    chunks = index_chunks(model)
    count = len(chunks)
    chunk = chunks[number - 1]
    relative = index_path(number)
    root = root_of(relative)

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
        "banner": model.words.chrome.preview_banner if preview else None,
        "intro": _index_intro(model) if number == 1 else None,
        "articles": _citing(model, None) if number == 1 else [],
        "guides": items,
        "pager": pager("", number, count),
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
    counts = model.words.counts
    return {
        "counts": model.words.index.counts.format(
            guides=counts.guides.of(len(listed)),
            companies=counts.companies.of(len(companies)),
            write_ups=counts.write_ups.of(len(model.sources)),
        ),
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


def _citing(model: SiteModel, keys: set[str] | None) -> list[dict]:
    """Link the live articles that cite any of these write-ups (None: every live article)."""
    return [
        {"title": a.title, "href": a.href}
        for a in model.articles
        if not a.draft and (keys is None or keys & {s.key for s in a.sources})
    ]


def _card_note(topic: Topic, model: SiteModel) -> str:
    if all(source.key in model.guide_of for source in topic.sources):
        return model.words.topics.all_guides
    return model.words.topics.some_guides


def topic_title(model: SiteModel, topic: Topic) -> str:
    """Return a hub's heading: "How teams scaled GPUs: 3 real case studies"."""
    words = model.words
    return words.topics.title.format(
        name=topic.name, case_studies=words.counts.case_studies.of(topic.count)
    )


def _topic_page(
    model: SiteModel, topic: Topic, number: int, common: dict, card: Callable[[Source], object]
) -> Page:
    paragraph = topic_paragraph(topic, model.words)
    return _card_page(
        model,
        f"topics/{topic.slug}/",
        number,
        "hub.html",
        common,
        paragraph,
        topic.sources,
        card,
        (model.crumbs("topics/index.html"), topic.name),
        topic={
            "title": topic_title(model, topic),
            "name": topic.name,
            "paragraph": paragraph,
            "card_note": _card_note(topic, model),
            "field_label": getattr(model.words.topics, topic.field),
        },
        articles=_citing(model, {s.key for s in topic.sources}) if number == 1 else [],
    )


def _card_page(
    model: SiteModel,
    folder: str,
    number: int,
    template: str,
    common: dict,
    description: str,
    sources: Sequence[Source],
    card: Callable[[Source], object],
    crumbs: tuple[list[dict], str],
    **fields: object,
) -> Page:
    """Return page number of a listing of source cards in folder (a hub or a company).

    The cards are those of that page alone; the statistics it opens with are on the first.
    crumbs is the breadcrumb trail to the listing's section and the listing's own name.
    """
    size = model.site.page_size
    count = page_count(len(sources), size)
    relative = paged_path(folder, number)
    trail, name = crumbs  # the trail to the listing's section, and the listing's name
    if number == 1:
        trail = [*trail, {"name": name, "href": None}]
    else:
        page = model.words.pager.title.format(number=number)
        first = {"name": name, "href": paged_path(folder, 1)}
        trail = [*trail, first, {"name": page, "href": None}]
    context = {
        **common,
        "root": root_of(relative),
        "canonical": model.page_url(relative),
        "banner": None,
        "subscribe": model.subscribe_url,
        "description": description,
        **fields,
        "cards": [card(source) for source in page_slice(sources, number, size)],
        "pager": pager(folder, number, count),
        "breadcrumbs": trail,
    }
    return relative, template, context


def _topics_index(model: SiteModel, common: dict) -> Page:
    words = model.words.topics
    items = [
        {
            "href": url_path(f"topics/{t.slug}/index.html"),
            "name": t.name,
            "note": words.note.format(
                write_ups=model.words.counts.write_ups.of(t.count),
                field=getattr(words, f"{t.field}_note"),
            ),
        }
        for t in sorted(model.topics, key=lambda t: (-t.count, t.name.casefold(), t.slug))
    ]
    threshold = model.project.settings.topics.min_sources
    context = {
        **common,
        "root": "../",
        "canonical": model.page_url("topics/index.html"),
        "banner": None,
        "heading": words.heading,
        "intro": words.intro.format(count=threshold),
        "items": items,
        "breadcrumbs": [*model.crumbs(), {"name": words.heading, "href": None}],
    }
    return "topics/index.html", "listing.html", context


def _company_page(
    model: SiteModel, slug: str, number: int, common: dict, card: Callable[[Source], object]
) -> Page:
    name, members = model.companies[slug]
    words = model.words.companies
    with_guides = sum(1 for s in members if s.key in model.guide_of)
    years = sorted(s.published.year for s in members if s.published)
    span = ""
    if years:
        span = (
            words.in_year.format(year=years[0])
            if years[0] == years[-1]
            else words.between_years.format(first=years[0], last=years[-1])
        )
    written = words.write_ups.one if len(members) == 1 else words.write_ups.other
    sentence = " ".join(
        (
            written.format(count=len(members), company=name, span=span),
            words.with_guides.of(with_guides),
        )
    )
    return _card_page(
        model,
        f"companies/{slug}/",
        number,
        "company.html",
        common,
        sentence,
        members,
        card,
        (model.crumbs("companies/index.html"), name),
        company={"name": name, "sentence": sentence},
        articles=_citing(model, {s.key for s in members}) if number == 1 else [],
    )


def _companies_index(model: SiteModel, common: dict) -> Page:
    items = [
        {
            "href": url_path(f"companies/{slug}/index.html"),
            "name": name,
            "note": model.words.counts.write_ups.of(len(members)),
        }
        for slug, (name, members) in model.companies.items()
    ]
    words = model.words.companies
    context = {
        **common,
        "root": "../",
        "canonical": model.page_url("companies/index.html"),
        "banner": None,
        "heading": words.heading,
        "intro": words.intro,
        "breadcrumbs": [*model.crumbs(), {"name": words.heading, "href": None}],
        "items": sorted(items, key=lambda i: (i["name"].casefold(), i["href"])),
    }
    return "companies/index.html", "listing.html", context
