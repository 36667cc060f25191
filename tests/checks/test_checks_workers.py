"""`prepguide check --jobs N` checks guides in worker processes, with the findings of one."""

from __future__ import annotations

import json
from pathlib import Path

from checkhelp import complete_records, run_prepguide

run = run_prepguide


def test_worker_processes_report_the_findings_of_one_process(workspace: Path) -> None:
    complete_records(workspace)
    assert run(workspace, "generate", "--backend", "offline").returncode == 0
    guides = sorted((workspace / "guides").glob("*.md"))
    edited = guides[1]
    text = edited.read_text(encoding="utf-8")
    edited.write_text(text.replace(" reports\n", " reports\n\nIt cut costs by 97%.\n", 1))
    guides[2].write_text("not a guide\n", encoding="utf-8")

    one = run(workspace, "check", "--json", "--jobs", "1")
    two = run(workspace, "check", "--json", "--jobs", "2")

    assert (two.returncode, two.stdout) == (one.returncode, one.stdout)
    assert one.returncode == 1
    report = {g["id"]: g for g in json.loads(two.stdout)["guides"]}
    assert [g["id"] for g in json.loads(two.stdout)["guides"]] == sorted(report)
    assert "figures.reports" in [f["rule"] for f in report[edited.stem]["findings"]]
    assert report[guides[2].stem]["status"] == "invalid"
    assert [f for f in report[guides[0].stem]["findings"] if f["severity"] == "error"] == []
