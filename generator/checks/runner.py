"""The gate: run the integrity checks over a workspace's guides."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from generator.checks.engine import CheckContext, check_run, has_errors
from generator.checks.memo import CheckPlan, GuideCheck, keep_run, make_plan, records_key
from generator.checks.verdicts import VerdictCache
from generator.checks.verdictstore import FILE_NAME
from generator.core.errors import PrepguideError
from generator.core.workers import WorkerMap, worker_count
from generator.guides.findings import Finding
from generator.guides.project import Project
from generator.sources.records import Source


def check_context(project: Project, source: Source) -> CheckContext:
    """Return what the checks need to judge a guide of this source."""
    vocabulary, companies = project.database_terms
    return CheckContext(
        source=source,
        originals=project.originals(source),
        today=project.today,
        freshness_days=project.settings.checks.freshness_days,
        site_name=project.settings.site.name,
        vocabulary=vocabulary,
        companies=companies,
    )


def _unchecked(guide_id: str, status: str, rule: str, message: str) -> GuideCheck:
    finding = Finding(rule=rule, severity="error", section="guide", message=message)
    return GuideCheck(id=guide_id, status=status, findings=[finding])


@contextmanager
def findings_cache(project: Project, warnings: list[str] | None = None) -> Iterator[VerdictCache]:
    """Open the workspace's verdict cache (.prepguide/verdicts.sqlite) for a command."""
    cache = VerdictCache(project.workspace.state_dir / FILE_NAME, warnings)
    cache.project = project  # type: ignore[attr-defined]
    try:
        yield cache
    finally:
        cache.close()


def cached_findings(project: Project, cache: VerdictCache, doc, source: Source) -> list[Finding]:
    """Return a guide's findings against its record, computing only what is not cached."""
    return cache.check(doc, check_context(project, source))


def prime_records(project: Project, cache: VerdictCache) -> bool:
    """Take the database-wide terms and the file of each record from the cache, if unchanged.

    Then a command that needs a few records reads only those (Project.source) and no other
    record file; on a miss every record is read once and the summary is kept. Return whether
    the summary was found.
    """
    if "sources" in project.__dict__:
        return False
    racy: list[bool] = []
    key = records_key(project, cache, racy)
    stored = cache.get("findings", key)
    try:
        paths = {str(k): str(v) for k, v in stored["paths"].items()}  # type: ignore[index]
        terms = tuple(map(str, stored["vocabulary"])), tuple(map(str, stored["companies"]))  # type: ignore[index]
    except (TypeError, KeyError, AttributeError):
        keep_records(project, cache, key, racy)
        return False
    project.__dict__.setdefault("database_terms", terms)
    project.record_paths = paths
    return True


def keep_records(
    project: Project, cache: VerdictCache, key: str | None = None, racy: list[bool] | None = None
) -> None:
    """Keep the summary of the records (read now, if not yet) that prime_records takes."""
    if key is None or racy is None:
        racy = []
        key = records_key(project, cache, racy)
    vocabulary, companies = project.database_terms
    paths = {s.key: str(s.path) for s in project.sources.by_id().values()}
    value = {"paths": paths, "vocabulary": vocabulary, "companies": companies}
    if not racy:
        cache.put_many("findings", [(key, value)])


def check_guides(
    project: Project,
    ids: list[str] | tuple[str, ...] = (),
    jobs: int | None = 1,
    warnings: list[str] | None = None,
    plan: CheckPlan | None = None,
) -> list[GuideCheck]:
    """Check the named guides, or every guide; unreadable guides become error findings.

    jobs is the number of processes (None: one per CPU when there are many guides). A guide
    whose files did not change since the last check is not read at all (see checks.memo);
    plan: the run's keys, when the caller has just made them (checks.memo.plan_check).
    """
    with findings_cache(project, warnings) as cache:
        if plan is None:
            plan = make_plan(project, cache, ids)
        if plan.results is not None:
            return plan.results
        wanted, keys, racy = plan.wanted, plan.keys, plan.racy
        known = cache.get_many("checks", list(keys.values()))
        results: dict[str, GuideCheck] = {}
        for guide_id, key in keys.items():
            row = known.get(key)
            if isinstance(row, dict):
                try:
                    findings = [Finding.model_validate(item) for item in row["findings"]]
                    results[guide_id] = GuideCheck(guide_id, str(row["status"]), findings)
                except (KeyError, TypeError, ValueError):
                    pass
        todo = [guide_id for guide_id in wanted if guide_id not in results]
        processes = worker_count(jobs, len(todo))
        if todo:  # loaded before the run, so that check_run freezes them (and workers share them)
            project.load_sources(processes)
            keep_records(project, cache)  # the terms, built before the workers fork, and kept
        task = lambda g: _check_one(project, cache, g)  # noqa: E731
        with check_run(), WorkerMap(task, todo, processes) as done:
            fresh = list(done)
        rows = []
        for result in fresh:
            results[result.id] = result
            if result.status not in ("invalid", "missing") and result.id not in racy:
                findings = [f.model_dump() for f in result.findings]
                rows.append((keys[result.id], {"status": result.status, "findings": findings}))
        cache.put_many("checks", rows)
        ordered = [results[guide_id] for guide_id in wanted]
        if not ids:
            kept = set(keys.values()) | ({plan.run} if plan.run else set())
            cache.keep_only("checks", kept)
        keep_run(cache, plan, ordered)
    return ordered


def _check_one(project: Project, cache: VerdictCache, guide_id: str) -> GuideCheck:
    try:
        doc = project.guides.read(guide_id)
    except PrepguideError as exc:
        message = f"{exc}; fix the front matter or regenerate"
        return _unchecked(guide_id, "invalid", "guide.invalid", message)
    if doc is None:
        message = f"no guide file; run `prepguide generate {guide_id}`"
        return _unchecked(guide_id, "missing", "guide.missing", message)
    source = project.source(guide_id)
    if source is None:
        message = f"no valid source record with id {guide_id!r}; run `prepguide sources check`"
        return _unchecked(guide_id, "missing", "guide.missing", message)
    findings = cached_findings(project, cache, doc, source)
    return GuideCheck(id=guide_id, status=doc.meta.status, findings=findings)


def blocked(results: list[GuideCheck]) -> list[GuideCheck]:
    """Return the guides whose error findings block approval and publishing."""
    return [result for result in results if has_errors(result.findings)]
