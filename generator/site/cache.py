"""Cache: check verdicts kept between builds, and the fingerprint of a build's inputs.

Body HTML is not cached: a page whose inputs did not change is reused from the last site
(write.SiteWriter), and a page that must change is rendered from its text, never taken from
a file that anyone could have edited.
"""

from __future__ import annotations

import gc
import hashlib
import json
import os
import pickle
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

from generator.core import collector
from generator.core.clock import now
from generator.core.codeversion import code_version
from generator.core.errors import SourceError
from generator.core.workers import WorkerMap
from generator.guides.project import Project
from generator.guides.store import HISTORY_DIR, REVIEW_DIR
from generator.sources.records import (
    Source,
    SourceSet,
    _reject_duplicates,
    check_record,
    confine,
    read_source_data,
    source_files,
)

if TYPE_CHECKING:
    from generator.site.model import RelatedIndex
    from generator.site.select import KnownPick
    from generator.sources.topics import Topic

CACHE_DIR = "publish"
SCHEMA_VERSION = 2
TABLES = ("verdicts",)


def move_aside(path: Path, why: str, warnings: list[str]) -> None:
    """Rename a broken cache file out of the way and say so; the build starts it afresh."""
    stamp = now().strftime("%Y%m%dT%H%M%SZ")
    target = path.with_name(f"{path.name}.broken-{stamp}-{os.getpid()}")
    try:
        path.rename(target)
    except FileNotFoundError:
        return
    for suffix in ("-wal", "-shm"):
        path.with_name(path.name + suffix).unlink(missing_ok=True)
    warnings.append(f"{path}: {why}; moved aside to {target.name} and rebuilt")


class BuildCache:
    """Check verdicts keyed by content hash, kept in SQLite between builds.

    Any process may look entries up (each opens its own connection); only the process that
    made the cache records new entries, so forked workers hand theirs back as results. A file
    that is not this cache (corrupt, another schema) is moved aside with a warning.
    """

    def __init__(self, path: Path | None, warnings: list[str] | None = None) -> None:
        self.path = path
        self.warnings = warnings if warnings is not None else []
        self.used: dict[str, set[str]] = {table: set() for table in TABLES}
        self._db: sqlite3.Connection | None = None
        self._inherited: sqlite3.Connection | None = None
        self._pid = os.getpid()
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
            try:
                self._db = self._open(path)
            except sqlite3.DatabaseError as exc:
                move_aside(path, f"not a usable publish cache ({exc})", self.warnings)
                self._db = self._open(path)

    @staticmethod
    def _open(path: Path) -> sqlite3.Connection:
        db = sqlite3.connect(path)
        try:
            version = db.execute("PRAGMA user_version").fetchone()[0]
            tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master")}
            if version != SCHEMA_VERSION and tables:
                raise sqlite3.DatabaseError(f"schema {version}, expected {SCHEMA_VERSION}")
            # WAL: workers read while this process writes new entries. A cache needs no fsync
            # per commit; WAL with synchronous=NORMAL still cannot be corrupted by a crash.
            db.execute("PRAGMA journal_mode=wal")
            db.execute("PRAGMA synchronous=normal")
            for table in TABLES:
                db.execute(f"CREATE TABLE IF NOT EXISTS {table} (key TEXT PRIMARY KEY, value TEXT)")
                columns = [row[1] for row in db.execute(f"PRAGMA table_info({table})")]
                if columns != ["key", "value"]:
                    raise sqlite3.DatabaseError(f"table {table} has columns {columns}")
            db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            db.commit()
        except BaseException:
            db.close()
            raise
        return db

    def _reader(self) -> sqlite3.Connection | None:
        if self._db is None or os.getpid() == self._pid:
            return self._db
        # A forked worker: never use the parent's connection, and never close it either (closing
        # it here could act on the parent's files), so keep a reference for the worker's life.
        assert self.path is not None
        self._inherited = self._db
        self._db = sqlite3.connect(f"{self.path.absolute().as_uri()}?mode=ro", uri=True)
        self._pid = os.getpid()
        return self._db

    def get(self, table: str, key: str) -> str | None:
        """Return a stored entry (None when missing or unreadable)."""
        db = self._reader()
        if db is None:
            return None
        try:
            row = db.execute(f"SELECT value FROM {table} WHERE key = ?", (key,)).fetchone()
        except sqlite3.DatabaseError:
            return None
        return row[0] if row and isinstance(row[0], str) else None

    def verdict(self, key: str) -> list[str] | None:
        """Return the stored undated verdict (the rules with errors), if it is well-formed."""
        stored = self.get("verdicts", key)
        try:
            rules = json.loads(stored) if stored is not None else None
        except ValueError:
            return None
        if isinstance(rules, list) and all(isinstance(rule, str) for rule in rules):
            return rules
        return None

    def record(self, table: str, key: str, new_value: str | None = None) -> None:
        """Mark an entry as used by this build, storing it when it is new."""
        self.used[table].add(key)
        if new_value is not None and self._db is not None and os.getpid() == self._pid:
            self._db.execute(f"INSERT OR REPLACE INTO {table} VALUES (?, ?)", (key, new_value))

    def close(self) -> None:
        """Save new entries, drop those this build did not use."""
        if self._db is None or os.getpid() != self._pid:
            return
        db = self._db
        for table in TABLES:
            db.execute("CREATE TEMP TABLE IF NOT EXISTS used (key TEXT PRIMARY KEY)")
            db.execute("DELETE FROM used")
            db.executemany(
                "INSERT OR IGNORE INTO used VALUES (?)", ((k,) for k in self.used[table])
            )
            db.execute(f"DELETE FROM {table} WHERE key NOT IN (SELECT key FROM used)")
        db.commit()
        db.close()
        self._db = None


