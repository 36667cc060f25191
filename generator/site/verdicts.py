"""Verdicts: the check findings of a text, kept in SQLite between builds under their key."""

from __future__ import annotations

import json
import os
import sqlite3
from pathlib import Path

from generator.core.sqlite import set_aside

SCHEMA_VERSION = 2
TABLES = ("verdicts",)


class VerdictStore:
    """Check verdicts keyed by content hash, kept in SQLite between builds.

    Any process may look entries up (each opens its own connection); only the process that
    made the cache records new entries, so forked workers hand theirs back as results. A file
    that is not this cache (corrupt, another schema) is set aside as <name>.corrupt-N, with its
    WAL files, as the LLM cache sets one aside; a warning says so.
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
                aside = set_aside(path)
                self.warnings.append(
                    f"{path}: not a usable publish cache ({exc}); "
                    f"moved aside to {aside.name} and rebuilt"
                )
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
