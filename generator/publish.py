"""Publishing: render live guides, topic hubs, company pages, index, feed and sitemap."""

from __future__ import annotations

import glob
import hashlib
import html
import json
import os
import re
import shutil
import sqlite3
import tempfile
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import date
from functools import lru_cache
from importlib import resources
from pathlib import Path

from jinja2 import Environment, PackageLoader, StrictUndefined, select_autoescape
from markupsafe import Markup

from generator.checks import UNDATED_RULES, check_body, check_dated, verdict_key
from generator.codehash import code_version
from generator.errors import PrepguideError, PublishError
from generator.feeds import FeedEntry, SitemapEntry, atom_feed, sitemap
from generator.findings import Finding
from generator.fsio import (
    DEFAULT_DIR_MODE,
    atomic_write_bytes,
    atomic_write_text,
    process_running,
)
from generator.guides import (
    CASE_STUDY,
    INTERPRETATION,
    PRACTICE,
    REPORTS,
    GuideDoc,
    section_kind,
)
from generator.markdown import safe_link, to_html
from generator.project import Project
from generator.related import RelatedIndex
from generator.review import live_version, mark_published, read_state
from generator.sources import Source, normalize_tag, slugify
from generator.topics import Topic, compute_topics, join_names, recency_key, unique_slugs
from generator.workers import WorkerMap, worker_count

DRAFT_BANNER = "Draft: not reviewed. This page is a preview and is not indexed."
PREVIEW_BANNER = "Preview build: drafts that are not reviewed are included. Not indexed."
CACHE_DIR = "publish"
FEED_SIZE = 50
MANAGED_DIRS = ("guides", "topics", "companies", "page")
STAGING_SUFFIX = ".tmp"
# .<site folder>.<pid>.<random>.tmp: a new site being built, as SiteWriter names it.
STAGING_NAME = re.compile(r"^\..+\.(\d+)\.[^.]+\.tmp$")
SECTION_STYLE = {
    REPORTS: ("source-account", "The source's account"),
    INTERPRETATION: ("ours", "Our interpretation"),
    CASE_STUDY: ("ours", "Our suggested case study"),
    PRACTICE: ("ours", "Our suggested steps"),
}


@dataclass
class PublishReport:
    """What a publish run wrote and what it left out."""

    out_dir: Path
    pages: list[str] = field(default_factory=list)
    written: int = 0
    removed: list[str] = field(default_factory=list)
    left_out: dict[str, str] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)
    guides: list[str] = field(default_factory=list)
    drafts: list[str] = field(default_factory=list)
    reused: bool = False


@dataclass(frozen=True)
class SiteGuide:
    """A guide that goes on the site, in the version that is live (or the draft, in preview)."""

    id: str
    doc: GuideDoc
    source: Source
    draft: bool
    first_published: date | None
    updated: date | None
    marked_published: bool = False

    @property
    def published(self) -> date | None:
        return self.first_published or self.updated

    @property
    def href(self) -> str:
        return f"guides/{self.id}/index.html"


@lru_cache(maxsize=1)
def page_environment() -> Environment:
    """Return the Jinja2 environment for page templates (autoescaped, strict)."""
    env = Environment(
        loader=PackageLoader("generator", "templates"),
        autoescape=select_autoescape(["html", "xml"]),
        undefined=StrictUndefined,
        keep_trailing_newline=True,
        auto_reload=False,
    )
    return env


def confined(out_dir: Path, relative: str, *, base: Path | None = None) -> Path:
    """Resolve a page path and refuse anything outside the output folder (resolved: base)."""
    base = base or out_dir.resolve()
    target = (base / relative).resolve()
    if not target.is_relative_to(base) or target == base:
        raise PublishError(f"page path {relative!r} escapes {base}", path=target, rule="path")
    return target


def safe_url(url: str | None) -> str | None:
    """Return the URL when it is absolute http(s), else None."""
    return url if url and safe_link(url) and not url.strip().startswith("#") else None


def guide_body_html(doc: GuideDoc) -> str:
    """Render a guide body to HTML."""
    return to_html(doc.body)


# --- scope -------------------------------------------------------------------------------


def _date(value: object) -> date | None:
    if value is None or isinstance(value, date):
        return value
    return date.fromisoformat(str(value)[:10])


