"""Planning a generation: which guides need drafting, and why."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from generator.core.errors import GuideError
from generator.drafting.protocol import Drafter, DrafterId, prompt_hash_for
from generator.guides.compose import disclaimer
from generator.guides.project import Project
from generator.sources.records import Source

Action = Literal["generate", "skip"]


@dataclass(frozen=True)
class PlannedGuide:
    source: Source
    action: Action
    reason: str


def plan_generation(
    project: Project, drafter: Drafter | DrafterId, ids: list[str] | None, force: bool
) -> list[PlannedGuide]:
    """Decide, per valid source, whether its guide must be drafted."""
    wanted = set(ids) if ids else None
    plan = []
    for source in project.sources.sources:
        if wanted is not None and source.key not in wanted:
            continue
        plan.append(_plan_one(project, drafter, source, force))
    return plan


def _plan_one(
    project: Project, drafter: Drafter | DrafterId, source: Source, force: bool
) -> PlannedGuide:
    if force:
        return PlannedGuide(source, "generate", "--force")
    try:
        existing = project.guides.read(source.key)
    except GuideError as exc:
        return PlannedGuide(source, "generate", f"existing guide unreadable: {exc.message}")
    if existing is None:
        return PlannedGuide(source, "generate", "new")
    made = existing.meta.provenance
    source_hash = source.content_hash()
    current = (source_hash, prompt_hash_for(drafter, source), drafter.backend, drafter.model)
    if (made.source_hash, made.prompt_hash, made.backend, made.model) == current:
        if disclaimer(project.settings.site.name) not in existing.body:
            return PlannedGuide(source, "generate", "site name or disclaimer changed")
        return PlannedGuide(source, "skip", "unchanged")
    if made.source_hash != source_hash:
        return PlannedGuide(source, "generate", "source changed")
    return PlannedGuide(source, "generate", "prompt or backend changed")
