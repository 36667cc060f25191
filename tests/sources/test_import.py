"""`prepguide sources import FILE` from a JSON array, JSONL and CSV."""

from __future__ import annotations

import csv
import json
import subprocess
import sys
from datetime import date
from pathlib import Path

import pytest
import yaml

from generator.sources.records import load_sources

TODAY = date(2026, 11, 30)
REPO_SOURCES = Path(__file__).resolve().parents[2] / "sources"
RECORDS = [
    {
        "company": "Acme",
        "title": "How Acme scaled its job queue to 12,000 workers",
        "url": "https://acme.example/queue",
        "published": "Oct 13, 2026",
        "summary": "Acme rebuilt its queue and cut p99 latency by 40%.",
        "techniques": ["queueing", "backpressure"],
        "stack": ["Kafka", "Go"],
    },
    {
        "id": "globex-search",
        "company": "Globex",
        "title": "Search at Globex",
        "url": "https://globex.example/search",
        "published": "2026-03-04",
        "checked": "13 October 2026",
        "summary": "Globex moved search ranking to a two-stage cascade.",
        "scale": ["3 billion queries a day"],
    },
]


def run_cli(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "generator", "--root", str(root), *args],
        capture_output=True,
        text=True,
        timeout=60,
    )


def write_json(path: Path, records: list[dict]) -> Path:
    path.write_text(json.dumps(records, indent=2), encoding="utf-8")
    return path


