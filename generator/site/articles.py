"""Articles on the site: select the live ones, model and render their pages, link them.

An article's page keeps each source's account visibly apart from ours: the blocks stand in
their own labelled sections, each beside a link to our guide of that write-up when there is
one. Hubs, company pages and guides link the articles that cite their write-ups.
"""

from __future__ import annotations

import html
from dataclasses import dataclass
from datetime import date

from markupsafe import Markup

from generator.core.catalogue import Catalogue
from generator.core.clock import now
from generator.core.errors import PrepguideError
from generator.guides.document import GuideDoc, section_kind
from generator.guides.markdown import to_html
from generator.guides.project import Project
from generator.review.articles import ArticleView, article_view
from generator.review.queue import live_version
from generator.review.recheck import error_rules, failure_note, judge_live
from generator.review.state import read_state
from generator.review.transitions import mark_published
from generator.site.model import SiteModel, safe_url
from generator.sources.records import Source

TEMPLATE = "article.html"
OURS = ("interpretation", "case_study", "practice")


@dataclass(frozen=True)
class SiteArticle:
    """One article the site shows: its live (or, in a preview, current) text and records."""

    slug: str
    doc: GuideDoc
    sources: tuple[Source, ...]
    draft: bool
    updated: date | None
    marked_published: bool
    first_published: date | None = None

    @property
    def id(self) -> str:
        return f"article:{self.slug}"

    @property
    def href(self) -> str:
        return f"articles/{self.slug}/index.html"

    @property
    def title(self) -> str:
        return self.doc.meta.title

    @property
    def body(self) -> str:
        return self.doc.body

    @property
    def content_hash(self) -> str:
        return self.doc.content_hash

    @property
    def companies(self) -> list[str]:
        return list(dict.fromkeys(s.company for s in self.sources))


@dataclass
class ArticleSelection:
    """The articles a build shows, and why the others are not on it."""

    articles: list[SiteArticle]
    problems: list[str]
    # Live articles left out because their text fails today's checks, and why (article:SLUG).
    left_out: dict[str, str]
    # Live articles kept although they fail checks changed since their approval.
    flagged: dict[str, str]


def select_articles(project: Project, *, preview: bool, strict: bool = False) -> ArticleSelection:
    """Return the articles to publish (live ones; in a preview, drafts too) and the problems.

    A live text is checked again as a guide's is: one that fails today's checks (its records
    changed, a source is no longer verified or live) is left out; one that fails only rules
    changed since its approval stays, flagged, unless strict.
    """
    view = article_view(project)
    records = project.sources.by_id()
    chosen, problems = [], []
    left_out: dict[str, str] = {}
    flagged: dict[str, str] = {}
    for slug in view.guides.ids():
        key = f"article:{slug}"
        try:
            state = read_state(view, slug)
            live = (
                live_version(view, slug, state) if state and state.status != "withdrawn" else None
            )
            doc, draft, updated = (live.doc, False, live.updated) if live else (None, True, None)
            if doc is None and preview:
                doc = view.guides.read(slug)
        except PrepguideError as exc:
            problems.append(f"{key}: {exc}")
            continue
        if doc is None:
            continue
        sources = tuple(records[s.id] for s in doc.meta.sources if s.id in records)
        if len(sources) != len(doc.meta.sources):
            problems.append(f"{key}: a record it cites is gone; left out")
            continue
        examples = [s.key for s in sources if s.example]
        if examples and not preview:
            left_out[key] = (
                f"it reads example records ({', '.join(examples)}), which are never published; "
                "replace them with real write-ups"
            )
            continue
        if live is not None and state is not None and state.live is not None:
            record = view.source(slug)
            if record is None:  # its file is gone: the live text, against the records it names
                failing = error_rules(view.findings(live.doc))
                if failing:
                    left_out[key] = (
                        f"the approved version fails current checks ({', '.join(failing)}); "
                        f"run `prepguide check {key}`"
                    )
                    continue
            elif (verdict := judge_live(view, live.doc, record, state.live)).rules:
                note = failure_note(key, verdict)
                if strict or not verdict.fails_new_rules:
                    left_out[key] = note
                    continue
                flagged[key] = note
        marked = bool(state and state.live and state.live.published_at)
        first = None
        if live is not None:  # as a guide's: today, when this build is its first publication
            first = live.first_published or (None if marked else now().date())
        chosen.append(SiteArticle(slug, doc, sources, draft, updated, marked, first))
    chosen.sort(key=lambda a: a.slug)
    return ArticleSelection(chosen, problems, left_out, flagged)