class BuildCache:
    """Body HTML and check verdicts keyed by content hash, kept in SQLite between builds.

    Any process may look entries up (each opens its own connection); only the process that
    made the cache records new entries, so forked workers hand theirs back as results.
    """

    TABLES = ("bodies", "verdicts")

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self.used: dict[str, set[str]] = {table: set() for table in self.TABLES}
        self._db: sqlite3.Connection | None = None
        self._inherited: sqlite3.Connection | None = None
        self._pid = os.getpid()
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
            try:
                self._db = self._open(path)
            except sqlite3.DatabaseError:
                for stale in (
                    path,
                    path.with_name(path.name + "-wal"),
                    path.with_name(path.name + "-shm"),
                ):
                    stale.unlink(missing_ok=True)
                self._db = self._open(path)

    @staticmethod
    def _open(path: Path) -> sqlite3.Connection:
        db = sqlite3.connect(path)
        # WAL: workers read while this process writes new entries. A cache needs no fsync per
        # commit; WAL with synchronous=NORMAL still cannot be corrupted by a crash.
        db.execute("PRAGMA journal_mode=wal")
        db.execute("PRAGMA synchronous=normal")
        for table in BuildCache.TABLES:
            db.execute(f"CREATE TABLE IF NOT EXISTS {table} (key TEXT PRIMARY KEY, value TEXT)")
        db.commit()
        return db

    def _reader(self) -> sqlite3.Connection | None:
        if self._db is None or os.getpid() == self._pid:
            return self._db
        # A forked worker: never use the parent's connection, and never close it either (closing
        # it here could act on the parent's files), so keep a reference for the worker's life.
        assert self.path is not None
        self._inherited = self._db
        self._db = sqlite3.connect(f"{self.path.absolute().as_uri()}?mode=ro", uri=True)
        self._pid = os.getpid()
        return self._db

    def get(self, table: str, key: str) -> str | None:
        """Return a stored entry."""
        db = self._reader()
        if db is None:
            return None
        row = db.execute(f"SELECT value FROM {table} WHERE key = ?", (key,)).fetchone()
        return row[0] if row else None

    def record(self, table: str, key: str, new_value: str | None = None) -> None:
        """Mark an entry as used by this build, storing it when it is new."""
        self.used[table].add(key)
        if new_value is not None and self._db is not None and os.getpid() == self._pid:
            self._db.execute(f"INSERT OR REPLACE INTO {table} VALUES (?, ?)", (key, new_value))

    def close(self) -> None:
        """Save new entries, drop those this build did not use."""
        if self._db is None or os.getpid() != self._pid:
            return
        db = self._db
        for table in self.TABLES:
            db.execute("CREATE TEMP TABLE IF NOT EXISTS used (key TEXT PRIMARY KEY)")
            db.execute("DELETE FROM used")
            db.executemany(
                "INSERT OR IGNORE INTO used VALUES (?)", ((k,) for k in self.used[table])
            )
            db.execute(f"DELETE FROM {table} WHERE key NOT IN (SELECT key FROM used)")
        db.commit()
        db.close()
        self._db = None


def body_key(doc: GuideDoc) -> str:
    """Return the cache key of a guide's body HTML."""
    return hashlib.sha256(f"{code_version()}\0{doc.content_hash}".encode()).hexdigest()


def cached_body(cache: BuildCache, doc: GuideDoc) -> tuple[str, str, bool]:
    """Return the body HTML of a guide, its cache key, and whether it was rendered now."""
    key = body_key(doc)
    html_text = cache.get("bodies", key)
    if html_text is not None:
        return html_text, key, False
    return guide_body_html(doc), key, True


def _error_rules(findings: list[Finding]) -> list[str]:
    return sorted({f.rule for f in findings if f.severity == "error"})


def check_errors(
    project: Project,
    doc: GuideDoc,
    source: Source,
    cache: BuildCache,
    approved_key: str | None = None,
) -> tuple[list[str], str, list[str] | None]:
    """Return the rules with error findings, the verdict key, and the undated verdict if new.

    The undated rules run only when neither the approval (approved_key) nor an earlier build
    judged this text against these records; the dated rules always run.
    """
    context = project.check_context(source)
    key = verdict_key(doc, context)
    fresh: list[str] | None = None
    if key == approved_key:
        undated: list[str] = []
    elif (stored := cache.get("verdicts", key)) is not None:
        undated = json.loads(stored)
    else:
        undated = fresh = _error_rules(check_body(doc.body, context, UNDATED_RULES))
    return sorted({*undated, *_error_rules(check_dated(context))}), key, fresh


@dataclass(frozen=True)
class Picked:
    """What selection decided for one guide: the version to build, or why it is left out."""

    id: str
    doc: GuideDoc | None = None
    draft: bool = False
    first_published: date | None = None
    updated: date | None = None
    left_out: str | None = None
    verdict_key: str | None = None
    new_verdict: list[str] | None = None
    marked_published: bool = False


