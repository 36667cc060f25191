"""Pages: the page templates and words of a build, rendering a template, and a page's input key."""

from __future__ import annotations

import hashlib
import json
from datetime import date
from functools import lru_cache
from importlib import resources

import jinja2.meta
from jinja2 import (
    DictLoader,
    Environment,
    StrictUndefined,
    Template,
    TemplateError,
    TemplateNotFound,
    TemplateSyntaxError,
    UndefinedError,
    select_autoescape,
)
from jinja2.sandbox import ImmutableSandboxedEnvironment, SecurityError
from markupsafe import Markup, escape

from generator.core.catalogue import Catalogue, english
from generator.core.codeversion import code_version
from generator.core.errors import ConfigError
from generator.site.meta import with_meta


def content_key(*parts: object) -> str:
    """Hash JSON-ready data (dates and settings included) into a stable key."""
    text = json.dumps(parts, sort_keys=True, default=_plain, ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


def _plain(value: object) -> object:
    if isinstance(value, date):
        return value.isoformat()
    if hasattr(value, "model_dump"):
        return value.model_dump(mode="json")
    raise TypeError(f"cannot key {type(value).__name__}")


def fill(text: str, **values: object) -> Markup:
    """Put values into a catalogue text's {placeholders}, escaping all but markup."""
    return Markup(escape(text).format(**{k: escape(v) for k, v in values.items()}))


def template_folder():
    """Return the folder of the shipped page templates (package data)."""
    return resources.files("generator").joinpath("templates")


def packaged_templates() -> dict[str, str]:
    """Return the text of every shipped page template by name ("guide.html")."""
    folder = template_folder()
    return {
        item.name: item.read_text(encoding="utf-8")
        for item in folder.iterdir()
        if item.name.endswith(".html") and item.is_file()
    }


class PageTemplates:
    """The page templates of a build with their words; each template's version is its key.

    A template's version hashes its text, the texts of every template it extends, includes
    or imports, and the words, so a page is made again exactly when what renders it changed.
    When a root replaces any template, all render in Jinja2's immutable sandbox: a root's
    templates are markup with placeholders, not code (the shipped ones are this package's
    own code, and render without the sandbox's cost). origins names the root's file of each
    template it replaced; logo is the site's logo as every page shows it (its path and, when
    known, its size).
    """

    def __init__(
        self,
        texts: dict[str, str],
        words: Catalogue,
        origins: dict[str, str] | None = None,
        logo: dict | None = None,
    ) -> None:
        self.texts = dict(texts)
        self.words = words
        self.origins = dict(origins or {})
        kind = ImmutableSandboxedEnvironment if self.origins else Environment
        env = kind(
            loader=DictLoader(self.texts),
            autoescape=select_autoescape(["html", "xml"]),
            undefined=StrictUndefined,
            keep_trailing_newline=True,
            auto_reload=False,
        )
        env.globals["t"] = words
        env.globals["logo"] = logo
        env.filters["day"] = words.day
        env.filters["fill"] = fill
        self.env = env
        self._words_key = content_key(words, logo)
        self._versions: dict[str, str] = {}
        for name in sorted(self.origins):  # a root's mistake is named before any page is made
            self._compiled(name)

    def _compiled(self, name: str) -> Template:
        try:
            return self.env.get_template(name)
        except TemplateSyntaxError as exc:
            where = self.origins.get(exc.name or name) or self.origins.get(name) or name
            raise ConfigError(
                f"template syntax error at line {exc.lineno}: {exc.message}",
                path=where,
                rule="templates",
            ) from exc
        except TemplateNotFound as exc:
            raise ConfigError(
                f"uses the template {exc.name!r}, which neither the root's templates/ nor the "
                "shipped ones hold",
                path=self.origins.get(name, name),
                rule="templates",
            ) from exc

    def _blame(self, name: str) -> str:
        """Return the file to name for a failure rendering name: the root's, when it has one."""
        own = [self.origins[used] for used in self.closure(name) if used in self.origins]
        return self.origins.get(name) or (own[0] if own else name)

    def _run(self, name: str, call):
        try:
            return call(self._compiled(name))
        except SecurityError as exc:
            raise ConfigError(
                f"reaches for what a page template may not use ({exc}); a page template may "
                "only show the values it is given",
                path=self._blame(name),
                rule="templates.sandbox",
            ) from exc
        except UndefinedError as exc:
            raise ConfigError(
                f"uses an unknown value: {exc.message}", path=self._blame(name), rule="templates"
            ) from exc
        except (TemplateError, TypeError, ValueError, ArithmeticError, LookupError) as exc:
            raise ConfigError(
                f"fails to render: {type(exc).__name__}: {exc}",
                path=self._blame(name),
                rule="templates",
            ) from exc

    def version(self, name: str) -> str:
        """Return the version of a template: its text, the texts it uses, and the words."""
        found = self._versions.get(name)
        if found is None:
            digest = hashlib.sha256(self._words_key.encode())
            for used in self.closure(name):
                digest.update(f"{used}\0{self.texts[used]}\0".encode())
            found = self._versions[name] = digest.hexdigest()
        return found

    def closure(self, name: str) -> list[str]:
        """Return the template and every template it extends, includes or imports."""
        used: list[str] = []
        todo = [name]
        while todo:
            current = todo.pop()
            if current in used or current not in self.texts:
                continue
            used.append(current)
            parsed = self.env.parse(self.texts[current])
            todo.extend(ref for ref in jinja2.meta.find_referenced_templates(parsed) if ref)
        return sorted(used)

    def render(self, template: str, context: dict) -> str:
        """Render a page template with its context."""
        full = with_meta(template, context, self.words)
        return self._run(template, lambda compiled: compiled.render(full))

    def module(self, template: str):
        """Return a template's macros (source cards, the issue body)."""
        return self._run(template, lambda compiled: compiled.module)

    def key(self, template: str, context: dict, *extra: object) -> str:
        """Return the input key of a page: its code, template and context (and extra inputs)."""
        site = context.get("site")
        if site is not None:  # the settings, dumped once per build rather than once per page
            kept = _SETTINGS.get(id(site))
            if kept is None or kept[0] is not site:
                if len(_SETTINGS) > 8:
                    _SETTINGS.clear()
                kept = _SETTINGS[id(site)] = (site, site.model_dump_json())
            context = {**context, "site": kept[1]}
        return content_key(code_version(), template, self.version(template), context, *extra)


_SETTINGS: dict[int, tuple[object, str]] = {}


@lru_cache(maxsize=4)
def _templates(
    texts: tuple[tuple[str, str], ...],
    words: Catalogue,
    origins: tuple[tuple[str, str], ...],
    logo: tuple[tuple[str, object], ...] | None,
) -> PageTemplates:
    return PageTemplates(dict(texts), words, dict(origins), dict(logo) if logo else None)


def page_templates(
    texts: dict[str, str] | None = None,
    words: Catalogue | None = None,
    origins: dict[str, str] | None = None,
    logo: dict | None = None,
) -> PageTemplates:
    """Return the page templates of these texts and words (default: the shipped, in English).

    Compiled templates stay in this process only: a bytecode cache on disk would be code
    loaded from a file that others could have replaced.
    """
    texts = packaged_templates() if texts is None else texts
    found = tuple(sorted((origins or {}).items()))
    shown = tuple(sorted(logo.items())) if logo else None
    return _templates(tuple(sorted(texts.items())), words or english(), found, shown)


def forget_compiled() -> None:
    """Drop the templates compiled in this process, as a fresh process starts without them."""
    _templates.cache_clear()


def page_environment() -> Environment:
    """Return the Jinja2 environment of the shipped page templates (autoescaped, strict)."""
    return page_templates().env