def walk(
    folder: Path | str, skip: Path | str | tuple[str, ...] | None = None
) -> Iterator[os.DirEntry]:
    """Yield the files below folder in a stable order, leaving out the skip folder(s)."""
    skipped = (os.fspath(skip),) if isinstance(skip, (str, Path)) else skip or ()
    pending = [os.fspath(folder)]
    while pending:
        current = pending.pop()
        try:
            entries = sorted(os.scandir(current), key=lambda e: e.name)
        except (FileNotFoundError, NotADirectoryError):
            continue
        folders = []
        for entry in entries:
            if entry.is_dir(follow_symlinks=False):
                if entry.path not in skipped:
                    folders.append(entry.path)
            elif entry.is_file():
                yield entry
        pending.extend(reversed(folders))


def _signature(st: os.stat_result) -> str:
    return f"{st.st_size}:{st.st_mtime_ns}:{st.st_ino}"


def input_signatures(project: Project, previous: dict[str, str] | None = None) -> dict[str, str]:
    """Return a signature (size, mtime, inode) of every file the site may be made from.

    With the previous build's signatures, the kept revisions of a guide whose review state
    did not change are the files that build saw, each looked at again (stat) instead of its
    folder being listed: a guide's pages read only the revision its review state names.
    """
    ws = project.workspace
    skipped = [os.fspath(ws.state_dir / CACHE_DIR)]
    guides = os.fspath(project.guides.dir)
    history = os.path.join(guides, HISTORY_DIR)
    if previous:
        skipped.append(history)
    found = {}
    for folder in (ws.sources_dir, ws.guides_dir, ws.state_dir):
        for entry in walk(folder, skip=tuple(skipped)):
            if entry.name.endswith(SKIPPED_SUFFIXES):
                continue
            found[entry.path] = _signature(entry.stat())
    if previous:
        _history_signatures(guides, previous, found)
    return found


SKIPPED_SUFFIXES = (".pyc", ".tmp", ".lock")


