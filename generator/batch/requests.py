"""Batch drafting: request files in the OpenAI batch JSONL format, submissions and their records.

A submission record in .prepguide/batches/<submission>.json is written before anything is
uploaded, and updated as each call returns (file id, then batch id). The batch carries the
submission id in its metadata, so a batch whose creation reply was lost is found again through
batches.list instead of being created twice.
"""

from __future__ import annotations

import fcntl
import json
import os
import secrets
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from openai import APIError
from pydantic import BaseModel, ConfigDict, ValidationError

from generator.core.clock import iso, now
from generator.core.errors import PrepguideError
from generator.core.fsio import atomic_write_bytes
from generator.core.sqlite import set_aside
from generator.sources.records import Source

ENDPOINT = "/v1/chat/completions"
WINDOW = "24h"
MAX_REQUESTS = 50_000  # the provider's limits for one input file
MAX_BYTES = 200 * 1024 * 1024
METADATA_KEY = "prepguide_submission"
TERMINAL = ("completed", "expired", "failed", "cancelled")
MAX_ROUNDS = 2  # re-ask rounds after the first answer, as online


class BatchError(PrepguideError):
    """A batch or its record cannot be used as asked."""


class BatchRequest(BaseModel):
    """One request of a submission: which guide, which round, and what it was asked from."""

    model_config = ConfigDict(extra="forbid")

    guide: str
    round: int = 0
    key: str
    source_hash: str
    prompt_hash: str
    max_tokens: int
    history: list[tuple[str, list[str]]] = []
    usage: dict[str, int] = {}
    state: Literal["sent", "done", "failed", "reask", "requeued", "stale", "kept"] = "sent"
    note: str = ""


class Submission(BaseModel):
    """The record of one request file: kept until every answer in it was collected."""

    model_config = ConfigDict(extra="forbid")

    id: str
    model: str
    created: str
    state: Literal["prepared", "uploaded", "submitted", "collected", "exported", "cancelled"]
    file_id: str | None = None
    batch_id: str | None = None
    status: str | None = None
    counts: dict[str, int] = {}
    error: str | None = None  # why the provider failed the whole batch
    hold: bool = False  # submit only once no other batch is open (enqueued-token limit)
    # What its requests draft: guides (named by record id) or articles (named article:SLUG).
    kind: Literal["guide", "article"] = "guide"
    requests: dict[str, BatchRequest]

    @property
    def open(self) -> bool:
        return self.state in ("prepared", "uploaded", "submitted")


def custom_id(guide: str, round_: int, key: str) -> str:
    """Name a request by guide, round and cache key; answers are matched on it, not on order."""
    return f"{guide}~{round_}~{key[:16]}"


class BatchStore:
    """The submission records and request files under .prepguide/batches/."""

    def __init__(self, state_dir: Path) -> None:
        self.dir = state_dir / "batches"
        self.notices: list[str] = []

    def path(self, submission_id: str) -> Path:
        return self.dir / f"{submission_id}.json"

    def input_path(self, submission_id: str) -> Path:
        return self.dir / f"{submission_id}.input.jsonl"

    def output_path(self, submission_id: str, kind: str) -> Path:
        return self.dir / f"{submission_id}.{kind}.jsonl"

    def save(self, submission: Submission) -> None:
        """Write a record atomically and durably."""
        self.dir.mkdir(parents=True, exist_ok=True)
        atomic_write_bytes(self.path(submission.id), submission.model_dump_json().encode())

    def load_all(self) -> list[Submission]:
        """Read every record, oldest first; a damaged one is kept aside with a notice."""
        records = []
        for path in sorted(self.dir.glob("[!.]*.json")) if self.dir.is_dir() else []:
            try:
                records.append(Submission.model_validate_json(path.read_bytes()))
            except (ValidationError, OSError, UnicodeDecodeError) as exc:
                aside = set_aside(path)
                self.notices.append(
                    f"{path} could not be read ({type(exc).__name__}); kept it as {aside.name}"
                )
        return sorted(records, key=lambda record: (record.created, record.id))

    @contextmanager
    def lock(self) -> Iterator[None]:
        """Hold the batch folder alone, so two runs never submit the same guides."""
        self.dir.mkdir(parents=True, exist_ok=True)
        with open(self.dir / ".lock", "w") as handle:
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                raise BatchError(
                    "another batch command is running in this folder; try again when it ends",
                    path=self.dir,
                    rule="batch.lock",
                ) from None
            yield

    def remove_orphans(self) -> list[Path]:
        """Delete request files a killed run left without a record (nothing was sent)."""
        removed = []
        for path in self.dir.glob("*.input.jsonl") if self.dir.is_dir() else []:
            if not self.path(path.name.removesuffix(".input.jsonl")).exists():
                path.unlink(missing_ok=True)
                removed.append(path)
        for path in self.dir.glob(".sub-*.json.tmp") if self.dir.is_dir() else []:
            path.unlink(missing_ok=True)
            removed.append(path)
        return removed

    def load(self, submission_id: str) -> Submission:
        """Read one record by submission id."""
        return Submission.model_validate_json(self.path(submission_id).read_bytes())

    def find(self, name: str) -> Submission:
        """Find a record by submission id or batch id."""
        for record in self.load_all():
            if name in (record.id, record.batch_id):
                return record
        raise BatchError(f"no batch or submission {name!r} in {self.dir}", rule="batch")

    def pending_guides(self) -> set[str]:
        """Guides with a request in flight (submitted, not yet answered)."""
        return set(self.pending_batches())

    def pending_batches(self) -> dict[str, str]:
        """Map each guide with a request in flight to its batch id (or submission id)."""
        return {
            request.guide: record.batch_id or record.id
            for record in self.load_all()
            if record.open
            for request in record.requests.values()
            if request.state == "sent"
        }


