"""Shared fixtures: a throwaway workspace built from the repo's sample data."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
FIXED_EPOCH = "1795996800"  # 2026-11-30T00:00:00Z: pins "today" and every written timestamp


@pytest.fixture(autouse=True)
def pinned_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """Pin the clock and keep real LLM credentials out of every test."""
    monkeypatch.setenv("SOURCE_DATE_EPOCH", FIXED_EPOCH)
    for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "PREPGUIDE_MODEL"):
        monkeypatch.delenv(name, raising=False)


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    """Return a fresh root holding copies of sources/, prompts/ and prepguide.toml."""
    root = tmp_path / "ws"
    root.mkdir()
    shutil.copytree(REPO / "sources", root / "sources")
    shutil.copytree(REPO / "prompts", root / "prompts")
    shutil.copy(REPO / "prepguide.toml", root / "prepguide.toml")
    return root