def _history_signatures(guides: str, previous: dict[str, str], found: dict[str, str]) -> None:
    """Add the signatures of the kept revisions (see input_signatures) to found."""
    history = os.path.join(guides, HISTORY_DIR) + os.sep
    review = os.path.join(guides, REVIEW_DIR) + os.sep
    kept: dict[str, list[str]] = {}
    for path in previous:
        if path.startswith(history):
            kept.setdefault(path[len(history) :].split(os.sep, 1)[0], []).append(path)
    ids = {path[len(review) :].rpartition(".")[0] for path in found if path.startswith(review)}
    # A guide without a review state reads no revision; its files are kept as they were seen.
    for guide_id in sorted(ids | kept.keys()):
        if not guide_id:
            continue
        state = (f"{review}{guide_id}.json", f"{review}{guide_id}.pending")
        if all(found.get(path) == previous.get(path) for path in state):
            for path in kept.get(guide_id, ()):
                try:
                    found[path] = _signature(os.stat(path))
                except OSError:
                    continue
            continue
        for entry in walk(history + guide_id):
            if not entry.name.endswith(SKIPPED_SUFFIXES):
                found[entry.path] = _signature(entry.stat())


def base_fingerprint(project: Project, out_dir: Path, preview: bool, strict: bool = False) -> str:
    """Hash what every page depends on: settings, code and templates, the date and the mode."""
    digest = hashlib.sha256()
    header = [code_version(), str(out_dir.resolve()), preview, project.today.isoformat()]
    header += ["strict"] if strict else []
    digest.update(json.dumps(header).encode())
    digest.update(project.settings.model_dump_json().encode())
    config = project.workspace.config_path
    if config.exists():
        digest.update(config.read_bytes())
    return digest.hexdigest()


def input_fingerprint(base: str, signatures: dict[str, str]) -> str:
    """Hash what the site is made from: the base, and every input file's signature."""
    digest = hashlib.sha256(base.encode())
    for path in sorted(signatures):  # the same files in any order: the same inputs
        digest.update(f"{path}\0{signatures[path]}\n".encode())
    return digest.hexdigest()


def changed_paths(before: dict[str, str], after: dict[str, str]) -> set[str]:
    """Return the input files whose signature differs between two builds (or that came or went)."""
    changed = {path for path, signature in after.items() if before.get(path) != signature}
    changed.update(path for path in before if path not in after)
    return changed


def only_working_files(project: Project, changed: set[str], live: list[str]) -> bool:
    """Return True when the only inputs that changed are working files of live guides.

    A live guide's pages are made from its approved revision, never from guides/<id>.md, so
    editing (or deleting) that file changes no page.
    """
    if not changed:
        return False
    folder = os.fspath(project.guides.dir)
    files = {os.path.join(folder, f"{guide_id}.md") for guide_id in live}
    return changed <= files


# --- what the last build of an output folder read, kept for the next one --------------------

STATE_VERSION = 3


@dataclass
class SiteState:
    """The last build's parsed records and picks, each with the signature of its inputs.

    Kept beside the manifest, written only by this process (pickled: it holds parsed records
    and is ours alone; a file others may write is not trusted, see read_state).
    """

    code: str = ""
    base: str = ""
    # The signature of every input file as the picks below saw it (before this build marked
    # any guide published: those have no kept pick), and the key of what every pick reads
    # (see pick_keys): a guide none of whose files changed since keeps its pick's key.
    signatures: dict[str, str] = field(default_factory=dict)
    common: str = ""
    # Record file path -> (its signature, the parsed record).
    sources: dict[str, tuple[str, Source]] = field(default_factory=dict)
    picks: dict[str, KnownPick] = field(default_factory=dict)
    facts: list[tuple] = field(default_factory=list)
    # What is made from all the records (see records_key): the records in order when none
    # had a problem, the topic hubs and the related-stories index.
    topics_key: str = ""
    records: list[Source] | None = None
    topics: list[Topic] | None = None
    related: RelatedIndex | None = None


