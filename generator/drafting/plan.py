"""Planning a generation: which guides need drafting, and why."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Literal

from generator.core.errors import GuideError
from generator.drafting.backends import make_drafter, resolve_backend
from generator.drafting.protocol import Drafter, DrafterId, prompt_hash_for
from generator.guides.compose import disclaimer
from generator.guides.project import Project
from generator.llm.calllog import cost, read_calls
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


@dataclass
class Planned:
    """The drafter a generation chose, its plan, and the requested ids with no valid record."""

    drafter: Drafter
    plan: list[PlannedGuide]
    missing: list[str]

    @property
    def todo(self) -> list[PlannedGuide]:
        return [item for item in self.plan if item.action == "generate"]


# How many logged calls the re-ask share is measured over (the latest ones).
SHARE_CALLS = 10_000


@dataclass
class Estimate:
    """What a run would cost: prompt and at most completion tokens, and money when priced.

    Both include the re-ask share the call log measured, when it holds any calls.
    """

    model: str
    prompt_tokens: int
    completion_tokens: int
    online: float | None
    batch: float | None
    reask_share: float | None = None


@dataclass
class DryRun:
    """What `generate --dry-run` found: the plan and the prompt tokens it would send."""

    planned: Planned
    prompt_tokens: int
    estimate: Estimate | None
    reask_share: float | None = None


def missing_ids(project: Project, ids: list[str] | tuple[str, ...]) -> list[str]:
    """Return the requested ids that name no valid source record, sorted."""
    return sorted(set(ids) - set(project.sources.by_id()))


def reask_share(project: Project) -> float | None:
    """Return the re-asks' tokens per token of first requests in the call log, or None.

    Cache hits cost nothing and are left out; a log with no first request gives None.
    """
    calls = [c for c in read_calls(project.workspace.state_dir, SHARE_CALLS) if not c.cached]
    first = sum(c.prompt_tokens + c.completion_tokens for c in calls if c.attempt == 1)
    later = sum(c.prompt_tokens + c.completion_tokens for c in calls if c.attempt > 1)
    return later / first if first else None


def estimate(
    project: Project, model: str, prompt: int, count: int, share: float | None = None
) -> Estimate:
    """Price a run online and in a batch, with completions at most max_tokens each.

    The re-ask share (from the call log) scales both counts.
    """
    scale = 1 + (share or 0.0)
    prompt = round(prompt * scale)
    completion = round(count * project.settings.llm.max_tokens * scale)
    price = project.settings.llm.prices.get(model)
    if price is None:
        return Estimate(model, prompt, completion, None, None, share)
    online = cost(price, prompt, completion, 0, "online")
    batch = cost(price, prompt, completion, 0, "batch")
    return Estimate(model, prompt, completion, online, batch, share)


def dry_run(
    project: Project, ids: list[str] | tuple[str, ...], backend: str, model: str | None, force: bool
) -> DryRun:
    """Plan a generation and estimate its prompt tokens; send nothing, write nothing."""
    drafter = make_drafter(project, resolve_backend(backend), model, cache=False)
    try:
        missing = missing_ids(project, ids)
        plan = plan_generation(project, drafter, list(ids) or None, force)
        planned = Planned(drafter, plan, missing)
        tokens = sum(drafter.estimate_prompt_tokens(item.source) for item in planned.todo)
        count = len(planned.todo)
        share = reask_share(project) if drafter.backend == "openai" else None
        priced = (
            None
            if drafter.model is None
            else estimate(project, drafter.model, tokens, count, share)
        )
        return DryRun(planned, tokens, priced, share)
    finally:
        close = getattr(drafter, "aclose", None)
        if close is not None:
            asyncio.run(close())
