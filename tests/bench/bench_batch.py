"""Benchmark batch files: prepare 100,000 requests, then collect 10,000 answers from the fake.

Usage: python tests/bench/bench_batch.py [--prepare 100000] [--collect 10000]

Prepare: builds synthetic records of realistic size in memory (about 1.5 KB of summary and
notes each, like the sample write-ups), then writes the request files exactly as
`generate --batch` does (streamed to disk, split at 50,000 requests or 200 MB, one record per
file). It prints the time and the peak RSS of this process, records included.
Target: peak RSS <= 500 MB.

Collect: a workspace of N records on disk, submitted as one batch to the fake server, then
collected: download, validate every answer (schema, verbatim quotes), run the checks and write
the guides. It prints the time of the collect alone.
"""

from __future__ import annotations

import argparse
import asyncio
import resource
import shutil
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "tests"))
sys.path.insert(0, str(REPO))

from fakes.openai_server import FakeOpenAI, write_synthetic_sources  # noqa: E402
from openai import AsyncOpenAI  # noqa: E402

from generator.batch.requests import BatchStore, request_lines, write_parts  # noqa: E402
from generator.batch.run import Limits, collect_open, start  # noqa: E402
from generator.drafting.openai_drafter import OpenAIDrafter  # noqa: E402
from generator.drafting.prompts import PromptSet  # noqa: E402
from generator.guides.project import Project  # noqa: E402
from generator.llm.cache import ResponseCache  # noqa: E402
from generator.llm.calllog import CallLog  # noqa: E402
from generator.sources.records import Source  # noqa: E402

SENTENCES = [
    "The team moved queue {n} to a partitioned log with one partition per tenant.",
    "Consumers now commit offsets after each batch instead of after each message.",
    "Replays after a crash finish in minutes instead of hours on the same hardware.",
    "They measured p99 latency before and after, at {n} messages per second at peak.",
    "Backpressure comes from bounded in-memory queues between each pipeline stage.",
    "Schema changes ship behind a compatibility check that runs in continuous integration.",
]


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def synthetic_source(number: int) -> Source:
    summary = " ".join(s.format(n=number) for s in SENTENCES * 2)
    return Source(
        id=f"synthetic-{number:06d}",
        company=f"Example Co {number % 97}",
        title=f"Scaling queue number {number} without losing messages",
        url=f"https://engineering.example.com/posts/{number}",
        summary=summary,
        notes=" ".join(SENTENCES[:3]).format(n=number),
        scale=[f"{number} messages per second"],
        techniques=["partitioned logs", "batching", "backpressure"],
        stack=["Kafka", "PostgreSQL"],
    )


def drafter_for(root: Path, base_url: str = "http://127.0.0.1:9/v1") -> OpenAIDrafter:
    client = AsyncOpenAI(api_key="sk-bench", base_url=base_url)
    state = root / ".prepguide"
    return OpenAIDrafter(
        client,
        "gpt-4o-mini",
        PromptSet(REPO / "prompts"),
        cache=ResponseCache.in_state_dir(state),
        log=CallLog.in_state_dir(state),
    )


def bench_prepare(tmp: Path, count: int) -> None:
    started = time.perf_counter()
    sources = [synthetic_source(number) for number in range(count)]
    loaded = time.perf_counter() - started
    rss_loaded = peak_rss_mb()
    drafter = drafter_for(tmp)
    store = BatchStore(tmp / ".prepguide")

    async def prepare():
        lines = request_lines(drafter, sources, lambda source, result: None)
        return list(write_parts(store, lines, drafter.model))

    started, cpu = time.perf_counter(), time.process_time()
    records = asyncio.run(prepare())
    elapsed, cpu = time.perf_counter() - started, time.process_time() - cpu
    size = sum(path.stat().st_size for path in store.dir.glob("*.input.jsonl"))
    print(f"prepare: {count} requests in {len(records)} files, {size / 1e6:.0f} MB on disk")
    print(f"  records built        {loaded:.1f} s (peak RSS then {rss_loaded:.0f} MB)")
    print(
        f"  requests written     {elapsed:.1f} s ({count / elapsed:.0f} requests/s), "
        f"CPU {cpu:.1f} s"
    )
    print(f"  peak RSS             {peak_rss_mb():.0f} MB (records included; target <= 500 MB)")


def bench_collect(tmp: Path, count: int) -> None:
    root = tmp / "collect"
    shutil.copytree(REPO / "prompts", root / "prompts")
    shutil.copy(REPO / "prepguide.toml", root / "prepguide.toml")
    write_synthetic_sources(root / "sources", count)
    project = Project(root)
    with FakeOpenAI() as fake:
        fake.batch_schedule = ["validating"]
        drafter = drafter_for(root, fake.base_url)

        async def submit_then_collect():
            await start(project, drafter, None, False, Limits())
            began, cpu = time.perf_counter(), time.process_time()
            done = await collect_open(project, drafter, Limits())
            took = time.perf_counter() - began
            print(f"  collect CPU          {time.process_time() - cpu:.1f} s (this process)")
            await drafter.aclose()
            return done, took

        done, took = asyncio.run(submit_then_collect())
    [(_, report)] = done
    written = len(report.written)
    print(
        f"collect: {written} answers validated, checked and written in {took:.1f} s "
        f"({written / took:.0f} guides/s); {len(report.failed)} failed"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--prepare", type=int, default=100_000)
    parser.add_argument("--collect", type=int, default=10_000)
    args = parser.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="prepguide-bench-batch-"))
    try:
        if args.prepare:
            bench_prepare(tmp, args.prepare)
        if args.collect:
            bench_collect(tmp, args.collect)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
