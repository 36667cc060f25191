"""Benchmark `prepguide generate` with the openai backend against the fake server; print figures.

Usage: python tests/bench/bench_generate.py [--n 1200] [--latency 0.3] [--concurrency 32]
                                            [--baseline-n 40] [--bare-calls N] [--runs 1]

It times the whole CLI run as a subprocess (start-up included) and reports its CPU time per
guide next to the CPU time of one bare SDK call (`chat.completions.create` with the same request,
the same fake, the same N and C), plus a sequential (C=1) baseline on a smaller N. It compares
like with like: our whole process against the bare script's whole process, and our CPU without
start-up (the CPU of a --dry-run on the same records) against the bare call's loop alone.
Targets at N=1200, L=300 ms, C=32: efficiency >= 0.85; our CPU per guide <= 2x a bare SDK call.
The machine's load average is printed with each run: wall times mean little on a busy machine;
the time to the server's first request and the CPU of the CLI process alone mean more.
With --runs K the main run is repeated K times and the median efficiency is the one judged.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "tests"))

from fakes.openai_server import FakeOpenAI, write_synthetic_sources  # noqa: E402

BARE_CALLS = """
import asyncio, json, sys, time
from openai import AsyncOpenAI

async def main(base_url, request, calls, concurrency):
    client = AsyncOpenAI(api_key="sk-bench", base_url=base_url, max_retries=2)
    limit = asyncio.Semaphore(concurrency)
    async def one():
        async with limit:
            await client.chat.completions.create(**request)
    await asyncio.gather(*(one() for _ in range(concurrency)))  # warm up connections
    started = time.process_time()
    await asyncio.gather(*(one() for _ in range(calls)))
    cpu = time.process_time() - started
    await client.close()
    print(json.dumps({"cpu_per_call": cpu / calls, "calls": calls + concurrency}))

base_url, request_path, calls, concurrency = sys.argv[1:5]
request = json.load(open(request_path))
asyncio.run(main(base_url, request, int(calls), int(concurrency)))
"""


# The CLI as `python -m generator` runs it, writing its own CPU seconds (without its worker,
# which is a child process) to the file named by PREPGUIDE_BENCH_CPU when it exits.
CLI = """
import atexit, os, resource, sys
def own_cpu():
    usage = resource.getrusage(resource.RUSAGE_SELF)
    with open(os.environ["PREPGUIDE_BENCH_CPU"], "w") as out:
        out.write(str(usage.ru_utime + usage.ru_stime))
atexit.register(own_cpu)
sys.argv[0] = "prepguide"
from generator.cli import main
main()
"""


class TimedFake(FakeOpenAI):
    """The fake server, noting when the first request of a run arrived."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.first_request: float | None = None

    def _enter(self, body: dict) -> None:
        if self.first_request is None:
            self.first_request = time.perf_counter()
        super()._enter(body)


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def make_workspace(parent: Path, count: int) -> Path:
    root = Path(tempfile.mkdtemp(dir=parent))
    shutil.copytree(REPO / "prompts", root / "prompts")
    shutil.copy(REPO / "prepguide.toml", root / "prepguide.toml")
    write_synthetic_sources(root / "sources", count)
    return root


@dataclass
class CliRun:
    wall: float  # seconds, start-up included
    cpu: float  # CPU seconds of the CLI process and its worker
    main_cpu: float  # CPU seconds of the CLI process alone
    first_request: float | None  # seconds from the start to the server's first request
    summary: str


def run_cli(root: Path, fake: TimedFake, concurrency: int, *extra: str) -> CliRun:
    """Run generate as a subprocess and measure it."""
    cpu_file = root / "main-cpu.txt"
    env = {**os.environ, "OPENAI_API_KEY": "sk-bench", "OPENAI_BASE_URL": fake.base_url}
    env["PREPGUIDE_BENCH_CPU"] = str(cpu_file)
    command = [sys.executable, "-c", CLI, "--root", str(root), "generate"]
    command += ["--backend", "openai", "--concurrency", str(concurrency), *extra]
    fake.first_request = None
    cpu_before = children_cpu()
    started = time.perf_counter()
    proc = subprocess.run(command, env=env, capture_output=True, text=True, cwd=REPO)
    wall = time.perf_counter() - started
    cpu = children_cpu() - cpu_before
    if proc.returncode != 0:
        raise SystemExit(f"generate failed ({proc.returncode}):\n{proc.stdout}\n{proc.stderr}")
    first = None if fake.first_request is None else fake.first_request - started
    main_cpu = float(cpu_file.read_text())
    return CliRun(wall, cpu, main_cpu, first, proc.stdout.strip().splitlines()[-1])


def bare_sdk_cpu(
    fake: FakeOpenAI, request: dict, calls: int, concurrency: int, tmp: Path
) -> tuple[float, float]:
    """Return one bare SDK call's CPU seconds: in its loop only, and for its whole process.

    The whole-process figure is measured like ours: interpreter start, import, client and every
    call (warm-up included), divided by the number of calls.
    """
    path = tmp / "request.json"
    path.write_text(json.dumps(request), encoding="utf-8")
    args = [fake.base_url, str(path), str(calls), str(concurrency)]
    before = children_cpu()
    proc = subprocess.run(
        [sys.executable, "-c", BARE_CALLS, *args], capture_output=True, text=True, check=True
    )
    whole = children_cpu() - before
    result = json.loads(proc.stdout)
    return result["cpu_per_call"], whole / result["calls"]