def record_articles(project: Project, articles: list[SiteArticle]) -> list[str]:
    """Record the publication of live articles not yet marked; return their slugs."""
    view: ArticleView = article_view(project)
    unmarked = [a.slug for a in articles if not a.draft and not a.marked_published]
    if unmarked:
        mark_published(view, unmarked, docs={a.slug: a.doc for a in articles})
    return unmarked


def _split(body_html: str, words: Catalogue) -> tuple[str, list[dict], list[dict]]:
    chunks = body_html.split("<h2>")
    accounts, ours = [], []
    for chunk in chunks[1:]:
        heading_html, _, rest = chunk.partition("</h2>")
        heading = html.unescape(heading_html).strip()
        part = Markup(f"<h2>{heading_html}</h2>{rest}")
        kind = section_kind(heading)
        if heading.startswith("What ") and " reports: " in heading:
            accounts.append({"heading": heading, "html": part})
        elif kind in OURS:
            label = words.article.interpretation if kind == "interpretation" else None
            label = label or getattr(words.guide, kind)
            ours.append({"kind": kind, "label": label, "html": part})
    return chunks[0], accounts, ours


def article_context(model: SiteModel, article: SiteArticle, *, preview: bool) -> dict:
    """Return an article page's context."""
    words = model.words
    preamble, accounts, ours = _split(to_html(article.doc.body), words)
    for account, source in zip(accounts, article.sources, strict=False):
        guide = model.guide_of.get(source.key)
        account["source"] = source.key
        account["company"] = source.company
        account["guide"] = guide.href if guide is not None and not guide.draft else None
    originals = [
        {
            "title": view.title,
            "url": safe_url(view.url),
            "publisher": view.publisher,
            "published": view.published.isoformat() if view.published else None,
            "checked": view.checked.isoformat() if view.checked else None,
        }
        for source in article.sources
        for view in model.project.originals(source)
    ]
    return {
        "site": model.site,
        "description": words.article.description.format(
            title=article.title, write_ups=words.counts.write_ups.of(len(article.sources))
        ),
        "root": "../../",
        "canonical": model.page_url(article.href),
        "banner": words.chrome.draft_banner if article.draft else None,
        "breadcrumbs": [*model.crumbs(), {"name": article.title, "href": None}],
        "noindex": preview or article.draft,
        "article": {
            "title": article.title,
            "companies": words.lists.join(article.companies),
            "company_names": article.companies,
            "angle": _angle(ours),
            "draft": article.draft,
            "updated": article.updated.isoformat() if article.updated else None,
            "first_published": (
                article.first_published.isoformat() if article.first_published else None
            ),
            "preamble": Markup(preamble),
            "accounts": accounts,
            "ours": ours,
            "originals": originals,
        },
    }


def _angle(ours: list[dict]) -> str | None:
    """Return the angle our interpretation's heading names ("Our career interpretation: X")."""
    for section in ours:
        if section["kind"] == "interpretation":
            heading = html.unescape(str(section["html"]).split("</h2>", 1)[0].removeprefix("<h2>"))
            return heading.partition(": ")[2].strip() or None
    return None


def article_pages(model: SiteModel, *, preview: bool) -> list[tuple[str, str, str]]:
    """Return each article page as (path, key, a function's result: the HTML)."""
    pages = []
    for article in getattr(model, "articles", []):
        context = article_context(model, article, preview=preview)
        key = model.pages.key(TEMPLATE, context, article.doc.content_hash)
        pages.append((article.href, key, context))
    return pages


def article_keys(model: SiteModel, *, preview: bool) -> dict[str, str]:
    """Return the input key of every article page."""
    return {path: key for path, key, _ in article_pages(model, preview=preview)}


def render_article(model: SiteModel, context: dict) -> str:
    """Render one article page."""
    return model.pages.render(TEMPLATE, context)
