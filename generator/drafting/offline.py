"""The offline drafter: deterministic prose from the record and the playbook."""

from __future__ import annotations

import re
from string import Template

from generator.core.fsio import sha256_text
from generator.drafting.playbook import Choice, Playbook
from generator.drafting.protocol import DraftResult
from generator.guides.schema import Draft, ReportedStatement
from generator.sources.records import Source

DRAFTER_VERSION = "offline-2"
MAX_SENTENCES = 7
SENTENCE_BREAK = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\"“(])")


def split_sentences(text: str) -> list[str]:
    """Split prose into sentences at terminal punctuation followed by a capital."""
    return [part.strip() for part in SENTENCE_BREAK.split(" ".join(text.split())) if part.strip()]


def reported_statements(source: Source) -> list[ReportedStatement]:
    """Build "reports" only from the record's own sentences, attributed to the company."""
    sentences = split_sentences(source.summary) + split_sentences(source.notes or "")
    statements = []
    for sentence in sentences[:MAX_SENTENCES]:
        text = sentence
        if not statements and source.company.casefold() not in sentence.casefold():
            text = f"According to {source.company}: {sentence}"
        statements.append(ReportedStatement(text=text, quote=sentence))
    if source.scale:
        figures = "; ".join(source.scale)
        statements.append(
            ReportedStatement(
                text=f"Scale stated in the source: {figures.rstrip('.')}.", quote=figures
            )
        )
    return statements


class OfflineDrafter:
    """Draft guides without a model, from the editable playbook."""

    backend = "offline"
    model: str | None = None
    version = DRAFTER_VERSION

    def __init__(self, playbook: Playbook, playbook_text: str) -> None:
        self.playbook = playbook
        self.prompt_hash = sha256_text(f"{DRAFTER_VERSION}\n{playbook_text}")
        self._chosen: dict[tuple, Choice] = {}  # planning and drafting ask for the same record

    def choose(self, source: Source) -> Choice:
        """Return the lesson a record gets."""
        key = (tuple(source.techniques), tuple(source.stack), source.title)
        if key not in self._chosen:
            self._chosen[key] = self.playbook.choose(*key)
        return self._chosen[key]

    def prompt_hash_for(self, source: Source) -> str:
        """Hash only the chosen lesson, so an unrelated playbook edit regenerates nothing."""
        choice = self.choose(source)
        kind = "generic" if choice.generic else "lesson"
        return sha256_text(f"{DRAFTER_VERSION}\n{kind}\n{choice.lesson.prose()}")

    def estimate_prompt_tokens(self, source: Source) -> int:
        """Return zero: the offline drafter sends no prompt."""
        return 0

    async def draft(self, source: Source) -> DraftResult:
        """Draft one guide; the same record and playbook always give the same draft."""
        choice = self.choose(source)
        lesson = choice.lesson

        def fill(text: str) -> str:
            return Template(text).safe_substitute(company=source.company)

        draft = Draft(
            reported=reported_statements(source),
            angle=fill(lesson.angle),
            interpretation=fill(lesson.interpretation),
            case_study_title=fill(lesson.case_study_title),
            case_study=fill(lesson.case_study),
            steps=[fill(step) for step in lesson.steps],
        )
        return DraftResult(
            draft=draft,
            prompt_hash=self.prompt_hash_for(source),
            generic_lesson=choice.generic,
        )