def pick_guide(
    project: Project, guide_id: str, *, preview: bool, cache: BuildCache
) -> Picked | None:
    """Decide whether and in which version one guide goes on the site."""
    try:
        state = read_state(project, guide_id)
        live = live_version(project, guide_id, state) if state and state.live else None
        doc = live.doc if live else project.guides.read(guide_id)
    except PrepguideError as exc:
        return Picked(guide_id, left_out=f"cannot read the guide or its review state: {exc}")
    if doc is None:
        return None
    source = project.sources.by_id().get(doc.meta.source)
    if source is None:
        return Picked(
            guide_id,
            left_out=f"no valid source record {doc.meta.source!r}; run `prepguide sources check`",
        )
    if live is not None:
        approved_key = state.live.checks_key
        rules, key, fresh = check_errors(project, live.doc, source, cache, approved_key)
        verdict = {"verdict_key": None if key == approved_key else key, "new_verdict": fresh}
        if rules:
            reason = (
                f"the approved version fails checks ({', '.join(rules)}); "
                f"run `prepguide check {guide_id}`"
            )
            return Picked(guide_id, left_out=reason, **verdict)
        first, updated = _date(live.first_published), _date(live.updated)
        marked = bool(state.live.published_at)
        return Picked(
            guide_id, live.doc, False, first, updated, None, **verdict, marked_published=marked
        )
    status = state.status if state else "draft"
    if preview and status == "draft":
        return Picked(guide_id, doc, draft=True)
    if status == "draft":
        return Picked(guide_id, left_out="draft, not approved yet; run `prepguide review approve`")
    if status == "withdrawn":
        return Picked(guide_id, left_out=f"withdrawn ({state.note})" if state.note else "withdrawn")
    return Picked(guide_id, left_out=status)


def select_guides(
    project: Project,
    *,
    preview: bool,
    cache: BuildCache | None = None,
    processes: int = 1,
) -> tuple[list[SiteGuide], dict[str, str]]:
    """Pick the live version of every approved guide whose checks pass; drafts under preview."""
    cache = cache or BuildCache(None)
    by_id = project.sources.by_id()
    chosen: list[SiteGuide] = []
    left_out: dict[str, str] = {}

    def pick(guide_id: str) -> Picked | None:
        return pick_guide(project, guide_id, preview=preview, cache=cache)

    with WorkerMap(pick, project.guides.ids(), processes) as picks:
        for picked in picks:
            if picked is None:
                continue
            if picked.verdict_key is not None:
                verdict = picked.new_verdict
                cache.record(
                    "verdicts", picked.verdict_key, None if verdict is None else json.dumps(verdict)
                )
            if picked.left_out is not None:
                left_out[picked.id] = picked.left_out
                continue
            assert picked.doc is not None
            source = by_id[picked.doc.meta.source]
            chosen.append(
                SiteGuide(
                    picked.id,
                    picked.doc,
                    source,
                    picked.draft,
                    picked.first_published,
                    picked.updated,
                    picked.marked_published,
                )
            )
    return chosen, left_out


# --- page data ---------------------------------------------------------------------------


def body_parts(body_html: str) -> tuple[str, list[dict]]:
    """Split rendered body HTML at its <h2> headings into the preamble and labelled sections."""
    chunks = body_html.split("<h2>")
    sections = []
    for chunk in chunks[1:]:
        heading_html, _, rest = chunk.partition("</h2>")
        kind = section_kind(html.unescape(heading_html).strip())
        if kind == "originals":
            continue
        css, label = SECTION_STYLE.get(kind, ("ours", "Our notes"))
        sections.append(
            {
                "kind": kind or "other",
                "css": css,
                "label": label,
                "html": Markup(f"<h2>{heading_html}</h2>{rest}"),
            }
        )
    return chunks[0], sections


