"""The verdict store: the SQLite file under .prepguide/ that every command's cached results
live in, the file signatures its keys are made of, and the checks' code version.

It holds no rule: a command whose inputs did not change reads its results from here without
loading the rule engine (checks/verdicts.py adds the findings of texts; checks/memo.py the
results of whole runs). A damaged file is set aside as the LLM cache sets one aside; it only
ever costs time.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import sqlite3
import time
from collections.abc import Iterable
from pathlib import Path

from generator.core.codeversion import PACKAGE, module_version, remember
from generator.core.sqlite import set_aside

FILE_NAME = "verdicts.sqlite"
SCHEMA_VERSION = 1
TABLES = ("findings", "checks", "queue")
# A file changed this recently may change again within its mtime's resolution: not trusted.
RACY_NS = 2_000_000_000


def signature(path: Path, racy: list[bool] | None = None) -> str:
    """Return a file's signature (path, inode, size, mtime), or its path and 'absent'.

    racy, when given, becomes [True] if the file changed so recently that a further change
    could keep the same signature (a key made of it is then not stored).
    """
    try:
        info = os.stat(path)
    except OSError:
        return f"{path}:absent"
    if racy is not None and info.st_mtime_ns > time.time_ns() - RACY_NS:
        racy[:] = [True]
    return f"{path}:{info.st_ino}:{info.st_size}:{info.st_mtime_ns}"


def digest(parts: Iterable[str]) -> str:
    """Hash parts into one key."""
    return hashlib.sha256("\0".join(parts).encode()).hexdigest()


class VerdictStore:
    """Findings and rows by key, in one SQLite file shared by every command.

    Any process may read and write (each opens its own connection after a fork); a file that is
    not this cache (damaged, another schema) is set aside as <name>.corrupt-N and a warning
    says so.
    """

    def __init__(self, path: Path | None, warnings: list[str] | None = None) -> None:
        self.path = path
        self.warnings = warnings if warnings is not None else []
        self._db: sqlite3.Connection | None = None
        self._pid = os.getpid()
        if path is None:
            return
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            try:
                self._db = self._open(path)
            except sqlite3.DatabaseError as exc:
                aside = set_aside(path)
                self.warnings.append(
                    f"{path}: not a usable verdict cache ({exc}); moved aside to {aside.name} "
                    "and rebuilt"
                )
                self._db = self._open(path)
        except (OSError, sqlite3.Error) as exc:
            self.warnings.append(f"{path}: verdict cache unavailable ({exc}); checking afresh")
            self._db = None

    @staticmethod
    def _open(path: Path) -> sqlite3.Connection:
        db = sqlite3.connect(path, timeout=30, isolation_level=None)
        try:
            version = db.execute("PRAGMA user_version").fetchone()[0]
            tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master")}
            if version != SCHEMA_VERSION and tables:
                raise sqlite3.DatabaseError(f"schema {version}, expected {SCHEMA_VERSION}")
            db.execute("PRAGMA journal_mode=wal")
            db.execute("PRAGMA synchronous=normal")
            for table in TABLES:
                db.execute(f"CREATE TABLE IF NOT EXISTS {table} (key TEXT PRIMARY KEY, value TEXT)")
                columns = [row[1] for row in db.execute(f"PRAGMA table_info({table})")]
                if columns != ["key", "value"]:
                    raise sqlite3.DatabaseError(f"table {table} has columns {columns}")
            db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            db.execute("PRAGMA quick_check(1)")
        except BaseException:
            db.close()
            raise
        return db

    def _conn(self) -> sqlite3.Connection | None:
        if self._db is None or os.getpid() == self._pid:
            return self._db
        assert self.path is not None
        self._db = sqlite3.connect(self.path, timeout=30, isolation_level=None)  # forked worker
        self._pid = os.getpid()
        return self._db

    def get(self, table: str, key: str) -> object | None:
        """Return a stored JSON value (None when missing or unreadable)."""
        text = self.raw(table, key)
        try:
            return json.loads(text) if text is not None else None
        except ValueError:
            return None

    def raw(self, table: str, key: str) -> str | None:
        """Return a stored value's JSON text, unparsed (None when missing or unreadable)."""
        db = self._conn()
        if db is None:
            return None
        try:
            row = db.execute(f"SELECT value FROM {table} WHERE key = ?", (key,)).fetchone()
        except sqlite3.Error:
            return None
        return row[0] if row and isinstance(row[0], str) else None

    def put_raw(self, table: str, key: str, text: str) -> None:
        """Store a value's JSON text as it is; a cache that cannot be written is skipped."""
        db = self._conn()
        if db is None:
            return
        with contextlib.suppress(sqlite3.Error):
            db.execute(f"INSERT OR REPLACE INTO {table} VALUES (?, ?)", (key, text))

    def get_many(self, table: str, keys: list[str]) -> dict[str, object]:
        """Return the stored JSON values of these keys that are there and readable."""
        db = self._conn()
        found: dict[str, object] = {}
        if db is None:
            return found
        for start in range(0, len(keys), 500):
            chunk = keys[start : start + 500]
            marks = ",".join("?" * len(chunk))
            try:
                rows = db.execute(
                    f"SELECT key, value FROM {table} WHERE key IN ({marks})", chunk
                ).fetchall()
            except sqlite3.Error:
                return found
            for key, value in rows:
                try:
                    found[key] = json.loads(value)
                except (TypeError, ValueError):
                    continue
        return found

    def put_many(self, table: str, items: list[tuple[str, object]]) -> None:
        """Store JSON values in one transaction; a cache that cannot be written is skipped."""
        db = self._conn()
        if db is None or not items:
            return
        try:
            db.execute("BEGIN")
            db.executemany(
                f"INSERT OR REPLACE INTO {table} VALUES (?, ?)",
                [(key, json.dumps(value)) for key, value in items],
            )
            db.execute("COMMIT")
        except sqlite3.Error:
            with contextlib.suppress(sqlite3.Error):
                db.execute("ROLLBACK")

    def keep_only(self, table: str, keys: set[str]) -> None:
        """Delete a table's entries other than these (after a run over every guide)."""
        db = self._conn()
        if db is None:
            return
        try:
            db.execute("BEGIN")
            db.execute("CREATE TEMP TABLE IF NOT EXISTS keep (key TEXT PRIMARY KEY)")
            db.execute("DELETE FROM keep")
            db.executemany("INSERT OR IGNORE INTO keep VALUES (?)", ((k,) for k in keys))
            db.execute(f"DELETE FROM {table} WHERE key NOT IN (SELECT key FROM keep)")
            db.execute("COMMIT")
        except sqlite3.Error:
            with contextlib.suppress(sqlite3.Error):
                db.execute("ROLLBACK")

    def close(self) -> None:
        if self._db is not None and os.getpid() == self._pid:
            self._db.close()
        self._db = None


def code_version(cache: VerdictStore | None = None) -> str:
    """Return the checks' code version, part of every key.

    Hashing the checks' import closure parses each of its files; the result is kept in the
    cache under the signatures of every file of the package, so it is made once per change.
    """
    racy: list[bool] = []
    files = sorted(PACKAGE.rglob("*.py"))
    key = "code-version:" + digest(signature(path, racy) for path in files)
    stored = cache.get("findings", key) if cache is not None else None
    if isinstance(stored, str):
        remember("checks.engine", stored)
        return stored
    version = module_version("checks.engine")
    if cache is not None and not racy:
        cache.put_many("findings", [(key, version)])
    return version