# Kept in a file of their own, written again only when a record changed.
RECORD_FIELDS = ("topics_key", "sources", "records", "topics", "related")


@contextmanager
def no_collection() -> Iterator[None]:
    """Keep the cyclic collector off while many long-lived objects are made, then freeze them.

    Loading the kept state makes some hundred thousand objects, none of them garbage; the
    collections their allocation triggers would walk them again and again, and so would the
    next ones unless they are frozen (publish unfreezes everything when it ends).
    """
    with collector.paused():
        try:
            yield
        finally:
            gc.freeze()


def _load(path: Path, warnings: list[str]) -> object:
    try:
        with open(path, "rb") as handle:
            st = os.fstat(handle.fileno())
            if st.st_uid != os.getuid() or st.st_mode & 0o022:
                warnings.append(f"{path}: writable by others; not used")
                return None
            with no_collection():
                return pickle.load(handle)
    except FileNotFoundError:
        return None
    except Exception as exc:  # noqa: BLE001 - any unreadable state is rebuilt
        move_aside(path, f"unreadable publish state ({type(exc).__name__})", warnings)
        return None


def _dump(path: Path, data: object) -> None:
    temp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    with open(temp, "wb") as handle:
        os.fchmod(handle.fileno(), 0o600)
        pickle.dump(data, handle, protocol=pickle.HIGHEST_PROTOCOL)
    os.replace(temp, path)


def _records_path(path: Path) -> Path:
    return path.with_name(path.name.replace("state-", "records-", 1))


def read_state(path: Path, warnings: list[str]) -> SiteState | None:
    """Return the kept state of the last build, or None (missing, another code, broken)."""
    code = f"{STATE_VERSION}:{code_version()}"
    state = _load(path, warnings)
    if not isinstance(state, SiteState) or state.code != code:
        return None
    kept = _load(_records_path(path), warnings)
    if isinstance(kept, dict) and kept.get("code") == code:
        for name in RECORD_FIELDS:
            setattr(state, name, kept[name])
    return state


def write_state(path: Path, state: SiteState, *, records_unchanged: bool = False) -> None:
    """Write the state atomically, readable by this user only (the records when changed)."""
    state.code = f"{STATE_VERSION}:{code_version()}"
    if not records_unchanged or not _records_path(path).exists():
        write_records(path, state)
    _dump(path, replace(state, topics_key="", sources={}, records=None, topics=None, related=None))


def write_records(path: Path, state: SiteState) -> None:
    """Write what is made from the records alone (RECORD_FIELDS) beside the state at path.

    The file stands on its own: the records in it carry the signatures of the files they were
    read from, and the rest is reused only under the key of those signatures (topics_key), so
    it may be written before the build's other state, or without it when the build fails.
    """
    code = f"{STATE_VERSION}:{code_version()}"
    _dump(_records_path(path), {"code": code, **{n: getattr(state, n) for n in RECORD_FIELDS}})


def state_path(manifest_path: Path) -> Path:
    """Return where the state of the build whose manifest is manifest_path is kept."""
    return manifest_path.with_name(manifest_path.stem.replace("manifest", "state") + ".pickle")


