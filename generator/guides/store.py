"""Reader and writer for guides/: one Markdown file per guide, its revisions and review state."""

from __future__ import annotations

import fcntl
import os
import re
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from pathlib import Path

from generator.core.clock import now
from generator.core.errors import GuideError, StorageError
from generator.core.fsio import atomic_write_many, atomic_write_text, sha256_text
from generator.core.parsed import ParsedIndex
from generator.guides.document import GuideDoc, parse, serialize
from generator.sources.records import is_valid_id

HISTORY_DIR = ".history"
REVIEW_DIR = ".review"
AUDIT_NAME = ".audit.jsonl"
PENDING_SUFFIX = ".pending"
# A guide is a few thousand words; a file beyond this is refused as it is read, before the
# checks would spend minutes and gigabytes on it.
MAX_GUIDE_BYTES = 2_000_000
HISTORY_LOCK = ".lock"
# A group of transitions' write-ahead record (review/group.py). Hidden: no guide id starts
# with a dot.
GROUP_FILE = ".group.wal"
# Held shared by every one-guide review action and exclusively by a group of them, so that a
# group needs no lock file per guide. Hidden: no guide id starts with a dot.
GROUP_LOCK = ".group.lock"
# The review folders whose group lock this thread holds exclusively.
_GROUP_HELD: ContextVar[frozenset[Path]] = ContextVar("group_held", default=frozenset())
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
def storage(path: Path) -> Iterator[None]:
    """Turn an OSError in the block into a StorageError naming path and what to do."""
    try:
        yield
    except OSError as exc:
        raise StorageError.from_os(exc, exc.filename or path) from exc


@contextmanager
def file_lock(path: Path, *, shared: bool = False) -> Iterator[None]:
    """Hold an exclusive (or shared) flock on path (created if missing) for the block."""
    with storage(path):
        path.parent.mkdir(parents=True, exist_ok=True)
        handle = open(path, "a+b")  # noqa: SIM115 - closed below, after the lock is released
    with handle:
        fcntl.flock(handle.fileno(), fcntl.LOCK_SH if shared else fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle.fileno(), fcntl.LOCK_UN)


def visible_names(folder: Path) -> list[str]:
    """List the names in a folder that are not hidden (as glob("*") does); none if missing."""
    try:
        with os.scandir(folder) as entries:
            return [entry.name for entry in entries if not entry.name.startswith(".")]
    except (FileNotFoundError, NotADirectoryError):
        return []


def check_id(guide_id: str) -> str:
    """Return a guide id that is safe as a file name; raise GuideError otherwise."""
    if not is_valid_id(guide_id):
        raise GuideError(
            f"{guide_id!r} is not a guide id: ids are 1-80 characters of a-z, 0-9 and '-' "
            "(not a path, not a reserved device name)",
            record_id=guide_id,
            rule="guide.id",
        )
    return guide_id


