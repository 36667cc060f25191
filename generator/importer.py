"""Import records from JSON, JSONL or CSV into sources/<id>.yaml files."""

from __future__ import annotations

import csv
import io
import json
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

import yaml

from generator.errors import ImportConflict, SourceError
from generator.fsio import atomic_write_text
from generator.sources import SourceSet, slugify, validation_problems

LIST_FIELDS = ("scale", "techniques", "stack")


@dataclass
class ImportReport:
    """What an import wrote, skipped and refused."""

    written: list[Path] = field(default_factory=list)
    unchanged: list[Path] = field(default_factory=list)
    duplicates: list[str] = field(default_factory=list)
    problems: list[SourceError] = field(default_factory=list)


def read_import_file(path: Path) -> list[dict[str, Any]]:
    """Read a JSON array, JSONL or CSV file into raw records."""
    try:
        text = path.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError as exc:
        raise SourceError("not UTF-8", path=path, rule="import.encoding") from exc
    if path.suffix.lower() == ".csv":
        return [_csv_row(row) for row in csv.DictReader(io.StringIO(text))]
    stripped = text.lstrip()
    try:
        if stripped.startswith("["):
            records = json.loads(text)
        else:
            records = [json.loads(line) for line in text.splitlines() if line.strip()]
    except json.JSONDecodeError as exc:
        raise SourceError(
            f"not a JSON array or JSONL: {exc}", path=path, rule="import.syntax"
        ) from exc
    if not all(isinstance(record, dict) for record in records):
        raise SourceError("every record must be a JSON object", path=path, rule="import.syntax")
    return records


def _csv_row(row: dict[str, str | None]) -> dict[str, Any]:
    record: dict[str, Any] = {}
    for key, value in row.items():
        if key is None or value is None or not value.strip():
            continue
        key = key.strip()
        if key in LIST_FIELDS:
            record[key] = [item.strip() for item in value.split(";") if item.strip()]
        else:
            record[key] = value.strip()
    return record


def _record_yaml(record: dict[str, Any]) -> str:
    return yaml.safe_dump(record, sort_keys=False, allow_unicode=True, width=100)


def import_records(
    records: list[dict[str, Any]], origin: Path, sources_dir: Path, existing: SourceSet, today: date
) -> ImportReport:
    """Write valid new records; skip known URLs; never overwrite a different file."""
    report = ImportReport()
    known_urls = {s.url.rstrip("/").lower() for s in existing.sources if s.url}
    for number, record in enumerate(records, start=1):
        label = f"{origin}#{number}"
        record_id = record.get("id") or slugify(str(record.get("title", "")))[:80].strip("-")
        if not record_id:
            report.problems.append(
                SourceError("no id and no title to derive one from", path=label, field="title")
            )
            continue
        record = {"id": record_id, **{k: v for k, v in record.items() if k != "id"}}
        target = sources_dir / f"{record_id}.yaml"
        problems = validation_problems(record, Path(label), today)
        if problems:
            report.problems.extend(problems)
            continue
        url = str(record.get("url", "")).rstrip("/").lower()
        if url and url in known_urls:
            report.duplicates.append(f"{label}: {record['url']} is already in the database")
            continue
        text = _record_yaml(record)
        if target.exists():
            if target.read_text(encoding="utf-8", errors="replace") == text:
                report.unchanged.append(target)
                continue
            report.problems.append(
                ImportConflict(
                    f"{target} already exists with different content; not overwritten. "
                    "Give the record another id or merge it by hand",
                    path=label,
                    record_id=record_id,
                    field="id",
                    rule="import.conflict",
                )
            )
            continue
        atomic_write_text(target, text)
        report.written.append(target)
        if url:
            known_urls.add(url)
    return report