def new_submission_id() -> str:
    return f"sub-{now().strftime('%Y%m%dT%H%M%S')}-{secrets.token_hex(4)}"


@dataclass
class Line:
    """One request to write: its custom id, its request record and its body."""

    custom_id: str
    request: BatchRequest
    body: dict[str, Any]


@dataclass
class Part:
    """A request file and its record being written, split at the provider's limits."""

    id: str
    input: Any
    record: Any
    record_tmp: Path
    count: int = 0
    size: int = 0


@dataclass(frozen=True)
class Written:
    """A request file whose record is on disk: its submission id and how many requests."""

    id: str
    count: int


def write_parts(
    store: BatchStore,
    lines: Iterable[Line],
    model: str,
    *,
    max_requests: int = MAX_REQUESTS,
    max_bytes: int = MAX_BYTES,
    state: Literal["prepared", "exported"] = "prepared",
    target: Path | None = None,
    kind: Literal["guide", "article"] = "guide",
    append: bool = False,
) -> Iterator[Written]:
    """Stream request lines to JSONL files of at most max_requests and max_bytes each.

    Each file's record (state `prepared`) is streamed beside it and made durable before the
    file is yielded, so it exists before anything is uploaded; neither is held in memory.
    With a target (export), everything goes into that one file, unsplit; with append, after
    what the file already holds.
    """
    store.dir.mkdir(parents=True, exist_ok=True)
    part: Part | None = None

    def open_part() -> Part:
        submission = new_submission_id()
        path = target or store.input_path(submission)
        tmp = store.dir / f".{submission}.json.tmp"
        record = open(tmp, "w", encoding="utf-8")  # noqa: SIM115
        head = {
            "id": submission,
            "model": model,
            "created": iso(now()),
            "state": state,
            "kind": kind,
        }
        record.write(json.dumps(head)[:-1] + ', "requests": {')
        mode = "ab" if append and target is not None else "wb"
        return Part(submission, open(path, mode), record, tmp)  # noqa: SIM115

    def close(part: Part) -> Written:
        for handle in (part.input, part.record):
            if handle is part.record:
                handle.write("}}")
            handle.flush()
            os.fsync(handle.fileno())
            handle.close()
        os.replace(part.record_tmp, store.path(part.id))
        return Written(part.id, part.count)

    try:
        for line in lines:
            data = (
                json.dumps(
                    {"custom_id": line.custom_id, "method": "POST", "url": ENDPOINT},
                    separators=(",", ":"),
                )[:-1]
                + ',"body":'
                + json.dumps(line.body, ensure_ascii=False, separators=(",", ":"))
                + "}\n"
            ).encode("utf-8")
            if len(data) > max_bytes:
                raise BatchError(
                    f"one request is {len(data)} bytes, over the {max_bytes}-byte file limit",
                    record_id=line.request.guide,
                    rule="batch.limit",
                )
            full = part is not None and (
                part.count >= max_requests or part.size + len(data) > max_bytes
            )
            if full and target is None:
                yield close(part)
                part = None
            if part is None:
                part = open_part()
            part.input.write(data)
            part.record.write(
                ("," if part.count else "")
                + json.dumps(line.custom_id)
                + ":"
                + line.request.model_dump_json()
            )
            part.size += len(data)
            part.count += 1
        if part is not None:
            yield close(part)
            part = None
    finally:
        if part is not None:  # an error or an abandoned generator: no record for a half file
            part.input.close()
            part.record.close()
            part.record_tmp.unlink(missing_ok=True)


