"""Benchmark: check 5,000 generated guides on one core and print guides per second.

Each guide has its own source record (a variant of a sample record with distinct figures), so
every source text is normalised once, as in a real database. Run:

    python tests/bench/bench_check.py [--guides 5000]
"""

from __future__ import annotations

import argparse
import asyncio
import time
from datetime import date
from pathlib import Path

import yaml

from generator.checks import CheckContext, check_guide
from generator.citations import resolve_originals
from generator.compose import compose_body
from generator.fsio import sha256_text
from generator.guides import GuideDoc, GuideMeta, Provenance
from generator.offline import OfflineDrafter
from generator.playbook import load_playbook
from generator.sources import _HASHES, Source

REPO = Path(__file__).resolve().parents[2]
TODAY = date(2026, 11, 30)
TARGET = 500


def variants(count: int) -> list[Source]:
    """Return count complete, distinct records derived from the sample database."""
    samples = [yaml.safe_load(p.read_text()) for p in sorted((REPO / "sources").glob("*.yaml"))]
    records = []
    for index in range(count):
        data = dict(samples[index % len(samples)])
        data["id"] = f"bench-{index}"
        data["url"] = f"https://example.org/bench/{index}"
        data["published"] = data.get("published") or "2026-01-15"
        data["checked"] = "2026-10-22"
        data["summary"] = (
            f"{data['summary']} The team reports {index % 97 + 2}x fewer stalls across "
            f"{index + 10:,} hosts."
        )
        data["citations"] = [
            {**c, "url": f"https://example.org/bench/{index}/c{n}"}
            for n, c in enumerate(data.get("citations", []))
        ]
        records.append(Source.model_validate(data, context={"today": TODAY}))
    return records


def build(records: list[Source]) -> list[tuple[GuideDoc, CheckContext]]:
    """Draft and compose a guide per record with the offline drafter."""
    playbook, text = load_playbook(REPO / "prompts")
    drafter = OfflineDrafter(playbook, text)

    async def draft_all():
        return await asyncio.gather(*(drafter.draft(record) for record in records))

    pairs = []
    for record, result in zip(records, asyncio.run(draft_all()), strict=True):
        views = resolve_originals(record)
        body = compose_body(result.draft, record, views, "Prepguide")
        meta = GuideMeta(
            id=record.key,
            source=record.key,
            company=record.company,
            title=record.title,
            provenance=Provenance(
                backend="offline",
                drafter_version=drafter.version,
                prompt_hash=drafter.prompt_hash,
                source_hash=record.content_hash(),
                generated_at="2026-11-30T00:00:00Z",
            ),
            generated_hash=sha256_text(body),
        )
        ctx = CheckContext(record, views, TODAY, 180, "Prepguide")
        pairs.append((GuideDoc(meta=meta, body=body), ctx))
    return pairs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--guides", type=int, default=5000)
    args = parser.parse_args()
    pairs = build(variants(args.guides))
    _HASHES.clear()  # each check hashes its record once, as a fresh load would
    started, cpu_started = time.perf_counter(), time.process_time()
    findings = [check_guide(doc, ctx) for doc, ctx in pairs]
    elapsed = time.perf_counter() - started
    cpu = time.process_time() - cpu_started
    errors = sum(1 for items in findings for f in items if f.severity == "error")
    rate, cpu_rate = len(pairs) / elapsed, len(pairs) / cpu
    print(f"checked {len(pairs)} guides in {elapsed:.2f}s wall, {cpu:.2f}s CPU (one process)")
    print(f"{rate:,.0f} guides/s wall clock; {cpu_rate:,.0f} guides/s per CPU second")
    print(f"error findings: {errors} (expected 0 for these complete records)")
    print(f"target >= {TARGET} guides/s: {'met' if rate >= TARGET else 'NOT met'} (wall clock)")


if __name__ == "__main__":
    main()
