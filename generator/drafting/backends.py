"""Choose the drafting backend: offline, or openai when a key is configured."""

from __future__ import annotations

import os

from generator.core.errors import ConfigError
from generator.drafting.prompts import PromptSet
from generator.drafting.protocol import OPENAI_DRAFTER_VERSION, Drafter, DrafterId
from generator.guides.project import Project


def resolve_backend(requested: str) -> str:
    """Map auto to openai when OPENAI_API_KEY is set, otherwise offline."""
    if requested == "auto":
        return "openai" if os.environ.get("OPENAI_API_KEY", "").strip() else "offline"
    return requested


def make_drafter(
    project: Project, backend: str, model: str | None = None, *, cache: bool = True
) -> Drafter:
    """Build the drafter for a backend name."""
    # Each backend is imported only when chosen: the offline one loads the checks, the other
    # the SDK, and a run needs only one of them.
    if backend == "offline":
        from generator.drafting.offline import OfflineDrafter
        from generator.drafting.playbook import load_playbook

        playbook, text = load_playbook(project.workspace.prompts_dir)
        return OfflineDrafter(playbook, text)
    if backend == "openai":
        return make_openai_drafter(project, model, cache=cache)
    raise ConfigError(f"unknown backend {backend!r}; use auto, offline or openai", rule="backend")


def openai_model(project: Project, model: str | None) -> str:
    """Return the model to ask: --model, else PREPGUIDE_MODEL, else [llm] model."""
    chosen = (model or "").strip() or os.environ.get("PREPGUIDE_MODEL", "").strip()
    return chosen or project.settings.llm.model


def _prompts(project: Project) -> PromptSet:
    return PromptSet(project.workspace.prompts_dir, project.settings.site.name)


def openai_drafter_id(project: Project, model: str | None) -> DrafterId:
    """Return what the OpenAI drafter would record about itself, without importing the SDK."""
    prompts = _prompts(project)
    return DrafterId("openai", openai_model(project, model), OPENAI_DRAFTER_VERSION, prompts.hash)


def make_openai_drafter(
    project: Project, model: str | None, *, cache: bool = True, need_key: bool = True
) -> Drafter:
    """Build the OpenAI drafter from OPENAI_API_KEY, OPENAI_BASE_URL and the model settings."""
    from generator.drafting.openai_drafter import open_drafter
    from generator.llm.client import api_key

    key = api_key(need_key=need_key)
    chosen = openai_model(project, model)
    return open_drafter(
        project, chosen, _prompts(project), key=key, cache=cache, checker=content_checker(project)
    )


def content_checker(project: Project):
    """Return the drafter's content checks of a draft; the checks load on the first draft."""

    def check(source, draft):
        # Loaded here, not above: a dry run builds the drafter but never loads the checks.
        from generator.drafting.build import draft_findings

        return draft_findings(project, source, draft)

    return check


def make_article_drafter(
    project: Project,
    backend: str,
    model: str | None = None,
    *,
    cache: bool = True,
    need_key: bool = True,
) -> Drafter:
    """Build the article drafter for a backend name (each loaded only when chosen)."""
    if backend == "offline":
        from generator.drafting.article_offline import OfflineArticleDrafter
        from generator.drafting.playbook import load_playbook

        playbook, text = load_playbook(project.workspace.prompts_dir)
        return OfflineArticleDrafter(playbook, text)  # type: ignore[return-value]
    if backend != "openai":
        raise ConfigError(
            f"unknown backend {backend!r}; use auto, offline or openai", rule="backend"
        )
    from generator.drafting.article_openai import open_article_drafter
    from generator.drafting.article_prompts import ArticlePromptSet
    from generator.llm.client import api_key

    prompts = ArticlePromptSet(project.workspace.prompts_dir, project.settings.site.name)

    def check(job, draft):
        from generator.drafting.article_build import article_findings

        return article_findings(project, job, draft)

    return open_article_drafter(  # type: ignore[return-value]
        project,
        openai_model(project, model),
        prompts,
        key=api_key(need_key=need_key),
        cache=cache,
        checker=check,
    )
