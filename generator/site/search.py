"""Search: the search page, and Pagefind's index of the guide, article, hub and company pages.

Pagefind cannot index incrementally, so the index is cut into shards, each a bundle of its
own (pagefind/<shard>/) that the search page merges: a guide or article page goes to the
shard its path hashes to, the hub and company pages to one shard of theirs. Each shard is
keyed by the input keys of the pages it indexes: while none of them changed, the last
build's files are kept as they are; else the Pagefind binary indexes that shard's pages in
a process of its own.
"""

from __future__ import annotations

import ctypes
import hashlib
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from importlib import metadata, resources
from pathlib import Path

from pagefind.service import get_executable

from generator.core.errors import PublishError
from generator.core.urls import url_path
from generator.site.model import SiteModel

SEARCH_PAGE = "search/index.html"
SCRIPT = "search/search.js"
STYLE = "search/search.css"
BUNDLE = "pagefind/"
# Guide and article pages hash into this many shards; an edit re-indexes one of them.
SHARDS = 8
HUBS = "hubs"
# The pages search finds: guides, career articles, topic hubs and company pages (first pages).
INDEXED = re.compile(r"^(guides|articles|topics|companies)/[^/]+/index\.html$")
# The bundle's parts the search page never loads (Pagefind's own interfaces).
UNUSED = re.compile(r"^pagefind-(ui|modular-ui|component-ui)\.(js|css)$|^pagefind-highlight\.js$")
# Only what a page says of itself is indexed: not the cards, related stories or forms.
IGNORED = (".cards", ".related", ".subscribe", ".see-also", ".card-related", ".banner")
TIMEOUT = 1800.0


@dataclass
class SearchReport:
    """What a build did to the search index."""

    pages: int = 0
    files: int = 0
    seconds: float = 0.0
    rebuilt: bool = False


@lru_cache(maxsize=1)
def pagefind_version() -> str:
    return metadata.version("pagefind_bin")


def indexed(relative: str) -> bool:
    return INDEXED.match(relative) is not None


def shard_of(relative: str) -> str:
    """Return the shard an indexed page belongs to: hubs, or the one its path hashes to."""
    if relative.startswith(("topics/", "companies/")):
        return HUBS
    bucket = int.from_bytes(hashlib.sha256(relative.encode()).digest()[:4], "big") % SHARDS
    return f"s{bucket:02d}"


def shard_folder(shard: str) -> str:
    return f"{BUNDLE}{shard}/"


def shards(relatives) -> dict[str, list[str]]:
    """Return the indexed pages among these paths by shard, both sorted."""
    found: dict[str, list[str]] = {}
    for relative in sorted(r for r in relatives if indexed(r)):
        found.setdefault(shard_of(relative), []).append(relative)
    return dict(sorted(found.items()))


def index_key(keys: Mapping[str, str | None], shard: str, pages: list[str]) -> str:
    """Return the key of one shard's bundle: the input keys of every page it indexes."""
    digest = hashlib.sha256(f"pagefind {pagefind_version()}\0{IGNORED}\0{shard}\n".encode())
    for relative in pages:
        digest.update(f"{relative}\0{keys[relative]}\n".encode())
    return digest.hexdigest()


def bundle_files(pages: Mapping[str, object], shard: str | None = None) -> list[str]:
    """Return the bundle's files among these paths: all of them, or one shard's."""
    folder = BUNDLE if shard is None else shard_folder(shard)
    return sorted(relative for relative in pages if relative.startswith(folder))


def _kept(previous: Mapping[str, object], shard: str, key: str) -> list[str]:
    """Return the last build's files of a shard when they were made from the same pages."""
    kept = bundle_files(previous, shard)
    if kept and all(getattr(previous[relative], "key", None) == key for relative in kept):
        return kept
    return []


def with_bundle(keys: dict[str, str], previous: Mapping[str, object]) -> dict[str, str]:
    """Return the page keys with the last build's shards whose pages' keys are the same.

    previous maps each page of the last build to its manifest entry (with .key).
    """
    found = {relative: key for relative, key in keys.items() if not relative.startswith(BUNDLE)}
    for shard, pages in shards(found).items():
        key = index_key(found, shard, pages)
        found.update((relative, key) for relative in _kept(previous, shard, key))
    return found


def model_shards(model: SiteModel) -> list[str]:
    """Return the shards of the pages this model's site indexes, as the build makes them."""
    pages = [g.href for g in model.guides] + [a.href for a in model.articles]
    found = {shard_of(relative) for relative in pages}
    if model.topics or model.companies:
        found.add(HUBS)
    return sorted(found)


