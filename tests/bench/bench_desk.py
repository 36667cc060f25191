"""Benchmark: the review page's queue at scale (search, filters, sorting, paging, actions).

Run: python tests/bench/bench_desk.py [--n 5000] [--keep DIR]
Builds N varied records (as bench_publish.py makes them) and drafts them offline, then starts
the review app in a fresh interpreter twice, as `review serve` would: once with no queue index
yet and once with it kept in .prepguide/. Each run prints the time of every request through the
app (Flask's test client, so no socket): the first queue load, later loads, filtered, sorted
and paged views, a search by a word of the guides' text (first: every text read; then kept),
a guide's page, an approval and the next guide, and (second run) the approval of every clean
draft from the queue, which approves them in the work folder. The target: the queue loads in
under 0.3 s at 5,000 guides. A row changed less than 2 s before a load is not kept (it could
change again unseen), so a load right after an approval reads that guide again.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_publish import REPO, write_records  # noqa: E402

os.environ.setdefault("SOURCE_DATE_EPOCH", "1795996800")
REPEAT = 5


def timed(client, method: str, url: str, **kwargs) -> tuple[float, object]:
    """Send one request; return its time and the response (redirects not followed)."""
    start = time.perf_counter()
    response = getattr(client, method)(url, **kwargs)
    took = time.perf_counter() - start
    if response.status_code >= 400:
        raise SystemExit(f"{method.upper()} {url}: {response.status_code}")
    return took, response


def measure(root: Path, bulk: bool) -> dict[str, float]:
    """Start the app for root in this process and time each request of an editor's session."""
    from generator import review
    from generator.guides.project import Project
    from generator.review.web import create_app

    client = create_app(root, secret="bench").test_client()
    figures: dict[str, float] = {}
    figures["queue: first load"] = timed(client, "get", "/")[0]
    figures["queue: later load (median)"] = statistics.median(
        timed(client, "get", "/")[0] for _ in range(REPEAT)
    )
    views = {
        "queue: drafts by errors, page 3": "/?status=draft&sort=errors&order=desc&page=3",
        "queue: a company and a topic": "/?company=Company+AB&topic=technique+7",
        "queue: 500 a page": "/?per_page=500",
        "queue: search, first (reads texts)": "/?q=interpretation+workloads",
        "queue: search, again": "/?q=interpretation+workloads",
        "queue: search a title word": "/?q=system+42",
    }
    for name, url in views.items():
        figures[name] = timed(client, "get", url)[0]
    project = Project(root)
    rows = review.queue_index(project)
    figures["guide page"] = timed(client, "get", f"/guides/{rows[len(rows) // 2]['id']}")[0]
    target = next(r["id"] for r in rows if r["status"] == "draft" and not r["errors"])
    doc = project.guides.read(target)
    form = {"csrf_token": "bench", "by": "Bench", "content_hash": doc.content_hash}
    took, response = timed(client, "post", f"/guides/{target}/approve", data=form)
    figures["approve (to the next guide)"] = took
    figures["next guide's page"] = timed(client, "get", response.headers["Location"])[0]
    figures["queue: after an approval"] = timed(client, "get", "/")[0]
    time.sleep(2.1)  # past the mtime resolution a row is not kept within (verdicts.RACY_NS)
    figures["queue: 2 s after it (row kept)"] = timed(client, "get", "/")[0]
    if bulk:
        clean = review.clean_drafts(review.queue_index(project))
        page = client.get("/").get_data(as_text=True)
        seen = page.split('name="seen" value="')[1].split('"')[0]
        form = {"csrf_token": "bench", "by": "Bench", "seen": seen}
        took, response = timed(client, "post", "/approve-clean", data=form)
        figures[f"approve the {len(clean)} clean drafts"] = took
        figures["queue: after them"] = timed(client, "get", "/")[0]
    return figures


def fresh_run(root: Path, bulk: bool = False) -> dict[str, float]:
    """Measure in a new interpreter, as a fresh `review serve` would start."""
    out = subprocess.run(
        [sys.executable, __file__, "--measure", str(root), *(["--bulk"] if bulk else [])],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=False,
    )
    if out.returncode:
        raise SystemExit(f"measure failed:\n{out.stderr[-3000:]}")
    return json.loads(out.stdout.splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--n", type=int, default=5000, help="guides in the database")
    parser.add_argument("--keep", type=Path, default=None, help="work folder to keep or reuse")
    parser.add_argument("--measure", type=Path, default=None, help=argparse.SUPPRESS)
    parser.add_argument("--bulk", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.measure:
        print(json.dumps(measure(args.measure, args.bulk)))
        return
    work = args.keep or Path(tempfile.mkdtemp(prefix="prepguide-desk-"))
    root = work / f"db-{args.n}"
    if not (root / "guides").is_dir():
        shutil.rmtree(root, ignore_errors=True)
        root.mkdir(parents=True)
        write_records(root, args.n)
        subprocess.run(
            [sys.executable, "-m", "generator", "--root", str(root), "generate"]
            + ["--backend", "offline"],
            cwd=REPO,
            check=True,
            stdout=subprocess.DEVNULL,
        )
    shutil.rmtree(root / ".prepguide", ignore_errors=True)
    print(f"{args.n} guides in {root}; {os.cpu_count()} CPUs", flush=True)
    runs = {"no index yet": fresh_run(root), "index kept": fresh_run(root, bulk=True)}
    print(f"{'request':40} " + " ".join(f"{name:>14}" for name in runs))
    for name in runs["index kept"]:
        cells = (f"{runs[r][name]:13.3f}s" if name in runs[r] else f"{'-':>14}" for r in runs)
        print(f"{name:40} " + " ".join(cells))
    if args.keep is None:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