def load_sources_cached(
    project: Project,
    signatures: dict[str, str],
    previous: SiteState | None,
    processes: int,
) -> dict[str, tuple[str, Source]]:
    """Read the records, taking those whose file signature is unchanged from the last build.

    Records with a problem are read again every time, so that their errors are reported.
    Returns the entries to keep for the next build.
    """
    ws = project.workspace
    records = previous.records if previous is not None else None
    if records is not None and previous.topics_key == records_key(project, signatures):
        project.__dict__["sources"] = SourceSet(sources=list(records))
        return previous.sources
    kept = previous.sources if previous is not None else {}
    files = source_files(ws.sources_dir)
    reuse: dict[str, Source] = {}
    for path in files:
        name = os.fspath(path)
        entry = kept.get(name)
        if entry is not None and entry[0] == signatures.get(name):
            reuse[name] = entry[1]
    fresh = [path for path in files if os.fspath(path) not in reuse]
    result = SourceSet()
    by_path: dict[str, Source] = {}

    def load(path: Path) -> tuple[Source | None, list[SourceError]]:
        # As generator.sources.records.load_sources reads each file (that module is part of the
        # checks' code version, so it is left as it is).
        try:
            confine(path, ws.root, ws.sources_dir)
            return check_record(read_source_data(path), path, project.today)
        except SourceError as exc:
            return None, [exc]
        except OSError as exc:
            reason = exc.strerror or type(exc).__name__
            return None, [SourceError(f"cannot be read: {reason}", path=path, rule="source.read")]

    with WorkerMap(load, fresh, processes, share=True) as loaded:
        for path, (source, problems) in zip(fresh, loaded, strict=True):
            result.problems.extend(problems)
            if source is not None:
                by_path[os.fspath(path)] = source
    entries: dict[str, tuple[str, Source]] = {}
    for path in files:
        name = os.fspath(path)
        source = reuse.get(name) or by_path.get(name)
        if source is None:
            continue
        result.sources.append(source)
        if name in signatures:
            entries[name] = (signatures[name], source)
    _reject_duplicates(result)
    project.__dict__["sources"] = result
    return entries


def records_key(project: Project, signatures: dict[str, str]) -> str:
    """Hash the signature of every file in sources/ (records and the verification ledger)."""
    sources = os.fspath(project.workspace.sources_dir) + os.sep
    head = f"{project.settings.topics.min_sources}\0{sources}"
    kept = _RECORDS_KEY.get(id(signatures))
    if kept is not None and kept[0] is signatures and kept[1] == head:
        return kept[2]  # the same signatures of this build: hashed once
    digest = hashlib.sha256(str(project.settings.topics.min_sources).encode())
    for path, signature in signatures.items():
        if path.startswith(sources):
            digest.update(f"{path}\0{signature}\n".encode())
    _RECORDS_KEY.clear()
    _RECORDS_KEY[id(signatures)] = (signatures, head, digest.hexdigest())
    return digest.hexdigest()


_RECORDS_KEY: dict[int, tuple[dict[str, str], str, str]] = {}


def pick_keys(
    project: Project,
    signatures: dict[str, str],
    base: str,
    preview: bool,
    previous: SiteState | None = None,
    records: str | None = None,
) -> tuple[str, dict[str, str]]:
    """Return the key of what every pick reads, and each guide's key of its selection inputs.

    A guide's pick reads its working file, review state (a pending one with the audit log),
    its kept revisions and the records (all of them: the checks know the database's terms),
    with the settings and the date. A guide none of whose files changed since the previous
    build keeps that build's key, when what every pick reads is the same. records is
    records_key(project, signatures) when the caller has it.
    """
    guides = os.fspath(project.guides.dir)
    database = hashlib.sha256(f"{base}\0{preview}\0{now().date()}\0".encode())
    database.update((records or records_key(project, signatures)).encode())
    common = database.hexdigest()
    audit = os.fspath(project.guides.audit_path)
    stale: set[str] | None = None
    if previous is not None and previous.common == common and previous.signatures:
        changed = changed_paths(previous.signatures, signatures)
        stale = {g for g in (guide_of_path(guides, path) for path in changed) if g is not None}
        if audit in changed:  # a pending state's pick reads the audit log
            review = os.path.join(guides, REVIEW_DIR) + os.sep
            stale.update(
                path[len(review) : -len(".pending")]
                for path in signatures
                if path.endswith(".pending") and path.startswith(review)
            )
        if len(stale) > REKEY_LIMIT:
            stale = None
    keys: dict[str, str] = {}
    if stale is not None:
        assert previous is not None
        for guide_id, pick in previous.picks.items():
            if guide_id not in stale:
                keys[guide_id] = pick.key
        wanted = stale  # a guide without a kept pick had its files changed: it is stale
    else:
        wanted = None
    own: dict[str, list[str]] = {}
    if wanted is not None and len(wanted) <= FEW_GUIDES:
        for guide_id in wanted:
            files = _own_files(guides, guide_id, signatures)
            if files:
                own[guide_id] = [f"{path}\0{signatures[path]}" for path in files]
    else:
        for path, signature in signatures.items():
            guide_id = guide_of_path(guides, path)
            if guide_id is not None and (wanted is None or guide_id in wanted):
                own.setdefault(guide_id, []).append(f"{path}\0{signature}")
    audit_signature = signatures.get(audit, "")
    for guide_id, files in own.items():
        digest = hashlib.sha256(common.encode())
        for line in sorted(files):
            digest.update(line.encode() + b"\n")
        if any(line.split("\0", 1)[0].endswith(".pending") for line in files):
            digest.update(f"audit\0{audit_signature}".encode())
        keys[guide_id] = digest.hexdigest()
    return common, keys


