"""A review state without its audit line is no approval: never published, flagged in the list."""

from __future__ import annotations

import json
from pathlib import Path

from checkhelp import run_prepguide
from test_publish import published_workspace

from generator.guides.document import parse
from generator.guides.project import Project

FORGED = "meta-llm-training-at-scale"


def _forge(root: Path) -> str:
    """Write by hand what an approval would leave, for a text with a foreign link."""
    project = Project(root)
    path = project.guides.path(FORGED)
    text = path.read_text(encoding="utf-8") + "\nSee [the offer](https://evil.example.net/win).\n"
    path.write_text(text, encoding="utf-8")
    doc = parse(text, str(path))
    revision = project.guides.keep_text(FORGED, text)
    at = "2026-01-01T00:00:00Z"
    state = {
        "id": FORGED,
        "status": "approved",
        "content_hash": doc.content_hash,
        "by": "Ed",
        "at": at,
        "live": {
            "content_hash": doc.content_hash,
            "revision": revision.name,
            "approved_by": "Ed",
            "approved_at": at,
        },
    }
    project.guides.review_path(FORGED).write_text(json.dumps(state), encoding="utf-8")
    return doc.content_hash


def test_a_hand_written_approval_never_reaches_the_site(workspace: Path) -> None:
    root = published_workspace(workspace)
    _forge(root)
    for args in (["publish"], ["publish", "--strict"], ["build"]):
        result = run_prepguide(root, *args)
        output = result.stdout + result.stderr
        assert "Traceback" not in output
        assert not (root / "site/guides" / FORGED).exists(), args
        assert "evil.example.net" not in "".join(
            p.read_text(encoding="utf-8") for p in (root / "site").rglob("*.html")
        )
        assert (root / "site/guides/shopify-catalog-clustering/index.html").is_file()
    listing = run_prepguide(root, "review", "list")
    row = next(line for line in listing.stdout.splitlines() if FORGED in line)
    assert "approval not in the audit log" in row
    shown = run_prepguide(root, "review", "list", "--json")
    rows = {r["id"]: r for r in json.loads(shown.stdout)["guides"]}
    assert rows[FORGED]["unaudited"] is True
    assert rows["shopify-catalog-clustering"]["unaudited"] is False
