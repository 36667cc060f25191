"""What the review page keeps between requests, and the reviewer's default name."""

from __future__ import annotations

import os
import threading
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from generator.checks import findings_cache
from generator.checks.memo import world_key
from generator.core.config import Settings
from generator.guides.document import FRONT_MATTER
from generator.guides.project import Project
from generator.review.comments import assignees, comment_counts
from generator.review.queue import queue_index

REVIEWER_ENV = "PREPGUIDE_REVIEWER"
# Characters of a guide's file that search reads (guides are refused above 2 MB).
MAX_SEARCHED = 2_000_000


def default_reviewer(settings: Settings, environ: Mapping[str, str]) -> str | None:
    """Return PREPGUIDE_REVIEWER, else the [review] reviewer setting; None when neither is set."""
    for value in (environ.get(REVIEWER_ENV), settings.review.reviewer):
        name = " ".join((value or "").split())
        if name:
            return name
    return None


@dataclass(frozen=True)
class Current:
    """The project for one request, with the key of what its checks read (world_key)."""

    project: Project
    world: str
    racy: bool


class Desk:
    """One workspace as a long-lived review page sees it, request after request.

    The project (its records read once) is kept while no record, the ledger, the settings or
    the date changed; the queue's rows and the guides' search texts are kept by signature.
    """

    def __init__(self, root: Path) -> None:
        self.root = root
        self.texts = SearchTexts(Path(root).resolve() / "guides")
        self._rows: dict[str, dict] = {}
        self._kept: tuple[str, Project] | None = None
        self._lock = threading.Lock()
        self._rows_lock = threading.Lock()

    def current(self) -> Current:
        """Return the workspace now: the kept project while what it read is unchanged."""
        fresh = Project(self.root)
        racy: list[bool] = []
        with findings_cache(fresh) as cache:
            world = world_key(fresh, racy, cache)
        with self._lock:
            if self._kept is not None and self._kept[0] == world and not racy:
                return Current(self._kept[1], world, False)
            self._kept = None if racy else (world, fresh)
        return Current(fresh, world, bool(racy))

    def rows(self, now: Current) -> list[dict]:
        """Return every guide's queue row (review.queue_index) with its assignee and comments."""
        with self._rows_lock:  # one request at a time updates the kept rows
            rows = queue_index(now.project, memo=self._rows, world=(now.world, now.racy))
        assigned, counts = assignees(now.project), comment_counts(now.project)
        return [
            {**row, "assignee": assigned.get(row["id"]), "comments": counts.get(row["id"], 0)}
            for row in rows
        ]


class SearchTexts:
    """Each guide's text without its front matter, case-folded for search.

    A long-lived caller keeps one: a file is read again only when its signature changed.
    """

    def __init__(self, guides_dir: Path) -> None:
        self.folder = os.fspath(guides_dir)
        self._texts: dict[str, tuple[tuple[int, int, int], str]] = {}

    def __call__(self, guide_id: str) -> str:
        path = os.path.join(self.folder, f"{guide_id}.md")
        try:
            seen = _file_signature(path)
            kept = self._texts.get(guide_id)
            if kept and kept[0] == seen:
                return kept[1]
            with open(path, encoding="utf-8", errors="replace") as handle:
                text = handle.read(MAX_SEARCHED)
            changed = _file_signature(path) != seen
        except OSError:
            return ""
        found = FRONT_MATTER.match(text)
        folded = (found.group(2) if found else text).casefold()
        if not changed:  # a file changed while read is read again next time
            self._texts[guide_id] = (seen, folded)
        return folded


def _file_signature(path: str) -> tuple[int, int, int]:
    info = os.stat(path)
    return info.st_ino, info.st_size, info.st_mtime_ns
