"""Source records: the contract model and the reader for sources/."""

from __future__ import annotations

import json
import os
import re
import weakref
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date, datetime
from pathlib import Path
from typing import Any

import yaml
from pydantic import (
    BaseModel,
    ConfigDict,
    PrivateAttr,
    ValidationError,
    ValidationInfo,
    field_validator,
)

from generator.core.confine import link_problem
from generator.core.errors import SourceError
from generator.core.fsio import sha256_text
from generator.core.names import Name, Text, id_problem
from generator.core.names import is_valid_id as is_valid_id  # re-exported: the one id rule
from generator.core.names import normalize_tag as normalize_tag
from generator.core.names import slugify as slugify
from generator.core.parsed import ParsedIndex, file_signature
from generator.core.urls import check_url, url_key, url_warnings
from generator.core.urls import is_web_url as is_web_url
from generator.core.workers import WorkerMap
from generator.sources.yamlread import MAX_NESTING, PARSER, load_yaml

MAX_SOURCE_BYTES = 100 * 1024
RECORD_KIND = f"record {PARSER}"
SOURCE_SUFFIXES = (".yaml", ".yml", ".json")
YEAR_FIRST = re.compile(r"^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})$")
PUBLICATION_FIELDS = ("url", "published", "checked")
_DEFAULT_A = datetime(2001, 1, 1)
_DEFAULT_B = datetime(2002, 2, 2)


def parse_date(value: Any) -> date:
    """Parse an unambiguous, complete calendar date; raise ValueError otherwise."""
    if isinstance(value, datetime):
        return value.date()
    if isinstance(value, date):
        return value
    if not isinstance(value, str) or not value.strip():
        raise ValueError("expected a date such as 2026-10-13")
    text = value.strip()
    year_first = YEAR_FIRST.match(text)
    if year_first:
        year, month, day = (int(part) for part in year_first.groups())
        try:
            return date(year, month, day)
        except ValueError as exc:
            raise ValueError(f"{text!r} is not a real date ({exc}); use YYYY-MM-DD") from exc
    # Only dates not written YYYY-MM-DD need dateutil: most runs never import it.
    from dateutil import parser as dateparser

    try:
        month_first = dateparser.parse(text, dayfirst=False, default=_DEFAULT_A)
        day_first = dateparser.parse(text, dayfirst=True, default=_DEFAULT_A)
        other_default = dateparser.parse(text, dayfirst=False, default=_DEFAULT_B)
    except (ValueError, OverflowError, TypeError) as exc:
        raise ValueError(f"cannot parse {text!r} as a date; write it as YYYY-MM-DD") from exc
    if month_first != day_first:
        raise ValueError(
            f"{text!r} is ambiguous ({month_first:%Y-%m-%d} or {day_first:%Y-%m-%d}); "
            "write it as YYYY-MM-DD"
        )
    if month_first.date() != other_default.date():
        raise ValueError(f"{text!r} is not a complete date; write it as YYYY-MM-DD")
    return month_first.date()


class _Record(BaseModel):
    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)

    @field_validator("published", "checked", mode="before", check_fields=False)
    @classmethod
    def _dates(cls, value: Any) -> date | None:
        return None if value is None else parse_date(value)

    @field_validator("url", mode="before", check_fields=False)
    @classmethod
    def _url(cls, value: Any) -> str | None:
        if value is None:
            return None
        if not isinstance(value, str):
            raise ValueError("expected a URL string")
        return check_url(value)

    @field_validator("published", check_fields=False)
    @classmethod
    def _published_past(cls, value: date | None, info: ValidationInfo) -> date | None:
        today = (info.context or {}).get("today")
        if today and value and value > today:
            raise ValueError(f"{value} is in the future (today is {today}); check the date")
        return value

    @field_validator("checked", check_fields=False)
    @classmethod
    def _checked_order(cls, value: date | None, info: ValidationInfo) -> date | None:
        today = (info.context or {}).get("today")
        published = info.data.get("published")
        if value and published and value < published:
            raise ValueError(f"{value} is before the published date {published}")
        if today and value and value > today:
            raise ValueError(f"{value} is in the future (today is {today}); check the date")
        return value


class Citation(_Record):
    """A further original cited by a source record."""

    title: Text
    url: str | None = None
    publisher: Text | None = None
    published: date | None = None
    checked: date | None = None


