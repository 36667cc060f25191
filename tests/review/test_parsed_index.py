"""The parsed index is a cache: what it holds, or that it is gone or damaged, changes no result."""

from __future__ import annotations

import contextlib
import gc
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from test_review import make_review_workspace

from generator.core.parsed import FILE_NAME
from generator.guides.project import Project


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    return make_review_workspace(tmp_path / "ws")


def cli(root: Path, *args: str) -> str:
    command = [sys.executable, "-m", "generator", "--root", str(root), *args]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert done.returncode in (0, 1), done.stderr
    return done.stdout


def seen(root: Path) -> tuple:
    """Return what a command reads from the records and guides: every field, as parsed."""
    project = Project(root)
    records = tuple(source.model_dump_json() for source in project.sources.sources)
    problems = tuple(str(problem) for problem in project.sources.problems)
    guides = tuple(
        project.guides.read(guide_id).meta.model_dump_json() for guide_id in project.guides.ids()
    )
    project.parsed.close()
    return records, problems, guides


def rows(root: Path) -> int:
    with sqlite3.connect(root / ".prepguide" / FILE_NAME) as db:
        return db.execute("select count(*) from parsed").fetchone()[0]


def test_a_warm_index_gives_what_parsing_gives_and_is_used(ws: Path) -> None:
    cold = seen(ws)
    records, guides = len(cold[0]), len(cold[2])
    assert rows(ws) == records + guides  # every record file and every front matter
    assert seen(ws) == cold
    listed = cli(ws, "review", "list")
    assert cli(ws, "review", "list") == listed


def test_deleting_or_damaging_the_index_changes_no_result(ws: Path) -> None:
    cold = seen(ws)
    listed = cli(ws, "review", "list")
    index = ws / ".prepguide" / FILE_NAME
    index.unlink()
    assert seen(ws) == cold
    index.write_bytes(b"not a database at all" * 100)
    assert seen(ws) == cold
    assert list(index.parent.glob(f"{FILE_NAME}.corrupt-*"))  # set aside, rebuilt
    assert rows(ws) > 0
    with sqlite3.connect(index) as db:  # a row whose data is not JSON is parsed again
        db.execute("update parsed set data = '{not json'")
    assert seen(ws) == cold
    assert cli(ws, "review", "list") == listed


def test_a_changed_record_or_front_matter_is_parsed_again(ws: Path) -> None:
    seen(ws)
    record = sorted((ws / "sources").glob("*.yaml"))[0]
    text = record.read_text(encoding="utf-8")
    title = next(line for line in text.splitlines() if line.startswith("title:"))
    record.write_text(text.replace(title, "title: A title changed since"), encoding="utf-8")
    guide = sorted((ws / "guides").glob("*.md"))[0]
    body = guide.read_text(encoding="utf-8")
    guide.write_text(body.replace("\nstatus: draft\n", "\nstatus: approved\n", 1), "utf-8")
    records, _, guides = seen(ws)
    assert any('"title":"A title changed since"' in r for r in records)
    assert '"status":"approved"' in guides[0]
    record.write_text("title: [unclosed\n", encoding="utf-8")  # a broken file says so each time
    for _ in range(2):
        problems = seen(ws)[1]
        assert any(record.name in problem and "YAML" in problem for problem in problems)


def test_a_long_running_process_does_not_keep_an_index_file_open_per_command(ws: Path) -> None:
    def open_index_files() -> int:
        links = []
        for fd in os.listdir("/proc/self/fd"):
            with contextlib.suppress(OSError):  # the listing's own descriptor is gone
                links.append(os.readlink(f"/proc/self/fd/{fd}"))
        return sum(1 for link in links if FILE_NAME in link)

    before = open_index_files()
    for _ in range(40):  # what a review server does: a project per request, never closed
        project = Project(ws)
        assert project.sources.sources
        for guide_id in project.guides.ids():
            project.guides.read(guide_id)
        del project
    gc.collect()
    assert open_index_files() - before <= 4
    assert rows(ws) > 0  # what the dropped projects parsed was kept
