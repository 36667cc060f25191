"""A group commit's one write-ahead file: `review approve` killed at each of its steps."""

from __future__ import annotations

import shutil
import signal
import subprocess
import sys
from pathlib import Path

from test_review_hardening import (
    TO_STATE,
    assert_repaired,
    assert_state_matches_audit,
    many_guides,
)

from generator import review
from generator.guides.project import Project

# Runs the command line in a process that SIGKILLs itself at its Nth write, rename, unlink,
# truncation or fsync; with N = 0 it counts them, and notes when the group file was made.
DRIVER = """
import os, signal, sys
number, report = int(sys.argv[1]), sys.argv[2]
calls, first = [0], [0]

def counted(real):
    def call(*args, **kwargs):
        calls[0] += 1
        if calls[0] == number:
            os.kill(os.getpid(), signal.SIGKILL)
        done = real(*args, **kwargs)
        if not first[0] and str(args[-1]).endswith(".group.wal"):
            first[0] = calls[0]
        return done
    return call

for name in ("write", "replace", "rename", "unlink", "ftruncate", "fsync"):
    setattr(os, name, counted(getattr(os, name)))
sys.argv = ["prepguide", *sys.argv[3:]]
from generator.cli import main
try:
    main()
finally:
    if not number:
        with open(report, "w") as handle:
            handle.write(f"{first[0]} {calls[0]}")
"""


def approve(root: Path, ids: list[str], number: int, report: Path) -> int:
    """Run `review approve` of ids in a real process killed at step number; return its code."""
    args = ["--root", str(root), "review", "approve", *ids, "--by", "alice"]
    cmd = [sys.executable, "-c", DRIVER, str(number), str(report), *args]
    return subprocess.run(cmd, capture_output=True, timeout=120).returncode


def test_a_kill_at_each_step_of_a_group_file_leaves_every_guide_before_or_after(
    tmp_path: Path,
) -> None:
    """Kill from just before the group file is written to its removal; the next run settles."""
    base = tmp_path / "base"
    ids = many_guides(base)[:4]
    probe = tmp_path / "probe"
    shutil.copytree(base, probe, symlinks=True)
    report = tmp_path / "steps"
    assert approve(probe, ids, 0, report) == 0
    first, total = map(int, report.read_text().split())
    assert 0 < first < total, (first, total)
    group = Path("guides") / ".review" / ".group.wal"
    assert not (probe / group).exists()
    seen = {"before": 0, "left": 0}
    for number in range(max(1, first - 3), total + 1):
        root = tmp_path / f"kill-{number}"
        shutil.copytree(base, root, symlinks=True)
        assert approve(root, ids, number, report) == -signal.SIGKILL, number
        seen["left" if (root / group).exists() else "before"] += 1
        assert_state_matches_audit(root, ids)  # read as the group file says, before settling
        cli = [sys.executable, "-m", "generator", "--root", str(root), "review"]
        listed = subprocess.run([*cli, "list"], capture_output=True, text=True, timeout=120)
        assert listed.returncode in (0, 1) and "unreadable" not in listed.stdout, listed.stdout
        rerun = subprocess.run(
            [*cli, "approve", *ids, "--by", "alice"], capture_output=True, timeout=120
        )
        assert rerun.returncode in (0, 1), rerun.stderr  # 1: some were approved already
        assert not (root / group).exists()
        assert_state_matches_audit(root, ids)
        assert_repaired(root, ids)
        statuses = {review.read_state(Project(root), g).status for g in ids}
        assert statuses == {TO_STATE["approve"]}, (number, statuses)
        shutil.rmtree(root)
    print(f"steps {first}..{total}: {seen}")
    assert seen["left"] >= 3 and seen["before"] >= 1, seen
