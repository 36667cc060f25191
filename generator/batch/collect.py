"""Collecting batch answers: validated exactly as online answers, then written as drafts."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from generator.batch.requests import (
    MAX_BYTES,
    MAX_REQUESTS,
    MAX_ROUNDS,
    TERMINAL,
    BatchRequest,
    BatchStore,
    Submission,
    download,
    follow_up_lines,
    request_lines,
    submit,
    write_parts,
)
from generator.batch.subjects import subjects_of
from generator.core.errors import GuideError, PrepguideError
from generator.drafting.openai_drafter import UnusableResponse, judge, parse_completion
from generator.drafting.protocol import DraftResult
from generator.drafting.repair import finding_lines, repairs_of
from generator.guides.document import GuideDoc, Usage
from generator.guides.project import Project
from generator.llm.cache import CachedResponse
from generator.llm.transport import MAX_RESPONSE_BYTES

WRITE_CHUNK = 256  # answers written (and the record saved) together
# One answer line: the answer, capped as online, and its envelope (ids, status).
MAX_LINE_BYTES = MAX_RESPONSE_BYTES + 64 * 1024
SKIP_CHUNK = 1024 * 1024
CUSTOM_ID = re.compile(rb'"custom_id"\s*:\s*"((?:[^"\\]|\\.){1,300})"')
TRANSIENT = (429, 500, 502, 503, 504)  # a line answered so is asked again, in the same rounds


@dataclass
class CollectReport:
    """What collecting one submission did."""

    status: str = ""
    written: list[str] = field(default_factory=list)
    failed: dict[str, str] = field(default_factory=dict)
    reasked: list[str] = field(default_factory=list)
    requeued: list[str] = field(default_factory=list)
    stale: list[str] = field(default_factory=list)
    kept: list[str] = field(default_factory=list)
    follow_ups: list[Submission] = field(default_factory=list)
    online: list = field(default_factory=list)  # sources to finish online (--finish-online)
    retried: list[str] = field(default_factory=list)
    notices: list[str] = field(default_factory=list)
    error: str | None = None


class Oversize(dict):
    """An error line standing for an answer line over the cap (never read whole)."""


def _too_long(path: Path, number: int, head: bytes, notices: list[str]) -> dict | None:
    """Turn a line over the cap into an error line for its request (if it names one)."""
    found = CUSTOM_ID.search(head)
    limit = f"the answer is larger than {MAX_LINE_BYTES} bytes"
    if found is None:
        notices.append(f"{path}:{number}: {limit} and names no custom_id; skipped")
        return None
    try:
        name = json.loads(b'"' + found.group(1) + b'"')
    except ValueError:
        return None
    return Oversize(custom_id=name, error={"message": limit})


def read_lines(path: Path, notices: list[str]) -> Iterator[tuple[str, dict]]:
    """Yield where each line is and its JSON object, one at a time, each line capped.

    A bad line is reported; a line over the cap is never held whole: it becomes an error
    line for the request it names.
    """
    with open(path, "rb") as handle:
        number = 0
        while True:
            data = handle.readline(MAX_LINE_BYTES + 1)
            if not data:
                return
            number += 1
            where = f"{path.name}:{number}"
            if len(data) > MAX_LINE_BYTES and not data.endswith(b"\n"):
                rest = data
                while rest and not rest.endswith(b"\n"):
                    rest = handle.readline(SKIP_CHUNK)
                line = _too_long(path, number, data[:65536], notices)
                if line is not None:
                    yield where, line
                continue
            if not data.strip():
                continue
            try:
                line = json.loads(data)
            except ValueError:
                notices.append(f"{path}:{number}: not JSON; skipped")
                continue
            if isinstance(line, dict):
                yield where, line


class Collector:
    """Turn answer lines into drafts for the requests of one submission (guides or articles)."""

    def __init__(self, project: Project, drafter, store: BatchStore, kind: str = "guide") -> None:
        self.project = project
        self.drafter = drafter
        self.store = store
        self.subjects = subjects_of(project, kind)
        self.sources = self.subjects.by_id()
        self.seen: dict[tuple[str, str], str] = {}  # (record, custom_id): its first answer

    def apply(
        self,
        record: Submission,
        lines: Iterable[tuple[str, dict]],
        batch_id: str | None,
        report,
    ) -> None:
        """Judge every answer line of this record; save the record after each written chunk.

        A request answered twice keeps what its first answer gave; the later one is never used.
        """
        pending: list[tuple[BatchRequest, GuideDoc, str, dict, str, str]] = []
        for where, line in lines:
            name = str(line.get("custom_id"))
            request = record.requests.get(name)
            if request is None:
                continue
            first = self.seen.setdefault((record.id, name), where)
            if first != where:
                report.notices.append(
                    f"{request.guide}: request {name} answered twice ({first} and {where}); "
                    "the first answer counts, the second was ignored"
                )
                continue
            if request.state != "sent":
                continue
            made = self._one(request, line, batch_id or record.id, report)
            if made is not None:
                pending.append((request, *made))
            if len(pending) >= WRITE_CHUNK:
                self._write(record, pending, report)
        self._write(record, pending, report)

    def _one(self, request: BatchRequest, line: dict, batch_id: str, report):
        source = self.sources.get(request.guide)
        drafter = self.drafter
        attempt = request.round + 1
        response = line.get("response") if isinstance(line.get("response"), dict) else None
        error = line.get("error")
        if source is None:
            request.state, request.note = "stale", "the source record is gone"
            report.stale.append(request.guide)
            return None
        if isinstance(line, Oversize):
            drafter.log_call(source, attempt, outcome="error: response", batch_id=batch_id)
            return self._fail(request, error["message"], report)
        if error or response is None or response.get("status_code") != 200:
            status = response.get("status_code") if response else None
            detail = error.get("message") if isinstance(error, dict) else None
            if detail is None and response is not None:
                body = response.get("body")
                found = body.get("error") if isinstance(body, dict) else None
                detail = found.get("message") if isinstance(found, dict) else None
            outcome = f"error: HTTP {status}" if status else "error: batch line"
            drafter.log_call(source, attempt, outcome=outcome, batch_id=batch_id)
            message = f"{outcome.removeprefix('error: ')}: {str(detail)[:200]}"
            if status in TRANSIENT and request.round < MAX_ROUNDS:
                request.state, request.note = "reask", message
                report.retried.append(request.guide)
                return None
            if status in TRANSIENT:
                message += f"; the same after {MAX_ROUNDS} follow-up rounds"
            return self._fail(request, message, report)
        try:
            completion = parse_completion(response.get("body") or {})
        except UnusableResponse as exc:
            drafter.log_call(source, attempt, outcome="error: response", batch_id=batch_id)
            return self._fail(request, str(exc), report)
        usage = completion.usage
        tokens = {
            "prompt_tokens": (usage.prompt_tokens or 0) if usage else 0,
            "completion_tokens": (usage.completion_tokens or 0) if usage else 0,
            "total_tokens": (usage.total_tokens or 0) if usage else 0,
        }
        for name, value in tokens.items():
            request.usage[name] = request.usage.get(name, 0) + value
        verdict = judge(completion, source, getattr(drafter, "judge_content", None))
        logged = {
            "prompt_tokens": tokens["prompt_tokens"],
            "completion_tokens": tokens["completion_tokens"],
            "cached_tokens": usage.cached_tokens if usage else 0,
            "model": completion.model,
            "batch_id": batch_id,
        }
        if self.subjects.hash(source) != request.source_hash or (
            drafter.prompt_hash != request.prompt_hash
        ):
            drafter.log_call(source, attempt, outcome=verdict.outcome, **logged)
            request.state, request.note = "stale", "source or prompts changed since submission"
            report.stale.append(request.guide)
            return None
        made = self._judged(request, source, verdict, tokens, batch_id, report)
        outcome = verdict.outcome if made is None or isinstance(made, str) else "ok"
        if isinstance(made, str):
            outcome, made = made, None
        drafter.log_call(source, attempt, outcome=outcome, **logged)
        if made is None:
            return None
        doc, key = made
        return doc, key, tokens, verdict.content, completion.model or drafter.model

    def _judged(self, request: BatchRequest, source, verdict, tokens, batch_id: str, report):
        """Write, re-ask or fail one judged answer; return (doc, cache key), an outcome or None.

        A draft whose guide has findings the model can fix is re-asked like an invalid answer,
        in the same follow-up rounds; when the rounds are spent it is written with its findings.
        """
        drafter = self.drafter
        key = drafter.cache_key(drafter.round_messages(source, request.history))
        if verdict.failure:
            return self._fail(request, verdict.failure, report)
        doc = None
        lines: list[str] = []
        if verdict.outcome == "ok":
            try:
                existing = self.subjects.read(request.guide)
            except GuideError:
                existing = None
            if existing is not None and existing.edited:
                request.state, request.note = (
                    "kept",
                    "the guide was edited by hand; not overwritten",
                )
                report.kept.append(request.guide)
                return None
            result = DraftResult(
                draft=verdict.draft,
                usage=Usage(**request.usage),
                model=drafter.model,
                batch_id=batch_id,
                rounds=request.round + 1,
                repairs=repairs_of(request.history),
            )
            try:
                doc = self.subjects.build(drafter, source, result)
            except PrepguideError as exc:
                return self._fail(request, exc.message, report)
            lines = finding_lines(doc.meta.findings)
            if not lines or request.round >= MAX_ROUNDS:
                return doc, key
        if request.round >= MAX_ROUNDS:
            reason = "; ".join(verdict.errors[:3]) or "cut off at the token limit"
            return self._fail(
                request, f"no valid draft after {MAX_ROUNDS} re-asks: {reason}", report
            )
        if verdict.outcome == "length":
            request.max_tokens *= 2
            request.history.append(("", []))
        else:
            request.history.append((verdict.content, lines or verdict.lines))
            if drafter.cache is not None:  # a rerun replays this round instead of asking again
                drafter.cache.put(key, CachedResponse(drafter.model, verdict.content, tokens))
        request.state = "reask"
        report.reasked.append(request.guide)
        return "findings" if doc is not None else None

    def _fail(self, request: BatchRequest, message: str, report) -> None:
        request.state, request.note = "failed", message
        report.failed[request.guide] = message
        return None

    def _write(self, record: Submission, pending: list, report) -> None:
        if pending:
            failed = self.subjects.write_many([item[1] for item in pending])
            for request, _, key, tokens, content, served in pending:
                if request.guide in failed:
                    self._fail(request, failed[request.guide].message, report)
                    continue
                request.state = "done"
                report.written.append(request.guide)
                if self.drafter.cache is not None:
                    # This round's answer, under this round's request (its tokens are its own).
                    self.drafter.cache.put(key, CachedResponse(served, content, tokens))
            pending.clear()
        if self.drafter.log is not None:
            self.drafter.log.commit()
        self.store.save(record)


async def collect(
    client,
    project: Project,
    drafter,
    store: BatchStore,
    record: Submission,
    *,
    finish_online: bool = False,
    max_requests: int = MAX_REQUESTS,
    max_bytes: int = MAX_BYTES,
) -> CollectReport:
    """Collect one submitted batch if it has ended; re-ask or requeue what it did not settle."""
    report = CollectReport()
    batch = await client.batches.retrieve(record.batch_id)
    record.status, report.status = batch.status, batch.status
    if batch.request_counts is not None:
        record.counts = batch.request_counts.model_dump()
    if batch.status not in TERMINAL:
        store.save(record)
        return report
    errors = batch.errors.data if batch.errors and batch.errors.data else []
    record.error = "; ".join(f"{e.code}: {e.message}" for e in errors) or None
    report.error = record.error
    collector = Collector(project, drafter, store, record.kind)
    for kind, file_id in (("output", batch.output_file_id), ("errors", batch.error_file_id)):
        if file_id:
            path = await download(client, file_id, store.output_path(record.id, kind))
            collector.apply(record, read_lines(path, report.notices), batch.id, report)
    await settle(
        client,
        project,
        drafter,
        store,
        record,
        report,
        finish_online=finish_online,
        max_requests=max_requests,
        max_bytes=max_bytes,
    )
    return report


async def settle(
    client,
    project: Project,
    drafter,
    store: BatchStore,
    record: Submission,
    report: CollectReport,
    *,
    finish_online: bool = False,
    max_requests: int = MAX_REQUESTS,
    max_bytes: int = MAX_BYTES,
) -> None:
    """Requeue unanswered requests, re-ask rejected ones, and close the record."""
    subjects = subjects_of(project, record.kind)
    sources = subjects.by_id()
    for request in record.requests.values():
        if request.state == "sent":
            request.state = "requeued"
            report.requeued.append(request.guide)
    reask = [r for r in record.requests.values() if r.state == "reask"]
    # Unanswered requests, and answers to a record or prompts that changed since, are asked again.
    requeued = [
        sources[r.guide]
        for r in record.requests.values()
        if r.state in ("requeued", "stale") and r.guide in sources
    ]
    record.state = "collected"
    if client is None or finish_online:
        store.save(record)
        report.online.extend(sources[r.guide] for r in reask if r.guide in sources)
        report.online.extend(requeued if finish_online else [])
        return
    cached: list[tuple] = []
    follow = list(follow_up_lines(drafter, sources, reask))
    fresh = list(
        request_lines(drafter, requeued, lambda s, r: cached.append((s, r)), subjects.hash)
    )
    write_cached(project, drafter, cached, report, record.kind)
    if "token_limit_exceeded" in (record.error or ""):
        # Too many tokens enqueued: smaller files, one now, the rest as capacity frees up.
        max_requests = max(1, min(max_requests, len(record.requests) // 2))
    parts = write_parts(
        store,
        [*follow, *fresh],
        drafter.model,
        max_requests=max_requests,
        max_bytes=max_bytes,
        kind=record.kind,
    )
    store.save(record)
    for number, written in enumerate(parts):
        part = store.load(written.id)
        if number and "token_limit_exceeded" in (record.error or ""):
            part.hold = True
            store.save(part)
            continue
        report.follow_ups.append(await submit(client, store, part))


def write_cached(
    project: Project, drafter, cached: list[tuple], report, kind: str = "guide"
) -> None:
    """Write drafts for answers that were already in the cache (nothing is sent for them)."""
    subjects = subjects_of(project, kind)
    docs = []
    for source, result in cached:
        try:
            docs.append(subjects.build(drafter, source, result))
        except PrepguideError as exc:
            report.failed[source.key] = exc.message
    failed = subjects.write_many(docs) if docs else {}
    for doc in docs:
        name = subjects.name(doc)
        if name in failed:
            report.failed[name] = failed[name].message
        else:
            report.written.append(name)