class SiteModel:
    """Everything the pages are made from, computed once per build."""

    def __init__(self, project: Project, guides: list[SiteGuide]) -> None:
        self.project = project
        self.site = project.settings.site
        self.base_url = self.site.base_url.rstrip("/")
        self.sources = sorted(project.sources.sources, key=lambda s: s.key)
        self.guides = guides
        self.guide_of: dict[str, SiteGuide] = {g.source.key: g for g in guides}
        self.problems: list[str] = []
        topics = compute_topics(self.sources, project.settings.topics.min_sources)
        self.topics, clashes = unique_slugs(topics)
        for clash in clashes:
            if clash.kept:
                self.problems.append(
                    f"topic slug {clash.slug!r} is shared by {clash.kept!r} and "
                    f"{join_names([repr(n) for n in clash.dropped])}; only {clash.kept!r} "
                    "gets a hub: rename the other tags"
                )
            else:
                self.problems.append(
                    f"tag {join_names([repr(n) for n in clash.dropped])} has no letters or "
                    "digits for a hub address; no hub written"
                )
        self.topic_href = {t.key: f"topics/{t.slug}/index.html" for t in self.topics}
        self.companies = self._companies()
        self.company_href = {
            normalize_tag(name): f"companies/{slug}/index.html"
            for slug, (name, _) in self.companies.items()
        }
        self.related = RelatedIndex(self.sources)
        self.topic_by_slug = {topic.slug: topic for topic in self.topics}
        self.listing_order = sorted(guides, key=_listing_order)
        self._cards: dict[str, Markup] = {}
        self._related: dict[str, list[dict]] = {}

    def _companies(self) -> dict[str, tuple[str, list[Source]]]:
        groups: dict[str, dict[str, list[Source]]] = {}
        for source in self.sources:
            groups.setdefault(slugify(source.company), {}).setdefault(
                normalize_tag(source.company), []
            ).append(source)
        companies = {}
        for slug, by_name in sorted(groups.items()):
            ranked = sorted(by_name.values(), key=lambda group: (-len(group), group[0].company))
            name = ranked[0][0].company
            if not slug:
                self.problems.append(
                    f"company {name!r} has no letters or digits for a page address; "
                    "no company page written"
                )
                continue
            if len(ranked) > 1:
                others = join_names([repr(group[0].company) for group in ranked[1:]])
                self.problems.append(
                    f"company slug {slug!r} is shared by {name!r} and {others}; only {name!r} "
                    "gets the page: make the company names consistent"
                )
            companies[slug] = (name, sorted(ranked[0], key=recency_key))
        return companies

    def tag_links(self, tags: Iterable[str]) -> list[dict]:
        return [{"name": tag, "href": self.topic_href.get(normalize_tag(tag))} for tag in tags]

    def source_href(self, source: Source) -> str | None:
        """Link to the guide when it is on the site, else to the write-up's source card."""
        guide = self.guide_of.get(source.key)
        if guide is not None:
            return guide.href
        company = self.company_href.get(normalize_tag(source.company))
        return f"{company}#{source.key}" if company else None

    def related_items(self, source: Source) -> list[dict]:
        """Return the related-story items of a write-up (computed once per build)."""
        cached = self._related.get(source.key)
        if cached is not None:
            return cached
        items: list[dict] = []
        self._related[source.key] = items
        for other in self.related.related(source):
            href = self.source_href(other)
            if href is None:
                continue
            items.append(
                {
                    "title": other.title,
                    "company": other.company,
                    "year": other.published.year if other.published else None,
                    "summary": other.summary,
                    "href": href,
                    "is_guide": other.key in self.guide_of,
                    "tags": self.tag_links(other.tags),
                }
            )
        return items

    def card(self, source: Source) -> Markup:
        """Render a write-up's source card once; hubs and company pages share the same depth."""
        cached = self._cards.get(source.key)
        if cached is None:
            guide = self.guide_of.get(source.key)
            data = {
                "id": source.key,
                "company": source.company,
                "year": source.published.year if source.published else None,
                "title": source.title,
                "url": safe_url(source.url),
                "summary": source.summary,
                "published": source.published.isoformat() if source.published else None,
                "scale": source.scale,
                "techniques": self.tag_links(source.techniques),
                "stack": self.tag_links(source.stack),
                "guide_href": guide.href if guide else None,
                "draft": bool(guide and guide.draft),
                "related": self.related_items(source),
            }
            module = page_environment().get_template("cards.html").module
            cached = Markup(module.source_card(data, "../../"))
            self._cards[source.key] = cached
        return cached


# --- writing -----------------------------------------------------------------------------


def _write_page(path: Path, data: bytes) -> None:
    """Replace a page atomically; pages are rebuilt from inputs, so no fsync per page."""
    atomic_write_bytes(path, data, durable=False)


