"""The call log: one row per LLM call in .prepguide/, like `llm logs`."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from generator.core.sqlite import open_checked

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
    outcome text not null,
    backend text not null default 'openai',
    via text not null default 'online',
    batch_id text,
    cached_tokens integer not null default 0,
    requested_model text
)
"""
# Columns added after the first release; an older log gets them on open, keeping its rows.
ADDED = (
    "backend text not null default 'openai'",
    "via text not null default 'online'",
    "batch_id text",
    "cached_tokens integer not null default 0",
    "requested_model text",
)
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
    "backend",
    "via",
    "batch_id",
    "cached_tokens",
    "requested_model",
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
    backend: str = "openai"
    via: str = "online"
    batch_id: str | None = None
    cached_tokens: int = 0
    requested_model: str | None = None  # the name asked for, which prices are keyed by


class CallLog:
    """Append-only SQLite log of LLM calls."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._db, aside = open_checked(path, SCHEMA, "calls", ("id", *COLUMNS), ADDED)
        self._db.execute(
            "create index if not exists calls_batch_line on calls (batch_id, guide_id, attempt)"
        )
        self.notice = (
            f"{path} could not be read; kept it as {aside.name} and started a new call log"
            if aside
            else None
        )
        self._insert = (
            f"insert into calls ({', '.join(COLUMNS)}) values ({', '.join('?' * len(COLUMNS))})"
        )

    @classmethod
    def in_state_dir(cls, state_dir: Path) -> CallLog:
        return cls(state_dir / LOG_NAME)

    def add(self, record: CallRecord) -> None:
        """Append one call; calls are durable once commit() or close() ran.

        A batch answer is logged once: collecting it again after a kill adds no second row.
        """
        if (
            record.batch_id is not None
            and self._db.execute(
                "select 1 from calls where batch_id = ? and guide_id = ? and attempt = ? limit 1",
                (record.batch_id, record.guide_id, record.attempt),
            ).fetchone()
        ):
            return
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
    return read_log(state_dir, limit, guide_id)[0]


def read_log(
    state_dir: Path, limit: int = 20, guide_id: str | None = None
) -> tuple[list[CallRecord], str | None]:
    """Read the latest calls, and a notice when a damaged log had to be set aside."""
    path = state_dir / LOG_NAME
    if not path.exists():
        return [], None
    log = CallLog(path)
    try:
        return log.recent(limit, guide_id), log.notice
    finally:
        log.close()


def cost(price, prompt: int, completion: int, cached: int, via: str) -> float:
    """Price tokens with a [llm.prices.<model>] entry; cached input and batch discount apply."""
    cached_rate = price.cached_input if price.cached_input is not None else price.input
    money = (prompt - cached) * price.input + cached * cached_rate + completion * price.output
    money /= 1_000_000
    return money * (1 - price.batch_discount) if via == "batch" else money


@dataclass
class UsageRow:
    """Tokens and cost of the calls of one day, model and backend (every attempt is billed)."""

    day: str
    model: str
    backend: str
    via: str
    calls: int
    prompt_tokens: int
    completion_tokens: int
    cached_tokens: int
    cost: float | None


def usage_by_day(state_dir: Path, prices: dict) -> tuple[list[UsageRow], str | None]:
    """Sum the logged calls by day, requested model, backend and route; cache hits cost nothing."""
    path = state_dir / LOG_NAME
    if not path.exists():
        return [], None
    log = CallLog(path)
    try:
        rows = log._db.execute(
            "select substr(time, 1, 10), coalesce(requested_model, model), backend, via, "
            "count(*), sum(prompt_tokens), sum(completion_tokens), sum(cached_tokens) "
            "from calls where cached = 0 group by 1, 2, 3, 4 order by 1, 2, 3, 4"
        ).fetchall()
        notice = log.notice
    finally:
        log.close()
    result = []
    for day, model, backend, via, calls, prompt, completion, cached in rows:
        price = prices.get(model)
        money = cost(price, prompt, completion, cached, via) if price else None
        result.append(UsageRow(day, model, backend, via, calls, prompt, completion, cached, money))
    return result, notice
