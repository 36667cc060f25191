"""Benchmark: check 5,000 generated guides on one core and print guides per second.

Each guide has its own source record (a variant of a sample record with distinct figures), so
every source text is normalised once, as in a real database. The first figure is the
one-process rate of `check_guide` over guides already in memory, run inside
`checks.check_run()` as `gate.check_guides` (that is, `prepguide check`) runs them. The guides
share most of their sentences, which the text caches answer after the first guide, so a second
figure empties those caches (and those of a record's names, with re's pattern cache) before each
guide, as a database with no repeated sentence or record sees it: that is the rate the target
judges. With --workers it also writes the guides and records to a
workspace and times `gate.check_guides` as `prepguide check` runs it (reading the files too), in
one process and in one worker process per CPU. Run:

    python tests/bench/bench_check.py [--guides 5000] [--workers]
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import gc
import os
import re
import shutil
import tempfile
import time
from datetime import date
from pathlib import Path

import yaml

from generator.checks import CheckContext, check_guide, check_run
from generator.checks.runner import check_guides
from generator.core.fsio import sha256_text
from generator.core.workers import available_cpus
from generator.drafting.offline import OfflineDrafter
from generator.drafting.playbook import load_playbook
from generator.guides.compose import compose_body
from generator.guides.document import GuideDoc, GuideMeta, Provenance
from generator.guides.project import Project
from generator.sources.citations import resolve_originals
from generator.sources.records import _HASHES, Source

REPO = Path(__file__).resolve().parents[2]
TODAY = date(2026, 11, 30)
TARGET = 500


def variants(count: int) -> list[Source]:
    """Return count complete, distinct records derived from the sample database."""
    return [Source.model_validate(data, context={"today": TODAY}) for data in variant_data(count)]


def variant_data(count: int) -> list[dict]:
    """Return the data of count complete, distinct records derived from the sample database."""
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
        records.append(data)
    return records


def build(records: list[Source], site: str = "Prepguide") -> list[tuple[GuideDoc, CheckContext]]:
    """Draft and compose a guide per record with the offline drafter."""
    playbook, text = load_playbook(REPO / "prompts")
    drafter = OfflineDrafter(playbook, text)

    async def draft_all():
        return await asyncio.gather(*(drafter.draft(record) for record in records))

    pairs = []
    for record, result in zip(records, asyncio.run(draft_all()), strict=True):
        views = resolve_originals(record)
        body = compose_body(result.draft, record, views, site)
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
        ctx = CheckContext(record, views, TODAY, 180, site)
        pairs.append((GuideDoc(meta=meta, body=body), ctx))
    return pairs


# Caches keyed by a word or a unit: a real database repeats those across guides.
WORD_LEVEL_CACHES = {"stem", "_fold", "_unit"}
# Small caches keyed by a record's names: each record of a real database has its own.
RECORD_NAME_CACHES = {"_runs"}


def text_caches() -> list[functools._lru_cache_wrapper]:
    """Return the package's caches keyed by a sentence, a text, a record or its names."""
    return [
        cached
        for cached in gc.get_objects()
        if isinstance(cached, functools._lru_cache_wrapper)
        and getattr(cached, "__module__", "").startswith("generator.")
        and (
            (cached.cache_parameters()["maxsize"] or 0) >= 4096
            or cached.__qualname__ in RECORD_NAME_CACHES
        )
        and cached.__qualname__ not in WORD_LEVEL_CACHES
    ]


def distinct_text_rate(pairs: list[tuple[GuideDoc, CheckContext]]) -> float:
    """Return guides per CPU second with no sentence of one guide cached from another."""
    caches = text_caches()
    cpu = 0.0
    with check_run():
        for doc, ctx in pairs:
            for cached in caches:
                cached.cache_clear()
            re.purge()  # a record's name patterns are compiled anew, not found in re's cache
            started = time.process_time()
            check_guide(doc, ctx)
            cpu += time.process_time() - started
    return len(pairs) / cpu