def request_lines(drafter, sources: Iterable[Source], on_cached, hash_of=None) -> Iterator[Line]:
    """Build the first-round request of each source; answers already cached go to on_cached.

    hash_of gives what a request is asked from (default: the record's content hash).
    """
    for source in sources:
        messages = drafter.prompts.messages(source)
        key = drafter.cache_key(messages)
        hit = drafter.cached(source, key)
        if hit is not None:
            on_cached(source, hit)
            continue
        request = BatchRequest(
            guide=source.key,
            key=key,
            source_hash=hash_of(source) if hash_of else source.content_hash(),
            prompt_hash=drafter.prompt_hash,
            max_tokens=drafter.max_tokens,
        )
        yield Line(custom_id(source.key, 0, key), request, drafter.request_body(messages))


def follow_up_lines(drafter, sources: dict[str, Source], requests: list[BatchRequest]):
    """Build the next round of re-asked requests: first messages, last answer, its errors."""
    for request in requests:
        source = sources.get(request.guide)
        if source is None:
            continue
        messages = drafter.round_messages(source, request.history)
        round_ = request.round + 1
        again = request.model_copy(update={"round": round_, "state": "sent", "note": ""})
        body = drafter.request_body(messages, request.max_tokens)
        yield Line(custom_id(request.guide, round_, request.key), again, body)


async def submit(client, store: BatchStore, record: Submission) -> Submission:
    """Upload a prepared file and create its batch, recording each id as it returns."""
    if record.state == "prepared":
        with open(store.input_path(record.id), "rb") as handle:
            uploaded = await client.files.create(file=handle, purpose="batch")
        record.file_id, record.state = uploaded.id, "uploaded"
        store.save(record)
    if record.state == "uploaded":
        # Not retried blindly: a batch whose reply was lost exists already, and is found below.
        try:
            batch = await client.with_options(max_retries=0).batches.create(
                input_file_id=record.file_id,
                endpoint=ENDPOINT,
                completion_window=WINDOW,
                metadata={METADATA_KEY: record.id},
            )
        except APIError as exc:
            await reconcile(client, store, [record])
            if record.state == "submitted":
                return record
            raise BatchError(
                f"creating the batch for {record.id} failed ({type(exc).__name__}: {exc}); "
                "run again to retry",
                rule="batch.create",
            ) from exc
        record.batch_id, record.state, record.status = batch.id, "submitted", batch.status
        store.save(record)
    return record


async def reconcile(client, store: BatchStore, records: list[Submission]) -> None:
    """Adopt batches created for these records whose creation reply was lost (batches.list)."""
    waiting = {r.id: r for r in records if r.state in ("prepared", "uploaded")}
    if not waiting:
        return
    async for batch in client.batches.list(limit=100):
        owner = (batch.metadata or {}).get(METADATA_KEY)
        record = waiting.pop(owner, None)
        if record is not None:
            record.file_id = record.file_id or batch.input_file_id
            record.batch_id, record.state, record.status = batch.id, "submitted", batch.status
            store.save(record)
        if not waiting:
            return


async def download(client, file_id: str, path: Path) -> Path:
    """Stream a provider file to disk (temporary name, then rename)."""
    part = path.with_name(path.name + ".part")
    async with client.files.with_streaming_response.content(file_id) as response:
        with open(part, "wb") as handle:
            async for chunk in response.iter_bytes():
                handle.write(chunk)
            handle.flush()
            os.fsync(handle.fileno())
    os.replace(part, path)
    return path