class GuideStore:
    """The guides folder of a workspace."""

    def __init__(
        self, guides_dir: Path, root: Path | None = None, index: ParsedIndex | None = None
    ) -> None:
        self.dir = guides_dir
        self.root = root or guides_dir.parent
        self.index = index  # the parsed index of the front matter (core/parsed.py)

    def parse(self, text: str, path: Path) -> GuideDoc:
        """Parse a guide's text read from path, through the parsed index."""
        return parse(text, str(path), self.index)

    def path(self, guide_id: str) -> Path:
        return self.dir / f"{check_id(guide_id)}.md"

    def history_dir(self, guide_id: str) -> Path:
        return self._confined(HISTORY_DIR) / check_id(guide_id)

    @property
    def audit_path(self) -> Path:
        return self.dir / AUDIT_NAME

    def review_path(self, guide_id: str) -> Path:
        return self._confined(REVIEW_DIR) / f"{check_id(guide_id)}.json"

    def pending_path(self, guide_id: str) -> Path:
        """Where a transition's intended state waits until its audit line is durable."""
        return self._confined(REVIEW_DIR) / f"{check_id(guide_id)}{PENDING_SUFFIX}"

    @property
    def group_path(self) -> Path:
        """Where a group of transitions waits until its audit lines are durable."""
        return self._confined(REVIEW_DIR) / GROUP_FILE

    def _confined(self, name: str) -> Path:
        """Return guides/<name>, refusing a symlink that leads outside the workspace."""
        folder = self.dir / name
        if folder.is_symlink():
            target = folder.resolve()
            inside = (self.root.resolve(), self.dir.resolve())
            if not any(target.is_relative_to(base) for base in inside):
                raise GuideError(
                    f"is a symlink to {target}, outside the workspace; review state and "
                    "history are only written inside it: replace the link with a folder",
                    path=folder,
                    rule="guide.symlink",
                )
        return folder

    def ids(self) -> list[str]:
        """List guide ids in a stable order: every working file and every reviewed guide."""
        if not self.dir.is_dir():
            return []
        found = {name[:-3] for name in visible_names(self.dir) if name.endswith(".md")}
        reviewed = (
            name[:-5] for name in visible_names(self.dir / REVIEW_DIR) if name.endswith(".json")
        )
        found.update(stem for stem in reviewed if is_valid_id(stem))
        return sorted(found)

    def pending_ids(self) -> list[str]:
        """List guides with a transition that a killed run left unfinished."""
        review_dir = self._confined(REVIEW_DIR)
        if not review_dir.is_dir():
            return []
        names = (path.name[: -len(PENDING_SUFFIX)] for path in review_dir.glob("*.pending"))
        return sorted(name for name in names if is_valid_id(name))

    def check_writable(self) -> None:
        """Raise StorageError before any change when guides/ or its state cannot be written."""
        for folder in (self.dir, self._confined(REVIEW_DIR), self._confined(HISTORY_DIR)):
            if folder.exists() and not os.access(folder, os.W_OK | os.X_OK):
                raise StorageError(
                    "is not writable (permissions or a read-only file system); nothing was "
                    "changed: make it writable or run a read-only command",
                    path=folder,
                    rule="guide.readonly",
                )
        audit = self.audit_path
        if audit.exists() and not os.access(audit, os.W_OK):
            raise StorageError(
                "is not writable (permissions or a read-only file system); nothing was "
                "changed: make it writable",
                path=audit,
                rule="guide.readonly",
            )

    def read_text(self, guide_id: str) -> str | None:
        path = self.path(guide_id)
        try:
            with open(path, "rb") as handle:
                size = os.fstat(handle.fileno()).st_size
                if size > MAX_GUIDE_BYTES:
                    raise GuideError(
                        f"is {size / 1e6:.1f} MB; a guide may be at most "
                        f"{MAX_GUIDE_BYTES / 1e6:.0f} MB: shorten it, or generate it again",
                        path=path,
                        record_id=guide_id,
                        rule="guide.too_large",
                    )
                return handle.read().decode("utf-8")
        except FileNotFoundError:
            return None
        except UnicodeDecodeError as exc:
            raise GuideError("not UTF-8", path=path, record_id=guide_id) from exc

    def read(self, guide_id: str) -> GuideDoc | None:
        """Parse a guide, or return None when it does not exist."""
        text = self.read_text(guide_id)
        return None if text is None else self.parse(text, self.path(guide_id))

    @contextmanager
    def review_lock(self, guide_id: str) -> Iterator[None]:
        """Serialise review actions on one guide, across threads and processes."""
        folder = self._confined(REVIEW_DIR)
        name = f"{check_id(guide_id)}.lock"
        if folder in _GROUP_HELD.get():
            yield  # this thread's group lock already excludes every other review action
            return
        with file_lock(folder / GROUP_LOCK, shared=True), file_lock(folder / name):
            yield

    @contextmanager
    def group_lock(self) -> Iterator[None]:
        """Hold every guide's review lock at once: for a group of transitions, with one file."""
        folder = self._confined(REVIEW_DIR)
        if folder in _GROUP_HELD.get():
            yield
            return
        with file_lock(folder / GROUP_LOCK):
            token = _GROUP_HELD.set(_GROUP_HELD.get() | {folder})
            try:
                yield
            finally:
                _GROUP_HELD.reset(token)

    def holds_group(self) -> bool:
        """Return True while this thread holds the group lock (group_lock)."""
        return self._confined(REVIEW_DIR) in _GROUP_HELD.get()

    def read_review(self, guide_id: str, *, pending: bool = False) -> str | None:
        """Return the raw review state (or pending state) of a guide, or None when absent."""
        path = self.pending_path(guide_id) if pending else self.review_path(guide_id)
        try:
            return path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return None
        except UnicodeDecodeError as exc:
            raise GuideError(
                f"is not UTF-8 ({exc.reason} at byte {exc.start}); restore it from a backup "
                "or delete it to start the guide's review again",
                path=path,
                record_id=guide_id,
                rule="review.state",
            ) from exc

    def write_review(self, guide_id: str, text: str, *, pending: bool = False) -> None:
        """Write the review state (or pending state) of a guide atomically."""
        path = self.pending_path(guide_id) if pending else self.review_path(guide_id)
        with storage(path):
            atomic_write_text(path, text)

    def drop_pending(self, guide_id: str) -> None:
        """Remove a guide's pending state once it is applied or abandoned."""
        self.pending_path(guide_id).unlink(missing_ok=True)

    def keep_copy(self, guide_id: str) -> Path | None:
        """Copy the current file into the history folder unless the same content is kept."""
        text = self.read_text(guide_id)
        if text is None:
            return None
        return self.keep_text(guide_id, text).path

    @contextmanager
    def history_lock(self) -> Iterator[None]:
        """Serialise additions to the history of every guide, across threads and processes."""
        with file_lock(self._confined(HISTORY_DIR) / HISTORY_LOCK):
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
            with storage(revision.path):
                atomic_write_text(revision.path, text)
            return revision

    def plan_revision(
        self, guide_id: str, text: str, content_hash: str
    ) -> tuple[Revision, list[tuple[Path, bytes]]]:
        """Return the revision that keeps text and the write it needs (none if already kept).

        Hold history_lock until the write is done, so that no other run takes its number.
        """
        kept = self.revisions(guide_id)
        digest = content_hash[:12]
        for revision in kept:
            if revision.digest == digest:
                return revision, []
        revision = self._next_revision(guide_id, kept, digest)
        return revision, [(revision.path, text.encode("utf-8"))]

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
        with storage(self.path(guide_id)):
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


# Career articles live beside the guides: guides/articles/, their ids article:SLUG.
ARTICLES_DIR = "articles"
PREFIX = "article:"


def article_slug(article_id: str) -> str | None:
    """Return the slug of an `article:SLUG` id, or None for any other id."""
    if not article_id.startswith(PREFIX):
        return None
    slug = article_id[len(PREFIX) :]
    return slug if is_valid_id(slug) else None


def split_ids(ids: Sequence[str]) -> tuple[list[str], list[str]]:
    """Split ids into guide ids and article slugs."""
    slugs = [slug for slug in (article_slug(i) for i in ids) if slug is not None]
    return [i for i in ids if article_slug(i) is None], slugs


def article_store(guides_dir: Path) -> GuideStore:
    """Return the store of the articles' drafts, review state and history."""
    return GuideStore(guides_dir / ARTICLES_DIR, guides_dir.parent)
