"""Import records from JSON, JSONL or CSV into sources/<id>.yaml files."""

from __future__ import annotations

import csv
import io
import json
import unicodedata
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

import yaml

from generator.core.errors import ImportConflict, SourceError
from generator.core.fsio import atomic_write_text, remove_orphaned_temp_files
from generator.sources.records import (
    MAX_SOURCE_BYTES,
    Source,
    SourceSet,
    slugify,
    url_key,
    validation_problems,
)

LIST_FIELDS = ("scale", "techniques", "stack")


@dataclass(frozen=True)
class ImportRow:
    """One record of an import file, labelled by where it came from."""

    label: str
    data: dict[str, Any] | None
    error: str | None = None


@dataclass
class ImportReport:
    """What an import wrote, skipped and refused."""

    written: list[Path] = field(default_factory=list)
    unchanged: list[Path] = field(default_factory=list)
    duplicates: list[str] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)  # one label per record not imported
    problems: list[SourceError] = field(default_factory=list)  # every reason, several per record


def read_import_file(path: Path) -> list[ImportRow]:
    """Read a JSON array, JSONL or CSV file into labelled raw records."""
    try:
        text = path.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError as exc:
        raise SourceError(
            f"not UTF-8 (byte {exc.start}); re-save the file as UTF-8",
            path=path,
            rule="import.encoding",
        ) from exc
    if path.suffix.lower() == ".csv":
        try:
            return _csv_rows(path, text)
        except csv.Error as exc:
            raise SourceError(f"not valid CSV: {exc}", path=path, rule="import.syntax") from exc
    stripped = text.lstrip()
    try:
        if stripped.startswith("["):
            records = json.loads(text)
            rows = [ImportRow(f"{path}#{n}", r) for n, r in enumerate(records, start=1)]
        elif path.suffix.lower() == ".json" and stripped.startswith("{"):
            rows = [ImportRow(f"{path}#1", json.loads(text))]
        else:
            rows = [
                ImportRow(f"{path}:{n}", json.loads(line))
                for n, line in enumerate(text.splitlines(), start=1)
                if line.strip()
            ]
    except json.JSONDecodeError as exc:
        raise SourceError(
            f"not a JSON array or JSONL: line {exc.lineno}, column {exc.colno}: {exc.msg}",
            path=path,
            rule="import.syntax",
        ) from exc
    except RecursionError as exc:
        raise SourceError(
            "not a JSON array or JSONL of records: arrays or objects nested too deeply",
            path=path,
            rule="import.syntax",
        ) from exc
    return [
        row if isinstance(row.data, dict) else ImportRow(row.label, None, "not a JSON object")
        for row in rows
    ]


def csv_delimiter(text: str) -> str:
    """Return the delimiter of a CSV file's header line: ';' or ',' (the default)."""
    header = text.split("\n", 1)[0]
    try:
        return csv.Sniffer().sniff(header, delimiters=";,").delimiter
    except csv.Error:
        return ","


def _csv_rows(path: Path, text: str) -> list[ImportRow]:
    delimiter = csv_delimiter(text)
    reader = csv.reader(io.StringIO(text), delimiter=delimiter)
    header = next(reader, [])
    keys = [name.strip().casefold() for name in header]
    named = [key for key in keys if key]
    twice = sorted({key for key in named if named.count(key) > 1})
    if twice:
        raise SourceError(
            f"the header names {', '.join(map(repr, twice))} more than once (headers match "
            "whatever their case); keep one column of each",
            path=path,
            rule="import.syntax",
        )
    rows = []
    for cells in reader:
        label = f"{path}:{reader.line_num}"
        if not any(cell.strip() for cell in cells):
            continue
        if len(cells) > len(keys):
            rows.append(
                ImportRow(
                    label,
                    None,
                    f"more cells than the header; quote values holding {delimiter!r}",
                )
            )
            continue
        record: dict[str, Any] = {}
        for key, value in zip(keys, cells, strict=False):
            if not key or not value.strip():
                continue
            if key in LIST_FIELDS:
                record[key] = [item.strip() for item in value.split(";") if item.strip()]
            else:
                record[key] = value.strip()
        rows.append(ImportRow(label, record))
    return rows


