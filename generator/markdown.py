"""Markdown to HTML: raw HTML off, only http(s) links survive."""

from __future__ import annotations

from functools import lru_cache

from markdown_it import MarkdownIt

from generator.sources import is_web_url


def safe_link(url: str) -> bool:
    """Allow only absolute http(s) links and in-page anchors."""
    return url.strip().startswith("#") or is_web_url(url)


@lru_cache(maxsize=1)
def _renderer() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": False, "linkify": False, "typographer": False})
    md.validateLink = safe_link
    return md


def to_html(text: str) -> str:
    """Render Markdown to HTML with raw HTML escaped and unsafe links left as text."""
    return _renderer().render(text)
