"""The gate: run the integrity checks over a workspace's guides."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from generator.checks.engine import CheckContext, check_run, has_errors
from generator.checks.verdicts import FILE_NAME, VerdictCache, code_version, digest, signature
from generator.core.config import CONFIG_NAME
from generator.core.errors import PrepguideError
from generator.core.workers import WorkerMap, worker_count
from generator.guides.findings import Finding, count
from generator.guides.project import Project
from generator.guides.store import check_id
from generator.sources.records import Source, source_names
from generator.verify.ledger import ledger_path


@dataclass(frozen=True)
class GuideCheck:
    """The findings of one guide, or of why it could not be checked."""

    id: str
    status: str
    findings: list[Finding]

    @property
    def errors(self) -> int:
        return count(self.findings, "error")

    @property
    def warnings(self) -> int:
        return count(self.findings, "warning")

    def as_json(self) -> dict:
        return {
            "id": self.id,
            "status": self.status,
            "findings": [finding.model_dump() for finding in self.findings],
        }


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


def world_key(
    project: Project, racy: list[bool] | None = None, cache: VerdictCache | None = None
) -> str:
    """Key everything a guide's findings read besides its own file, by file signatures.

    The record files (each record, and the database-wide vocabulary made of them all), the
    ledger, the settings, the checks' code version and the date.
    """
    sources = project.workspace.sources_dir
    parts = [code_version(cache), project.today.isoformat(), project.settings.model_dump_json()]
    parts += [signature(project.workspace.root / CONFIG_NAME, racy)]
    parts += [signature(ledger_path(sources), racy)]
    parts += record_signatures(project, racy)
    return digest(parts)


def record_signatures(project: Project, racy: list[bool] | None = None) -> list[str]:
    """Return the signature of every record file, in order."""
    folder = os.fspath(project.workspace.sources_dir)
    names = source_names(project.workspace.sources_dir)
    return [signature(os.path.join(folder, name), racy) for name in names]


def row_key(project: Project, world: str, guide_id: str, racy: list[bool] | None = None) -> str:
    """Key one guide's check row: the world and its working file's signature."""
    path = os.path.join(os.fspath(project.guides.dir), f"{check_id(guide_id)}.md")
    return digest([world, guide_id, signature(path, racy)])


def records_key(project: Project, cache: VerdictCache, racy: list[bool]) -> str:
    """Key what every record file holds, by their signatures, the code version and the date."""
    sources = project.workspace.sources_dir
    parts = ["records", code_version(cache), project.today.isoformat(), str(sources)]
    parts += record_signatures(project, racy)
    return digest(parts)


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
        vocabulary, companies = project.database_terms
        paths = {s.key: str(s.path) for s in project.sources.by_id().values()}
        value = {"paths": paths, "vocabulary": vocabulary, "companies": companies}
        if not racy:
            cache.put_many("findings", [(key, value)])
        return False
    project.__dict__.setdefault("database_terms", terms)
    project.record_paths = paths
    return True


def check_guides(
    project: Project,
    ids: list[str] | tuple[str, ...] = (),
    jobs: int | None = 1,
    warnings: list[str] | None = None,
) -> list[GuideCheck]:
    """Check the named guides, or every guide; unreadable guides become error findings.

    jobs is the number of processes (None: one per CPU when there are many guides). A guide
    whose files did not change since the last check is not read at all (see checks.verdicts).
    """
    wanted = list(ids or project.guides.ids())
    with findings_cache(project, warnings) as cache:
        racy_world: list[bool] = []
        world = world_key(project, racy_world, cache)
        keys, racy = {}, set()
        for guide_id in wanted:
            flag = list(racy_world)
            keys[guide_id] = row_key(project, world, guide_id, flag)
            if flag:
                racy.add(guide_id)
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
            project.database_terms  # noqa: B018 - built once, before the workers fork
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
        if not ids:
            cache.keep_only("checks", set(keys.values()))
    return [results[guide_id] for guide_id in wanted]


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
