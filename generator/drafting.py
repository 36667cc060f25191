"""The drafter interface every backend implements."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from generator.draft import Draft
from generator.guides import Usage
from generator.sources import Source


@dataclass
class DraftResult:
    """A validated draft and what it cost."""

    draft: Draft
    usage: Usage = field(default_factory=Usage)
    model: str | None = None
    batch_id: str | None = None  # set when the answer came through a batch file


class Drafter(Protocol):
    """A backend that turns one source record into a Draft."""

    backend: str
    model: str | None
    version: str
    prompt_hash: str

    async def draft(self, source: Source) -> DraftResult: ...

    def estimate_prompt_tokens(self, source: Source) -> int: ...
