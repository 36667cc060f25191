"""Rebuilding a damaged submission record from the provider's batch list and its input file.

A record set aside as damaged (`<submission>.json.corrupt-N`) may belong to a batch that is
running or ended: its requests were paid for. The batch carries the submission id in its
metadata, so it is found through batches.list, as a batch whose creation reply was lost is;
its requests are read back from the input file (ours, or the provider's copy).
"""

from __future__ import annotations

import json
from pathlib import Path

from generator.batch.requests import (
    METADATA_KEY,
    BatchRequest,
    BatchStore,
    Submission,
    download,
)
from generator.core.clock import iso, now
from generator.core.errors import GuideError
from generator.guides.project import Project

MAX_SCAN = 1000  # the newest batches looked through for damaged records
UNKNOWN = "unknown"  # a hash that never matches: the answer is stale and drafted again


def damaged_ids(store: BatchStore) -> list[str]:
    """Return the submission ids whose record was set aside as damaged and not rebuilt."""
    if not store.dir.is_dir():
        return []
    names = {path.name.split(".json.corrupt-")[0] for path in store.dir.glob("*.json.corrupt-*")}
    return sorted(name for name in names if not store.path(name).exists())


async def recover(client, project: Project, drafter, store: BatchStore) -> list[Submission]:
    """Rebuild the damaged records whose batch the provider has; return the rebuilt ones."""
    lost = set(damaged_ids(store))
    if not lost:
        return []
    found = {}
    scanned = 0
    async for batch in client.batches.list(limit=100):
        owner = (batch.metadata or {}).get(METADATA_KEY)
        if owner in lost and owner not in found:
            found[owner] = batch
        scanned += 1
        if len(found) == len(lost) or scanned >= MAX_SCAN:
            break
    rebuilt = []
    for submission_id, batch in sorted(found.items()):
        path = store.input_path(submission_id)
        if not path.is_file():
            await download(client, batch.input_file_id, path)
        record = rebuild(project, drafter, submission_id, batch, path)
        store.save(record)
        rebuilt.append(record)
    return rebuilt


def rebuild(project: Project, drafter, submission_id: str, batch, path: Path) -> Submission:
    """Make a submitted record for a batch from the request lines of its input file.

    A request is trusted as it was only when the current record and prompts ask exactly the
    same; any other answer is treated as stale (drafted again), never written as it is.
    """
    sources = project.sources.by_id()
    requests: dict[str, BatchRequest] = {}
    model = drafter.model
    with open(path, "rb") as handle:
        for data in handle:
            try:
                line = json.loads(data)
                name, body = str(line["custom_id"]), line["body"]
                guide, round_, _ = name.split("~", 2)
                max_tokens = int(body.get("max_completion_tokens") or drafter.max_tokens)
            except (ValueError, KeyError, TypeError, AttributeError):
                continue
            model = body.get("model") or model
            request = BatchRequest(
                guide=guide,
                round=int(round_) if round_.isdigit() else 0,
                key="",
                source_hash=UNKNOWN,
                prompt_hash=UNKNOWN,
                max_tokens=max_tokens,
            )
            source = sources.get(guide)
            if source is not None and request.round == 0:
                messages = drafter.prompts.messages(source)
                if drafter.request_body(messages, max_tokens) == body:
                    request.key = drafter.cache_key(messages)
                    request.source_hash = source.content_hash()
                    request.prompt_hash = drafter.prompt_hash
            if _written_from(project, guide, batch.id):
                request.state, request.note = "done", "written before the record was damaged"
            requests[name] = request
    return Submission(
        id=submission_id,
        model=model,
        created=iso(now()),
        state="submitted",
        file_id=batch.input_file_id,
        batch_id=batch.id,
        status=batch.status,
        kind="article"
        if any(r.guide.startswith("article:") for r in requests.values())
        else "guide",
        requests=requests,
    )


def _written_from(project: Project, guide: str, batch_id: str) -> bool:
    try:
        doc = project.guides.read(guide)
    except GuideError:
        return False
    return doc is not None and doc.meta.provenance.batch_id == batch_id
