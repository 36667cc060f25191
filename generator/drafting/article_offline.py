"""The offline article drafter: a deterministic article from the records and the playbook."""

from __future__ import annotations

from string import Template

from generator.core.fsio import sha256_text
from generator.drafting.offline import reported_statements
from generator.drafting.playbook import Playbook
from generator.drafting.protocol import DraftResult
from generator.guides.article_draft import ArticleDraft, SourceBlock
from generator.guides.articles import ArticleJob

DRAFTER_VERSION = "offline-article-1"
MAX_STATEMENTS = 4
OPENING = (
    "The write-ups above come from different teams and describe different systems, so read "
    "each account against its own original before you compare them. What they share is a "
    "way of reasoning that a candidate can practise at a small scale."
)
NEUTRAL = "each team"


class OfflineArticleDrafter:
    """Draft articles without a model: each block from its own record, ours from the playbook."""

    backend = "offline"
    model: str | None = None
    version = DRAFTER_VERSION

    def __init__(self, playbook: Playbook, playbook_text: str) -> None:
        self.playbook = playbook
        self.prompt_hash = sha256_text(f"{DRAFTER_VERSION}\n{playbook_text}")

    def _lesson(self, job: ArticleJob):
        techniques = list(dict.fromkeys(t for s in job.sources for t in s.techniques))
        stack = list(dict.fromkeys(t for s in job.sources for t in s.stack))
        return self.playbook.choose(techniques, stack, job.article.spec.title)

    def prompt_hash_for(self, job: ArticleJob) -> str:
        """Hash only the chosen lesson, so an unrelated playbook edit regenerates nothing."""
        choice = self._lesson(job)
        return sha256_text(f"{DRAFTER_VERSION}\n{choice.lesson.prose()}")

    def estimate_prompt_tokens(self, job: ArticleJob) -> int:
        """Return zero: the offline drafter sends no prompt."""
        return 0

    async def draft(self, job: ArticleJob) -> DraftResult:
        """Draft one article; the same records and playbook always give the same text."""
        choice = self._lesson(job)
        lesson = choice.lesson

        def fill(text: str) -> str:
            return Template(text).safe_substitute(company=NEUTRAL)

        blocks = [
            SourceBlock(source=source.key, reported=reported_statements(source)[:MAX_STATEMENTS])
            for source in job.sources
        ]
        draft = ArticleDraft(
            blocks=blocks,
            angle=fill(job.article.spec.angle or lesson.angle),
            interpretation=f"{OPENING}\n\n{fill(lesson.interpretation)}",
            case_study_title=fill(lesson.case_study_title),
            case_study=fill(lesson.case_study),
            steps=[fill(step) for step in lesson.steps],
        )
        return DraftResult(
            draft=draft,  # type: ignore[arg-type]
            prompt_hash=self.prompt_hash_for(job),
            generic_lesson=choice.generic,
        )
