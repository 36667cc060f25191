"""The site, as a pipeline: select → model → render → write, with a cache between builds.

- select: which guides, in which live version, after the checks at publish;
- model: topic hubs, companies, related stories, source cards and the weeks' digest issues;
- render: every page as a pure function of its inputs, with each page's input key (feeds: the
  Atom feed and the sitemap; issues: the digest pages and digest/feed.xml);
- write: the new tree beside the old one, the manifest, the swap and the lock;
- inputs: the signature of every input file and the keys made of them; state: what the last
  build read, kept for the next. The check findings come from the workspace's verdict cache,
  shared with every other command.
"""

from __future__ import annotations

import gc
from dataclasses import dataclass, field
from pathlib import Path

from generator.checks.verdicts import VerdictCache
from generator.checks.verdictstore import FILE_NAME as VERDICTS_FILE
from generator.core import collector
from generator.core.config import CONFIG_NAME
from generator.core.errors import PublishError
from generator.core.workers import worker_count
from generator.guides.project import Project
from generator.site import articles as site_articles
from generator.site import inputs, model, render, search, select, state, theme, write

LOCK_TIMEOUT = 600.0
# Fewer pages to render than this: workers would cost more to start than they save.
MIN_PAGES_FOR_WORKERS = 100


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
    articles: list[str] = field(default_factory=list)  # live articles, as article:SLUG
    reused: bool = False
    # Live guides whose working file guides/<id>.md is gone; their approved text stays live.
    missing: list[str] = field(default_factory=list)
    # Live guides kept on the site although they fail checks changed since their approval.
    flagged: dict[str, str] = field(default_factory=dict)
    # Broken caches moved aside, and the like: nothing lost, but worth saying.
    warnings: list[str] = field(default_factory=list)
    # What the build did to the search index (None: the whole site was the last one).
    search: search.SearchReport | None = None


def publish(
    project: Project,
    out_dir: Path,
    *,
    preview: bool,
    jobs: int | None = None,
    lock_timeout: float = LOCK_TIMEOUT,
    strict: bool = False,
) -> PublishReport:
    """Write the site: live approved guides, plus drafts bannered and noindexed under preview.

    Under strict, live guides that fail checks changed since their approval are left out.

    jobs is the number of processes for the guides (None: one per CPU when the site is large).
    A second publish of the same workspace waits for the first, up to lock_timeout seconds.
    """
    # The kept state and the records live until the build ends; _publish freezes them as
    # they load, and this unfreezes them all at the end (unless a caller froze first).
    with collector.frozen():
        return _publish(project, out_dir, preview, jobs, lock_timeout, strict)


