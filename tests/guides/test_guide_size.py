"""A guide far beyond any real one is refused as it is read, naming the file and the limit."""

from __future__ import annotations

from pathlib import Path

from checkhelp import run_prepguide

from generator.guides.store import MAX_GUIDE_BYTES


def test_a_huge_guide_is_refused_with_the_limit_and_the_rest_is_checked(workspace: Path) -> None:
    assert run_prepguide(workspace, "generate", "--backend", "offline").returncode == 0
    path = workspace / "guides" / "meta-gem.md"
    text = path.read_text(encoding="utf-8")
    filler = "A sentence an editor pasted in again and again. " * (MAX_GUIDE_BYTES // 40)
    path.write_text(text + filler, encoding="utf-8")
    result = run_prepguide(workspace, "check")
    output = result.stdout + result.stderr
    assert "Traceback" not in output
    line = next(line for line in output.splitlines() if "meta-gem" in line and "MB" in line)
    assert "at most 2 MB" in line
    assert "shopify-catalog-clustering" in output
    listing = run_prepguide(workspace, "review", "list")
    assert "at most 2 MB" in listing.stdout + listing.stderr
