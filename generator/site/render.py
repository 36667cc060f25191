"""Render: every page as a pure function of its inputs, and each page's input key.

A page's key hashes everything its HTML is made from (the guide text by its hash, the
records, the review dates, related stories, hub statistics, settings, code and templates),
so a page whose key did not change is reused instead of rendered again.
"""

from __future__ import annotations

import html
import os
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path

from jinja2 import (
    Environment,
    FileSystemBytecodeCache,
    PackageLoader,
    StrictUndefined,
    select_autoescape,
)
from markupsafe import Markup

from generator.codehash import code_version
from generator.errors import PublishError
from generator.guides import CASE_STUDY, INTERPRETATION, PRACTICE, REPORTS, section_kind
from generator.markdown import to_html
from generator.site import issues
from generator.site.feeds import (
    feed_guides,
    feed_key,
    index_chunks,
    index_path,
    render_feed,
    render_sitemap,
)
from generator.site.model import SiteModel, content_key, safe_url
from generator.site.select import SiteGuide
from generator.site.write import SiteWriter, Written
from generator.sources import Source, normalize_tag
from generator.topics import Topic
from generator.urls import url_path
from generator.workers import WorkerMap

DRAFT_BANNER = "Draft: not reviewed. This page is a preview and is not indexed."
PREVIEW_BANNER = "Preview build: drafts that are not reviewed are included. Not indexed."
SECTION_STYLE = {
    REPORTS: ("source-account", "The source's account"),
    INTERPRETATION: ("ours", "Our interpretation"),
    CASE_STUDY: ("ours", "Our suggested case study"),
    PRACTICE: ("ours", "Our suggested steps"),
}
INDEX_TOPICS = 8
INDEX_COMPANIES = 8
TOPIC_FIELD_LABELS = {"stack": "Stack", "techniques": "Technique", "both": "Technique and stack"}

# A page to render: its path, its template and its context.
Page = tuple[str, str, dict]


@lru_cache(maxsize=1)
def page_environment() -> Environment:
    """Return the Jinja2 environment for page templates (autoescaped, strict)."""
    return Environment(
        loader=PackageLoader("generator", "templates"),
        autoescape=select_autoescape(["html", "xml"]),
        undefined=StrictUndefined,
        keep_trailing_newline=True,
        auto_reload=False,
    )


def use_template_cache(folder: Path) -> None:
    """Keep compiled page templates in folder, so that a small build does not compile them."""
    environment = page_environment()
    if environment.bytecode_cache is None:
        folder.mkdir(parents=True, exist_ok=True)
        environment.bytecode_cache = FileSystemBytecodeCache(os.fspath(folder))


def render_page(template: str, context: dict) -> str:
    """Render a page template with its context."""
    return page_environment().get_template(template).render(context)


def page_key(template: str, context: dict, *extra: object) -> str:
    """Return the input key of a page: its code, template and context (and extra inputs)."""
    site = context.get("site")
    if site is not None:  # the settings, dumped once per build rather than once per page
        kept = _SETTINGS.get(id(site))
        if kept is None or kept[0] is not site:
            if len(_SETTINGS) > 8:
                _SETTINGS.clear()
            kept = _SETTINGS[id(site)] = (site, site.model_dump_json())
        context = {**context, "site": kept[1]}
    return content_key(code_version(), template, context, *extra)


_SETTINGS: dict[int, tuple[object, str]] = {}


def guide_body_html(guide: SiteGuide) -> str:
    """Render a guide's body to HTML."""
    return to_html(guide.body)


def body_parts(body_html: str) -> tuple[str, list[dict]]:
    """Split rendered body HTML at its <h2> headings into the preamble and labelled sections."""
    chunks = body_html.split("<h2>")
    sections = []
    for chunk in chunks[1:]:
        heading_html, _, rest = chunk.partition("</h2>")
        kind = section_kind(html.unescape(heading_html).strip())
        if kind == "originals":
            continue
        css, label = SECTION_STYLE.get(kind, ("ours", "Our notes"))
        sections.append(
            {
                "kind": kind or "other",
                "css": css,
                "label": label,
                "html": Markup(f"<h2>{heading_html}</h2>{rest}"),
            }
        )
    return chunks[0], sections


# --- guide pages ----------------------------------------------------------------------------


def guide_context(model: SiteModel, guide: SiteGuide, *, preview: bool) -> dict:
    """Return a guide page's context, all but its body (keyed by the text's hash)."""
    source = guide.source
    originals = [
        {
            "title": view.title,
            "url": safe_url(view.url),
            "publisher": view.publisher,
            "published": view.published.isoformat() if view.published else None,
            "checked": view.checked.isoformat() if view.checked else None,
        }
        for view in model.project.originals(source)
    ]
    return {
        "site": model.site,
        "description": source.summary,
        "root": "../../",
        "canonical": model.page_url(guide.href),
        "banner": DRAFT_BANNER if guide.draft else None,
        "noindex": preview or guide.draft,
        "subscribe": model.subscribe_url,
        "guide": {
            "id": guide.id,
            "title": guide.meta.title,
            "company": guide.meta.company,
            "draft": guide.draft,
            "updated": guide.updated.isoformat() if guide.updated else None,
            "first_published": (
                guide.first_published.isoformat() if guide.first_published else None
            ),
            "originals": originals,
            "topics": [t for t in model.tag_links(source.tags) if t["href"]],
            "related": model.related_items(source),
            "see_also": model.see_also(source),
        },
    }


