"""Meta: what a page's head tells search engines and link previews, made from its context.

Every fact comes from the page's context (records and review state): the description, the
Open Graph and Twitter card tags, the page's content policy, and JSON-LD (schema.org
Article, BreadcrumbList and WebSite). Pure functions: a page's key covers their inputs.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Callable
from urllib.parse import urlsplit

from markupsafe import Markup

from generator.checks.base import sentences
from generator.core.catalogue import Catalogue
from generator.guides.document import REPORTS
from generator.site.assets import icon_name

SCHEMA = "https://schema.org"
MAX_DESCRIPTION = 300
MAX_HEADLINE = 110  # Google shows no more of an Article's headline
# The templates of the pages that are articles to link previews, and the context key of each.
PIECES = {"guide.html": "guide", "article.html": "article"}
SEARCH_PAGE = "search/index.html"
TAGS = re.compile(r"<[^>]+>")
HEADING = re.compile(r"<h2>.*?</h2>", re.S)
JSON_ESCAPES = {"<": "\\u003c", ">": "\\u003e", "&": "\\u0026"}


def page_meta(template: str, context: dict, words: Catalogue) -> dict:
    """Return the head metadata of a page from its template, context and words."""
    site = context["site"]
    home = home_url(site.base_url)
    url = context.get("canonical") or home
    maker = MAKERS.get(template, _plain_page)
    title, description, graph = maker(context, home, url, words)
    description = clip(" ".join(description.split()))
    icon, icon_type = icon_name(site)
    guide = context.get(PIECES[template]) if template in PIECES else None
    return {
        "title": title,
        "description": description,
        "type": "article" if guide else "website",
        "url": url,
        "image": f"{home}{icon}" if icon_type == "image/png" else None,
        "published": guide.get("first_published") or guide.get("updated") if guide else None,
        "modified": guide.get("updated") if guide else None,
        "icon": {"href": icon, "type": icon_type},
        "csp": content_policy(template == "search.html", context.get("subscribe")),
        "jsonld": json_ld(graph) if graph else None,
    }


def with_meta(template: str, context: dict, words: Catalogue) -> dict:
    """Return the context with its head metadata (and the description it gives the page)."""
    meta = page_meta(template, context, words)
    return {**context, "meta": meta, "description": meta["description"]}


def home_url(base_url: str) -> str:
    return base_url.rstrip("/") + "/"


def clip(text: str, limit: int = MAX_DESCRIPTION) -> str:
    """Shorten text to limit characters at a word, marked with an ellipsis."""
    if len(text) <= limit:
        return text
    return text[: limit - 1].rsplit(" ", 1)[0].rstrip(",;:") + "…"


def first_sentence(text: str) -> str:
    """Return the first sentence of prose (all of it when it has no sentence break)."""
    return next(sentences(text), text).strip()


def plain_text(fragment: str) -> str:
    """Return the text of an HTML fragment, its tags dropped and entities decoded."""
    return " ".join(html.unescape(TAGS.sub(" ", fragment)).split())


def json_ld(graph: list[dict]) -> Markup:
    """Serialize schema.org objects for a <script type="application/ld+json"> element.

    <, > and & are escaped as JSON escapes, so that no text can end the element early.
    """
    text = json.dumps({"@context": SCHEMA, "@graph": graph}, ensure_ascii=False)
    for char, escaped in JSON_ESCAPES.items():
        text = text.replace(char, escaped)
    return Markup(text)


def content_policy(search: bool, form_target: str | None) -> str:
    """Return a page's Content-Security-Policy: its own files only, script only for search."""
    scripts = "'self' 'wasm-unsafe-eval'" if search else "'none'"
    forms = "'self'"
    if form_target:
        parts = urlsplit(form_target)
        forms += f" {parts.scheme}://{parts.netloc}"
    return (
        f"default-src 'self'; script-src {scripts}; object-src 'none'; base-uri 'none'; "
        f"form-action {forms}"
    )


def organization(context: dict, home: str) -> dict:
    """Return the site as a schema.org Organization: the author of every guide."""
    icon, _ = icon_name(context["site"])
    return {
        "@type": "Organization",
        "name": context["site"].name,
        "url": home,
        "logo": f"{home}{icon}",
    }


def trail_of(context: dict, home: str, url: str) -> list[tuple[str, str]]:
    """Return the page's breadcrumb trail as (name, absolute URL), from its breadcrumbs."""
    return [
        (crumb["name"], url if crumb["href"] is None else home + _folder(crumb["href"]))
        for crumb in context.get("breadcrumbs") or [{"name": context["site"].name, "href": None}]
    ]


def _folder(href: str) -> str:
    return "" if href == "index.html" else href.removesuffix("index.html")


def breadcrumbs(trail: list[tuple[str, str]]) -> dict:
    """Return a BreadcrumbList of (name, absolute URL) from the home page down to this page."""
    return {
        "@type": "BreadcrumbList",
        "itemListElement": [
            {"@type": "ListItem", "position": number, "name": name, "item": url}
            for number, (name, url) in enumerate(trail, start=1)
        ],
    }