@dataclass(frozen=True)
class SourceWarning:
    """Something suspicious in an accepted record that an editor should look at."""

    path: str | None
    record_id: str
    field: str
    message: str

    def __str__(self) -> str:
        where = f"{self.path}: {self.field}" if self.path else self.field
        return f"{where}: {self.message}"


# id(record) -> (weak reference to it, its content hash); see Source.content_hash.
_HASHES: dict[int, tuple[weakref.ref, str]] = {}


class Source(_Record):
    """One engineering write-up, as the editors recorded it."""

    id: str | None = None
    company: Name
    title: Text
    url: str | None = None
    publisher: Text | None = None
    published: date | None = None
    checked: date | None = None
    summary: Text
    notes: Text | None = None
    scale: list[Text] = []
    techniques: list[Name] = []
    stack: list[Name] = []
    citations: list[Citation] = []
    # An example to learn the format from (`init` writes one): never on a published site.
    example: bool | None = None

    _path: Path | None = PrivateAttr(default=None)

    @field_validator("id")
    @classmethod
    def _id(cls, value: str | None) -> str | None:
        problem = None if value is None else id_problem(value)
        if problem:
            raise ValueError(f"{value!r} {problem}")
        return value

    @field_validator("company", "title", "summary")
    @classmethod
    def _not_blank(cls, value: str) -> str:
        if not value:
            raise ValueError("must not be empty")
        return value

    @field_validator("scale", "techniques", "stack")
    @classmethod
    def _tags(cls, values: list[str]) -> list[str]:
        return [value.strip() for value in values if value.strip()]

    @property
    def key(self) -> str:
        """Return the record id (set by the loader)."""
        assert self.id is not None
        return self.id

    @property
    def path(self) -> Path | None:
        return self._path

    @property
    def publisher_name(self) -> str:
        return self.publisher or self.company

    @property
    def source_text(self) -> str:
        """Return every text that counts as what the source says."""
        parts = [self.company, self.title, self.summary, self.notes or "", *self.scale]
        return "\n".join(part for part in parts if part)

    @property
    def tags(self) -> list[str]:
        return [*self.techniques, *self.stack]

    @property
    def warnings(self) -> list[SourceWarning]:
        """Return what looks suspicious in the record's URLs, for `sources check` and review."""
        path = str(self._path) if self._path else None
        urls = [("url", self.url)]
        urls += [(f"citations.{n}.url", c.url) for n, c in enumerate(self.citations)]
        return [
            SourceWarning(path, self.key, name, message)
            for name, url in urls
            if url
            for message in url_warnings(url)
        ]

    def content_hash(self) -> str:
        """Hash the validated record, ignoring file formatting and comments (once per instance).

        Records are not mutated after validation (a model_copy is a new instance). The hash is
        kept outside the model so that equality and copies of records stay as they were.
        """
        known = _HASHES.get(id(self))
        if known is not None and known[0]() is self:
            return known[1]
        payload = self.model_dump(mode="json")
        if payload.get("example") is None:  # records without the field hash as before it
            del payload["example"]
        digest = sha256_text(json.dumps(payload, sort_keys=True, ensure_ascii=False))
        if len(_HASHES) >= 8192:
            _HASHES.clear()
        _HASHES[id(self)] = (weakref.ref(self), digest)
        return digest

    def missing_for_publication(self) -> list[str]:
        """Name the fields an editor must add before this record's guide can be published."""
        missing = [name for name in PUBLICATION_FIELDS if getattr(self, name) is None]
        for number, citation in enumerate(self.citations):
            missing += [
                f"citations.{number}.{name}"
                for name in PUBLICATION_FIELDS
                if getattr(citation, name) is None
            ]
        return missing

    def originals(self) -> list[Citation]:
        """Return the write-up itself followed by its further citations."""
        own = Citation(
            title=self.title,
            url=self.url,
            publisher=self.publisher_name,
            published=self.published,
            checked=self.checked,
        )
        return [own, *self.citations]


ALLOWED_FIELDS = tuple(Source.model_fields)
CITATION_FIELDS = tuple(Citation.model_fields)


