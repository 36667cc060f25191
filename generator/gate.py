"""The gate: run the integrity checks over a workspace's guides."""

from __future__ import annotations

from dataclasses import dataclass

from generator.checks import check_guide, has_errors
from generator.errors import PrepguideError
from generator.findings import Finding, count
from generator.project import Project


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


def _unchecked(guide_id: str, status: str, rule: str, message: str) -> GuideCheck:
    finding = Finding(rule=rule, severity="error", section="guide", message=message)
    return GuideCheck(id=guide_id, status=status, findings=[finding])


def check_guides(project: Project, ids: list[str] | tuple[str, ...] = ()) -> list[GuideCheck]:
    """Check the named guides, or every guide; unreadable guides become error findings."""
    results = []
    for guide_id in ids or project.guides.ids():
        try:
            doc = project.guides.read(guide_id)
        except PrepguideError as exc:
            message = f"{exc}; fix the front matter or regenerate"
            results.append(_unchecked(guide_id, "invalid", "guide.invalid", message))
            continue
        if doc is None:
            message = f"no guide file; run `prepguide generate {guide_id}`"
            results.append(_unchecked(guide_id, "missing", "guide.missing", message))
            continue
        source = project.source(guide_id)
        if source is None:
            message = f"no valid source record with id {guide_id!r}; run `prepguide sources check`"
            results.append(_unchecked(guide_id, "missing", "guide.missing", message))
            continue
        findings = check_guide(doc, project.check_context(source))
        results.append(GuideCheck(id=guide_id, status=doc.meta.status, findings=findings))
    return results


def blocked(results: list[GuideCheck]) -> list[GuideCheck]:
    """Return the guides whose error findings block approval and publishing."""
    return [result for result in results if has_errors(result.findings)]