class SiteWriter:
    """Write pages into the output folder, skipping those whose content did not change.

    A new output folder is built as a hidden sibling folder and renamed into place by
    finish(), so that no one ever sees half a site; its pages need no file-by-file renames.
    """

    def __init__(self, out_dir: Path, previous: dict[str, list]) -> None:
        self.out_dir = out_dir
        self.previous = previous
        self.pages: dict[str, list] = {}
        self.written = 0
        self.fresh = not out_dir.exists()
        if self.fresh:
            out_dir.parent.mkdir(parents=True, exist_ok=True)
            remove_orphaned_staging(out_dir)
            prefix = f".{out_dir.name}.{os.getpid()}."
            staging = tempfile.mkdtemp(prefix=prefix, suffix=STAGING_SUFFIX, dir=out_dir.parent)
            os.chmod(staging, DEFAULT_DIR_MODE)  # mkdtemp makes it private
            self.root = Path(staging)
        else:
            self.root = out_dir
        self.base = self.root.resolve()

    def put(self, relative: str, text: str | bytes) -> None:
        """Write a page unless its content is already there, and account for it."""
        self.record(relative, *self.write(relative, text))

    def write(self, relative: str, text: str | bytes) -> tuple[str, int, bool]:
        """Write a page unless unchanged; return its digest, size and whether it was written.

        Worker processes call this too; each writes its own pages.
        """
        data = text.encode("utf-8") if isinstance(text, str) else text
        target = confined(self.root, relative, base=self.base)
        digest = hashlib.sha256(data).hexdigest()
        if self.fresh:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
            return digest, len(data), True
        known = self.previous.get(relative)
        if known == [digest, len(data)]:
            try:
                if target.stat().st_size == len(data):
                    return digest, len(data), False
            except FileNotFoundError:
                pass
        elif known is None and target.is_file() and target.read_bytes() == data:
            return digest, len(data), False
        _write_page(target, data)
        return digest, len(data), True

    def record(self, relative: str, digest: str, size: int, written: bool) -> None:
        """Account for a page written here or by a worker; refuse a second page per path."""
        if relative in self.pages:
            raise PublishError(
                f"two pages want {relative!r}; refusing to overwrite", path=relative, rule="slug"
            )
        self.pages[relative] = [digest, size]
        self.written += written

    def finish(self) -> None:
        """Move a newly built site into place."""
        if self.fresh:
            try:
                os.replace(self.root, self.out_dir)
            except OSError as exc:
                self.abandon()
                raise PublishError(
                    f"cannot move the new site into place ({exc.strerror}); another build may "
                    "have created the folder meanwhile: publish again",
                    path=self.out_dir,
                    rule="path",
                ) from exc

    def abandon(self) -> None:
        """Remove a new site that was not finished."""
        if self.fresh:
            shutil.rmtree(self.root, ignore_errors=True)


def remove_orphaned_staging(out_dir: Path) -> None:
    """Delete the hidden folders of builds of out_dir that were killed before finishing."""
    for folder in out_dir.parent.glob(f".{glob.escape(out_dir.name)}.*{STAGING_SUFFIX}"):
        match = STAGING_NAME.match(folder.name)
        if match and folder.is_dir() and not process_running(int(match.group(1))):
            shutil.rmtree(folder, ignore_errors=True)


# --- incremental state -------------------------------------------------------------------


def _walk(folder: Path, skip: Path | None = None) -> Iterator[os.DirEntry]:
    try:
        entries = sorted(os.scandir(folder), key=lambda e: e.name)
    except (FileNotFoundError, NotADirectoryError):
        return
    for entry in entries:
        if entry.is_dir(follow_symlinks=False):
            if skip is None or Path(entry.path) != skip:
                yield from _walk(Path(entry.path), skip)
        elif entry.is_file():
            yield entry


def input_fingerprint(project: Project, out_dir: Path, preview: bool) -> str:
    """Hash what the site is made from: inputs, review state, settings, code and the date."""
    digest = hashlib.sha256()
    header = [code_version(), str(out_dir.resolve()), preview, project.today.isoformat()]
    digest.update(json.dumps(header).encode())
    digest.update(project.settings.model_dump_json().encode())
    ws = project.workspace
    cache = ws.state_dir / CACHE_DIR
    for folder in (ws.sources_dir, ws.guides_dir, ws.state_dir):
        for entry in _walk(folder, skip=cache):
            if entry.name.endswith((".pyc", ".tmp")):
                continue
            st = entry.stat()
            digest.update(f"{entry.path}\0{st.st_size}\0{st.st_mtime_ns}\0{st.st_ino}\n".encode())
    config = ws.config_path
    if config.exists():
        digest.update(config.read_bytes())
    return digest.hexdigest()


def _state_paths(project: Project, out_dir: Path) -> tuple[Path, Path]:
    folder = project.workspace.state_dir / CACHE_DIR
    key = hashlib.sha256(str(out_dir.resolve()).encode()).hexdigest()[:16]
    return folder / f"manifest-{key}.json", folder / "cache.sqlite"


def _read_json(path: Path) -> dict:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (FileNotFoundError, ValueError, UnicodeDecodeError):
        return {}
    return data if isinstance(data, dict) else {}