def write_workspace(root: Path, count: int) -> None:
    """Write count records and their guides to a workspace, as `prepguide generate` leaves it."""
    shutil.copytree(REPO / "prompts", root / "prompts")
    shutil.copy(REPO / "prepguide.toml", root / "prepguide.toml")
    (root / "sources").mkdir()
    for data in variant_data(count):
        text = yaml.safe_dump(data, sort_keys=False, allow_unicode=True)
        (root / "sources" / f"{data['id']}.yaml").write_text(text, encoding="utf-8")
    project = Project(root, on_date=TODAY)
    pairs = build(project.sources.sources, project.settings.site.name)
    failed = project.guides.write_many([doc for doc, _ in pairs])
    assert not failed, failed


def cpu_seconds() -> float:
    """Return the CPU time of this process and of its ended worker processes."""
    times = os.times()
    return times.user + times.system + times.children_user + times.children_system


def time_gate(root: Path, jobs: int | None) -> tuple[int, float, float, int]:
    """Check every guide of a workspace as `prepguide check` does; count, wall, CPU, errors."""
    started, cpu_started = time.perf_counter(), cpu_seconds()
    results = check_guides(Project(root, on_date=TODAY), jobs=jobs)
    elapsed, cpu = time.perf_counter() - started, cpu_seconds() - cpu_started
    return len(results), elapsed, cpu, sum(result.errors for result in results)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--guides", type=int, default=5000)
    parser.add_argument(
        "--workers", action="store_true", help="also time `prepguide check` on a workspace"
    )
    args = parser.parse_args()
    pairs = build(variants(args.guides))
    _HASHES.clear()  # each check hashes its record once, as a fresh load would
    with check_run():
        started, cpu_started = time.perf_counter(), time.process_time()
        findings = [check_guide(doc, ctx) for doc, ctx in pairs]
        elapsed = time.perf_counter() - started
        cpu = time.process_time() - cpu_started
    errors = sum(1 for items in findings for f in items if f.severity == "error")
    rate, cpu_rate = len(pairs) / elapsed, len(pairs) / cpu
    print(f"checked {len(pairs)} guides in {elapsed:.2f}s wall, {cpu:.2f}s CPU (one process)")
    print(f"{rate:,.0f} guides/s wall clock; {cpu_rate:,.0f} guides/s per CPU second")
    print(f"error findings: {errors} (expected 0 for these complete records)")
    print(
        f"with sentences repeated across guides, target >= {TARGET} guides/s: "
        f"{'met' if cpu_rate >= TARGET else 'NOT met'} per CPU "
        f"second, {'met' if rate >= TARGET else 'NOT met'} wall clock"
    )
    # The guides are variants of a few sample records, so most of their sentences repeat and
    # the text caches answer them. A real database repeats few sentences: this rate is the one
    # to expect there.
    sample = pairs[: min(len(pairs), 1000)]
    distinct = distinct_text_rate(sample)
    print(
        f"with no sentence repeated across guides (text caches emptied before each of "
        f"{len(sample)} guides): {distinct:,.0f} guides/s per CPU second; target >= {TARGET}: "
        f"{'met' if distinct >= TARGET else 'NOT met'}"
    )
    if args.workers:
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp) / "ws"
            root.mkdir()
            write_workspace(root, args.guides)
            cpus = available_cpus()
            for label, jobs in (("1 process", 1), (f"{cpus} worker processes", cpus)):
                count, elapsed, cpu, errors = time_gate(root, jobs)
                print(
                    f"prepguide check (gate.check_guides, reading files), {label}: {count} guides "
                    f"in {elapsed:.2f}s wall, {cpu:.2f}s CPU: {count / elapsed:,.0f} guides/s "
                    f"wall clock; errors {errors}"
                )


if __name__ == "__main__":
    main()
