"""What several rules read, computed once per check of a guide: its sentences, which of them
name the company, and the record's texts. Nothing here outlives the check of one guide."""

from __future__ import annotations

from functools import cached_property

from generator.checks.base import (
    CheckContext,
    ParsedGuide,
    grounding,
    grounding_text,
    record_file,
    sentences,
)
from generator.checks.figureindex import Grounding
from generator.checks.quoting import normalized_source
from generator.checks.subjects import about_company, company_mentions
from generator.checks.text import RecordIndex, record_index


class Analysis:
    """Lazily computed views of one guide and its records, shared by the rules."""

    def __init__(self, guide: ParsedGuide, ctx: CheckContext) -> None:
        self.guide = guide
        self.ctx = ctx
        self._sentences: dict[str, tuple[str, ...]] = {}
        self._about: dict[str, bool] = {}

    def sentences(self, text: str) -> tuple[str, ...]:
        """Return the sentences and list items of a text (split once per text)."""
        found = self._sentences.get(text)
        if found is None:
            found = self._sentences[text] = tuple(sentences(text))
        return found

    def about_company(self, sentence: str) -> bool:
        """Return subjects.about_company for a sentence (judged once per sentence)."""
        found = self._about.get(sentence)
        if found is None:
            found = self._about[sentence] = about_company(sentence, self.ctx)
        return found

    @cached_property
    def mentions(self):
        return company_mentions(self.ctx)

    @cached_property
    def record_file(self) -> str:
        return record_file(self.ctx.source)

    @cached_property
    def grounding_text(self) -> str:
        return grounding_text(self.ctx.source)

    @cached_property
    def normalized_source(self) -> str:
        return normalized_source(self.grounding_text)

    @cached_property
    def facts(self) -> Grounding:
        return grounding(self.ctx)

    @cached_property
    def index(self) -> RecordIndex:
        return record_index(self.ctx.source)


def analysis(guide: ParsedGuide, ctx: CheckContext) -> Analysis:
    """Return the shared analysis of a guide checked against these records."""
    found = guide.memo.get("analysis")
    if found is None or found.ctx is not ctx:
        found = guide.memo["analysis"] = Analysis(guide, ctx)
    return found