def _unchanged(manifest: dict, fingerprint: str, out_dir: Path) -> bool:
    if manifest.get("fingerprint") != fingerprint:
        return False
    for relative, (_, size) in manifest.get("pages", {}).items():
        try:
            if (out_dir / relative).stat().st_size != size:
                return False
        except FileNotFoundError:
            return False
    return True


def _prune(out_dir: Path, keep: dict[str, list], previous: dict[str, list]) -> list[str]:
    """Remove pages of an earlier build that this build no longer produces."""
    stale = {rel for rel in previous if rel not in keep}
    base = out_dir.resolve()
    for top in MANAGED_DIRS:
        for entry in _walk(base / top):
            relative = Path(entry.path).relative_to(base).as_posix()
            if entry.name == "index.html" and relative not in keep:
                stale.add(relative)
    removed = []
    for relative in sorted(stale):
        target = confined(out_dir, relative)
        if target.is_file():
            target.unlink()
            removed.append(relative)
            parent = target.parent
            while parent != base and parent.is_dir() and not any(parent.iterdir()):
                parent.rmdir()
                parent = parent.parent
    return removed


# --- the build ---------------------------------------------------------------------------


def publish(
    project: Project, out_dir: Path, *, preview: bool, jobs: int | None = None
) -> PublishReport:
    """Write the site: live approved guides, plus drafts bannered and noindexed under preview.

    jobs is the number of processes for the guides (None: one per CPU when the site is large).
    """
    report = PublishReport(out_dir=out_dir)
    manifest_path, cache_path = _state_paths(project, out_dir)
    manifest = _read_json(manifest_path)
    fingerprint = input_fingerprint(project, out_dir, preview)
    if _unchanged(manifest, fingerprint, out_dir):
        report.pages = sorted(manifest["pages"])
        report.left_out = manifest.get("left_out", {})
        report.problems = manifest.get("problems", [])
        report.guides = manifest.get("guides", [])
        report.drafts = manifest.get("drafts", [])
        report.reused = True
        return report

    processes = worker_count(jobs, len(project.guides.ids()))
    project.load_sources(processes)
    cache = BuildCache(cache_path)
    try:
        guides, report.left_out = select_guides(
            project, preview=preview, cache=cache, processes=processes
        )
        model = SiteModel(project, guides)
        writer = SiteWriter(out_dir, manifest.get("pages", {}))
        try:
            render_site(model, writer, cache, preview=preview, processes=processes)
        except BaseException:
            writer.abandon()
            raise
        writer.finish()
    finally:
        cache.close()
    report.problems = model.problems
    report.guides = sorted(g.id for g in guides if not g.draft)
    report.drafts = sorted(g.id for g in guides if g.draft)

    if not writer.fresh:  # a new folder holds nothing from an earlier build
        report.removed = _prune(out_dir, writer.pages, manifest.get("pages", {}))
    report.pages = sorted(writer.pages)
    report.written = writer.written
    unmarked = sorted(g.id for g in guides if not g.draft and not g.marked_published)
    if not preview and unmarked:
        mark_published(project, unmarked)
        fingerprint = input_fingerprint(project, out_dir, preview)
    state = {
        "fingerprint": fingerprint,
        "pages": writer.pages,
        "left_out": report.left_out,
        "problems": report.problems,
        "guides": report.guides,
        "drafts": report.drafts,
    }
    atomic_write_text(manifest_path, json.dumps(state, sort_keys=True, indent=0))
    return report


@dataclass(frozen=True)
class Rendered:
    """A page a task rendered and wrote, with what the build keeps of a guide's body."""

    relative: str
    digest: str
    size: int
    written: bool
    guide_id: str | None = None
    body_key: str | None = None
    new_body: str | None = None
    feed_html: str | None = None


def _render(template: str, *common: dict, **context: object) -> str:
    return page_environment().get_template(template).render(*common, **context)


def render_guide_page(
    model: SiteModel, guide: SiteGuide, cache: BuildCache, *, preview: bool
) -> tuple[str, str, str, bool]:
    """Return a guide's page, its body HTML, the body's cache key and whether it was new."""
    body_html, key, fresh = cached_body(cache, guide.doc)
    preamble_html, sections = body_parts(body_html)
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
    page = _render(
        "guide.html",
        site=model.site,
        description=source.summary,
        root="../../",
        banner=DRAFT_BANNER if guide.draft else None,
        noindex=preview or guide.draft,
        guide={
            "id": guide.id,
            "title": guide.doc.meta.title,
            "company": guide.doc.meta.company,
            "draft": guide.draft,
            "updated": guide.updated.isoformat() if guide.updated else None,
            "first_published": (
                guide.first_published.isoformat() if guide.first_published else None
            ),
            "preamble": Markup(preamble_html),
            "sections": sections,
            "originals": originals,
            "topics": [t for t in model.tag_links(source.tags) if t["href"]],
            "related": model.related_items(source),
        },
    )
    return page, body_html, key, fresh


