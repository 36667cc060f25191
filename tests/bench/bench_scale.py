"""Benchmark: an editor's desk at scale, every command once, at two database sizes.

Run: python tests/bench/bench_scale.py [--n 3000] [--small N] [--keep DIR]
(--n 30000 for the full run). Builds N varied records (as bench_publish.py makes them), then
runs each command as a user would, in a fresh interpreter, and prints its wall time and peak
memory (the largest sum, at one moment, of the peak RSS of the command and its live workers):
generate --backend offline, check (cold and with nothing changed), review list (cold and
nothing changed), the review page's queue (first and later load) and one guide page (as
bench_desk.py times them: requests through the app in a fresh interpreter, as `review serve`
starts), review approve of every guide in one call (and, on a copy of the database, in calls
of 500 ids), the first publish, a cold re-publish, a no-change publish, a publish after one
edit, topics and digest build. The same runs at a smaller size (--small, default N/3) give
each command's growth exponent: log(t_N / t_small) / log(N / small); 1.0 is linear.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_desk import timed  # noqa: E402
from bench_publish import REPO, MemorySampler, write_records  # noqa: E402

os.environ.setdefault("SOURCE_DATE_EPOCH", "1795996800")
CHUNK = 500  # ids per `review approve` call, as an editor's script would pass them
Figure = tuple[float, float, int, float]  # wall time, peak memory in MB, exit code, CPU time


def run(cmd: list[str]) -> tuple[float, float, int, str, float]:
    """Run a command; return its wall time, summed peak memory, exit code, output and CPU."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        proc = subprocess.Popen(cmd, cwd=REPO, stdout=out, stderr=err)
        with MemorySampler(pid=proc.pid) as memory:
            _, status, usage = os.wait4(proc.pid, 0)
        elapsed = time.perf_counter() - start
        proc.returncode = code = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        output, text = out.read().decode(errors="replace"), err.read().decode(errors="replace")
    if code not in (0, 1) or "Traceback" in text:
        raise SystemExit(f"{' '.join(cmd[2:])} failed ({code}):\n{text[-3000:]}")
    # A process too short to be sampled alive still has its own peak.
    peak = max(memory.figures()["peak_mb"], usage.ru_maxrss / 1024)
    return elapsed, peak, code, output, usage.ru_utime + usage.ru_stime


def command(root: Path, *args: str) -> Figure:
    """Run one prepguide command; return its wall time, peak memory in MB and exit code."""
    took, mb, code, _, cpu = run([sys.executable, "-m", "generator", "--root", str(root), *args])
    return took, mb, code, cpu


def guide_ids(root: Path) -> list[str]:
    return sorted(path.stem for path in (root / "guides").glob("*.md"))


def approve_all(root: Path, chunk: int | None = None) -> Figure:
    """Approve every guide in one call, or chunk ids per call; return the summed time."""
    ids = guide_ids(root)
    size = chunk or len(ids)
    total, peak, code, cpu = 0.0, 0.0, 0, 0.0
    for start in range(0, len(ids), size):
        took, mb, rc, used = command(
            root, "review", "approve", *ids[start : start + size], "--by", "b"
        )
        total, peak, code, cpu = total + took, max(peak, mb), max(code, rc), cpu + used
    return total, peak, code, cpu


def desk(root: Path) -> dict[str, Figure]:
    """Time the review page's queue and one guide page in a fresh interpreter."""
    cmd = [sys.executable, __file__, "--desk", str(root)]
    _, mb, code, out, _ = run(cmd)
    took = json.loads(out.strip().splitlines()[-1])
    # One process serves every request: its CPU time is not split between them.
    return {name: (seconds, mb, code, float("nan")) for name, seconds in took.items()}


def measure_desk(root: Path) -> dict[str, float]:
    """Start the review app as `review serve` does and time the editor's first requests."""
    from generator.review.web import create_app

    client = create_app(root, secret="bench").test_client()
    figures = {"review page: queue (first load)": timed(client, "get", "/")[0]}
    figures["review page: queue (later load)"] = timed(client, "get", "/")[0]
    ids = guide_ids(root)
    took, _ = timed(client, "get", f"/guides/{ids[len(ids) // 2]}")
    figures["review page: one guide page"] = took
    return figures


def edit_one(root: Path) -> None:
    """Change one guide's text and approve it: the next publish has one new text."""
    path = sorted((root / "guides").glob("*.md"))[0]
    path.write_text(path.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    command(root, "review", "approve", path.stem, "--by", "b")


def run_size(work: Path, n: int) -> dict[str, Figure]:
    root = work / f"db-{n}"
    if root.exists():
        shutil.rmtree(root)
    root.mkdir(parents=True)
    write_records(root, n)
    out = work / f"site-{n}"
    figures: dict[str, Figure] = {}
    figures["generate --backend offline"] = command(root, "generate", "--backend", "offline")
    figures["check (cold)"] = command(root, "check")
    figures["check (nothing changed)"] = command(root, "check")
    figures["review list (first)"] = command(root, "review", "list")
    figures["review list (nothing changed)"] = command(root, "review", "list")
    figures.update(desk(root))
    chunked = work / f"db-{n}-chunks"  # the same drafts, for the approval in chunks
    shutil.rmtree(chunked, ignore_errors=True)
    shutil.copytree(root, chunked, symlinks=True)
    figures["review approve (every guide, one call)"] = approve_all(root)
    figures[f"review approve (every guide, {CHUNK} a call)"] = approve_all(chunked, CHUNK)
    figures["publish (first)"] = command(root, "publish", "--out", str(out))
    shutil.rmtree(out)
    shutil.rmtree(root / ".prepguide", ignore_errors=True)
    figures["publish (cold re-publish)"] = command(root, "publish", "--out", str(out))
    figures["publish (no change)"] = command(root, "publish", "--out", str(out))
    edit_one(root)
    figures["publish (one edit)"] = command(root, "publish", "--out", str(out))
    figures["topics"] = command(root, "topics")
    figures["digest build"] = command(root, "digest", "build")
    return figures


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--n", type=int, default=3000, help="records in the database")
    parser.add_argument("--small", type=int, default=None, help="the smaller size (N/3)")
    parser.add_argument("--keep", type=Path, default=None, help="work folder to keep")
    parser.add_argument("--desk", type=Path, default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.desk:
        print(json.dumps(measure_desk(args.desk)))
        return
    small = args.small or max(1, args.n // 3)
    work = args.keep or Path(tempfile.mkdtemp(prefix="prepguide-scale-"))
    print(f"work folder {work}; sizes {small} and {args.n}; {os.cpu_count()} CPUs", flush=True)
    results = {size: run_size(work, size) for size in (small, args.n)}
    rows = results[args.n]
    print("peak MB: the largest sum, at one moment, of the peak RSS of a command's processes")
    print(f"{'command':44} {small:>9} {args.n:>9} {'CPU':>8} {'peak MB':>8} {'growth':>7}")
    for name, (took, mb, code, cpu) in rows.items():
        before = results[small][name][0]
        growth = math.log(took / before) / math.log(args.n / small) if before > 0 else float("nan")
        flag = "" if code == 0 else "  (exit 1: some guides have error findings)"
        print(f"{name:44} {before:8.2f}s {took:8.2f}s {cpu:7.2f}s {mb:8.0f} {growth:7.2f}{flag}")
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak RSS of this script {own:.0f} MB")
    if args.keep is None:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