def search_page(model: SiteModel) -> str:
    """Render the search page: a search form, and without script a list of the ways in."""
    topics = sorted(model.topics, key=lambda t: (t.name.casefold(), t.slug))
    context = {
        "site": model.site,
        "noindex": True,
        "root": "../",
        "canonical": model.page_url(SEARCH_PAGE),
        "banner": None,
        "breadcrumbs": [*model.crumbs(), {"name": model.words.search.heading, "href": None}],
        "title": model.words.search.title.format(site=model.site.name),
        "description": model.words.search.description.format(site=model.site.name),
        "shards": model_shards(model),
        "topics": [{"name": t.name, "href": model.topic_href[t.key]} for t in topics],
        "companies": [
            {"name": name, "href": url_path(f"companies/{slug}/index.html")}
            for slug, (name, _) in sorted(
                model.companies.items(), key=lambda pair: (pair[1][0].casefold(), pair[0])
            )
        ],
    }
    return model.pages.render("search.html", context)


def search_script() -> str:
    return resources.files("generator").joinpath("templates/search.js").read_text("utf-8")


def search_style() -> str:
    return resources.files("generator").joinpath("templates/search.css").read_text("utf-8")


def build_bundle(
    tree: Path, pages: list[str], out_dir: Path, folder: str = BUNDLE
) -> dict[str, bytes]:
    """Index these pages of a site tree with Pagefind; return the bundle's files by path.

    The pages are linked into a folder of their own first, so that nothing else in the tree
    (a kept tree may still hold pages this build removes) is indexed. That folder sits
    beside out_dir, named as a build's new tree is, so that a killed build's is removed.
    """
    if not pages:  # nothing to find: no bundle, and the search page says it cannot search
        return {}
    binary = get_executable()
    if binary is None:
        raise PublishError(
            "the Pagefind binary is missing: run `pip install 'pagefind[bin]'`",
            rule="search",
        )
    prefix = f".{out_dir.name}.{os.getpid()}."
    work = Path(tempfile.mkdtemp(prefix=prefix, suffix=".tmp", dir=out_dir.parent))
    try:
        site, out = work / "site", work / "bundle"
        for relative in pages:
            target = site / relative
            target.parent.mkdir(parents=True, exist_ok=True)
            os.link(tree / relative, target)
        command = [
            os.fspath(binary),
            "--site",
            os.fspath(site),
            "--output-path",
            os.fspath(out),
            "--root-selector",
            "main",
            "--keep-index-url",
            "--silent",
        ]
        for selector in IGNORED:
            command += ["--exclude-selectors", selector]
        try:
            done = subprocess.run(
                command,
                capture_output=True,
                text=True,
                timeout=TIMEOUT,
                preexec_fn=_die_with_parent(os.getpid()) if sys.platform == "linux" else None,
            )
        except (OSError, subprocess.TimeoutExpired) as exc:
            raise PublishError(f"Pagefind did not run: {exc}", rule="search") from exc
        if done.returncode != 0:
            said = (done.stderr or done.stdout).strip().splitlines()[-1:] or ["no message"]
            raise PublishError(
                f"Pagefind failed (exit {done.returncode}): {said[0]}", rule="search"
            )
        files = {}
        for path in sorted(p for p in out.rglob("*") if p.is_file()):
            relative = path.relative_to(out).as_posix()
            if not UNUSED.match(relative):
                files[folder + relative] = path.read_bytes()
        return files
    finally:
        shutil.rmtree(work, ignore_errors=True)


PR_SET_PDEATHSIG = 1


def _die_with_parent(parent: int):
    """Return a child's set-up that has the kernel kill it when the build is killed."""

    def setup() -> None:
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
        if os.getppid() != parent:  # the build died before the request took hold
            os.kill(os.getpid(), signal.SIGKILL)

    return setup


def place_bundle(writer, previous: Mapping[str, object]) -> SearchReport:
    """Put the search shards in a new tree: the last ones whose pages' keys are the same.

    writer is the SiteWriter holding every page of the build but the bundle. The report
    counts the pages and files of the shards indexed again, or of all when none was.
    """
    keys = {relative: entry.key for relative, entry in writer.pages.items()}
    report = SearchReport()
    kept_pages = kept_files = 0
    started = time.perf_counter()
    for shard, pages in shards(keys).items():
        key = index_key(keys, shard, pages)
        kept = _kept(previous, shard, key)
        placed = [writer.reuse(relative, key) for relative in kept]
        if kept and all(done is not None for done in placed):
            for done in placed:
                writer.record(done)
            kept_pages, kept_files = kept_pages + len(pages), kept_files + len(kept)
            continue
        for done in placed:  # a file of the old shard is gone: all of it is made again
            if done is not None:
                os.unlink(writer.root / done.relative)
        files = build_bundle(writer.root, pages, writer.out_dir, shard_folder(shard))
        for relative, data in files.items():
            writer.put(relative, data, key)
        report.pages, report.files = report.pages + len(pages), report.files + len(files)
        report.rebuilt = True
    if not report.rebuilt:
        return SearchReport(pages=kept_pages, files=kept_files)
    report.seconds = time.perf_counter() - started
    return report
