"""The site, as a pipeline: select → model → render → write, with a cache between builds.

- select: which guides, in which live version, after the checks at publish;
- model: topic hubs, companies, related stories, source cards and the weeks' digest issues;
- render: every page as a pure function of its inputs, with each page's input key (feeds: the
  Atom feed and the sitemap; issues: the digest pages and digest/feed.xml);
- write: the new tree beside the old one, the manifest, the swap and the lock;
- cache: check verdicts and the fingerprint of the inputs.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from generator.project import Project
from generator.site import cache, model, render, select, write
from generator.workers import worker_count

LOCK_TIMEOUT = 600.0


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
    # Live guides whose working file guides/<id>.md is gone; their approved text stays live.
    missing: list[str] = field(default_factory=list)
    # Live guides kept on the site although they fail checks changed since their approval.
    flagged: dict[str, str] = field(default_factory=dict)
    # Broken caches moved aside, and the like: nothing lost, but worth saying.
    warnings: list[str] = field(default_factory=list)


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
    report = PublishReport(out_dir=out_dir)
    problem = model.base_url_problem(project.settings.site)
    if problem:
        report.warnings.append(problem)
    state_dir = project.workspace.state_dir
    with write.build_lock(state_dir, lock_timeout):
        manifest_path, cache_path = write.state_paths(state_dir, out_dir)
        manifest = write.read_manifest(manifest_path, report.warnings)
        base = cache.base_fingerprint(project, out_dir, preview, strict)
        signatures = cache.input_signatures(project)
        fingerprint = cache.input_fingerprint(base, signatures)
        if write.unchanged(manifest, fingerprint, out_dir):
            return _reused(report, manifest)
        if _only_drafts_changed(project, manifest, base, signatures, preview, out_dir):
            _reused(report, manifest).reused = False
            report.missing = [g for g in manifest.guides if not project.guides.path(g).exists()]
            update = {"fingerprint": fingerprint, "signatures": signatures}
            write.write_manifest(
                manifest_path, manifest.model_copy(update={**update, "missing": report.missing})
            )
            return report

        # select
        processes = worker_count(jobs, len(project.guides.ids()))
        project.load_sources(processes)
        store = cache.BuildCache(cache_path, report.warnings)
        try:
            chosen = select.select(
                project, preview=preview, cache=store, processes=processes, strict=strict
            )
        finally:
            store.close()
        # model
        site = model.SiteModel(project, chosen.guides)
        # render: the input key of every page
        keys = render.page_keys(site, preview=preview, processes=processes)
        # write: a new tree beside the old site, swapped in whole (none when no page changes)
        if write.same_site(manifest, keys, out_dir):
            pages, written, removed = manifest.pages, 0, []
            if not preview:
                select.record_publication(project, chosen.guides)
        else:
            writer = write.SiteWriter(out_dir, manifest.pages)
            try:
                render.render_site(site, writer, keys, preview=preview, processes=processes)
                if not preview:
                    select.record_publication(project, chosen.guides)
                writer.finish()
            except BaseException:
                writer.abandon()
                raise
            pages, written, removed = writer.pages, writer.written, writer.removed

        report.left_out = chosen.left_out
        report.missing = chosen.missing
        report.flagged = chosen.flagged
        report.problems = site.problems
        report.guides = sorted(g.id for g in chosen.guides if not g.draft)
        report.drafts = sorted(g.id for g in chosen.guides if g.draft)
        report.removed = removed
        report.pages = sorted(pages)
        report.written = written
        after = cache.input_signatures(project)  # the publication is now in the review state
        done = write.Manifest(
            fingerprint=cache.input_fingerprint(base, after),
            base=base,
            signatures=after,
            pages=pages,
            left_out=report.left_out,
            problems=report.problems,
            guides=report.guides,
            drafts=report.drafts,
            missing=report.missing,
            flagged=report.flagged,
        )
        write.write_manifest(manifest_path, done)
    return report


def _only_drafts_changed(
    project: Project,
    manifest: write.Manifest,
    base: str,
    signatures: dict[str, str],
    preview: bool,
    out_dir: Path,
) -> bool:
    """Return True when only working files of live guides changed: no page can change."""
    return (
        not preview
        and manifest.base == base
        and cache.only_working_files(project, manifest.signatures, signatures, manifest.guides)
        and write.unchanged(manifest, manifest.fingerprint, out_dir)
    )


def _reused(report: PublishReport, manifest: write.Manifest) -> PublishReport:
    report.pages = sorted(manifest.pages)
    report.left_out = manifest.left_out
    report.problems = manifest.problems
    report.guides = manifest.guides
    report.drafts = manifest.drafts
    report.missing = manifest.missing
    report.flagged = manifest.flagged
    report.reused = True
    return report


__all__ = ["PublishReport", "publish"]