@dataclass
class SourceSet:
    """The valid records of a database and one error per problem found."""

    sources: list[Source] = field(default_factory=list)
    problems: list[SourceError] = field(default_factory=list)

    _index: tuple[int, dict[str, Source]] = field(default=(-1, {}), repr=False, compare=False)

    def by_id(self) -> dict[str, Source]:
        """Return the records by id, indexed once (again only if records were added)."""
        if self._index[0] != len(self.sources):
            self._index = (len(self.sources), {source.key: source for source in self.sources})
        return self._index[1]


def _describe(exc: ValidationError, path: Path, record_id: str) -> list[SourceError]:
    errors = []
    for error in exc.errors():
        loc = ".".join(str(part) for part in error["loc"]) or "record"
        if error["type"] == "extra_forbidden":
            allowed = CITATION_FIELDS if error["loc"][0] == "citations" else ALLOWED_FIELDS
            message = f"unknown field; allowed fields are: {', '.join(allowed)}"
        elif error["type"] == "missing":
            message = "is required but missing"
        else:
            message = str(error["msg"]).removeprefix("Value error, ")
        errors.append(
            SourceError(message, path=path, record_id=record_id, field=loc, rule="source.invalid")
        )
    return errors


def read_source_data(path: Path) -> Any:
    """Read one source file's raw data; raise SourceError for unreadable files."""
    stem = path.stem
    size = path.stat().st_size
    raw = path.read_bytes() if size <= MAX_SOURCE_BYTES else b""
    if size > MAX_SOURCE_BYTES or len(raw) > MAX_SOURCE_BYTES:
        raise SourceError(
            f"file is {max(size, len(raw)):,} bytes; the limit is {MAX_SOURCE_BYTES:,} (100 KB); "
            "move long excerpts out of notes",
            path=path,
            record_id=stem,
            rule="source.too_large",
        )
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise SourceError(
            f"not UTF-8 (byte {exc.start}); re-save the file as UTF-8",
            path=path,
            record_id=stem,
            rule="source.encoding",
        ) from exc
    try:
        if path.suffix == ".json":
            return json.loads(text)
        return load_yaml(text)
    except RecursionError:
        detail = f"lists or mappings nested more than {MAX_NESTING} levels deep"
    except json.JSONDecodeError as exc:
        detail = f"line {exc.lineno}, column {exc.colno}: {exc.msg}"
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        where = f"line {mark.line + 1}, column {mark.column + 1}: " if mark else ""
        detail = f"{where}{exc.problem or exc.context}"
    except yaml.YAMLError as exc:
        detail = " ".join(str(exc).split()) or type(exc).__name__
    raise SourceError(
        f"not valid {'JSON' if path.suffix == '.json' else 'YAML'}: {detail}",
        path=path,
        record_id=stem,
        rule="source.syntax",
    )


def check_record(data: Any, path: Path, today: date) -> tuple[Source | None, list[SourceError]]:
    """Validate raw record data once; return the record, or every contract violation."""
    if not isinstance(data, dict):
        problem = SourceError(
            "expected a mapping of fields (company, title, summary, ...)",
            path=path,
            record_id=path.stem,
            rule="source.syntax",
        )
        return None, [problem]
    record_id = str(data.get("id") or path.stem)
    try:
        return _validated(data, path, today), []
    except ValidationError as exc:
        return None, _describe(exc, path, record_id)


def validation_problems(data: Any, path: Path, today: date) -> list[SourceError]:
    """Return every contract violation of raw record data."""
    return check_record(data, path, today)[1]


def _validated(data: dict[str, Any], path: Path, today: date) -> Source:
    source = Source.model_validate(data, context={"today": today})
    if source.id is None:
        source = source.model_copy(update={"id": path.stem})
        problem = id_problem(path.stem)
        if problem:
            raise SourceError(
                f"file name {path.stem!r} is not a valid id: it {problem}; "
                "rename the file or add an id of a-z, 0-9 and '-'",
                path=path,
                record_id=path.stem,
                field="id",
                rule="source.invalid",
            )
    source._path = path
    return source


def source_files(sources_dir: Path) -> list[Path]:
    """List the record files of a sources folder in a stable order."""
    return [sources_dir / name for name in source_names(sources_dir)]


def source_names(sources_dir: Path) -> list[str]:
    """List the names of a sources folder's record files in a stable order."""
    try:
        entries = os.scandir(sources_dir)  # a listing's file types cost no stat call
    except (FileNotFoundError, NotADirectoryError):
        return []
    with entries:
        names = [
            entry.name
            for entry in entries
            if entry.name.endswith(SOURCE_SUFFIXES)
            and not entry.name.startswith(".")
            and (entry.is_file() or entry.is_symlink())
        ]
    return sorted(names)


