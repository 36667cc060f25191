"""Reader and writer for guides/: one Markdown file per guide, its revisions and review state."""

from __future__ import annotations

import fcntl
import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from generator.clock import now
from generator.errors import GuideError
from generator.fsio import atomic_write_many, atomic_write_text, sha256_text
from generator.guides import GuideDoc, parse, serialize

HISTORY_DIR = ".history"
REVIEW_DIR = ".review"
AUDIT_NAME = ".audit.jsonl"
HISTORY_LOCK = ".lock"
REVISION_NAME = re.compile(
    r"^(?:(?P<seq>\d{4,})-)?(?P<stamp>\d{8}T\d{6}Z)-(?P<digest>[0-9a-f]{12})$"
)


@dataclass(frozen=True)
class Revision:
    """One kept version of a guide file."""

    path: Path
    seq: int
    stamp: str
    digest: str

    @property
    def name(self) -> str:
        return self.path.name

    def read_text(self) -> str:
        return self.path.read_text(encoding="utf-8")

    def read(self) -> GuideDoc:
        return parse(self.read_text(), str(self.path))


def content_digest(text: str) -> str:
    """Hash what approval is bound to: the body when the file parses, else the whole file."""
    try:
        return parse(text).content_hash
    except GuideError:
        return sha256_text(text)


