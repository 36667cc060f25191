"""The LLM response cache: accepted answers in SQLite under .prepguide/, keyed by the request."""

from __future__ import annotations

import hashlib
import json
import sqlite3
from dataclasses import dataclass
from pathlib import Path

from generator.core.clock import iso, now
from generator.core.sqlite import open_checked

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
