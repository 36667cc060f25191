"""Search: the search page, and Pagefind's index of the guide, article, hub and company pages.

Pagefind cannot index incrementally, so the index is cut into shards, each a bundle of its
own (pagefind/<shard>/) that the search page merges: a guide or article page goes to the
shard its path hashes to, the hub and company pages to one shard of theirs. Each shard is
keyed by the input keys of the pages it indexes: while none of them changed, the last
build's files are kept as they are; else the Pagefind binary indexes that shard's pages in
a process of its own.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache, partial
from importlib import metadata, resources
from pathlib import Path

from pagefind.service import get_executable

from generator.core.errors import PublishError
from generator.core.urls import url_path
from generator.core.workers import die_with_parent
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


def build_bundles(
    tree: Path, wanted: dict[str, list[str]], out_dir: Path, processes: int = 1
) -> dict[str, dict[str, bytes]]:
    """Index each folder's pages of a site tree with Pagefind; return each bundle's files.

    wanted maps a bundle's folder to the pages it indexes; up to processes Pagefind runs go at
    once (each indexes on about one core). Each folder's pages are linked into a folder of
    their own first, so that nothing else in the tree (a kept tree may still hold pages this
    build removes) is indexed; those folders sit beside out_dir, named as a build's new tree
    is, so that a killed build's are removed.
    """
    wanted = {folder: pages for folder, pages in wanted.items() if pages}
    if not wanted:  # nothing to find: no bundle, and the search page says it cannot search
        return {}
    binary = get_executable()
    if binary is None:
        raise PublishError(
            "the Pagefind binary is missing: run `pip install 'pagefind[bin]'`",
            rule="search",
        )
    prefix = f".{out_dir.name}.{os.getpid()}."
    works: dict[str, Path] = {}
    running: dict[str, subprocess.Popen] = {}
    deadline = time.monotonic() + TIMEOUT
    try:
        waiting = sorted(wanted)
        while waiting or running:
            while waiting and len(running) < max(1, processes):
                folder = waiting.pop(0)
                work = Path(tempfile.mkdtemp(prefix=prefix, suffix=".tmp", dir=out_dir.parent))
                works[folder] = work
                running[folder] = _start(binary, tree, wanted[folder], work)
            folder = _wait_any(running, deadline)
            _finished(running.pop(folder), works[folder])
        bundles: dict[str, dict[str, bytes]] = {}
        for folder in sorted(works):
            out = works[folder] / "bundle"
            files = bundles.setdefault(folder, {})
            for path in sorted(p for p in out.rglob("*") if p.is_file()):
                relative = path.relative_to(out).as_posix()
                if not UNUSED.match(relative):
                    files[folder + relative] = path.read_bytes()
        return bundles
    finally:
        for process in running.values():
            process.kill()
            process.wait()
        for work in works.values():
            shutil.rmtree(work, ignore_errors=True)


def _start(binary: Path, tree: Path, pages: list[str], work: Path) -> subprocess.Popen:
    """Link the pages into work/site and start Pagefind on them, its messages to a file."""
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
    linux = sys.platform == "linux"
    try:
        with open(work / "messages.txt", "wb") as messages:
            return subprocess.Popen(
                command,
                stdin=subprocess.DEVNULL,
                stdout=messages,
                stderr=subprocess.STDOUT,
                preexec_fn=partial(die_with_parent, os.getpid()) if linux else None,
            )
    except OSError as exc:
        raise PublishError(f"Pagefind did not run: {exc}", rule="search") from exc


def _wait_any(running: dict[str, subprocess.Popen], deadline: float) -> str:
    """Return the folder of a Pagefind run that has ended, waiting for one up to deadline."""
    pause = 0.002
    while True:
        for folder, process in running.items():
            if process.poll() is not None:
                return folder
        if time.monotonic() > deadline:
            raise PublishError(f"Pagefind did not finish in {TIMEOUT:.0f}s", rule="search")
        time.sleep(pause)
        pause = min(pause * 2, 0.02)


def _finished(process: subprocess.Popen, work: Path) -> None:
    """Refuse a Pagefind run that failed, with the last line it printed."""
    if process.returncode == 0:
        return
    said = (work / "messages.txt").read_text("utf-8", errors="replace").strip().splitlines()
    raise PublishError(
        f"Pagefind failed (exit {process.returncode}): {(said or ['no message'])[-1]}",
        rule="search",
    )


def place_bundle(writer, previous: Mapping[str, object], processes: int = 1) -> SearchReport:
    """Put the search shards in a new tree: the last ones whose pages' keys are the same.

    writer is the SiteWriter holding every page of the build but the bundle. The report
    counts the pages and files of the shards indexed again, or of all when none was. Up to
    processes shards are indexed at once.
    """
    keys = {relative: entry.key for relative, entry in writer.pages.items()}
    report = SearchReport()
    kept_pages = kept_files = 0
    wanted: dict[str, list[str]] = {}
    folder_keys: dict[str, str] = {}
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
        wanted[shard_folder(shard)] = pages
        folder_keys[shard_folder(shard)] = key
        report.pages, report.rebuilt = report.pages + len(pages), True
    for folder, files in build_bundles(writer.root, wanted, writer.out_dir, processes).items():
        for relative, data in files.items():
            writer.put(relative, data, folder_keys[folder])
        report.files += len(files)
    if not report.rebuilt:
        return SearchReport(pages=kept_pages, files=kept_files)
    report.seconds = time.perf_counter() - started
    return report
