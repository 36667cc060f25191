"""An article's prompts and the validation of an answer: one block per source, own quotes only."""

from __future__ import annotations

import re

from pydantic import ValidationError

from generator.drafting.prompts import REPAIR, REVISE, PromptSet, fence_for, record_data
from generator.drafting.repair import MAX_ERRORS_SENT, QUOTE_RULE, SCHEMA_RULE, schema_errors
from generator.guides.article_draft import ArticleDraft
from generator.guides.articles import ArticleJob

ARTICLE_SYSTEM = "article_system.j2"
ARTICLE_USER = "article_user.j2"
_SPACE = re.compile(r"\s+")
_QUOTE_MARKS = " \"'“”‘’«»…"


def _squash(text: str) -> str:
    return _SPACE.sub(" ", text).strip()


class ArticlePromptSet(PromptSet):
    """The article's system and user templates with the shared repair and revise ones."""

    required = (ARTICLE_SYSTEM, ARTICLE_USER, REPAIR, REVISE)
    system_name = ARTICLE_SYSTEM
    user_name = ARTICLE_USER

    def messages(self, job: ArticleJob) -> list[dict[str, str]]:  # type: ignore[override]
        """Return the system and user messages; each source's text is fenced on its own."""
        spec = job.article.spec
        sources = []
        for source in job.sources:
            data = {"id": source.key, **record_data(source)}
            data["fence"] = fence_for("\n".join(map(str, data.values())))
            sources.append(data)
        system = self._render(self._system, site_name=self.site_name)
        user = self._render(
            self._user,
            title=spec.title,
            fence=fence_for(spec.title),
            angle=spec.angle or "",
            audience=spec.audience or "",
            sources=sources,
        )
        return [{"role": "system", "content": system}, {"role": "user", "content": user}]


def validate_article_answer(
    content: str, job: ArticleJob
) -> tuple[ArticleDraft | None, list[str], str]:
    """Parse an answer into an ArticleDraft in the article's order, or say what is wrong."""
    try:
        draft = ArticleDraft.model_validate_json(content)
    except ValidationError as exc:
        return None, schema_errors(exc), SCHEMA_RULE
    wanted = [source.key for source in job.sources]
    given = [block.source for block in draft.blocks]
    if sorted(given) != sorted(wanted) or len(set(given)) != len(given):
        return (
            None,
            [
                f"blocks: give exactly one block per write-up, with source set to each of "
                f"{', '.join(wanted)} (the answer had {', '.join(given) or 'none'})"
            ],
            SCHEMA_RULE,
        )
    by_id = {block.source: block for block in draft.blocks}
    draft = draft.model_copy(update={"blocks": [by_id[key] for key in wanted]})
    problems = []
    for index, (block, source) in enumerate(zip(draft.blocks, job.sources, strict=True)):
        haystack = _squash(source.source_text)
        for number, statement in enumerate(block.reported):
            quote = _squash(statement.quote).strip(_QUOTE_MARKS)
            if not quote or quote not in haystack:
                problems.append(
                    f"blocks.{index}.reported.{number}.quote: {statement.quote!r} is not a "
                    f"verbatim span of the write-up {source.key}; quote only that write-up's "
                    "own source data in its block"
                )
    if problems:
        return None, problems[:MAX_ERRORS_SENT], QUOTE_RULE
    return draft, [], ""