def render_site(
    model: SiteModel, writer: SiteWriter, cache: BuildCache, *, preview: bool, processes: int = 1
) -> None:
    """Render and write every page; in worker processes when asked."""
    site = model.site
    common = {"site": site, "noindex": preview, "description": None}
    in_feed = {g.id for g in feed_guides(model.guides)}
    ordered = sorted(model.guides, key=lambda g: g.id)

    def render(item: SiteGuide | None) -> list[Rendered]:
        if item is None:  # every listing page, in one task: one process renders each card once
            done = []
            for task in listing_pages(model):
                relative, page = render_listing(model, task, common, preview)
                done.append(Rendered(relative, *writer.write(relative, page)))
            return done
        page, body_html, key, fresh = render_guide_page(model, item, cache, preview=preview)
        written = writer.write(item.href, page)
        feed_html = body_html if item.id in in_feed else None
        new_body = body_html if fresh else None
        return [Rendered(item.href, *written, item.id, key, new_body, feed_html)]

    feed_html: dict[str, str] = {}
    # The listing pages go first: together they are the longest task.
    with WorkerMap(render, [None, *ordered], processes, ordered=False) as results:
        for result in (rendered for batch in results for rendered in batch):
            writer.record(result.relative, result.digest, result.size, result.written)
            if result.body_key is not None:
                cache.record("bodies", result.body_key, result.new_body)
            if result.guide_id is not None and result.feed_html is not None:
                feed_html[result.guide_id] = result.feed_html
    entries = [
        FeedEntry(
            url=f"{model.base_url}/guides/{guide.id}/",
            title=guide.doc.meta.title,
            author=site.name,
            summary=guide.source.summary,
            content_html=feed_html[guide.id],
            published=guide.published or guide.updated,
            updated=guide.updated,
        )
        for guide in ordered
        if guide.id in feed_html and guide.updated
    ]
    _render_feeds(model, writer, entries)
    style = resources.files("generator").joinpath("templates/style.css").read_bytes()
    writer.put("style.css", style)


def feed_guides(guides: Iterable[SiteGuide]) -> list[SiteGuide]:
    """Return the live guides the feed carries: the most recently updated first."""
    live = [g for g in guides if not g.draft and g.updated]
    live.sort(key=lambda g: (g.updated, g.published, g.id), reverse=True)
    return live[:FEED_SIZE]


def _listing_order(guide: SiteGuide) -> tuple:
    published = guide.published or date.min
    return (guide.published is None, -published.toordinal(), *recency_key(guide.source))