def confine(path: Path, root: Path, sources_dir: Path) -> None:
    """Refuse a record file that is a symbolic link leading out of the root, or nowhere."""
    if not path.is_symlink():
        return
    message = link_problem(path, root, sources_dir)
    if message is None:
        return
    if "outside the root" in message:
        message += "; copy the record into sources/ instead"
    raise SourceError(message, path=path, record_id=path.stem, rule="source.symlink")


def load_sources(
    sources_dir: Path,
    today: date,
    *,
    processes: int = 1,
    root: Path | None = None,
    known: dict[str, Source] | None = None,
    share: bool = False,
    index: ParsedIndex | None = None,
) -> SourceSet:
    """Read every record (in worker processes if asked); collect problems, do not stop.

    Records must live inside root (by default the folder holding sources/). known maps file
    paths to records read from those files before, unchanged since: they are taken, not read
    again, and every record read is added to it (duplicates too). share: see WorkerMap.
    index: the parsed index, whose data for a file of the same signature is validated
    instead of parsing the file again; what is parsed is added to it.
    """
    base = root if root is not None else sources_dir.parent
    Loaded = tuple[Source | None, list[SourceError], tuple[str, Any] | None]

    def load(path: Path, data: Any = None) -> Loaded:
        parsed = None
        try:
            confine(path, base, sources_dir)
            if data is None:
                mark = file_signature(os.stat(path))  # before the read: a later change shows
                data = read_source_data(path)
                parsed = (mark, data)
            return (*check_record(data, path, today), parsed)
        except SourceError as exc:
            return None, [exc], parsed
        except OSError as exc:
            reason = exc.strerror or type(exc).__name__
            problem = SourceError(f"cannot be read: {reason}", path=path, rule="source.read")
            return None, [problem], parsed

    files = source_files(sources_dir)
    read = known if known is not None else {}
    fresh = [path for path in files if os.fspath(path) not in read]
    kept: dict[Path, Loaded] = {}
    if index is not None:
        for path in fresh:
            try:
                mark = file_signature(os.stat(path))
            except OSError:
                continue
            data = index.get(RECORD_KIND, os.fspath(path), mark)
            if data is not None:
                kept[path] = load(path, data)
    result = SourceSet()
    parse = [path for path in fresh if path not in kept]
    with WorkerMap(load, parse, processes, share=share) as loaded:
        kept.update(zip(parse, loaded, strict=True))
    for path in fresh:
        source, problems, parsed = kept[path]
        result.problems.extend(problems)
        if source is not None:
            read[os.fspath(path)] = source
        if parsed is not None and index is not None:
            index.put(RECORD_KIND, os.fspath(path), *parsed)
    if index is not None:
        index.flush()
    result.sources = [read[name] for name in map(os.fspath, files) if name in read]
    _reject_duplicates(result)
    return result


def _reject_duplicates(result: SourceSet) -> None:
    seen_ids: dict[str, Source] = {}
    seen_urls: dict[str, Source] = {}
    kept = []
    for source in result.sources:
        first = seen_ids.get(source.key)
        if first is not None:
            result.problems.append(
                SourceError(
                    f"duplicate id {source.key!r}; also used by {first.path}",
                    path=source.path,
                    record_id=source.key,
                    field="id",
                    rule="source.duplicate_id",
                )
            )
            continue
        key = url_key(source.url) if source.url else None
        first = seen_urls.get(key) if key else None
        if first is not None:
            result.problems.append(
                SourceError(
                    f"duplicate url {source.url}; also used by {first.path}",
                    path=source.path,
                    record_id=source.key,
                    field="url",
                    rule="source.duplicate_url",
                )
            )
            continue
        seen_ids[source.key] = source
        if key:
            seen_urls[key] = source
        kept.append(source)
    result.sources = kept


def tag_index(sources: Iterable[Source]) -> dict[str, list[Source]]:
    """Group sources by normalized technique and stack tag."""
    index: dict[str, list[Source]] = {}
    for source in sources:
        for tag in {normalize_tag(t) for t in source.tags}:
            index.setdefault(tag, []).append(source)
    return index
