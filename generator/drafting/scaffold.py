"""Start a new prepguide folder, and copy the shipped prompts out for editing."""

from __future__ import annotations

import json
import os
import tomllib
from collections.abc import Callable
from email.headerregistry import Address
from importlib.resources.abc import Traversable
from pathlib import Path

from generator.core.config import CONFIG_NAME, settings_from
from generator.core.confine import link_problem
from generator.core.errors import ConfigError
from generator.core.fsio import DEFAULT_MODE
from generator.drafting.prompts import default_prompts

EXAMPLE_ID = "example-co-page-cache"
EXAMPLE_RECORD = """\
# An example record: replace it with a write-up of your own, or delete it.
# One YAML file per write-up; `prepguide sources check` explains every field it refuses.
# `example: true` keeps it off the published site (a preview shows it); delete the line
# only if you make this a real write-up.
example: true
company: Example Co
title: How Example Co cached its product pages
url: https://example.com/blog/product-page-cache
publisher: Example Co Engineering
published: 2026-01-15
summary: >-
  Example Co put a read-through cache in front of its product catalogue and invalidated entries
  on every price change. Median page latency fell from 180 ms to 40 ms, and the catalogue
  database served 70% fewer reads.
scale:
  - 40 ms median page latency
techniques:
  - caching
  - cache invalidation
stack:
  - Redis
"""
GITIGNORE = """\
# prepguide: the built site, the site before it (the next build's base), caches and logs
site/
.site.previous/
site-preview/
.site-preview.previous/
.prepguide/
"""


def toml_string(text: str) -> str:
    """Quote text as a TOML basic string (JSON's escapes, minus surrogate pairs TOML refuses)."""
    return json.dumps(text, ensure_ascii=False).replace("\x7f", "\\u007f")


def config_text(site_name: str, base_url: str | None) -> str:
    """Return a commented prepguide.toml for a new folder."""
    url_line = (
        f"base_url = {toml_string(base_url)}"
        if base_url
        else '# base_url = "https://guides.example.net"'
    )
    return f"""\
# prepguide settings. Every key is optional; the defaults are shown in comments.

[site]
# The name in the disclaimer of every guide and in the site's header.
name = {toml_string(site_name)}
# Where the site will be served. The feed and the sitemap need absolute URLs, so set it
# before you publish.
{url_line}
# Guides on each page of the index, cards on each page of a hub or company, issues on
# each page of the digest archive.
# page_size = 50
# The pages' language: <html lang>, dates and every label, from templates/catalogue/<tag>.toml.
# language = "en"
# The front page's opening line, a logo from static/ (also the site's icon), and links in
# every page's footer.
# description = "Short career guides from engineering write-ups."
# logo = "logo.svg"
# footer_links = [{{label = "About", url = "about/index.html"}}]
# Page templates and static files: a file in templates/ or static/ replaces the shipped one
# of its name (copy it from the package's generator/templates/ and edit it).

[checks]
# A Checked date older than this many days is flagged.
# freshness_days = 180

[llm]
# Used by `generate --backend openai` (set OPENAI_API_KEY); the offline drafter needs nothing.
# model = "gpt-4o-mini"
# timeout = 60
# concurrency = 8

[topics]
# A technique or stack tag gets a hub page once this many published guides share it.
# min_sources = 2

[verify]
# Seconds a whole link check may take, links checked at once, seconds between requests to
# one host.
# timeout = 15
# concurrency = 8
# host_interval = 1

[digest]
# The weekly email (`prepguide digest build`, then `digest send`). These three placeholders
# let `digest build` freeze an issue at once; put your own in before you send one.
# The From line of every issue.
sender = {toml_string(str(Address(site_name, addr_spec="digest@example.org")))}
# Your postal address and a contact line: shown in every issue, as mail law asks.
footer = {toml_string(f"{site_name}, 1 Example Street, Springfield. Contact: editors@example.org")}
# The https endpoint of your mail provider or web form; each link adds ?token=...
unsubscribe_url = "https://example.org/unsubscribe"
# Where the site's subscribe box posts (no box without it).
# subscribe_url = "https://example.org/subscribe"
# Messages sent per minute; 0: no limit.
# per_minute = 60
"""


def create_new(path: Path, text: str) -> None:
    """Write a file that must not exist yet: refuse, without touching it, when it does."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.new")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, DEFAULT_MODE)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.link(tmp, path)  # fails when path exists, unlike a rename
    except FileExistsError as exc:
        raise ConfigError(
            "already exists; nothing was overwritten", path=path, rule="init"
        ) from exc
    finally:
        tmp.unlink(missing_ok=True)


def _write_all(files: list[tuple[Path, Callable[[], str]]], root: Path | None = None) -> list[Path]:
    """Create every file, refusing before writing anything when one exists or leads out of root."""
    for path, _ in files:
        problem = link_problem(path.parent, root) if root is not None else None
        if problem:
            raise ConfigError(f"{problem} (nothing was written)", path=path.parent, rule="init")
    clashes = [path for path, _ in files if path.exists() or path.is_symlink()]
    if clashes:
        raise ConfigError(
            "already exists; move it away first (nothing was written)",
            path=clashes[0],
            rule="init",
        )
    for path, text in files:
        create_new(path, text())
    return [path for path, _ in files]


def init_root(
    root: Path, *, site_name: str = "Prepguide", base_url: str | None = None
) -> list[Path]:
    """Start a prepguide folder: settings, one example record and a .gitignore."""
    if root.exists() and not root.is_dir():
        raise ConfigError("is not a folder", path=root, rule="init")
    sources = root / "sources"
    if sources.is_dir() and any(sources.iterdir()):
        raise ConfigError(
            "already holds records; this is a prepguide folder already", path=sources, rule="init"
        )
    config = config_text(site_name, base_url)
    settings_from(tomllib.loads(config), root / CONFIG_NAME)  # what every later command reads
    return _write_all(
        [
            (root / CONFIG_NAME, lambda: config),
            (sources / f"{EXAMPLE_ID}.yaml", lambda: EXAMPLE_RECORD),
            (root / ".gitignore", lambda: GITIGNORE),
        ],
        root,
    )


def export_prompts(target: Path, defaults: Traversable | None = None) -> list[Path]:
    """Copy the shipped prompts and playbook into target; never overwrite a file there."""
    source = defaults if defaults is not None else default_prompts()
    items = sorted(
        (
            item
            for item in source.iterdir()
            if item.is_file() and item.name.endswith((".j2", ".yaml"))
        ),
        key=lambda item: item.name,
    )
    return _write_all(
        [(target / item.name, lambda item=item: item.read_text(encoding="utf-8")) for item in items]
    )
