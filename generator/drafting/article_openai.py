"""The OpenAI drafter for articles: the guide drafter's rounds, cache and log, another schema."""

from __future__ import annotations

from typing import Any

from openai.lib._parsing import type_to_response_format_param

from generator.drafting.article_prompts import ArticlePromptSet, validate_article_answer
from generator.drafting.openai_drafter import Checker, OpenAIDrafter, Verdict
from generator.drafting.protocol import Revision
from generator.guides.article_draft import ArticleDraft
from generator.guides.articles import ArticleJob
from generator.guides.project import Project
from generator.llm.cache import ResponseCache
from generator.llm.calllog import CallLog
from generator.llm.client import make_client

ARTICLE_FORMAT: dict[str, Any] = type_to_response_format_param(ArticleDraft)  # type: ignore[assignment]
DRAFTER_VERSION = "openai-article-1"


class ArticleDrafter(OpenAIDrafter):
    """Draft articles with a model: one answer per article, checked block by block."""

    version = DRAFTER_VERSION
    response_format = ARTICLE_FORMAT
    prompts: ArticlePromptSet

    def judge_content(self, content: str, source: ArticleJob) -> Verdict:  # type: ignore[override]
        """Judge an answer: one block per write-up, each quoting its own write-up verbatim."""
        draft, errors, rule = validate_article_answer(content, source)
        if draft is not None:
            return Verdict("ok", content, draft)  # type: ignore[arg-type]
        return Verdict("invalid", content, errors=errors, rule=rule)

    def first_messages(self, source: ArticleJob, revision: Revision | None = None) -> list:  # type: ignore[override]
        """Return the messages of a first request: every write-up, fenced one by one."""
        messages = self.prompts.messages(source)
        if revision is not None:
            messages.append(self.prompts.revise(revision.text, revision.note))
        return messages

    def estimate_prompt_tokens(self, source: ArticleJob) -> int:  # type: ignore[override]
        """Estimate the prompt tokens of a first request at about four characters a token."""
        chars = sum(len(message["content"]) for message in self.prompts.messages(source))
        return chars // 4 + self._schema_tokens


def open_article_drafter(
    project: Project,
    model: str,
    prompts: ArticlePromptSet,
    *,
    key: str,
    cache: bool = True,
    checker: Checker | None = None,
) -> ArticleDrafter:
    """Build the article drafter over a new client, with the project's cache and call log."""
    settings = project.settings.llm
    state = project.workspace.state_dir
    return ArticleDrafter(
        make_client(key, settings),
        model,
        prompts,
        max_tokens=max(settings.max_tokens, 4000),
        cache=ResponseCache.in_state_dir(state) if cache else None,
        log=CallLog.in_state_dir(state),
        checker=checker,
    )
