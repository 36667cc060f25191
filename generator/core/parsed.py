"""The parsed index: what a file's YAML parsed to, kept under the file's signature.

A record file is looked up by its path and signature (size, mtime in ns, inode): one whose
signature is the one it was parsed under gives the same data without YAML. A guide's front
matter, read with its file anyway, is looked up by the hash of its text alone (the same text
in a guide and its revisions is parsed once). Only the parse is
kept: the data is validated again on every read, so an error still names its field. The
index is a cache: a missing or damaged file (set aside as ``<name>.corrupt-N``) only costs
the time of parsing again.
"""

from __future__ import annotations

import atexit
import contextlib
import json
import os
import sqlite3
import weakref
from pathlib import Path
from typing import Any

from generator.core.sqlite import open_checked

FILE_NAME = "parsed.sqlite"
SCHEMA = (
    "create table if not exists parsed (kind text, path text, signature text, data text, "
    "primary key (kind, path))"
)
COLUMNS = ("kind", "path", "signature", "data")
# Entries kept in memory before they are written in one transaction.
BATCH = 500


def file_signature(st: os.stat_result) -> str:
    """Return the signature of a file as its stat gives it."""
    return f"{st.st_size}:{st.st_mtime_ns}:{st.st_ino}"


def exact(data: Any) -> str | None:
    """Return data as JSON when JSON gives it back unchanged (no other key or number type)."""
    try:
        text = json.dumps(data, ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError):
        return None
    return text if json.loads(text) == data and _same_types(json.loads(text), data) else None


def _same_types(a: Any, b: Any) -> bool:
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return all(_same_types(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return all(_same_types(x, y) for x, y in zip(a, b, strict=True))
    return True


class ParsedIndex:
    """The index of one workspace (.prepguide/parsed.sqlite); None as path keeps nothing."""

    def __init__(self, path: Path | None, warnings: list[str] | None = None) -> None:
        self.path = path
        self.warnings = warnings if warnings is not None else []
        self._db: sqlite3.Connection | None = None
        self._pid = os.getpid()
        self._opened = path is None
        self._rows: dict[str, dict[str, tuple[str, str]]] = {}
        self._waiting: list[tuple[str, str, str, str]] = []

    def _conn(self) -> sqlite3.Connection | None:
        if self._opened and os.getpid() == self._pid:
            return self._db
        self._pid, self._opened, self._db = os.getpid(), True, None  # first use, or a fork
        assert self.path is not None
        # what is kept after the last full batch, without keeping this index alive
        atexit.register(_flush_alive, weakref.ref(self))
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._db, aside = open_checked(self.path, SCHEMA, "parsed", COLUMNS)
        except (OSError, sqlite3.Error) as exc:
            self.warnings.append(f"{self.path}: parsed index unavailable ({exc}); parsing afresh")
            return None
        if aside is not None:
            self.warnings.append(
                f"{self.path}: not a usable parsed index ({aside.why}); moved aside to "
                f"{aside.name} and rebuilt"
            )
        return self._db

    def _kind(self, kind: str) -> dict[str, tuple[str, str]]:
        rows = self._rows.get(kind)
        if rows is None:
            rows = {}
            db = self._conn()
            if db is not None:
                with contextlib.suppress(sqlite3.Error):
                    query = "select path, signature, data from parsed where kind = ?"
                    rows = {p: (s, d) for p, s, d in db.execute(query, (kind,))}
            self._rows[kind] = rows
        return rows

    def get(self, kind: str, path: str, signature: str) -> Any | None:
        """Return the data kept for path under this signature, or None."""
        found = self._kind(kind).get(path)
        if found is None or found[0] != signature:
            return None
        try:
            return json.loads(found[1])
        except ValueError:
            return None

    def put(self, kind: str, path: str, signature: str, data: Any) -> None:
        """Keep what path parsed to under its signature (data JSON cannot give back: nothing)."""
        text = exact(data)
        if text is None:
            return
        self._kind(kind)[path] = (signature, text)
        self._waiting.append((kind, path, signature, text))
        if len(self._waiting) >= BATCH:
            self.flush()

    def flush(self) -> None:
        """Write the entries kept since the last flush, in one transaction."""
        waiting, self._waiting = self._waiting, []
        db = self._conn() if waiting else None
        if db is None:
            return
        try:
            with db:
                db.execute("begin")
                db.executemany("insert or replace into parsed values (?, ?, ?, ?)", waiting)
        except sqlite3.Error as exc:
            self.warnings.append(f"{self.path}: parsed index not updated ({exc})")

    def close(self) -> None:
        self.flush()
        if self._db is not None and os.getpid() == self._pid:
            self._db.close()
        self._db, self._opened = None, self.path is None

    def __del__(self) -> None:
        with contextlib.suppress(Exception):  # an index no command holds: its file is let go
            self.close()


def _flush_alive(ref: weakref.ref[ParsedIndex]) -> None:
    index = ref()
    if index is not None:
        index.flush()