def _guide(context: dict, home: str, url: str, words: Catalogue) -> tuple[str, str, list[dict]]:
    guide = context["guide"]
    reported = next((s["html"] for s in guide.get("sections", ()) if s["kind"] == REPORTS), None)
    description = context.get("description") or ""
    if reported is not None:
        description = first_sentence(plain_text(HEADING.sub("", str(reported)))) or description
    about = {"@type": "Organization", "name": guide["company"]}
    found = _article_ld(context, home, url, f"{url}#guide", guide, description, about)
    return guide["title"], description, [found, breadcrumbs(trail_of(context, home, url))]


def _article(context: dict, home: str, url: str, words: Catalogue) -> tuple[str, str, list[dict]]:
    """A career article: described by its first reported sentence (else its angle), citing
    every original of every write-up it reads."""
    article = context["article"]
    reported = next(iter(article["accounts"]), None)
    description = ""
    if reported is not None:
        description = first_sentence(plain_text(HEADING.sub("", str(reported["html"]))))
    description = description or article.get("angle") or context.get("description") or ""
    about = [{"@type": "Organization", "name": name} for name in article["company_names"]]
    found = _article_ld(context, home, url, f"{url}#article", article, description, about)
    return article["title"], description, [found, breadcrumbs(trail_of(context, home, url))]


def _article_ld(
    context: dict, home: str, url: str, key: str, piece: dict, description: str, about: object
) -> dict:
    """Return a schema.org Article for a guide or career article, citing its originals."""
    site = organization(context, home)
    found = {
        "@type": "Article",
        "@id": key,
        "headline": clip(piece["title"], MAX_HEADLINE),
        "description": clip(description),
        "url": url,
        "mainEntityOfPage": url,
        "author": site,
        "publisher": site,
        "image": site["logo"],
        "about": about,
        "isBasedOn": [item["url"] for item in piece["originals"] if item["url"]],
        "citation": [_citation(item) for item in piece["originals"]],
    }
    published = piece.get("first_published") or piece.get("updated")
    if published:
        found["datePublished"] = published
    if piece.get("updated"):
        found["dateModified"] = piece["updated"]
    return found


def _citation(item: dict) -> dict:
    work = {"@type": "CreativeWork", "name": item["title"]}
    if item["url"]:
        work["url"] = item["url"]
    if item["publisher"]:
        work["publisher"] = {"@type": "Organization", "name": item["publisher"]}
    if item["published"]:
        work["datePublished"] = item["published"]
    return work


def _index(context: dict, home: str, url: str, words: Catalogue) -> tuple[str, str, list[dict]]:
    site = context["site"]
    lede = site.description or words.index.lede.format(site=site.name)
    intro = context.get("intro")
    pager = context.get("pager") or {}
    number = pager.get("number", 1)
    if number > 1:
        page = words.index.page_title.format(number=number)
        listed = words.index.list_page.format(
            title=words.index.list_title, number=number, count=pager.get("count", number)
        )
        trail = [(site.name, home), (page, url)]
        return f"{page} · {site.name}", f"{lede} {listed}.", [breadcrumbs(trail)]
    description = f"{lede} {intro['counts']}." if intro else lede
    website = {
        "@type": "WebSite",
        "@id": f"{home}#site",
        "name": site.name,
        "url": home,
        "description": clip(description),
        "publisher": organization(context, home),
        "potentialAction": {
            "@type": "SearchAction",
            "target": {
                "@type": "EntryPoint",
                "urlTemplate": f"{home}{SEARCH_PAGE.removesuffix('index.html')}?q={{query}}",
            },
            "query-input": "required name=query",
        },
    }
    return site.name, description, [website]


Maker = Callable[[dict, str, str, Catalogue], tuple[str, str, list[dict]]]


def _section_page(folder: str) -> Maker:
    """Return the maker of a page one level below a section's index (a hub, a company)."""

    def make(context: dict, home: str, url: str, words: Catalogue) -> tuple[str, str, list[dict]]:
        title, description = TITLES[folder](context)
        return title, description, [breadcrumbs(trail_of(context, home, url))]

    return make


# The title and description of a page below a section's index.
TITLES: dict[str, Callable[[dict], tuple[str, str]]] = {
    "topics": lambda c: (c["topic"]["title"], first_sentence(c["topic"]["paragraph"])),
    "companies": lambda c: (c["company"]["name"], c["company"]["sentence"]),
    "digest": lambda c: (c["issue"]["title"], c["issue"]["opening"]),
}


def _listing(context: dict, home: str, url: str, words: Catalogue) -> tuple[str, str, list[dict]]:
    heading = context["heading"]
    return heading, context["intro"], [breadcrumbs(trail_of(context, home, url))]


def _archive(context: dict, home: str, url: str, words: Catalogue) -> tuple[str, str, list[dict]]:
    trail = trail_of(context, home, url)
    return words.digest.heading, context.get("description") or "", [breadcrumbs(trail)]


def _plain_page(
    context: dict, home: str, url: str, words: Catalogue
) -> tuple[str, str, list[dict]]:
    """A page of the site's own (not found, search): its title and description only."""
    return context.get("title") or context["site"].name, context.get("description") or "", []


MAKERS: dict[str, Maker] = {
    "guide.html": _guide,
    "article.html": _article,
    "index.html": _index,
    "hub.html": _section_page("topics"),
    "company.html": _section_page("companies"),
    "issue.html": _section_page("digest"),
    "listing.html": _listing,
    "issues.html": _archive,
}
