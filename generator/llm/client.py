"""The SDK client: OPENAI_API_KEY and OPENAI_BASE_URL over the bounded HTTP transport."""

from __future__ import annotations

import os
from urllib.parse import urlsplit

import httpx2
from openai import AsyncOpenAI

from generator.core.config import LLMSettings
from generator.core.errors import ConfigError
from generator.llm.transport import bounded_http_client

DEFAULT_BASE_URL = "https://api.openai.com/v1"


def env(name: str) -> str | None:
    """Read an environment variable; empty or blank counts as unset."""
    return os.environ.get(name, "").strip() or None


def api_key(*, need_key: bool = True) -> str:
    """Return OPENAI_API_KEY, or a placeholder when no request will need it."""
    key = env("OPENAI_API_KEY") or (None if need_key else "unused")
    if key is None:
        raise ConfigError(
            "the openai backend needs OPENAI_API_KEY; set it, or use --backend offline",
            rule="backend",
        )
    return key


def base_url() -> str:
    """Return OPENAI_BASE_URL (or OpenAI's), refusing one that cannot be an http(s) URL."""
    url = env("OPENAI_BASE_URL") or DEFAULT_BASE_URL
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


def make_client(key: str, settings: LLMSettings) -> AsyncOpenAI:
    """Build the SDK client for OPENAI_BASE_URL with the [llm] timeout and retries."""
    return AsyncOpenAI(
        api_key=key,
        base_url=base_url(),
        timeout=settings.timeout,
        max_retries=settings.max_retries,
        http_client=bounded_http_client(settings.timeout),
    )