def derive_id(title: str) -> str:
    """Derive a record id from a title: ASCII, lowercase, hyphenated, at most 80 characters."""
    ascii_title = unicodedata.normalize("NFKD", title).encode("ascii", "ignore").decode()
    return slugify(ascii_title)[:80].strip("-")


def _record_yaml(source: Source) -> str:
    """Render a validated record with ISO dates, leaving out empty fields."""
    data = {k: v for k, v in source.model_dump(exclude_none=True).items() if v != []}
    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=100)


def import_records(
    rows: list[ImportRow], sources_dir: Path, existing: SourceSet, today: date
) -> ImportReport:
    """Write valid new records; skip known URLs; never overwrite a different file."""
    report = ImportReport()
    remove_orphaned_temp_files(sources_dir)  # what an import killed mid-write left
    known_urls = {url_key(s.url) for s in existing.sources if s.url}
    known_ids = existing.by_id()
    for row in rows:
        if row.data is None:
            report.refused.append(row.label)
            report.problems.append(SourceError(row.error or "unreadable", path=row.label))
            continue
        outcome = _import_one(row, sources_dir, known_urls, known_ids, today)
        if isinstance(outcome, list):
            report.refused.append(row.label)
            report.problems.extend(outcome)
        elif isinstance(outcome, str):
            report.duplicates.append(outcome)
        elif outcome[1]:
            report.written.append(outcome[0])
        else:
            report.unchanged.append(outcome[0])
    return report


def _import_one(
    row: ImportRow,
    sources_dir: Path,
    known_urls: set[str],
    known_ids: dict[str, Source],
    today: date,
) -> list[SourceError] | str | tuple[Path, bool]:
    """Import one row: problems, a duplicate note, or (path, whether it was written)."""
    record = row.data or {}
    record_id = record.get("id") or derive_id(str(record.get("title") or ""))
    if not record_id:
        reason = (
            "the title has no ASCII letters or digits to derive an id from; add an id"
            if str(record.get("title") or "").strip()
            else "no id and no title to derive one from"
        )
        return [SourceError(reason, path=row.label, field="id")]
    record = {"id": record_id, **{k: v for k, v in record.items() if k != "id"}}
    problems = validation_problems(record, Path(row.label), today)
    if problems:
        return problems
    source = Source.model_validate(record, context={"today": today})
    url = url_key(source.url) if source.url else None
    if url and url in known_urls:
        return f"{row.label}: {source.url} is already in the database"
    text = _record_yaml(source)
    target = sources_dir / f"{source.key}.yaml"
    if len(text.encode("utf-8")) > MAX_SOURCE_BYTES:
        longest = max(("summary", "notes"), key=lambda name: len(record.get(name) or ""))
        return [
            SourceError(
                f"record is over the 100 KB limit of a source file; shorten the {longest}",
                path=row.label,
                record_id=source.key,
                field=longest,
                rule="source.too_large",
            )
        ]
    other = known_ids.get(source.key)
    if other is not None and other.path != target:
        return [_conflict(row, source.key, f"id {source.key!r} is already used by {other.path}")]
    if target.exists():
        if target.read_text(encoding="utf-8", errors="replace") == text:
            return (target, False)
        return [_conflict(row, source.key, f"{target} already exists with different content")]
    atomic_write_text(target, text)
    if url:
        known_urls.add(url)
    source._path = target
    known_ids[source.key] = source
    return (target, True)


def _conflict(row: ImportRow, record_id: str, reason: str) -> ImportConflict:
    return ImportConflict(
        f"{reason}; not overwritten. Give the record another id or merge it by hand",
        path=row.label,
        record_id=record_id,
        field="id",
        rule="import.conflict",
    )