def _publish(
    project: Project,
    out_dir: Path,
    preview: bool,
    jobs: int | None,
    lock_timeout: float,
    strict: bool,
) -> PublishReport:
    report = PublishReport(out_dir=out_dir)
    problem = model.base_url_problem(project.settings.site)
    if problem:
        report.warnings.append(problem)
    state_dir = project.workspace.state_dir
    _refuse(out_dir, out_dir_problem(project, out_dir, None))  # before anything is written
    if preview and _our_site(out_dir):
        raise PublishError(
            "--out holds a published site (it has a sitemap.xml); a preview never replaces "
            "one, so that drafts cannot be deployed by mistake: leave out --out to write to "
            "site-preview/, or give another folder",
            path=out_dir,
            rule="publish.preview",
        )
    with write.build_lock(state_dir, lock_timeout):
        manifest_path = write.manifest_file(state_dir, out_dir)
        manifest = write.read_manifest(manifest_path, report.warnings)
        _refuse(out_dir, out_dir_problem(project, out_dir, manifest))
        look = theme.load_theme(project)
        base = inputs.base_fingerprint(project, out_dir, preview, strict)
        signatures = inputs.input_signatures(project, manifest.signatures)
        # The theme shapes pages only, not which guides are live: it is outside the base.
        fingerprint = inputs.input_fingerprint(f"{base}\0{look.key}", signatures)
        if write.unchanged(manifest, fingerprint, out_dir):
            return _reused(report, manifest)
        changed = inputs.changed_paths(manifest.signatures, signatures)
        same_theme = manifest.theme == look.key
        if same_theme and _only_drafts_changed(project, manifest, base, changed, preview, out_dir):
            _reused(report, manifest).reused = False
            report.missing = [g for g in manifest.guides if not project.guides.path(g).exists()]
            update = {"fingerprint": fingerprint, "signatures": signatures}
            write.write_manifest(
                manifest_path, manifest.model_copy(update={**update, "missing": report.missing})
            )
            return report

        # select: records and picks whose inputs did not change are the last build's
        processes = worker_count(jobs, len(project.guides.ids()))
        kept_path = state.state_path(manifest_path)
        previous = state.read_state(kept_path, report.warnings)
        if previous is not None and previous.base != base:
            previous = None
        gc.freeze()  # the kept state is long-lived: spare the collector walking it
        records = state.load_sources_cached(project, signatures, previous, processes)
        examples = _example_warnings(project)
        report.warnings += examples
        store = VerdictCache(project.workspace.state_dir / VERDICTS_FILE, report.warnings)
        common, pick_keys = state.pick_keys(project, signatures, base, preview, previous)
        known = previous.picks if previous is not None else None
        # model: the topic hubs are the last build's while no record changed, else they are
        # computed while the workers pick
        topics_key = inputs.records_key(project, signatures)
        same = previous is not None and previous.topics_key == topics_key
        topics = previous.topics if previous and same else None
        related = previous.related if previous and same else None
        unchanged_records = same and previous is not None and previous.records is not None
        kept_records = None if project.sources.problems else project.sources.sources

        def compute_hubs() -> None:
            """Make what comes from the records alone, and keep it for the next build."""
            nonlocal topics, related, unchanged_records
            if topics is not None and related is not None:
                return
            ordered = model.site_records(project, preview)
            if topics is None:
                topics = model.site_topics(project, ordered)
            if related is None:
                related = model.RelatedIndex(ordered)
            if not unchanged_records:  # written now, while the workers pick, not after
                made = state.SiteState(
                    sources=records,
                    topics_key=topics_key,
                    records=kept_records,
                    topics=topics,
                    related=related,
                )
                state.write_records(kept_path, made)
                unchanged_records = True

        try:
            chosen = select.select(
                project,
                preview=preview,
                cache=store,
                processes=processes,
                known=known,
                pick_keys=pick_keys,
                strict=strict,
                meanwhile=compute_hubs,
            )
        finally:
            store.close()
        picked = site_articles.select_articles(project, preview=preview, strict=strict)
        site = model.SiteModel(
            project, chosen.guides, topics, related, look, preview=preview, articles=picked.articles
        )
        site.problems += picked.problems
        facts = [g.facts for g in chosen.guides]
        # render: the input key of every page; when only some guides' own files changed and
        # no listing shows anything new of them, only their pages and the feed can change
        if (
            previous is not None
            and previous.facts == facts
            and manifest.base == base
            and same_theme
            and inputs.guide_local(project, changed)
        ):
            fresh = [g for g in chosen.guides if g.id in chosen.repicked]
            keys = render.changed_keys(site, manifest_keys(manifest), fresh, preview=preview)
        elif manifest.pages:
            keys = render.page_keys(site, preview=preview, processes=processes)
        else:  # no page to reuse: rendering keys each page as it goes
            keys = None
        # write: a new tree beside the old site, swapped in whole (none when no page changes)
        marked: list[str] = []
        trees = {
            name: getattr(manifest, name)
            for name in ("folders", "carried", "spare_folders", "spare_files")
        }
        if keys is not None:  # the search bundle is kept while the pages it indexes are
            keys = search.with_bundle(keys, manifest.pages)
        if keys is not None and write.same_site(manifest, keys, out_dir):
            report.search = search.SearchReport(
                pages=sum(1 for relative in keys if search.indexed(relative)),
                files=len(search.bundle_files(keys)),
            )
            pages, written, removed = manifest.pages, 0, []
            if not preview:
                marked = _record(project, chosen.guides)
        else:
            writer = write.SiteWriter(out_dir, manifest.pages, manifest)
            try:
                stale = sum(
                    1 for rel, key in (keys or {}).items() if manifest_key(manifest, rel) != key
                )
                stale = stale if keys is not None else len(chosen.guides) + 1
                render.render_site(
                    site,
                    writer,
                    keys,
                    preview=preview,
                    processes=processes if stale > MIN_PAGES_FOR_WORKERS else 1,
                )
                report.search = search.place_bundle(writer, manifest.pages, processes)
                if not preview:
                    marked = _record(project, chosen.guides)
                writer.finish()
            except BaseException:
                writer.abandon()
                raise
            pages, written, removed = writer.pages, writer.written, writer.removed
            trees = {
                "folders": writer.folders,
                "carried": sorted(writer.carried),
                "spare_folders": writer.spare_folders,
                "spare_files": writer.spare_files,
            }

        report.left_out = {**chosen.left_out, **picked.left_out}
        report.missing = chosen.missing
        report.flagged = {**chosen.flagged, **picked.flagged}
        report.problems = site.problems
        report.guides = sorted(g.id for g in chosen.guides if not g.draft)
        report.articles = sorted(a.id for a in site.articles if not a.draft)
        articles_marked = (  # the articles' publication, in their review state
            [] if preview else site_articles.record_articles(project, site.articles)
        )
        report.drafts = sorted(g.id for g in chosen.guides if g.draft)
        report.removed = removed
        report.pages = sorted(pages)
        report.written = written
        after = dict(signatures)
        if marked:  # the publication is now in the review state
            inputs.refresh_signatures(project, after, marked)
        if articles_marked:
            inputs.refresh_signatures(site_articles.article_view(project), after, articles_marked)
        done = write.Manifest(
            fingerprint=inputs.input_fingerprint(f"{base}\0{look.key}", after),
            theme=look.key,
            base=base,
            signatures=after,
            pages=pages,
            left_out=report.left_out,
            problems=report.problems,
            guides=report.guides,
            drafts=report.drafts,
            missing=report.missing,
            flagged=report.flagged,
            examples=examples,
            **trees,
        )
        write.write_manifest(manifest_path, done)
        picks = {g: pick for g, pick in chosen.picks.items() if g not in marked}
        kept = state.SiteState(
            base=base,
            signatures=after,
            common=common,
            sources=records,
            picks=picks,
            facts=facts,
            topics_key=topics_key,
            records=kept_records,
            topics=site.all_topics,
            related=site.related,
        )
        state.write_state(kept_path, kept, records_unchanged=unchanged_records)
    return report


