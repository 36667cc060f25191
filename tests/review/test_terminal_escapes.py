"""Names and notes are anyone's text: printed, their control characters show as escapes."""

from __future__ import annotations

from pathlib import Path

from checkhelp import run_prepguide
from test_publish import published_workspace

from generator.guides.project import Project
from generator.review import audit

ESCAPE = "\x1b]0;owned\x07\x1b[2J"


def test_review_log_prints_no_raw_escape_sequences(workspace: Path) -> None:
    root = published_workspace(workspace)
    entry = audit.AuditEntry(
        time="2026-01-01T00:00:00Z",
        actor=f"Ed{ESCAPE}",
        action="reject",
        guide="meta-gem",
        from_state="draft",
        to_state="rejected",
        note=f"see{ESCAPE}\rforged line",
    )
    audit.append(Project(root).guides.audit_path, entry)
    result = run_prepguide(root, "review", "log")
    assert "\x1b" not in result.stdout and "\x07" not in result.stdout and "\r" not in result.stdout
    assert "by Ed\\u001b]0;owned\\u0007" in result.stdout
    assert "\\u000dforged line" in result.stdout


def test_verify_manual_prints_no_raw_escape_sequences(workspace: Path) -> None:
    record = "meta-llm-training-at-scale"
    result = run_prepguide(workspace, "verify", "--manual", record, "--by", f"Ed{ESCAPE}")
    assert result.returncode == 0, result.stderr
    assert "\x1b" not in result.stdout and "\x07" not in result.stdout
    assert "by Ed\\u001b]0;owned\\u0007" in result.stdout