# More guides with changed files than this: key them all again, in one pass.
REKEY_LIMIT = 200
# Up to this many guides to key: find each one's files by name instead of in one pass.
FEW_GUIDES = 8


def _own_files(guides: str, guide_id: str, signatures: dict[str, str]) -> list[str]:
    """Return the files of one guide among the signatures (as guide_of_path assigns them)."""
    review = os.path.join(guides, REVIEW_DIR)
    named = [
        os.path.join(guides, f"{guide_id}.md"),
        *(os.path.join(review, f"{guide_id}{suffix}") for suffix in (".json", ".pending")),
    ]
    files = [path for path in named if path in signatures]
    history = os.path.join(guides, HISTORY_DIR, guide_id) + os.sep
    files += [path for path in signatures if path.startswith(history)]
    return files


def guide_of_path(guides: str, path: str) -> str | None:
    """Return the guide whose own file path is (working file, review state, history), if any."""
    if not path.startswith(guides + os.sep):
        return None
    parts = path[len(guides) + 1 :].split(os.sep)
    if len(parts) == 1 and parts[0].endswith(".md"):
        return parts[0][:-3]
    if len(parts) == 2 and parts[0] == REVIEW_DIR:
        stem = parts[1].rpartition(".")[0]
        return stem or None
    if len(parts) >= 3 and parts[0] == HISTORY_DIR:
        return parts[1]
    return None


def guide_local(project: Project, changed: set[str]) -> bool:
    """Return True when every input that changed is one guide's own file, the audit log or a lock.

    Then only the picks of those guides can change (their keys in pick_keys changed).
    """
    guides = os.fspath(project.guides.dir)
    audit = os.fspath(project.guides.audit_path)
    for path in changed:
        if path == audit or path.endswith(".lock") and path.startswith(guides + os.sep):
            continue
        if guide_of_path(guides, path) is None:
            return False
    return True


def refresh_signatures(project: Project, signatures: dict[str, str], ids: list[str]) -> None:
    """Update the signatures of these guides' own files and of the audit log after a change."""
    guides = os.fspath(project.guides.dir)
    review = os.path.join(guides, REVIEW_DIR)
    history = os.path.join(guides, HISTORY_DIR)
    names = {os.fspath(project.guides.audit_path)}
    for guide_id in ids:
        names.add(os.path.join(guides, f"{guide_id}.md"))
        names.update(
            os.path.join(review, f"{guide_id}{suffix}") for suffix in (".json", ".pending")
        )
        names.update(entry.path for entry in walk(os.path.join(history, guide_id)))
    for name in names:
        try:
            st = os.stat(name)
        except OSError:
            signatures.pop(name, None)
            continue
        signatures[name] = _signature(st)