def write_jsonl(path: Path, records: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


def write_csv(path: Path, records: list[dict]) -> Path:
    columns = ["id", "company", "title", "url", "published", "checked", "summary"]
    columns += ["scale", "techniques", "stack"]

    def cell(value: object) -> str:
        text = "; ".join(value) if isinstance(value, list) else str(value or "")
        return '"' + text.replace('"', '""') + '"'

    lines = [",".join(columns)]
    lines += [",".join(cell(r.get(c)) for c in columns) for r in records]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


WRITERS = {"json": write_json, "jsonl": write_jsonl, "csv": write_csv}


@pytest.mark.parametrize("kind", list(WRITERS))
def test_import_writes_one_valid_yaml_file_per_record(workspace: Path, kind: str) -> None:
    source_file = WRITERS[kind](workspace / f"batch.{kind}", RECORDS)
    result = run_cli(workspace, "sources", "import", str(source_file))
    assert result.returncode == 0, result.stderr
    derived = workspace / "sources" / "how-acme-scaled-its-job-queue-to-12-000-workers.yaml"
    given = workspace / "sources" / "globex-search.yaml"
    assert f"wrote {derived}" in result.stdout
    assert f"wrote {given}" in result.stdout
    assert "2 written, 0 duplicates, 0 refused" in result.stdout

    loaded = load_sources(workspace / "sources", TODAY)
    assert loaded.problems == []
    acme = loaded.by_id()[derived.stem]
    assert acme.published == date(2026, 10, 13)
    assert acme.techniques == ["queueing", "backpressure"]
    assert acme.stack == ["Kafka", "Go"]
    globex = loaded.by_id()["globex-search"]
    assert (globex.published, globex.checked) == (date(2026, 3, 4), date(2026, 10, 13))
    assert globex.scale == ["3 billion queries a day"]
    assert yaml.safe_load(given.read_text(encoding="utf-8"))["published"] == date(2026, 3, 4)
    assert "published: 2026-03-04\n" in given.read_text(encoding="utf-8")


def test_urls_already_in_the_database_are_skipped_and_reported(workspace: Path) -> None:
    known = dict(RECORDS[0], url="https://shopify.engineering/catalog-clustering/")
    source_file = write_jsonl(workspace / "batch.jsonl", [known, RECORDS[1]])
    result = run_cli(workspace, "sources", "import", str(source_file))
    assert result.returncode == 0, result.stderr
    assert (
        f"skipped duplicate: {source_file}:1: https://shopify.engineering/catalog-clustering/ "
        "is already in the database" in result.stdout
    )
    assert "1 written, 1 duplicate, 0 refused" in result.stdout
    assert not (
        workspace / "sources" / "how-acme-scaled-its-job-queue-to-12-000-workers.yaml"
    ).exists()

    again = run_cli(workspace, "sources", "import", str(source_file))
    assert "0 written, 2 duplicates, 0 refused" in again.stdout


def test_the_same_url_twice_in_one_file_is_imported_once(workspace: Path) -> None:
    twin = dict(RECORDS[1], id="globex-search-copy")
    source_file = write_json(workspace / "batch.json", [RECORDS[1], twin])
    result = run_cli(workspace, "sources", "import", str(source_file))
    assert "1 written, 1 duplicate" in result.stdout
    assert not (workspace / "sources" / "globex-search-copy.yaml").exists()


def test_a_different_existing_file_is_never_overwritten(workspace: Path) -> None:
    existing = workspace / "sources" / "globex-search.yaml"
    hand_written = "# an editor's own record\ncompany: Globex\ntitle: Mine\nsummary: Keep me.\n"
    existing.write_text(hand_written, encoding="utf-8")
    source_file = write_json(workspace / "batch.json", RECORDS)
    result = run_cli(workspace, "sources", "import", str(source_file))
    assert result.returncode == 1
    assert existing.read_text(encoding="utf-8") == hand_written
    assert (
        f"not imported: {source_file}#2: id: {existing} already exists with different content; "
        "not overwritten" in result.stderr
    )
    assert "1 written, 0 duplicates, 1 refused" in result.stdout


def test_an_id_declared_inside_another_file_is_a_conflict(workspace: Path) -> None:
    other = workspace / "sources" / "legacy-name.yaml"
    other.write_text(
        "id: globex-search\ncompany: Globex\ntitle: Old\nsummary: Old record.\n", encoding="utf-8"
    )
    source_file = write_json(workspace / "batch.json", [RECORDS[1]])
    result = run_cli(workspace, "sources", "import", str(source_file))
    assert result.returncode == 1
    assert f"id 'globex-search' is already used by {other}" in result.stderr
    assert not (workspace / "sources" / "globex-search.yaml").exists()


def test_reimporting_an_identical_record_without_url_reports_it_unchanged(workspace: Path) -> None:
    plain = {"company": "Initech", "title": "TPS reports", "summary": "Initech files reports."}
    source_file = write_json(workspace / "batch.json", [plain])
    first = run_cli(workspace, "sources", "import", str(source_file))
    assert first.returncode == 0
    target = workspace / "sources" / "tps-reports.yaml"
    before = target.read_bytes()
    second = run_cli(workspace, "sources", "import", str(source_file))
    assert second.returncode == 0
    assert f"unchanged {target}" in second.stdout
    assert target.read_bytes() == before


def test_invalid_records_are_refused_by_field_and_the_rest_imported(workspace: Path) -> None:
    bad = [
        dict(RECORDS[0], url="javascript:alert(1)"),
        dict(RECORDS[1], published="03/04/2026"),
        {"company": "Nobody", "title": "No summary"},
        {"company": "Nobody", "summary": "No title, no id."},
        dict(RECORDS[1], id="../escape", url="https://globex.example/escape"),
        {"company": "Hooli", "title": "Fine", "summary": "Hooli is fine.", "colour": "red"},
        {"company": "Hooli", "title": "Good one", "summary": "Hooli wrote this."},
    ]
    source_file = write_jsonl(workspace / "batch.jsonl", bad)
    result = run_cli(workspace, "sources", "import", str(source_file))
    assert result.returncode == 1
    refused = result.stderr.strip().splitlines()
    assert refused == [
        f"not imported: {source_file}:1: url: 'javascript:alert(1)' is not an http(s) URL; "
        "only http:// and https:// are allowed",
        f"not imported: {source_file}:2: published: '03/04/2026' is ambiguous "
        "(2026-03-04 or 2026-04-03); write it as YYYY-MM-DD",
        f"not imported: {source_file}:3: summary: is required but missing",
        f"not imported: {source_file}:4: id: no id and no title to derive one from",
        f"not imported: {source_file}:5: id: '../escape' must be 1-80 characters of a-z, 0-9 "
        "and '-'",
        f"not imported: {source_file}:6: colour: unknown field; allowed fields are: id, company, "
        "title, url, publisher, published, checked, summary, notes, scale, techniques, stack, "
        "citations, example",
    ]
    assert "1 written, 0 duplicates, 6 refused" in result.stdout
    written = sorted(p.name for p in (workspace / "sources").iterdir())
    assert "good-one.yaml" in written
    assert not (workspace / "escape.yaml").exists()
    assert load_sources(workspace / "sources", TODAY).problems == []


def test_a_csv_row_with_extra_cells_is_refused_alone(workspace: Path) -> None:
    source_file = workspace / "batch.csv"
    source_file.write_text(
        "company,title,summary,stack\n"
        "Acme,Queues,Acme built queues.,Kafka;Go\n"
        "Acme,Oops,Acme forgot quotes, again,Kafka\n",
        encoding="utf-8",
    )
    result = run_cli(workspace, "sources", "import", str(source_file))
    assert result.returncode == 1
    assert f"not imported: {source_file}:3: more cells than the header" in result.stderr
    queues = yaml.safe_load((workspace / "sources" / "queues.yaml").read_text(encoding="utf-8"))
    assert queues == {
        "id": "queues",
        "company": "Acme",
        "title": "Queues",
        "summary": "Acme built queues.",
        "stack": ["Kafka", "Go"],
    }


def test_ids_derived_from_non_ascii_titles_stay_readable(workspace: Path) -> None:
    record = {"company": "Zürich AG", "title": "Über-scale: Caching à la carte", "summary": "S."}
    result = run_cli(
        workspace, "sources", "import", str(write_json(workspace / "b.json", [record]))
    )
    assert result.returncode == 0, result.stderr
    assert (workspace / "sources" / "uber-scale-caching-a-la-carte.yaml").exists()


def test_an_unreadable_import_file_is_reported_not_a_traceback(workspace: Path) -> None:
    broken = workspace / "broken.json"
    broken.write_text('[{"company": "Acme",', encoding="utf-8")
    result = run_cli(workspace, "sources", "import", str(broken))
    assert result.returncode == 1
    assert result.stderr.startswith(f"error: {broken}: not a JSON array or JSONL: line 1")
    assert "Traceback" not in result.stderr

    missing = run_cli(workspace, "sources", "import", str(workspace / "nope.csv"))
    assert missing.returncode == 2


def test_a_spreadsheet_export_with_semicolons_capitals_and_a_bom_imports(
    workspace: Path,
) -> None:
    source_file = workspace / "export.csv"
    with source_file.open("w", encoding="utf-8-sig", newline="") as handle:
        writer = csv.writer(handle, delimiter=";")  # as a spreadsheet in a comma-decimal locale
        writer.writerow(["Title", "URL", "Company", "Published", "Summary", " Stack "])
        writer.writerow(
            [
                "How Initech sped up builds",
                "https://initech.example/builds",
                "Initech",
                "2026-05-02",
                "Initech cached build outputs; builds took 40% less time.",
                "Bazel; Redis",
            ]
        )
        writer.writerow(["", "", "", "", "", ""])  # a spreadsheet's trailing empty row
    assert source_file.read_bytes().startswith(b"\xef\xbb\xbfTitle;URL;")
    result = run_cli(workspace, "sources", "import", str(source_file))
    assert result.returncode == 0, result.stderr
    assert "1 written, 0 duplicates, 0 refused" in result.stdout
    record = yaml.safe_load(
        (workspace / "sources" / "how-initech-sped-up-builds.yaml").read_text(encoding="utf-8")
    )
    assert record == {
        "id": "how-initech-sped-up-builds",
        "company": "Initech",
        "title": "How Initech sped up builds",
        "url": "https://initech.example/builds",
        "published": date(2026, 5, 2),
        "summary": "Initech cached build outputs; builds took 40% less time.",
        "stack": ["Bazel", "Redis"],
    }


def test_csv_headers_match_whatever_their_case_and_spaces(workspace: Path) -> None:
    source_file = workspace / "export.csv"
    source_file.write_text(
        "Title, URL ,COMPANY,Summary\n"
        "Search at Umbrella,https://umbrella.example/search,Umbrella,Ranked in two stages.\n",
        encoding="utf-8",
    )
    result = run_cli(workspace, "sources", "import", str(source_file))
    assert result.returncode == 0, result.stderr
    record = yaml.safe_load(
        (workspace / "sources" / "search-at-umbrella.yaml").read_text(encoding="utf-8")
    )
    assert (record["title"], record["url"], record["company"]) == (
        "Search at Umbrella",
        "https://umbrella.example/search",
        "Umbrella",
    )


def test_a_csv_header_naming_a_field_twice_is_refused_whole(workspace: Path) -> None:
    source_file = workspace / "export.csv"
    source_file.write_text("title,Title,summary\nA,B,C\n", encoding="utf-8")
    result = run_cli(workspace, "sources", "import", str(source_file))
    assert result.returncode == 1
    assert f"error: {source_file}: the header names 'title' more than once" in result.stderr
    assert "Traceback" not in result.stderr
    assert sorted(p.name for p in (workspace / "sources").glob("*.yaml")) == sorted(
        p.name for p in (REPO_SOURCES).glob("*.yaml")
    )


def test_a_rerun_removes_the_temp_files_a_killed_import_left(workspace: Path, tmp_path) -> None:
    import os
    import signal

    records = [
        {**RECORDS[0], "id": f"acme-{n}", "url": f"https://acme.example/q{n}"} for n in range(400)
    ]
    big = write_jsonl(tmp_path / "big.jsonl", records)
    child = subprocess.Popen(
        [sys.executable, "-m", "generator", "--root", str(workspace), "sources", "import", big]
    )
    os.kill(child.pid, signal.SIGKILL)
    child.wait()
    # What a kill between creating and renaming a temp file leaves (the writer's pid is dead).
    left = workspace / "sources" / f".acme-0.yaml.{child.pid}.k1ll3d.tmp"
    left.touch()
    mine = workspace / "sources" / f".acme-1.yaml.{os.getpid()}.alive1.tmp"
    mine.touch()  # a writer still running: not touched
    result = run_cli(workspace, "sources", "import", str(big))
    assert result.returncode == 0, result.stderr
    assert not left.exists() and mine.exists()
    assert not [p for p in (workspace / "sources").iterdir() if p.suffix == ".tmp" and p != mine]
    assert len(load_sources(workspace / "sources", date(2026, 11, 1)).sources) >= 400
