"""The gate: run the integrity checks over a workspace's guides."""

from __future__ import annotations

from dataclasses import dataclass

from generator.checks.engine import CheckContext, check_guide, check_run, has_errors
from generator.core.errors import PrepguideError
from generator.core.workers import WorkerMap, worker_count
from generator.guides.findings import Finding, count
from generator.guides.project import Project
from generator.sources.records import Source


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


def check_guides(
    project: Project, ids: list[str] | tuple[str, ...] = (), jobs: int | None = 1
) -> list[GuideCheck]:
    """Check the named guides, or every guide; unreadable guides become error findings.

    jobs is the number of processes (None: one per CPU when there are many guides).
    """
    wanted = list(ids or project.guides.ids())
    processes = worker_count(jobs, len(wanted))
    if wanted:  # loaded before the run, so that check_run freezes them (and workers share them)
        project.load_sources(processes)
        project.database_terms  # noqa: B018 - built once, before the workers fork
    with check_run(), WorkerMap(lambda g: _check_one(project, g), wanted, processes) as done:
        return list(done)


def _check_one(project: Project, guide_id: str) -> GuideCheck:
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
    findings = check_guide(doc, check_context(project, source))
    return GuideCheck(id=guide_id, status=doc.meta.status, findings=findings)


def blocked(results: list[GuideCheck]) -> list[GuideCheck]:
    """Return the guides whose error findings block approval and publishing."""
    return [result for result in results if has_errors(result.findings)]
