"""The drafter interface every backend implements."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from generator.guides.document import RepairRound, Usage
from generator.guides.schema import Draft
from generator.sources.records import Source

# The OpenAI drafter's version: here, so that naming the drafter needs no SDK import.
OPENAI_DRAFTER_VERSION = "openai-1"


@dataclass
class DraftResult:
    """A validated draft and what it cost."""

    draft: Draft
    usage: Usage = field(default_factory=Usage)
    model: str | None = None
    batch_id: str | None = None  # set when the answer came through a batch file
    prompt_hash: str | None = None  # when the drafter's hash depends on the record
    generic_lesson: bool = False
    rounds: int = 1  # answers asked for (1 + re-asks)
    repairs: list[RepairRound] = field(default_factory=list)


@dataclass(frozen=True)
class Revision:
    """An editor's revision request: the current text of the guide and the note on it."""

    text: str
    note: str


class Drafter(Protocol):
    """A backend that turns one source record into a Draft."""

    backend: str
    model: str | None
    version: str
    prompt_hash: str

    async def draft(self, source: Source) -> DraftResult: ...

    def estimate_prompt_tokens(self, source: Source) -> int: ...


def prompt_hash_for(drafter: Drafter, source: Source) -> str:
    """Return the prompt hash a draft of this record would carry."""
    per_record = getattr(drafter, "prompt_hash_for", None)
    return per_record(source) if per_record is not None else drafter.prompt_hash


@dataclass(frozen=True)
class DrafterId:
    """What a guide's provenance records about its drafter, without the drafter's client."""

    backend: str
    model: str | None
    version: str
    prompt_hash: str

    @classmethod
    def of(cls, drafter: Drafter) -> DrafterId:
        """Return what a drafter records about itself."""
        return cls(drafter.backend, drafter.model, drafter.version, drafter.prompt_hash)
