"""Render: every page as a pure function of its inputs, and each page's input key.

A page's key hashes everything its HTML is made from (the guide text by its hash, the
records, the review dates, related stories, hub statistics, settings, code and templates),
so a page whose key did not change is reused instead of rendered again.
"""

from __future__ import annotations

import hashlib
import html
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

from markupsafe import Markup

from generator.core.catalogue import GuideWords, english
from generator.core.errors import PublishError
from generator.core.workers import WorkerMap
from generator.guides.document import CASE_STUDY, INTERPRETATION, PRACTICE, REPORTS, section_kind
from generator.guides.markdown import to_html
from generator.site import issues
from generator.site.articles import article_keys, article_pages, render_article
from generator.site.extras import extra_files
from generator.site.feeds import feed_guides, feed_key, render_feed, render_sitemap
from generator.site.listings import (
    card_html,
    listing_page,
    listing_pages,
    listing_path,
    render_listing,
    with_cards,
)
from generator.site.model import SiteModel, safe_url
from generator.site.pages import page_environment
from generator.site.select import SiteGuide
from generator.site.write import SiteWriter, Written
from generator.sources.records import normalize_tag

# Each labelled section's style and the catalogue key of its label.
SECTION_STYLE = {
    REPORTS: ("source-account", "source_account"),
    INTERPRETATION: ("ours", "interpretation"),
    CASE_STUDY: ("ours", "case_study"),
    PRACTICE: ("ours", "practice"),
}
# A reading pace for instructional prose, in words a minute.
WORDS_PER_MINUTE = 200


def guide_body_html(guide: SiteGuide) -> str:
    """Render a guide's body to HTML."""
    return to_html(guide.body)


def reading_minutes(body: str) -> int:
    """Return a guide's reading time in whole minutes (at least one) from its word count."""
    return max(1, round(len(body.split()) / WORDS_PER_MINUTE))


def body_parts(body_html: str, words: GuideWords | None = None) -> tuple[str, list[dict]]:
    """Split rendered body HTML at its <h2> headings into the preamble and labelled sections."""
    words = words or english().guide
    chunks = body_html.split("<h2>")
    sections = []
    for chunk in chunks[1:]:
        heading_html, _, rest = chunk.partition("</h2>")
        kind = section_kind(html.unescape(heading_html).strip())
        if kind == "originals":
            continue
        css, label = SECTION_STYLE.get(kind, ("ours", "other"))
        sections.append(
            {
                "kind": kind or "other",
                "css": css,
                "label": getattr(words, label),
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
    company = model.company_href.get(normalize_tag(source.company))
    return {
        "site": model.site,
        "description": source.summary,
        "root": "../../",
        "canonical": model.page_url(guide.href),
        "banner": model.words.chrome.draft_banner if guide.draft else None,
        "breadcrumbs": [
            *model.crumbs("companies/index.html"),
            {"name": guide.meta.company, "href": company},
            {"name": guide.meta.title, "href": None},
        ],
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
        "articles": [
            {"title": a.title, "href": a.href}
            for a in model.articles
            if not a.draft and source.key in {s.key for s in a.sources}
        ],
    }


def guide_page_key(model: SiteModel, guide: SiteGuide, *, preview: bool) -> str:
    """Return the input key of a guide page."""
    return guide_key(model, guide, guide_context(model, guide, preview=preview))


def guide_key(model: SiteModel, guide: SiteGuide, context: dict) -> str:
    """Return the input key of a guide page from its context, each related story by its key.

    Related-story items are shared by many pages: each is hashed once, not once per page.
    """
    shown = context["guide"]
    related = [model.item_key(item) for item in shown["related"]]
    context = {**context, "guide": {**shown, "related": related}}
    return model.pages.key("guide.html", context, guide.content_hash)


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
    preamble_html, sections = body_parts(body_html, model.words.guide)
    context = dict(context or guide_context(model, guide, preview=preview))
    context["guide"] = {
        **context["guide"],
        "preamble": Markup(preamble_html),
        "sections": sections,
        "reading_minutes": reading_minutes(guide.body),
    }
    return model.pages.render("guide.html", context), body_html


def issue_body_html(model: SiteModel, view: dict) -> str:
    """Render a digest issue's items as HTML for the digest feed (links absolute)."""
    return str(model.pages.module("cards.html").issue_body(view, ""))


# --- the render stage -----------------------------------------------------------------------


def file_key(data: str | bytes) -> str:
    """Return the input key of a file that is its own input: the hash of its bytes."""
    raw = data.encode("utf-8") if isinstance(data, str) else data
    return hashlib.sha256(raw).hexdigest()


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
                found.append((relative, model.pages.key(template, context)))
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
    found.update(article_keys(model, preview=preview))
    return found


def other_keys(model: SiteModel, *, preview: bool) -> dict[str, str]:
    """Return the input keys of the feeds, the sitemap, the style sheet and the extras."""
    found = {"feed.xml": feed_key(model)}
    found.update((relative, file_key(data)) for relative, data in other_files(model, preview))
    found.update((relative, file_key(data)) for relative, data in model.theme.static.items())
    return found


def other_files(model: SiteModel, preview: bool) -> list[tuple[str, str | bytes]]:
    """Return the digest feed, the sitemap (none for a preview: it is noindex) and the
    extras (robots.txt, 404.html, the icon and the web manifest)."""
    found: list[tuple[str, str | bytes]] = [
        (issues.FEED, issues.digest_feed(model, partial(issue_body_html, model)))
    ]
    if not preview:
        found.append(("sitemap.xml", render_sitemap(model)))
    found += extra_files(model, preview)
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
                key = keys.get(relative) or model.pages.key(
                    template, with_cards(context, lambda source, _: model.card_key(source))
                )
                context = with_cards(context, lambda source, root: card_html(model, source, root))
                placed = writer.write(relative, model.pages.render(template, context), key)
            done.append(Rendered(placed))
        model.forget_cards()  # the guide pages this process renders next show none
        return done

    def others() -> list[Rendered]:
        static = model.theme.static
        if not known:  # each made once, for its key and its file
            made = other_files(model, preview)
            done = [Rendered(writer.write(rel, data, file_key(data))) for rel, data in made]
            for relative, data in sorted(static.items()):
                done.append(Rendered(writer.write(relative, data, file_key(data))))
            return done
        makers: dict[str, Callable[[], str | bytes]] = {
            issues.FEED: lambda: issues.digest_feed(model, partial(issue_body_html, model)),
            "sitemap.xml": lambda: render_sitemap(model),
        }
        makers.update(
            (relative, lambda data=data: data) for relative, data in extra_files(model, preview)
        )
        makers.update((relative, partial(static.__getitem__, relative)) for relative in static)
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
        key = key or guide_key(model, guide, context)
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
    for relative, key, context in article_pages(model, preview=preview):
        placed = writer.reuse(relative, key) if keys.get(relative) == key else None
        writer.record(placed or writer.write(relative, render_article(model, context), key))
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


__all__ = [
    "guide_body_html",
    "listing_pages",
    "page_environment",
    "render_listing",
]
