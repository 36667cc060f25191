"""Revising a guide from an editor's note: the current text, the note and the record go back."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from generator.core.errors import ConfigError, GuideError
from generator.drafting.backends import make_openai_drafter, resolve_backend
from generator.drafting.build import build_guide
from generator.drafting.protocol import Revision
from generator.guides.document import GuideDoc
from generator.guides.project import Project


@dataclass(frozen=True)
class Revised:
    """The new draft revision written for an editor's note, and the text it replaced."""

    doc: GuideDoc
    previous: GuideDoc
    note: str


def revise(
    project: Project,
    guide_id: str,
    note: str,
    backend: str = "auto",
    model: str | None = None,
    *,
    no_cache: bool = False,
) -> Revised:
    """Ask the model to revise a guide after a note; write the answer as a new draft revision.

    The answer is checked and repaired like any draft; the note never overrides the policy.
    """
    if resolve_backend(backend) != "openai":
        raise ConfigError(
            "--revise needs the openai backend (the offline drafter cannot follow a note); "
            "set OPENAI_API_KEY, or edit the guide by hand",
            rule="revise.backend",
        )
    note = " ".join(note.split())
    if not note:
        raise ConfigError("the revision note is empty; pass --note", rule="revise.note")
    source = project.source(guide_id)
    if source is None:
        raise GuideError(
            f"no valid source record with id {guide_id!r}; run `prepguide sources check`",
            record_id=guide_id,
            rule="revise.source",
        )
    current = project.guides.read(guide_id)
    if current is None:
        raise GuideError(
            f"no guide {guide_id!r} to revise; run `prepguide generate {guide_id}` first",
            record_id=guide_id,
            rule="revise.missing",
        )
    drafter = make_openai_drafter(project, model, cache=not no_cache)

    async def ask():
        try:
            return await drafter.draft(source, Revision(current.body, note))
        finally:
            await drafter.aclose()

    result = asyncio.run(ask())
    doc = build_guide(project, drafter, source, result)
    project.guides.write(doc)
    return Revised(doc, current, note)