def guide_page_key(model: SiteModel, guide: SiteGuide, *, preview: bool) -> str:
    """Return the input key of a guide page."""
    context = guide_context(model, guide, preview=preview)
    return page_key("guide.html", context, guide.content_hash)


def render_guide_page(
    model: SiteModel,
    guide: SiteGuide,
    cache: object = None,
    *,
    preview: bool,
    context: dict | None = None,
) -> tuple[str, str]:
    """Return a guide's page and its body HTML (cache is unused: bodies are rendered).

    context is the page's guide_context when the caller has made it already.
    """
    body_html = guide_body_html(guide)
    preamble_html, sections = body_parts(body_html)
    context = dict(context or guide_context(model, guide, preview=preview))
    context["guide"] = {**context["guide"], "preamble": Markup(preamble_html)}
    context["guide"]["sections"] = sections
    return render_page("guide.html", context), body_html


def issue_body_html(view: dict) -> str:
    """Render a digest issue's items as HTML for the digest feed (links absolute)."""
    module = page_environment().get_template("cards.html").module
    return str(module.issue_body(view, ""))


# --- listing pages --------------------------------------------------------------------------


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


def _with_cards(context: dict, card: Callable[[Source], object]) -> dict:
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
        f"drawn from the {len(model.sources)} write-ups in our database",
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
    relative = f"topics/{topic.slug}/index.html"
    context = {
        **common,
        "root": "../../",
        "canonical": model.page_url(relative),
        "banner": None,
        "subscribe": model.subscribe_url,
        "description": topic.paragraph,
        "topic": {
            "title": topic.title,
            "paragraph": topic.paragraph,
            "card_note": _card_note(topic, model),
            "field_label": TOPIC_FIELD_LABELS[topic.field],
        },
        "cards": [card(source) for source in topic.sources],
    }
    return relative, "hub.html", context


