"""Pages: the page templates' environment, rendering a template, and a page's input key."""

from __future__ import annotations

from functools import lru_cache

from jinja2 import Environment, PackageLoader, StrictUndefined, select_autoescape

from generator.core.codeversion import code_version
from generator.site.meta import with_meta
from generator.site.model import content_key


@lru_cache(maxsize=1)
def page_environment() -> Environment:
    """Return the Jinja2 environment for page templates (autoescaped, strict).

    Compiled templates stay in this process only: a bytecode cache on disk would be code
    loaded from a file that others could have replaced.
    """
    return Environment(
        loader=PackageLoader("generator", "templates"),
        autoescape=select_autoescape(["html", "xml"]),
        undefined=StrictUndefined,
        keep_trailing_newline=True,
        auto_reload=False,
    )


def render_page(template: str, context: dict) -> str:
    """Render a page template with its context."""
    return page_environment().get_template(template).render(with_meta(template, context))


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
