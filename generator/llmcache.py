"""The LLM response cache: accepted answers in SQLite under .prepguide/, keyed by the request."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

from generator.clock import iso, now
from generator.fsio import open_sqlite

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
        self._db = open_sqlite(path, SCHEMA)

    @classmethod
    def in_state_dir(cls, state_dir: Path) -> ResponseCache:
        return cls(state_dir / CACHE_NAME)

    def get(self, key: str) -> CachedResponse | None:
        """Return the stored answer for a request key, if any."""
        row = self._db.execute(
            "select model, content, usage from responses where key = ?", (key,)
        ).fetchone()
        if row is None:
            return None
        return CachedResponse(model=row[0], content=row[1], usage=json.loads(row[2]))

    def put(self, key: str, response: CachedResponse) -> None:
        """Store an accepted answer."""
        self._db.execute(
            "insert or replace into responses values (?, ?, ?, ?, ?)",
            (key, response.model, response.content, json.dumps(response.usage), iso(now())),
        )

    def close(self) -> None:
        self._db.close()