def _topics_index(model: SiteModel, common: dict) -> Page:
    items = [
        {
            "href": url_path(f"topics/{t.slug}/index.html"),
            "name": t.name,
            "note": f"{t.count} write-ups · {TOPIC_FIELD_LABELS[t.field].lower()}",
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
        "database mention, most common first.",
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
    relative = f"companies/{slug}/index.html"
    context = {
        **common,
        "root": "../../",
        "canonical": model.page_url(relative),
        "banner": None,
        "subscribe": model.subscribe_url,
        "description": sentence,
        "company": {"name": name, "sentence": sentence},
        "cards": [card(source) for source in members],
    }
    return relative, "company.html", context


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
        "intro": "Every company with a write-up in our database.",
        "items": sorted(items, key=lambda i: (i["name"].casefold(), i["href"])),
    }
    return "companies/index.html", "listing.html", context


# --- the render stage -----------------------------------------------------------------------


def style_sheet() -> bytes:
    """Return the site's one stylesheet."""
    return resources.files("generator").joinpath("templates/style.css").read_bytes()


def page_keys(model: SiteModel, *, preview: bool, processes: int = 1) -> dict[str, str]:
    """Return the input key of every page, computed without rendering any of them."""
    common = {"site": model.site, "noindex": preview, "description": None}

    by_id = {g.id: g for g in model.guides}

    def keys(guide_id: str | None) -> list[tuple[str, str]]:
        if guide_id is None:
            found = []
            for task in listing_pages(model):
                relative, template, context = listing_page(
                    model, task, common, preview, model.card_key
                )
                found.append((relative, page_key(template, context)))
            return found
        guide = by_id[guide_id]
        return [(guide.href, guide_page_key(model, guide, preview=preview))]

    found: dict[str, str] = {}
    # Workers get guide ids: the guides themselves they inherit when forked.
    with WorkerMap(keys, [None, *sorted(by_id)], processes, ordered=False, share=True) as results:
        for relative, key in (pair for batch in results for pair in batch):
            if relative in found:
                raise PublishError(
                    f"two pages want {relative!r}; refusing to overwrite",
                    path=relative,
                    rule="slug",
                )
            found[relative] = key
    found.update(other_keys(model, preview=preview))
    return found


def other_keys(model: SiteModel, *, preview: bool) -> dict[str, str]:
    """Return the input keys of the feeds, the sitemap and the style sheet."""
    found = {"feed.xml": feed_key(model)}
    found.update((relative, content_key(text)) for relative, text in other_files(model, preview))
    return found


def other_files(model: SiteModel, preview: bool) -> list[tuple[str, str]]:
    """Return the digest feed, the sitemap (none for a preview: it is noindex) and the styles."""
    found = [(issues.FEED, issues.digest_feed(model, issue_body_html))]
    if not preview:
        found.append(("sitemap.xml", render_sitemap(model)))
    found.append(("style.css", style_sheet().decode("utf-8")))
    return found


def changed_keys(
    model: SiteModel, previous: dict[str, str], guides: list[SiteGuide], *, preview: bool
) -> dict[str, str]:
    """Return the page keys when only these guides' texts may have changed since previous.

    The caller has made sure that nothing any other page shows of any guide changed
    (SiteGuide.facts), nor the records, settings, code or date: then only these guides' own
    pages and the feed, which carries texts, can have new inputs.
    """
    keys = dict(previous)
    for guide in guides:
        keys[guide.href] = guide_page_key(model, guide, preview=preview)
    keys["feed.xml"] = feed_key(model)
    return keys


@dataclass(frozen=True)
class Rendered:
    """A page a task placed in the new site, with a guide body the feed may need."""

    done: Written
    guide_id: str | None = None
    body_html: str | None = None


def render_site(
    model: SiteModel,
    writer: SiteWriter,
    keys: dict[str, str] | None,
    *,
    preview: bool,
    processes: int = 1,
) -> None:
    """Place every page in the new site: reused when its key is unchanged, else rendered.

    Guide pages and the listing pages (one task: each source card is rendered once per
    process) run in worker processes when asked; each task places its own pages.
    """
    common = {"site": model.site, "noindex": preview, "description": None}
    known = keys is not None
    keys = dict(keys or {})  # none known (a first build): each task keys its own pages
    in_feed = {g.id for g in feed_guides(model.guides)}
    by_id = {g.id: g for g in model.guides}

    def listings() -> list[Rendered]:
        done = []
        for task in listing_pages(model):
            relative = listing_path(model, task)
            placed = writer.reuse(relative, keys[relative]) if relative in keys else None
            if placed is None:  # the context once: with card keys for the key, else HTML
                relative, template, context = listing_page(
                    model, task, common, preview, lambda source: source
                )
                key = keys.get(relative) or page_key(template, _with_cards(context, model.card_key))
                context = _with_cards(context, lambda source: card_html(model, source))
                placed = writer.write(relative, render_page(template, context), key)
            done.append(Rendered(placed))
        model.forget_cards()  # the guide pages this process renders next show none
        return done

    def others() -> list[Rendered]:
        if not known:  # each made once, for its key and its file
            made = other_files(model, preview)
            return [Rendered(writer.write(rel, text, content_key(text))) for rel, text in made]
        makers = {
            issues.FEED: lambda: issues.digest_feed(model, issue_body_html),
            "sitemap.xml": lambda: render_sitemap(model),
            "style.css": style_sheet,
        }
        done = []
        for relative, make in makers.items():
            if relative in keys:
                placed = writer.reuse(relative, keys[relative])
                done.append(Rendered(placed or writer.write(relative, make(), keys[relative])))
        return done

    def render(guide_id: str | tuple | None) -> list[Rendered]:
        if guide_id is None:
            return listings()
        if guide_id == OTHER_FILES:
            return others()
        assert isinstance(guide_id, str)
        guide = by_id[guide_id]
        key = keys.get(guide.href)
        placed = writer.reuse(guide.href, key) if key is not None else None
        if placed is not None:
            return [Rendered(placed)]
        context = guide_context(model, guide, preview=preview)
        key = key or page_key("guide.html", context, guide.content_hash)
        page, body_html = render_guide_page(model, guide, preview=preview, context=context)
        feed_body = body_html if guide.id in in_feed else None
        return [Rendered(writer.write(guide.href, page, key), guide.id, feed_body)]

    bodies: dict[str, str] = {}
    # The listing pages go first: together they are the longest task. The digest feed and the
    # sitemap follow in the same chunk, so that the process that made the issues for their
    # pages uses them again.
    tasks = [None, OTHER_FILES, *sorted(by_id)]
    with WorkerMap(render, tasks, processes, ordered=False, share=True) as results:
        for result in (rendered for batch in results for rendered in batch):
            writer.record(result.done)
            if result.guide_id is not None and result.body_html is not None:
                bodies[result.guide_id] = result.body_html
    if not known:
        keys["feed.xml"] = feed_key(model)
    placed = writer.reuse("feed.xml", keys["feed.xml"])
    if placed is None:

        def body(guide: SiteGuide) -> str:
            return bodies.get(guide.id) or guide_body_html(guide)

        placed = writer.write("feed.xml", render_feed(model, body), keys["feed.xml"])
    writer.record(placed)


# The render task of the files other than pages and feed.xml (never a guide id: not a str).
OTHER_FILES = ("other files",)
