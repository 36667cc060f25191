"""Choose the drafting backend: offline, or openai when a key is configured."""

from __future__ import annotations

import os

from generator.drafting import Drafter
from generator.errors import ConfigError
from generator.offline import OfflineDrafter
from generator.playbook import load_playbook
from generator.project import Project


def resolve_backend(requested: str) -> str:
    """Map auto to openai when OPENAI_API_KEY is set, otherwise offline."""
    if requested == "auto":
        return "openai" if os.environ.get("OPENAI_API_KEY", "").strip() else "offline"
    return requested


def make_drafter(project: Project, backend: str, model: str | None = None) -> Drafter:
    """Build the drafter for a backend name."""
    if backend == "offline":
        playbook, text = load_playbook(project.workspace.prompts_dir)
        return OfflineDrafter(playbook, text)
    if backend == "openai":
        raise ConfigError("the openai backend is not built yet", rule="backend")
    raise ConfigError(f"unknown backend {backend!r}; use auto, offline or openai", rule="backend")