def listing_pages(model: SiteModel) -> list[tuple[str, ...]]:
    """Name every listing page (index pages, hubs, company pages) as a render task."""
    count = max(1, -(-len(model.guides) // model.site.page_size))
    return [
        *(("index", str(number)) for number in range(1, count + 1)),
        *(("topic", topic.slug) for topic in model.topics),
        ("topics",),
        *(("company", slug) for slug in model.companies),
        ("companies",),
    ]


def render_listing(
    model: SiteModel, task: tuple[str, ...], common: dict, preview: bool
) -> tuple[str, str]:
    """Render one listing page; return its path and HTML."""
    kind, *args = task
    if kind == "index":
        return _index_page(model, int(args[0]), common, preview)
    if kind == "topic":
        return _topic_page(model, model.topic_by_slug[args[0]], common)
    if kind == "topics":
        return _topics_index(model, common)
    if kind == "company":
        return _company_page(model, args[0], common)
    return _companies_index(model, common)


def _index_page(model: SiteModel, number: int, common: dict, preview: bool) -> tuple[str, str]:
    size = model.site.page_size
    count = max(1, -(-len(model.guides) // size))
    chunk = model.listing_order[(number - 1) * size : number * size]
    relative = "index.html" if number == 1 else f"page/{number}/index.html"
    root = "" if number == 1 else "../../"

    def page_href(n: int) -> str:
        return "index.html" if n == 1 else f"page/{n}/index.html"

    items = [
        {
            "href": g.href,
            "title": g.doc.meta.title,
            "company": g.doc.meta.company,
            "summary": g.source.summary,
            "published": g.published.isoformat() if g.published else None,
            "updated": g.updated.isoformat() if g.updated else None,
            "draft": g.draft,
        }
        for g in chunk
    ]
    page = _render(
        "index.html",
        common,
        root=root,
        banner=PREVIEW_BANNER if preview else None,
        guides=items,
        pager={
            "number": number,
            "count": count,
            "prev": page_href(number - 1) if number > 1 else None,
            "next": page_href(number + 1) if number < count else None,
        },
    )
    return relative, page


def _card_note(topic: Topic, model: SiteModel) -> str:
    if all(source.key in model.guide_of for source in topic.sources):
        return "Each card below links to our short summary and the original post."
    return "Each card below links to the original post, and to our guide where one is published."


TOPIC_FIELD_LABELS = {"stack": "Stack", "techniques": "Technique", "both": "Technique and stack"}


def _topic_page(model: SiteModel, topic: Topic, common: dict) -> tuple[str, str]:
    page = _render(
        "hub.html",
        common,
        root="../../",
        banner=None,
        description=topic.paragraph,
        topic={
            "title": topic.title,
            "paragraph": topic.paragraph,
            "card_note": _card_note(topic, model),
            "field_label": TOPIC_FIELD_LABELS[topic.field],
        },
        cards=[model.card(source) for source in topic.sources],
    )
    return f"topics/{topic.slug}/index.html", page


def _topics_index(model: SiteModel, common: dict) -> tuple[str, str]:
    items = [
        {
            "href": f"topics/{t.slug}/index.html",
            "name": t.name,
            "note": f"{t.count} write-ups · {TOPIC_FIELD_LABELS[t.field].lower()}",
        }
        for t in sorted(model.topics, key=lambda t: (-t.count, t.name.casefold(), t.slug))
    ]
    threshold = model.project.settings.topics.min_sources
    page = _render(
        "listing.html",
        common,
        root="../",
        banner=None,
        heading="Topics",
        intro=f"Every technique and stack tag that at least {threshold} write-ups in our "
        "database mention, most common first.",
        items=items,
    )
    return "topics/index.html", page


def _company_noun(members: list[Source]) -> str:
    return "write-up" if len(members) == 1 else "write-ups"


def _company_page(model: SiteModel, slug: str, common: dict) -> tuple[str, str]:
    name, members = model.companies[slug]
    with_guides = sum(1 for s in members if s.key in model.guide_of)
    years = sorted(s.published.year for s in members if s.published)
    span = ""
    if years:
        span = (
            f", published in {years[0]}"
            if years[0] == years[-1]
            else f", published between {years[0]} and {years[-1]}"
        )
    sentence = (
        f"{len(members)} engineering {_company_noun(members)} from {name} in our database"
        f"{span}. {with_guides} of them {'has' if with_guides == 1 else 'have'} a published "
        "guide."
    )
    page = _render(
        "company.html",
        common,
        root="../../",
        banner=None,
        description=sentence,
        company={"name": name, "sentence": sentence},
        cards=[model.card(source) for source in members],
    )
    return f"companies/{slug}/index.html", page


def _companies_index(model: SiteModel, common: dict) -> tuple[str, str]:
    items = [
        {
            "href": f"companies/{slug}/index.html",
            "name": name,
            "note": f"{len(members)} {_company_noun(members)}",
        }
        for slug, (name, members) in model.companies.items()
    ]
    page = _render(
        "listing.html",
        common,
        root="../",
        banner=None,
        heading="Companies",
        intro="Every company with a write-up in our database.",
        items=sorted(items, key=lambda i: (i["name"].casefold(), i["href"])),
    )
    return "companies/index.html", page


def _render_feeds(model: SiteModel, writer: SiteWriter, entries: list[FeedEntry]) -> None:
    site_url = f"{model.base_url}/"
    writer.put(
        "feed.xml",
        atom_feed(
            title=model.site.name,
            site_url=site_url,
            feed_url=f"{model.base_url}/feed.xml",
            entries=entries,
            limit=FEED_SIZE,
        ),
    )
    live = [g for g in model.guides if not g.draft]
    latest = max((g.updated for g in live if g.updated), default=None)
    urls = [SitemapEntry(site_url, latest)]
    urls += [SitemapEntry(f"{model.base_url}/guides/{g.id}/", g.updated) for g in live]

    def lastmod(sources: Iterable[Source]) -> date | None:
        dates = [
            model.guide_of[s.key].updated
            for s in sources
            if s.key in model.guide_of and not model.guide_of[s.key].draft
        ]
        return max((d for d in dates if d), default=None)

    urls += [
        SitemapEntry(f"{model.base_url}/topics/{t.slug}/", lastmod(t.sources)) for t in model.topics
    ]
    urls += [
        SitemapEntry(f"{model.base_url}/companies/{slug}/", lastmod(members))
        for slug, (_, members) in model.companies.items()
    ]
    writer.put("sitemap.xml", sitemap(urls))
