"""Cache: check verdicts kept between builds, and the fingerprint of a build's inputs.

Body HTML is not cached: a page whose inputs did not change is reused from the last site
(write.SiteWriter), and a page that must change is rendered from its text, never taken from
a file that anyone could have edited.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
from collections.abc import Iterator
from pathlib import Path

from generator.clock import now
from generator.codehash import code_version
from generator.project import Project

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


def walk(folder: Path | str, skip: Path | None = None) -> Iterator[os.DirEntry]:
    """Yield the files below folder in a stable order, leaving out the skip folder."""
    skipped = os.fspath(skip) if skip is not None else None
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
                if entry.path != skipped:
                    folders.append(entry.path)
            elif entry.is_file():
                yield entry
        pending.extend(reversed(folders))


def input_signatures(project: Project) -> dict[str, str]:
    """Return a signature (size, mtime, inode) of every file the site may be made from."""
    ws = project.workspace
    cache = ws.state_dir / CACHE_DIR
    found = {}
    for folder in (ws.sources_dir, ws.guides_dir, ws.state_dir):
        for entry in walk(folder, skip=cache):
            if entry.name.endswith((".pyc", ".tmp", ".lock")):
                continue
            st = entry.stat()
            found[entry.path] = f"{st.st_size}:{st.st_mtime_ns}:{st.st_ino}"
    return found


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
    for path, signature in signatures.items():
        digest.update(f"{path}\0{signature}\n".encode())
    return digest.hexdigest()


def only_working_files(
    project: Project, before: dict[str, str], after: dict[str, str], live: list[str]
) -> bool:
    """Return True when the only inputs that changed are working files of live guides.

    A live guide's pages are made from its approved revision, never from guides/<id>.md, so
    editing (or deleting) that file changes no page.
    """
    guides = project.guides
    files = {str(guides.path(guide_id)) for guide_id in live}
    changed = {path for path in before.keys() | after.keys() if before.get(path) != after.get(path)}
    return bool(changed) and changed <= files
