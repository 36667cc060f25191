"""Golden-file comparison; refresh with PREPGUIDE_UPDATE_GOLDEN=1 and review the git diff."""

from __future__ import annotations

import os
from pathlib import Path

GOLDEN_DIR = Path(__file__).parent / "golden"


def assert_golden(name: str, actual: str) -> None:
    """Compare text with tests/golden/<name>, or rewrite it when updating."""
    path = GOLDEN_DIR / name
    if os.environ.get("PREPGUIDE_UPDATE_GOLDEN") == "1":
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(actual, encoding="utf-8")
        return
    assert path.exists(), f"missing golden {path}; run PREPGUIDE_UPDATE_GOLDEN=1 pytest"
    expected = path.read_text(encoding="utf-8")
    assert actual == expected, f"{name} differs from its golden file; see the diff above"
