"""Choose the drafting backend: offline, or openai when a key is configured."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from generator.core.errors import ConfigError
from generator.drafting.protocol import Drafter
from generator.guides.project import Project

if TYPE_CHECKING:
    from generator.drafting.finish import DrafterId

# The OpenAI drafter's version (drafting.openai_drafter), here so naming it needs no SDK import.
OPENAI_DRAFTER_VERSION = "openai-1"


def resolve_backend(requested: str) -> str:
    """Map auto to openai when OPENAI_API_KEY is set, otherwise offline."""
    if requested == "auto":
        return "openai" if os.environ.get("OPENAI_API_KEY", "").strip() else "offline"
    return requested


def make_drafter(
    project: Project, backend: str, model: str | None = None, *, cache: bool = True
) -> Drafter:
    """Build the drafter for a backend name."""
    if backend == "offline":
        from generator.drafting.offline import OfflineDrafter
        from generator.drafting.playbook import load_playbook

        playbook, text = load_playbook(project.workspace.prompts_dir)
        return OfflineDrafter(playbook, text)
    if backend == "openai":
        return make_openai_drafter(project, model, cache=cache)
    raise ConfigError(f"unknown backend {backend!r}; use auto, offline or openai", rule="backend")


DEFAULT_BASE_URL = "https://api.openai.com/v1"


def _env(name: str) -> str | None:
    """Read an environment variable; empty or blank counts as unset."""
    return os.environ.get(name, "").strip() or None


def base_url() -> str:
    """Return OPENAI_BASE_URL (or OpenAI's), refusing one that cannot be an http(s) URL."""
    import httpx2

    url = _env("OPENAI_BASE_URL") or DEFAULT_BASE_URL
    problem = None
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 - raises for a port out of range
        httpx2.URL(url)
    except (ValueError, httpx2.InvalidURL) as exc:
        problem = str(exc)
    else:
        if parts.scheme not in ("http", "https"):
            problem = "the scheme must be http or https"
        elif not parts.hostname:
            problem = "it names no host"
    if problem is not None:
        raise ConfigError(
            f"{url!r} is not a usable URL ({problem}); set it like http://localhost:8000/v1",
            field="OPENAI_BASE_URL",
            rule="llm.base_url",
        )
    return url


def openai_model(project: Project, model: str | None) -> str:
    """Return the model to ask: --model, else PREPGUIDE_MODEL, else [llm] model."""
    return (model or "").strip() or _env("PREPGUIDE_MODEL") or project.settings.llm.model


def openai_drafter_id(project: Project, model: str | None) -> DrafterId:
    """Return what the OpenAI drafter would record about itself, without importing the SDK."""
    from generator.drafting.finish import DrafterId
    from generator.drafting.prompts import PromptSet

    prompts = PromptSet(project.workspace.prompts_dir, project.settings.site.name)
    return DrafterId("openai", openai_model(project, model), OPENAI_DRAFTER_VERSION, prompts.hash)


def make_openai_drafter(
    project: Project, model: str | None, *, cache: bool = True, need_key: bool = True
) -> Drafter:
    """Build the OpenAI drafter from OPENAI_API_KEY, OPENAI_BASE_URL and the model settings."""
    from openai import AsyncOpenAI

    from generator.drafting.openai_drafter import OpenAIDrafter
    from generator.drafting.prompts import PromptSet
    from generator.llm.cache import ResponseCache
    from generator.llm.calllog import CallLog
    from generator.llm.transport import bounded_http_client

    key = _env("OPENAI_API_KEY") or (None if need_key else "unused")
    if key is None:
        raise ConfigError(
            "the openai backend needs OPENAI_API_KEY; set it, or use --backend offline",
            rule="backend",
        )
    settings = project.settings.llm
    chosen = openai_model(project, model)
    prompts = PromptSet(project.workspace.prompts_dir, project.settings.site.name)
    client = AsyncOpenAI(
        api_key=key,
        base_url=base_url(),
        timeout=settings.timeout,
        max_retries=settings.max_retries,
        http_client=bounded_http_client(settings.timeout),
    )
    state = project.workspace.state_dir
    return OpenAIDrafter(
        client,
        chosen,
        prompts,
        max_tokens=settings.max_tokens,
        cache=ResponseCache.in_state_dir(state) if cache else None,
        log=CallLog.in_state_dir(state),
    )