def measure(tmp: Path, n: int, latency: float, concurrency: int) -> dict:
    root = make_workspace(tmp, n)
    with TimedFake(latency=latency) as fake:
        # Breakdown only: a dry run pays the same start-up (imports, loading the records,
        # planning) and sends nothing; the figure that counts is still the real run's CPU / N.
        startup_cpu = run_cli(root, fake, concurrency, "--dry-run").cpu
        server_before = time.process_time()
        load_before = os.getloadavg()[0]
        run = run_cli(root, fake, concurrency)
        load_after = os.getloadavg()[0]
        server_cpu = time.process_time() - server_before
        assert fake.request_count == n, f"expected {n} requests, server saw {fake.request_count}"
        ideal = n * latency / concurrency
        return {
            "n": n,
            "concurrency": concurrency,
            "wall": run.wall,
            "ideal": ideal,
            "efficiency": ideal / run.wall,
            "cpu_per_guide": run.cpu / n,
            "main_cpu": run.main_cpu,
            "first_request": run.first_request,
            "startup_cpu": startup_cpu,
            "peak": fake.peak_concurrency,
            "server_cpu": server_cpu / n,
            "summary": run.summary,
            "request": fake.requests[0],
            "load": (load_before, load_after),
        }


def main() -> None:
    parser = argparse.ArgumentParser(description="Benchmark generate against the fake server.")
    parser.add_argument("--n", type=int, default=1200)
    parser.add_argument("--latency", type=float, default=0.3, help="seconds per request")
    parser.add_argument("--concurrency", type=int, default=32)
    parser.add_argument("--baseline-n", type=int, default=40, help="N for the C=1 baseline")
    parser.add_argument(
        "--bare-calls", type=int, default=None, help="calls of the bare SDK run (default: --n)"
    )
    parser.add_argument("--runs", type=int, default=1, help="main runs; the median is judged")
    args = parser.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="prepguide-bench-"))
    try:
        runs = [measure(tmp, args.n, args.latency, args.concurrency) for _ in range(args.runs)]
        runs.sort(key=lambda run: run["efficiency"])
        main_run = runs[len(runs) // 2]
        body = {k: v for k, v in main_run["request"].items() if k != "stream"}
        with FakeOpenAI(latency=args.latency) as fake:
            calls = args.bare_calls or args.n
            bare, bare_whole = bare_sdk_cpu(fake, body, calls, args.concurrency, tmp)
        baseline = measure(tmp, args.baseline_n, args.latency, 1)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    latency_ms = args.latency * 1000
    print(f"prepguide generate, openai backend, fake server at {latency_ms:.0f} ms latency")
    for label, run in (("main", main_run), ("sequential baseline (smaller N)", baseline)):
        print(f"[{label}] N={run['n']} C={run['concurrency']}: {run['summary']}")
        print(f"  wall time            {run['wall']:.2f} s (whole CLI run, start-up included)")
        print(f"  ideal N*L/C          {run['ideal']:.2f} s")
        print(f"  efficiency           {run['efficiency']:.3f} (ideal / wall)")
        print(f"  first request after  {run['first_request']:.2f} s (from the CLI's start)")
        print(f"  peak concurrency     {run['peak']} (seen by the server)")
        per_guide = run["cpu_per_guide"] * 1000
        print(f"  CPU per guide        {per_guide:.2f} ms (CLI process and its worker / N)")
        startup = run["startup_cpu"]
        print(
            f"    of which start-up  ~{startup * 1000 / run['n']:.2f} ms "
            f"({startup:.2f} s: CPU of a --dry-run of the same N, sending nothing)"
        )
        after = run["cpu_per_guide"] - startup / run["n"]
        print(f"    the rest           ~{after * 1000:.2f} ms (requests, checks, writes)")
        print(f"  main process CPU     {run['main_cpu']:.2f} s (the CLI process, not its worker)")
        print(f"  fake server CPU      {run['server_cpu'] * 1000:.2f} ms per request")
        print(f"  load average (1 min) {run['load'][0]:.2f} before, {run['load'][1]:.2f} after")
    if len(runs) > 1:
        print(f"main runs (median shown above), by efficiency, N={args.n} C={args.concurrency}:")
        for run in runs:
            load = "/".join(f"{value:.1f}" for value in run["load"])
            print(
                f"  efficiency {run['efficiency']:.3f}  wall {run['wall']:.2f} s  "
                f"first request {run['first_request']:.2f} s  main CPU {run['main_cpu']:.2f} s  "
                f"CPU/guide {run['cpu_per_guide'] * 1000:.2f} ms  load {load}"
            )
    ours = main_run["cpu_per_guide"]
    ours_after = ours - main_run["startup_cpu"] / main_run["n"]
    whole_ratio, loop_ratio = ours / bare_whole, ours_after / bare
    print(
        f"bare SDK call CPU      {bare * 1000:.2f} ms in its loop (chat.completions.create, "
        f"same fake and request, C={args.concurrency}; after import, client and warm-up)"
    )
    print(
        f"                       {bare_whole * 1000:.2f} ms for its whole process (start, import, "
        "client, warm-up and every call, / calls: measured like ours)"
    )
    print(f"CPU ratio              {whole_ratio:.2f}x: whole process against whole process")
    print(f"                       {loop_ratio:.2f}x: without start-up on either side")
    print(f"                       {ours / bare:.2f}x: our whole process against the bare loop")
    met = {True: "met", False: "MISSED"}
    print(f"efficiency target      >= 0.85: {met[main_run['efficiency'] >= 0.85]}")
    print(
        f"CPU target             <= 2x like for like: {met[max(whole_ratio, loop_ratio) <= 2]} "
        f"(the larger of the first two ratios, {max(whole_ratio, loop_ratio):.2f}x)"
    )


if __name__ == "__main__":
    main()
