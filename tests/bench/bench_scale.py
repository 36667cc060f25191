"""Benchmark: an editor's desk at scale, every command once, at two database sizes.

Run: python tests/bench/bench_scale.py [--n 3000] [--small N] [--keep DIR]
(--n 30000 for the full run). Builds N varied records (as bench_publish.py makes them), then
runs each command as a user would, in a fresh interpreter, and prints its wall time and peak
memory (peak RSS of the command and the workers it waited for): generate --backend offline,
check (cold and with nothing changed), review list (cold and nothing changed), review approve of
every guide, the first publish, a cold re-publish, a no-change publish, a publish after one
edit, topics and digest build. The same runs at a smaller size (--small, default N/3) give each
command's growth exponent: log(t_N / t_small) / log(N / small); 1.0 is linear.
"""

from __future__ import annotations

import argparse
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
from bench_publish import REPO, write_records  # noqa: E402

os.environ.setdefault("SOURCE_DATE_EPOCH", "1795996800")
CHUNK = 500  # ids per `review approve` call, as an editor's script would pass them


def command(root: Path, *args: str) -> tuple[float, float, int]:
    """Run one prepguide command; return its wall time, peak RSS in MB and exit code."""
    cmd = [sys.executable, "-m", "generator", "--root", str(root), *args]
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    elapsed = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    err = proc.stderr.read().decode(errors="replace") if proc.stderr else ""
    if proc.returncode not in (0, 1) or "Traceback" in err:
        raise SystemExit(f"{' '.join(args)} failed ({proc.returncode}):\n{err[-3000:]}")
    return elapsed, usage.ru_maxrss / 1024, proc.returncode


def approve_all(root: Path) -> tuple[float, float, int]:
    """Approve every guide, CHUNK ids per call; return the summed time and the peak memory."""
    ids = sorted(path.stem for path in (root / "guides").glob("*.md"))
    total, peak, code = 0.0, 0.0, 0
    for start in range(0, len(ids), CHUNK):
        took, mb, rc = command(root, "review", "approve", *ids[start : start + CHUNK], "--by", "b")
        total, peak, code = total + took, max(peak, mb), max(code, rc)
    return total, peak, code


def edit_one(root: Path) -> None:
    """Change one guide's text and approve it: the next publish has one new text."""
    path = sorted((root / "guides").glob("*.md"))[0]
    path.write_text(path.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    command(root, "review", "approve", path.stem, "--by", "b")


def run_size(work: Path, n: int) -> dict[str, tuple[float, float, int]]:
    root = work / f"db-{n}"
    if root.exists():
        shutil.rmtree(root)
    root.mkdir(parents=True)
    write_records(root, n)
    out = work / f"site-{n}"
    figures: dict[str, tuple[float, float, int]] = {}
    figures["generate --backend offline"] = command(root, "generate", "--backend", "offline")
    figures["check (cold)"] = command(root, "check")
    figures["check (nothing changed)"] = command(root, "check")
    figures["review list (first)"] = command(root, "review", "list")
    figures["review list (nothing changed)"] = command(root, "review", "list")
    figures["review approve (every guide)"] = approve_all(root)
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
    args = parser.parse_args()
    small = args.small or max(1, args.n // 3)
    work = args.keep or Path(tempfile.mkdtemp(prefix="prepguide-scale-"))
    print(f"work folder {work}; sizes {small} and {args.n}; {os.cpu_count()} CPUs", flush=True)
    results = {size: run_size(work, size) for size in (small, args.n)}
    rows = results[args.n]
    print(f"{'command':34} {small:>9} {args.n:>9} {'peak MB':>8} {'growth':>7}")
    for name, (took, mb, code) in rows.items():
        before = results[small][name][0]
        growth = math.log(took / before) / math.log(args.n / small) if before > 0 else float("nan")
        flag = "" if code == 0 else "  (exit 1: some guides have error findings)"
        print(f"{name:34} {before:8.2f}s {took:8.2f}s {mb:8.0f} {growth:7.2f}{flag}")
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak RSS of this script {own:.0f} MB")
    if args.keep is None:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
