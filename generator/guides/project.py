"""A workspace with its settings, records and guides, loaded once per command."""

from __future__ import annotations

import os
from datetime import date
from functools import cached_property
from pathlib import Path

from generator.core.clock import today
from generator.core.config import CONFIG_NAME, Settings, Workspace, load_settings
from generator.core.errors import ConfigError, PrepguideError
from generator.core.parsed import FILE_NAME as PARSED_FILE
from generator.core.parsed import ParsedIndex, file_signature
from generator.guides.store import GuideStore
from generator.sources.citations import CitationView, resolve_originals
from generator.sources.records import (
    RECORD_KIND,
    Source,
    SourceSet,
    check_record,
    confine,
    load_sources,
    read_source_data,
)
from generator.verify.ledger import Ledger, ledger_path


def require_root(root: Path) -> None:
    """Refuse a folder that is not a prepguide folder (no sources/ and no prepguide.toml)."""
    if not root.is_dir():
        problem = "does not exist" if not root.exists() else "is not a folder"
    elif (root / "sources").is_dir() or (root / CONFIG_NAME).is_file():
        return
    else:
        problem = f"is not a prepguide folder (it has neither sources/ nor {CONFIG_NAME})"
    raise ConfigError(
        f"{problem}; start one with `prepguide init {root}`, or pass --root", path=root, rule="root"
    )


class Project:
    """Everything a command needs about one prepguide root."""

    def __init__(self, root: Path, *, on_date: date | None = None) -> None:
        require_root(root)
        self.workspace = Workspace(root=root.resolve())
        self.settings: Settings = load_settings(self.workspace)
        self.today = on_date or today()
        # What YAML files parsed to, by signature: a cache that changes no result.
        self.parsed = ParsedIndex(self.workspace.state_dir / PARSED_FILE)
        self.guides = GuideStore(self.workspace.guides_dir, index=self.parsed)
        # Which file holds each valid record, when known from a summary of unchanged files:
        # a record is then read alone, not with all the others.
        self.record_paths: dict[str, str] | None = None

    @cached_property
    def sources(self) -> SourceSet:
        return self.load_sources()

    def load_sources(self, processes: int = 1) -> SourceSet:
        """Read the records now, in worker processes if asked; later reads reuse them."""
        if "sources" not in self.__dict__:
            self.__dict__["sources"] = load_sources(
                self.workspace.sources_dir, self.today, processes=processes, index=self.parsed
            )
        return self.__dict__["sources"]

    @cached_property
    def ledger(self) -> Ledger:
        """Return the verification ledger (sources/.verification.jsonl)."""
        return Ledger.load(ledger_path(self.workspace.sources_dir))

    def source(self, source_id: str) -> Source | None:
        if "sources" not in self.__dict__ and self.record_paths is not None:
            path = self.record_paths.get(source_id)
            if path is None:
                return None
            found = self._read_record(Path(path))
            if found is not None and found.key == source_id:
                return found
        return self.sources.by_id().get(source_id)

    def _read_record(self, path: Path) -> Source | None:
        """Read one record file alone (None: it cannot be, and all are read instead)."""
        sources_dir = self.workspace.sources_dir
        try:
            confine(path, sources_dir.parent, sources_dir)
            mark = file_signature(os.stat(path))
            data = self.parsed.get(RECORD_KIND, os.fspath(path), mark)
            if data is None:
                data = read_source_data(path)
                self.parsed.put(RECORD_KIND, os.fspath(path), mark, data)
        except (OSError, PrepguideError):
            return None
        return check_record(data, path, self.today)[0]

    def originals(self, source: Source) -> list[CitationView]:
        """Return the citations of a source with effective Checked dates."""
        return resolve_originals(source, self.ledger)

    @cached_property
    def database_terms(self) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """Return every record's techniques and stack, and every company, sorted and unique."""
        records = self.sources.sources
        vocabulary = {term.strip() for s in records for term in s.tags if term.strip()}
        companies = {s.company.strip() for s in records if s.company.strip()}
        return tuple(sorted(vocabulary)), tuple(sorted(companies))
