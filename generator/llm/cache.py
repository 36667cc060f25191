"""The LLM response cache: accepted answers in SQLite under .prepguide/, keyed by the request."""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
from dataclasses import dataclass
from pathlib import Path

from generator.core.clock import iso, now
from generator.core.fsio import open_sqlite

CACHE_NAME = "llm-cache.sqlite3"
SCHEMA = """
create table if not exists responses (
    key text primary key,
    model text not null,
    content text not null,
    usage text not null,
    created text not null
)
"""
COLUMNS = ("key", "model", "content", "usage", "created")


def set_aside(path: Path) -> Path:
    """Rename a damaged SQLite file (and its WAL files) to a free `<name>.corrupt-N`; return it."""
    number = 1
    while Path(f"{path}.corrupt-{number}").exists():
        number += 1
    aside = Path(f"{path}.corrupt-{number}")
    for suffix in ("-wal", "-shm"):
        extra = Path(f"{path}{suffix}")
        if extra.exists():
            os.replace(extra, f"{aside}{suffix}")
    os.replace(path, aside)
    return aside


def open_checked(
    path: Path, schema: str, table: str, columns: tuple[str, ...], added: tuple[str, ...] = ()
) -> tuple[sqlite3.Connection, Path | None]:
    """Open a SQLite file; one that is damaged or of another shape is set aside for a new one.

    `added` holds column definitions that later versions appended to `columns`: a file that
    lacks only those gets them. Return the connection and where a damaged file went, if any.
    """
    try:
        db = open_sqlite(path, schema)
    except sqlite3.DatabaseError:
        db = None
    if db is not None:
        try:
            found = tuple(row[1] for row in db.execute(f"pragma table_info({table})"))
            db.execute(f"select count(*) from {table}").fetchone()
            if found != columns and found and columns[: len(found)] == found:
                for definition in added:
                    if definition.split()[0] not in found:
                        db.execute(f"alter table {table} add column {definition}")
                found = tuple(row[1] for row in db.execute(f"pragma table_info({table})"))
            if found == columns:
                return db, None
        except sqlite3.DatabaseError:
            pass
        db.close()
    aside = set_aside(path)
    return open_sqlite(path, schema), aside


def request_key(model: str, messages: list[dict], schema: dict, params: dict) -> str:
    """Hash everything that determines an answer: model, messages, schema and parameters."""
    payload = json.dumps(
        {"model": model, "messages": messages, "schema": schema, "params": params},
        sort_keys=True,
        ensure_ascii=False,
        separators=(",", ":"),
    )
    return hashlib.sha256(payload.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class CachedResponse:
    model: str
    content: str
    usage: dict[str, int]


class ResponseCache:
    """A SQLite table of accepted responses; safe to kill at any moment."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._db, aside = open_checked(path, SCHEMA, "responses", COLUMNS)
        self.notice = (
            f"{path} was damaged; moved it to {aside.name} and started an empty cache"
            if aside
            else None
        )

    @classmethod
    def in_state_dir(cls, state_dir: Path) -> ResponseCache:
        return cls(state_dir / CACHE_NAME)

    def get(self, key: str) -> CachedResponse | None:
        """Return the stored answer for a request key, if any."""
        try:
            row = self._db.execute(
                "select model, content, usage from responses where key = ?", (key,)
            ).fetchone()
            if row is None:
                return None
            usage = json.loads(row[2])
            return CachedResponse(model=row[0], content=row[1], usage=_counts(usage))
        except (sqlite3.DatabaseError, ValueError, TypeError):
            return None  # a damaged row is a miss: the answer is asked for again

    def put(self, key: str, response: CachedResponse) -> None:
        """Store an accepted answer."""
        self._db.execute(
            "insert or replace into responses values (?, ?, ?, ?, ?)",
            (key, response.model, response.content, json.dumps(response.usage), iso(now())),
        )

    def close(self) -> None:
        """Close the file."""
        self._db.close()


def _counts(usage: object) -> dict[str, int]:
    if not isinstance(usage, dict):
        raise ValueError("usage is not an object")
    counts = {}
    for name in ("prompt_tokens", "completion_tokens", "total_tokens"):
        value = usage.get(name, 0)
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise ValueError(f"usage.{name} is not a count")
        counts[name] = value
    return counts
