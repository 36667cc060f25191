"""The call log: one row per LLM call in .prepguide/, like `llm logs`."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from generator.fsio import open_sqlite

LOG_NAME = "llm-calls.sqlite3"
SCHEMA = """
create table if not exists calls (
    id integer primary key,
    time text not null,
    model text not null,
    prompt_hash text not null,
    guide_id text not null,
    attempt integer not null,
    prompt_tokens integer not null,
    completion_tokens integer not null,
    latency_ms integer not null,
    retries integer not null,
    cached integer not null,
    outcome text not null
)
"""
COLUMNS = (
    "time",
    "model",
    "prompt_hash",
    "guide_id",
    "attempt",
    "prompt_tokens",
    "completion_tokens",
    "latency_ms",
    "retries",
    "cached",
    "outcome",
)


@dataclass
class CallRecord:
    """One request to the model (or one answer served from the cache)."""

    model: str
    prompt_hash: str
    guide_id: str
    attempt: int
    prompt_tokens: int = 0
    completion_tokens: int = 0
    latency_ms: int = 0
    retries: int = 0
    cached: bool = False
    outcome: str = "ok"
    time: str = ""


class CallLog:
    """Append-only SQLite log of LLM calls."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._db = open_sqlite(path, SCHEMA)
        self._insert = (
            f"insert into calls ({', '.join(COLUMNS)}) values ({', '.join('?' * len(COLUMNS))})"
        )

    @classmethod
    def in_state_dir(cls, state_dir: Path) -> CallLog:
        return cls(state_dir / LOG_NAME)

    def add(self, record: CallRecord) -> None:
        """Append one call; calls are durable once commit() or close() ran."""
        if not record.time:
            record.time = datetime.now(tz=UTC).isoformat(timespec="milliseconds")
        if not self._db.in_transaction:
            self._db.execute("begin")
        self._db.execute(self._insert, tuple(getattr(record, column) for column in COLUMNS))

    def commit(self) -> None:
        """Make the calls added so far durable."""
        if self._db.in_transaction:
            self._db.execute("commit")

    def recent(self, limit: int = 20, guide_id: str | None = None) -> list[CallRecord]:
        """Return the latest calls, oldest first."""
        where, args = ("where guide_id = ?", (guide_id,)) if guide_id else ("", ())
        rows = self._db.execute(
            f"select {', '.join(COLUMNS)} from calls {where} order by id desc limit ?",
            (*args, limit),
        ).fetchall()
        records = [CallRecord(**dict(zip(COLUMNS, row, strict=True))) for row in reversed(rows)]
        for record in records:
            record.cached = bool(record.cached)
        return records

    def close(self) -> None:
        self.commit()
        self._db.close()


def read_calls(state_dir: Path, limit: int = 20, guide_id: str | None = None) -> list[CallRecord]:
    """Read the latest calls of a workspace, or none when nothing was logged yet."""
    path = state_dir / LOG_NAME
    if not path.exists():
        return []
    log = CallLog(path)
    try:
        return log.recent(limit, guide_id)
    finally:
        log.close()
