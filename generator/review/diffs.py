"""Diffs of a guide's text: against its previous revision and against its live version."""

from __future__ import annotations

import difflib
from dataclasses import dataclass

from generator.guides.project import Project
from generator.review.queue import live_version, read_current


@dataclass(frozen=True)
class Diff:
    """A unified diff between two guide bodies."""

    old_label: str
    new_label: str
    lines: list[str]

    @property
    def empty(self) -> bool:
        return not self.lines

    def text(self) -> str:
        return "\n".join(self.lines)


def _diff(old: str, new: str, old_label: str, new_label: str) -> Diff:
    lines = difflib.unified_diff(
        old.splitlines(), new.splitlines(), old_label, new_label, lineterm=""
    )
    return Diff(old_label, new_label, list(lines))


def diff_previous(project: Project, guide_id: str) -> Diff | None:
    """Diff the current text against the latest other kept revision; None for a first version."""
    _, doc = read_current(project, guide_id)
    revisions = project.guides.revisions(guide_id)
    others = [r for r in revisions if r.digest != doc.content_hash[:12]]
    if not others:
        return None
    previous = others[-1]
    return _diff(
        previous.read().body, doc.body, f"revision {previous.name}", f"current {guide_id}.md"
    )


def diff_published(project: Project, guide_id: str) -> Diff | None:
    """Diff the live (approved or published) text against the current text; None if none."""
    live = live_version(project, guide_id)
    if live is None:
        return None
    doc = project.guides.read(guide_id)
    new = doc.body if doc else ""
    label = f"live version approved by {live.approved_by} at {live.approved_at}"
    return _diff(live.doc.body, new, label, f"current {guide_id}.md")