@contextmanager
def file_lock(path: Path) -> Iterator[None]:
    """Hold an exclusive fcntl lock on path (created if missing) for the block."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "a+b") as handle:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle.fileno(), fcntl.LOCK_UN)


class GuideStore:
    """The guides folder of a workspace."""

    def __init__(self, guides_dir: Path) -> None:
        self.dir = guides_dir

    def path(self, guide_id: str) -> Path:
        return self.dir / f"{guide_id}.md"

    def history_dir(self, guide_id: str) -> Path:
        return self.dir / HISTORY_DIR / guide_id

    @property
    def audit_path(self) -> Path:
        return self.dir / AUDIT_NAME

    def review_path(self, guide_id: str) -> Path:
        return self.dir / REVIEW_DIR / f"{guide_id}.json"

    def ids(self) -> list[str]:
        """List guide ids in a stable order."""
        if not self.dir.is_dir():
            return []
        return sorted(path.stem for path in self.dir.glob("*.md"))

    def read_text(self, guide_id: str) -> str | None:
        try:
            return self.path(guide_id).read_text(encoding="utf-8")
        except FileNotFoundError:
            return None
        except UnicodeDecodeError as exc:
            raise GuideError("not UTF-8", path=self.path(guide_id), record_id=guide_id) from exc

    def read(self, guide_id: str) -> GuideDoc | None:
        """Parse a guide, or return None when it does not exist."""
        text = self.read_text(guide_id)
        return None if text is None else parse(text, str(self.path(guide_id)))

    @contextmanager
    def review_lock(self, guide_id: str) -> Iterator[None]:
        """Serialise review actions on one guide, across threads and processes."""
        with file_lock(self.dir / REVIEW_DIR / f"{guide_id}.lock"):
            yield

    def read_review(self, guide_id: str) -> str | None:
        """Return the raw review state of a guide, or None when it has none."""
        try:
            return self.review_path(guide_id).read_text(encoding="utf-8")
        except FileNotFoundError:
            return None

    def write_review(self, guide_id: str, text: str) -> None:
        """Write the review state of a guide atomically."""
        atomic_write_text(self.review_path(guide_id), text)

    def keep_copy(self, guide_id: str) -> Path | None:
        """Copy the current file into the history folder unless the same content is kept."""
        text = self.read_text(guide_id)
        if text is None:
            return None
        return self.keep_text(guide_id, text).path

    @contextmanager
    def history_lock(self) -> Iterator[None]:
        """Serialise additions to the history of every guide, across threads and processes."""
        with file_lock(self.dir / HISTORY_DIR / HISTORY_LOCK):
            yield

    def keep_text(self, guide_id: str, text: str, content_hash: str | None = None) -> Revision:
        """Keep text as a revision unless one with the same content exists; return it."""
        digest = (content_hash or content_digest(text))[:12]
        with self.history_lock():
            kept = self.revisions(guide_id)
            for revision in kept:
                if revision.digest == digest:
                    return revision
            revision = self._next_revision(guide_id, kept, digest)
            atomic_write_text(revision.path, text)
            return revision

    def _next_revision(self, guide_id: str, kept: list[Revision], digest: str) -> Revision:
        seq = (kept[-1].seq + 1) if kept else 1
        stamp = now().strftime("%Y%m%dT%H%M%SZ")
        target = self.history_dir(guide_id) / f"{seq:04d}-{stamp}-{digest}.md"
        return Revision(path=target, seq=seq, stamp=stamp, digest=digest)

    def revisions(self, guide_id: str) -> list[Revision]:
        """List kept versions, oldest first."""
        folder = self.history_dir(guide_id)
        found = []
        for path in folder.glob("*.md") if folder.is_dir() else []:
            match = REVISION_NAME.match(path.stem)
            if match:
                seq = int(match["seq"]) if match["seq"] else 0
                found.append(Revision(path, seq, match["stamp"], match["digest"]))
        return sorted(found, key=lambda r: (r.seq, r.stamp, r.name))

    def revision(self, guide_id: str, content_hash: str) -> Revision | None:
        """Return the kept revision whose content has this hash."""
        for revision in self.revisions(guide_id):
            if (
                revision.digest == content_hash[:12]
                and revision.read().content_hash == content_hash
            ):
                return revision
        return None

    def history(self, guide_id: str) -> list[Path]:
        """List kept version files, oldest first."""
        return [revision.path for revision in self.revisions(guide_id)]

    def set_status(self, guide_id: str, status: str, content_hash: str) -> None:
        """Mirror a review status into the front matter while the body is the reviewed one."""
        doc = self.read(guide_id)
        if doc is None or doc.content_hash != content_hash or doc.meta.status == status:
            return
        doc.meta.status = status
        atomic_write_text(self.path(guide_id), serialize(doc))

    def write(self, doc: GuideDoc) -> None:
        """Write a guide atomically, keeping the previous and the new version as revisions."""
        failed = self.write_many([doc])
        if failed:
            raise failed[doc.meta.id]

    def write_many(self, docs: list[GuideDoc]) -> dict[str, GuideError]:
        """Write guides and their revisions with one flush to disk; return those not written.

        Per guide, in this order: a copy of a differing current file (an editor's text), the
        guide, then its new revision. A guide whose current file cannot be read is left alone.
        """
        failed: dict[str, GuideError] = {}
        writes: list[tuple[Path, bytes]] = []
        with self.history_lock():
            for doc in docs:
                try:
                    writes += self._planned_writes(doc)
                except GuideError as exc:
                    failed[doc.meta.id] = exc
            atomic_write_many(writes)
        return failed

    def _planned_writes(self, doc: GuideDoc) -> list[tuple[Path, bytes]]:
        guide_id = doc.meta.id
        text = serialize(doc)
        current = self.read_text(guide_id)
        kept = self.revisions(guide_id)
        writes = []
        if current is not None and current != text:
            writes += self._planned_revision(guide_id, kept, current, content_digest(current))
        writes.append((self.path(guide_id), text.encode("utf-8")))
        writes += self._planned_revision(guide_id, kept, text, doc.content_hash)
        return writes

    def _planned_revision(
        self, guide_id: str, kept: list[Revision], text: str, content_hash: str
    ) -> list[tuple[Path, bytes]]:
        digest = content_hash[:12]
        if any(revision.digest == digest for revision in kept):
            return []
        kept.append(self._next_revision(guide_id, kept, digest))
        return [(kept[-1].path, text.encode("utf-8"))]