# What a root holds: an output folder inside one of them, or holding one (a site has its own
# guides/), is not a site.
ROOT_FOLDERS = ("sources", "guides", "prompts", "templates", "static", ".prepguide")
ROOT_ENTRIES = ("sources", "prompts", ".prepguide", CONFIG_NAME)


def _refuse(out_dir: Path, problem: str | None) -> None:
    if problem:
        raise PublishError(f"--out {problem}", path=out_dir, rule="publish.out")


def out_dir_problem(project: Project, out_dir: Path, manifest: write.Manifest | None) -> str | None:
    """Say why out_dir must not be replaced by a site, or return None.

    A site may go into a new or empty folder, or replace a site this tool wrote (one its
    manifest knows, or whose pages say so); never the root, a folder of the root's own files,
    nor any other folder of files. Without the manifest, only the root's folders are judged.
    """
    out, root = out_dir.resolve(), project.workspace.root.resolve()
    if root.is_relative_to(out):
        return "is the root or holds it; give a folder of its own, such as site/"
    for name in ROOT_FOLDERS:
        if out.is_relative_to(root / name):
            return f"is inside the root's {name}/; give a folder of its own, such as site/"
    if not out.exists():
        return None
    if not out.is_dir():
        return "is not a folder"
    held = [name for name in ROOT_ENTRIES if (out / name).exists()]
    if held:
        return f"holds {held[0]}: it is a prepguide root, not a site; give another folder"
    if manifest is None or manifest.pages or not any(out.iterdir()) or _our_site(out):
        return None
    return (
        "is a folder of other files, not a site this tool wrote; a publish replaces the "
        "whole folder, so give a new or empty one"
    )


def _our_site(out: Path) -> bool:
    """Return True when the folder's front page and sitemap are those a publish writes."""
    try:
        with open(out / "index.html", encoding="utf-8", errors="replace") as handle:
            head = handle.read(65536)
    except OSError:
        return False
    return (out / "sitemap.xml").is_file() and all(mark in head for mark in SITE_MARKS)


SITE_MARKS = ('<footer class="site-footer">', 'title="', 'weekly" href="')


def manifest_keys(manifest: write.Manifest) -> dict[str, str]:
    """Return the input key of every page of the last build."""
    return {relative: entry.key or "" for relative, entry in manifest.pages.items()}


def manifest_key(manifest: write.Manifest, relative: str) -> str | None:
    entry = manifest.pages.get(relative)
    return entry.key if entry is not None else None


def _record(project: Project, guides: list[select.SiteGuide]) -> list[str]:
    """Record the publication of live guides not yet marked; return them."""
    unmarked = sorted(g.id for g in guides if not g.draft and not g.marked_published)
    select.record_publication(project, guides)
    return unmarked


def _only_drafts_changed(
    project: Project,
    manifest: write.Manifest,
    base: str,
    changed: set[str],
    preview: bool,
    out_dir: Path,
) -> bool:
    """Return True when only working files of live guides changed: no page can change."""
    return (
        not preview
        and manifest.base == base
        and inputs.only_working_files(project, changed, manifest.guides)
        and write.unchanged(manifest, manifest.fingerprint, out_dir)
    )


def _example_warnings(project: Project) -> list[str]:
    """Say which records are examples (example: true), which a published site leaves out."""
    return [
        f"{record.path or record.key} is an example record (example: true): it is never "
        "published; replace it with a write-up of your own, or delete it"
        for record in model.example_records(project)
    ]


def _reused(report: PublishReport, manifest: write.Manifest) -> PublishReport:
    report.warnings += manifest.examples
    report.pages = sorted(manifest.pages)
    report.left_out = manifest.left_out
    report.problems = manifest.problems
    report.guides = manifest.guides
    report.drafts = manifest.drafts
    report.missing = manifest.missing
    report.flagged = manifest.flagged
    report.reused = True
    return report


__all__ = [
    "PublishReport",
    "publish",
]
