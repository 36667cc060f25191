"""The records' summary in the verdict cache: a command reads only the records it names."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_review import SEARCH, STREAM, make_review_workspace
from test_verdict_cache import age, change_other_vocabulary, change_record

from generator.checks.runner import findings_cache, prime_records
from generator.guides.project import Project


def primed(root: Path) -> tuple[Project, bool]:
    project = Project(root)
    with findings_cache(project) as cache:
        found = prime_records(project, cache)
    return project, found


def seen(project: Project) -> tuple:
    """What a command sees of the records: the terms and each guide's record."""
    ids = [SEARCH, STREAM, "no-such-record"]
    records = [project.source(i) and project.source(i).model_dump_json() for i in ids]
    return project.database_terms, records


def remove_record(root: Path) -> None:
    (root / "sources" / f"{STREAM}.yaml").unlink()


def duplicate_record(root: Path) -> None:
    text = (root / "sources" / f"{SEARCH}.yaml").read_text(encoding="utf-8")
    (root / "sources" / "aaa-copy.yaml").write_text(text, encoding="utf-8")


@pytest.mark.parametrize(
    "change", [change_record, change_other_vocabulary, remove_record, duplicate_record]
)
def test_a_summary_of_unchanged_files_gives_what_reading_every_record_gives(
    tmp_path: Path, change
) -> None:
    root = make_review_workspace(tmp_path / "ws")
    age(root)
    first, found = primed(root)
    assert not found and "sources" in first.__dict__  # a miss reads every record once
    again, found = primed(root)
    assert found and "sources" not in again.__dict__
    assert seen(again) == seen(Project(root))
    assert "sources" not in again.__dict__, "only the named records were read"
    change(root)
    age(root)
    after, found = primed(root)
    assert not found, "a summary outlived a change of a record file"
    assert seen(after) == seen(Project(root))
    assert seen(primed(root)[0]) == seen(Project(root))


def test_a_damaged_or_deleted_summary_changes_nothing(tmp_path: Path) -> None:
    root = make_review_workspace(tmp_path / "ws")
    age(root)
    primed(root)
    expected = seen(Project(root))
    cache = root / ".prepguide" / "verdicts.sqlite"
    for suffix in ("-wal", "-shm"):
        Path(f"{cache}{suffix}").unlink(missing_ok=True)
    cache.write_bytes(b"not a database" * 100)
    assert seen(primed(root)[0]) == expected
    cache.unlink()
    assert seen(primed(root)[0]) == expected
    assert seen(primed(root)[0]) == expected
