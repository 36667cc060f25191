"""Extras: the site's files beside its pages: robots.txt, 404.html, the icon, the web
manifest, and the search page with its script and styles."""

from __future__ import annotations

import json
from urllib.parse import urlsplit

from generator.site.assets import Icon, read_icon
from generator.site.model import SiteModel
from generator.site.search import (
    SCRIPT,
    SEARCH_PAGE,
    STYLE,
    search_page,
    search_script,
    search_style,
)

NOT_FOUND = "404.html"
ROBOTS = "robots.txt"
WEB_MANIFEST = "site.webmanifest"
THEME_COLOR = "#1f5fbf"


def robots_txt(model: SiteModel, preview: bool) -> str:
    """Return robots.txt: everything allowed and the sitemap named; a preview disallows all."""
    if preview:
        return (
            "# A preview build: drafts that are not reviewed. Nothing here is to be indexed.\n"
            "User-agent: *\nDisallow: /\n"
        )
    return f"User-agent: *\nAllow: /\n\nSitemap: {model.page_url('sitemap.xml')}\n"


def not_found_page(model: SiteModel) -> str:
    """Render 404.html; its links start at the site's path, as a host serves it anywhere."""
    path = urlsplit(model.base_url).path.rstrip("/") + "/"
    context = {
        "site": model.site,
        "noindex": True,
        "root": path,
        "canonical": model.page_url(NOT_FOUND),
        "banner": None,
        "breadcrumbs": [*model.crumbs(), {"name": model.words.not_found.heading, "href": None}],
        "title": model.words.not_found.title.format(site=model.site.name),
        "description": model.words.not_found.description.format(site=model.site.name),
    }
    return model.pages.render(NOT_FOUND, context)


def web_manifest(model: SiteModel, icon: Icon) -> str:
    """Return the web manifest: the site's name, start page and icon."""
    data = {
        "name": model.site.name,
        "short_name": model.site.name[:12],
        "start_url": "./index.html",
        "scope": "./",
        "display": "browser",
        "background_color": "#ffffff",
        "theme_color": THEME_COLOR,
        "icons": [{"src": icon.name, "sizes": icon.sizes, "type": icon.type}],
    }
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def extra_files(model: SiteModel, preview: bool) -> list[tuple[str, str | bytes]]:
    """Return the site's files beside its pages, each with its path."""
    icon = read_icon(model.site, model.theme.static)
    return [
        (ROBOTS, robots_txt(model, preview)),
        (NOT_FOUND, not_found_page(model)),
        (icon.name, icon.data),
        (WEB_MANIFEST, web_manifest(model, icon)),
        (SEARCH_PAGE, search_page(model)),
        (SCRIPT, search_script()),
        (STYLE, search_style()),
    ]
