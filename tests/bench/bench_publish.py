"""Benchmark: publish synthetic approved guides, side by side with Pelican 4.12 and the floor.

Run: python tests/bench/bench_publish.py [--guides 5000] [--articles 200] [--rounds 5] [--jobs N]
[--keep DIR]
(--guides 300 --rounds 5 runs in about a minute.) Setup drafts, approves (the real approval,
which runs the checks) and publishes once. Pelican 4.12 is installed in a separate venv,
~/.cache/prepguide-bench/pelican-4.12 (--pelican-venv), never in the project's dependencies;
the same guide bodies become Pelican articles (default theme, Atom feed, company as category,
techniques and stack as tags, the same page size).

Each round, alternating: a cold publish (empty output folder, empty build cache), a no-change
rebuild, a cold Pelican build (no content cache), and the floor (Markdown + Jinja2 + writes
of the same pages in one process, nothing else). Prints medians: guides/s of both and their
ratio, publish/floor, the no-change rebuild; then one draft edit, one guide's new text
approved, and a cold publish that must re-check every text. Timings are of the build call
alone on both sides (interpreter start-up and imports left out). Each phase runs in a fresh
process; peak memory is the sum of the peak RSS of the main process and its live workers.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import replace
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))
os.environ.setdefault("SOURCE_DATE_EPOCH", "1795996800")
PELICAN_VENV = Path.home() / ".cache" / "prepguide-bench" / "pelican-4.12"

WORDS = [
    "candidates",
    "explain",
    "measure",
    "tradeoff",
    "baseline",
    "latency",
    "throughput",
    "design",
    "review",
    "evidence",
    "system",
    "careful",
    "profile",
    "bottleneck",
    "reviewer",
    "interview",
    "project",
    "narrow",
    "budget",
    "evaluate",
    "retrieval",
    "ranking",
    "storage",
    "cache",
    "queue",
    "partition",
    "replica",
    "consistency",
    "rollout",
    "monitor",
    "alert",
    "failure",
    "recovery",
    "capacity",
    "planning",
    "cost",
    "quality",
    "precision",
    "recall",
    "label",
    "dataset",
    "pipeline",
    "schedule",
    "batch",
    "stream",
    "index",
    "shard",
    "migrate",
    "schema",
    "contract",
    "owner",
    "decision",
]


# Our sections draw on other words than the records, so no sentence of ours copies a source's.
SOURCE_WORDS, OUR_WORDS = WORDS[::2], WORDS[1::2]


def prose(rng: random.Random, words: int, vocabulary: list[str] = WORDS) -> str:
    """Return number-free filler sentences of roughly the given length."""
    out, count = [], 0
    while count < words:
        n = rng.randint(9, 16)
        sentence = " ".join(rng.choice(vocabulary) for _ in range(n))
        out.append(sentence[0].upper() + sentence[1:] + ".")
        count += n
    return " ".join(out)


def imperative(sentence: str) -> str:
    """Turn a random sentence into a step the checks accept: one imperative sentence."""
    return "Measure " + sentence[0].lower() + sentence[1:]


def write_records(root: Path, count: int) -> random.Random:
    """Write count varied source records under root/sources; return the generator drawn from."""
    import yaml

    rng = random.Random(7)
    shutil.copytree(REPO / "prompts", root / "prompts")
    shutil.copy(REPO / "prepguide.toml", root / "prepguide.toml")
    (root / "sources").mkdir()
    companies = [f"Company {chr(65 + i // 26)}{chr(65 + i % 26)}" for i in range(80)]
    techniques = [f"technique {i}" for i in range(300)]
    stack = [f"Stack{i}" for i in range(150)]
    for i in range(count):
        year = 2018 + i % 8
        data = {
            "id": f"guide-{i:05d}",
            "company": rng.choice(companies),
            "title": f"How we scaled system {i} for {rng.choice(WORDS)} workloads",
            "url": f"https://engineering.example.com/posts/{i}",
            "published": f"{year}-{1 + i % 12:02d}-{1 + i % 28:02d}",
            "checked": "2026-11-01",
            "summary": prose(rng, 60, SOURCE_WORDS),
            "scale": [f"{rng.randint(2, 900)} million requests per day"] if i % 3 else [],
            "techniques": rng.sample(techniques, 4),
            "stack": rng.sample(stack, 3),
        }
        text = yaml.safe_dump(data, sort_keys=False)
        (root / "sources" / f"guide-{i:05d}.yaml").write_text(text, encoding="utf-8")
    return rng


def make_workspace(root: Path, count: int) -> None:
    """Write sources, guides, revisions and approved review state for count guides."""
    from generator import review
    from generator.core.errors import ReviewError
    from generator.core.fsio import sha256_text
    from generator.guides.compose import compose_body
    from generator.guides.document import GuideDoc, GuideMeta, Provenance
    from generator.guides.project import Project
    from generator.guides.schema import Draft, ReportedStatement
    from generator.site import publish

    rng = write_records(root, count)
    project = Project(root)
    site = project.settings.site.name
    for source in project.sources.sources:
        sentences = [s.strip() + "." for s in source.summary.split(".") if s.strip()]
        for attempt in range(5):  # random steps can nearly repeat each other: draw again
            draft = Draft(
                reported=[ReportedStatement(text=s, quote=s) for s in sentences[:6]],
                angle="connect measurement to the bottleneck",
                interpretation="\n\n".join(prose(rng, 110, OUR_WORDS) for _ in range(2)),
                case_study_title="systems-oriented",
                case_study="\n\n".join(prose(rng, 100, OUR_WORDS) for _ in range(2)),
                steps=[imperative(prose(rng, 1, OUR_WORDS)) for _ in range(4)],
            )
            body = compose_body(draft, source, project.originals(source), site)
            meta = GuideMeta(
                id=source.key,
                source=source.key,
                company=source.company,
                title=source.title,
                provenance=Provenance(
                    backend="bench",
                    drafter_version="bench",
                    prompt_hash="0" * 64,
                    source_hash=source.content_hash(),
                    generated_at="2026-11-01T00:00:00Z",
                ),
                generated_hash=sha256_text(body),
            )
            project.guides.write(GuideDoc(meta=meta, body=body))
            # The real approval: it runs the checks and records the live revision.
            try:
                review.approve(project, source.key, by="bench")
                break
            except ReviewError:
                if attempt == 4:
                    raise
    # The first publication records itself in the review state; later builds only read it.
    publish(project, root.parent / "first-site", preview=False)


def add_articles(root: Path, count: int) -> int:
    """Draft count articles over three records each (offline), approve them; return how many."""
    import yaml

    from generator import review
    from generator.drafting.article_run import generate_articles
    from generator.guides.project import Project
    from generator.review.articles import article_view
    from generator.site import publish

    folder = root / "guides" / "articles"
    folder.mkdir(parents=True, exist_ok=True)
    ids = sorted(path.stem for path in (root / "sources").glob("*.yaml"))
    for number in range(count):
        chosen = [ids[(number * 3 + k * 7) % len(ids)] for k in range(3)]
        spec = {"title": f"Three teams on workload {number}", "sources": chosen}
        (folder / f"article-{number:04d}.yaml").write_text(yaml.safe_dump(spec))
    project = Project(root)
    generate_articles(project, backend="offline")
    view = article_view(project)
    approved = 0
    for slug in view.guides.ids():
        try:
            review.approve(view, slug, by="bench", findings_of=view.findings)
            approved += 1
        except review_error():
            continue
    publish(Project(root), root.parent / "first-site", preview=False)
    return approved


def review_error():
    from generator.core.errors import ReviewError

    return ReviewError


class MemorySampler:
    """Sample the peak RSS of this process and of its live descendants (forked workers).

    The figure is the largest sum, at one sampling moment, of the peak RSS of every process
    then alive: workers of a pool that has ended do not add to the next pool's.
    """

    def __init__(self, interval: float = 0.05) -> None:
        self.interval = interval
        self.peaks: dict[int, float] = {}
        self.total = 0.0
        # Forked workers share the main process's pages; RSS counts them in each process,
        # PSS splits them among the processes that share them: its sum is the memory used.
        self.pss = 0.0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self) -> MemorySampler:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()
        self.sample()

    def _run(self) -> None:
        while not self._stop.wait(self.interval):
            self.sample()

    def sample(self) -> None:
        pending, alive = [os.getpid()], set()
        while pending:
            pid = pending.pop()
            try:
                status = Path(f"/proc/{pid}/status").read_text()
                hwm = float(status.split("VmHWM:")[1].split()[0]) / 1024
                children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
            except (OSError, IndexError):
                continue
            alive.add(pid)
            self.peaks[pid] = max(self.peaks.get(pid, 0.0), hwm)
            pending.extend(int(c) for c in children if int(c) not in alive)
        self.total = max(self.total, sum(self.peaks[pid] for pid in alive))
        pss = 0.0
        for pid in alive:
            try:
                rollup = Path(f"/proc/{pid}/smaps_rollup").read_text()
                pss += float(rollup.split("\nPss:")[1].split()[0]) / 1024
            except (OSError, IndexError):
                continue
        self.pss = max(self.pss, pss)

    def figures(self) -> dict:
        main = self.peaks.get(os.getpid(), 0.0)
        workers = [mb for pid, mb in self.peaks.items() if pid != os.getpid()]
        return {
            "peak_mb": max(self.total, main),
            "main_mb": main,
            "workers_mb": workers,
            "pss_mb": self.pss,
        }


def run_publish(root: Path, out: Path, jobs: int | None) -> dict:
    from generator.guides.project import Project
    from generator.site import publish

    with MemorySampler() as memory:
        start, cpu = time.perf_counter(), cpu_seconds()
        report = publish(Project(root), out, preview=False, jobs=jobs)
        elapsed, cpu = time.perf_counter() - start, cpu_seconds() - cpu
    return {
        "elapsed": elapsed,
        "cpu": cpu,
        "pages": len(report.pages),
        "written": report.written,
        "guides": len(report.guides),
        "articles": len(report.articles),
        "left_out": len(report.left_out),
        "reused": report.reused,
        **memory.figures(),
    }


def cpu_seconds() -> float:
    """Return the CPU time (user and system) of this process and its ended workers."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def run_site_floor(root: Path, out: Path) -> dict:
    """Markdown, Jinja2 and plain writes of exactly the pages publish makes, nothing else.

    Everything that is not rendering is done before the clock starts: loading the records and
    the live versions, the checks, the hub statistics and the related-story ranking. The timed
    loop converts each guide body, renders each page (and each source card once, as publish
    does) and writes it, in one process.
    """
    from generator.guides.project import Project
    from generator.site.model import SiteModel
    from generator.site.render import listing_pages, render_guide_page, render_listing
    from generator.site.select import select

    project = Project(root)
    guides = select(project, preview=False).guides
    guides = [replace(guide, loaded=guide.body) for guide in guides]  # the live texts
    model = SiteModel(project, guides)
    for source in model.sources:
        model.related_items(source)
    common = {"site": model.site, "noindex": False, "description": None}
    pages = 0

    def write(relative: str, html: str) -> None:
        target = out / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(html.encode("utf-8"))

    start, cpu = time.perf_counter(), cpu_seconds()
    for guide in sorted(guides, key=lambda g: g.id):
        write(guide.href, render_guide_page(model, guide, preview=False)[0])
        pages += 1
    for task in listing_pages(model):
        write(*render_listing(model, task, common, False))
        pages += 1
    elapsed, cpu = time.perf_counter() - start, cpu_seconds() - cpu
    return {"elapsed": elapsed, "cpu": cpu, "pages": pages, "peak_mb": peak_mb()}


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


# --- Pelican ---------------------------------------------------------------------------------

PELICAN_CONF = """\
SITENAME = "Prepguide"
SITEURL = "https://prepguide.example.org"
PATH = "content"
TIMEZONE = "UTC"
DEFAULT_LANG = "en"
DEFAULT_PAGINATION = {page_size}
FEED_ALL_ATOM = "feeds/all.atom.xml"
CATEGORY_FEED_ATOM = None
TRANSLATION_FEED_ATOM = None
AUTHOR_FEED_ATOM = None
AUTHOR_FEED_RSS = None
CACHE_CONTENT = False
LOAD_CONTENT_CACHE = False
# One folder per listing, as prepguide's; Pelican's default names page 2 of tag "stack1"
# tag/stack12.html, which is also the page of tag "stack12".
TAG_URL = "tag/{{slug}}/"
TAG_SAVE_AS = "tag/{{slug}}/index.html"
CATEGORY_URL = "category/{{slug}}/"
CATEGORY_SAVE_AS = "category/{{slug}}/index.html"
PAGINATION_PATTERNS = (
    (1, "{{url}}", "{{save_as}}"),
    (2, "{{base_name}}/page/{{number}}/", "{{base_name}}/page/{{number}}/index.html"),
)
"""

PELICAN_RUN = """\
import json, resource, sys, time
from pelican import Pelican
from pelican.settings import read_settings
settings = read_settings(sys.argv[1], override={"OUTPUT_PATH": sys.argv[2]})
start = time.perf_counter()
Pelican(settings).run()
elapsed = time.perf_counter() - start
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps({"elapsed": elapsed, "peak_mb": peak}))
"""


def pelican_python(venv: Path) -> Path:
    """Return the venv's interpreter, creating the venv with Pelican 4.12 when missing."""
    python = venv / "bin" / "python"
    if not python.exists():
        print(f"creating {venv} with Pelican 4.12 (once)", flush=True)
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        pip = [str(python), "-m", "pip", "install", "-q", "pelican==4.12.*", "markdown"]
        subprocess.run(pip, check=True)
    return python


def write_pelican_site(root: Path, site: Path) -> int:
    """Write every approved guide of the workspace as a Pelican article; return the count."""
    import yaml

    from generator.core.config import SiteSettings

    content = site / "content"
    content.mkdir(parents=True)
    count = 0
    for path in sorted((root / "guides").glob("*.md")):
        body = path.read_text(encoding="utf-8").split("\n---\n", 1)[1]
        record = yaml.safe_load((root / "sources" / f"{path.stem}.yaml").read_text())
        tags = ", ".join(record["techniques"] + record["stack"])
        head = (
            f"Title: {record['title']}\nDate: {record['published']}\n"
            f"Category: {record['company']}\nTags: {tags}\nSlug: {path.stem}\n"
            f"Summary: {' '.join(record['summary'].split()[:40])}\n\n"
        )
        (content / f"{path.stem}.md").write_text(head + body, encoding="utf-8")
        count += 1
    conf = PELICAN_CONF.format(page_size=SiteSettings().page_size)
    (site / "pelicanconf.py").write_text(conf, encoding="utf-8")
    (site / "run.py").write_text(PELICAN_RUN, encoding="utf-8")
    return count


def run_pelican(python: Path, site: Path, out: Path) -> dict:
    """Build the Pelican site into a new folder (no cache) and return its figures."""
    assert not out.exists(), out
    settle()
    cmd = [str(python), str(site / "run.py"), str(site / "pelicanconf.py"), str(out)]
    done = subprocess.run(cmd, capture_output=True, text=True, check=False, cwd=site)
    if done.returncode != 0:
        raise SystemExit(done.stderr[-4000:])
    result = json.loads(done.stdout.strip().splitlines()[-1])
    result["pages"] = sum(1 for p in out.rglob("*") if p.suffix in (".html", ".xml"))
    return result


# --- phases ----------------------------------------------------------------------------------


def cold_publish(root: Path, site: Path, jobs: int | None = None) -> dict:
    """Publish into a new folder with no build cache."""
    assert not site.exists(), site
    shutil.rmtree(root / ".prepguide" / "publish", ignore_errors=True)
    settle()
    return phase("publish", str(root), str(site), str(jobs or 0))


def settle(limit: float = 60.0) -> None:
    """Flush the disk and wait until no process stalls on I/O, so that each phase starts alike.

    Phases write into new folders and nothing is deleted until the end: ext4 passes over the
    inodes of files deleted in the last seconds when it makes new ones, which made any phase
    that followed a large deletion several times slower in its file creation.
    """
    os.sync()
    pressure = Path("/proc/pressure/io")
    deadline = time.monotonic() + limit
    while pressure.exists() and time.monotonic() < deadline:
        full = pressure.read_text().split("full avg10=")[1].split()[0]
        if float(full) < 1.0:
            return
        time.sleep(2)


def phase(*args: str) -> dict:
    """Run one measured phase in a fresh interpreter and return its figures."""
    cmd = [sys.executable, __file__, "--phase", *args]
    done = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(done.stderr)
    return json.loads(done.stdout.strip().splitlines()[-1])


def run_phase(kind: str, root: str, out: str, *rest: str) -> None:
    if kind == "setup":
        make_workspace(Path(root), int(out))
        if rest and int(rest[0]):
            print(f"articles approved: {add_articles(Path(root), int(rest[0]))}")
    elif kind == "publish":
        print(json.dumps(run_publish(Path(root), Path(out), int(rest[0]) or None)))
    elif kind == "approve":
        from generator import review
        from generator.guides.project import Project

        review.approve(Project(Path(root)), out, by="bench")
        print("{}")
    else:
        print(json.dumps(run_site_floor(Path(root), Path(out))))


def memory(run: dict) -> str:
    workers = run.get("workers_mb") or []
    if not workers:
        return f"peak memory {run['peak_mb']:.0f} MB"
    each = ", ".join(f"{mb:.0f}" for mb in workers)
    return (
        f"peak memory {run['peak_mb']:.0f} MB summed over main and live workers "
        f"(peaks: main {run['main_mb']:.0f}, {len(workers)} workers {each}); "
        f"sampled PSS sum (shared pages counted once) {run.get('pss_mb', 0):.0f} MB"
    )


def median(runs: list[dict], key: str = "elapsed") -> float:
    return statistics.median(run[key] for run in runs)


def edit_draft(root: Path, guide: str, text: str) -> None:
    """Add a sentence to a guide's interpretation section, as an editor would."""
    path = root / "guides" / f"{guide}.md"
    body = path.read_text(encoding="utf-8")
    edited = body.replace("\n## Build a", f"\n{text}\n\n## Build a", 1)
    assert edited != body, path
    path.write_text(edited, encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--guides", type=int, default=5000, help="size of the site")
    parser.add_argument("--articles", type=int, default=0, help="career articles (e.g. 200)")
    parser.add_argument("--rounds", type=int, default=5, help="alternating cold builds")
    parser.add_argument("--jobs", type=int, default=None, help="publish --jobs (default: auto)")
    parser.add_argument("--keep", type=Path, default=None, help="reuse this work folder")
    parser.add_argument("--pelican-venv", type=Path, default=PELICAN_VENV)
    parser.add_argument("--no-pelican", action="store_true")
    parser.add_argument("--phase", nargs="+", default=None)
    args = parser.parse_args()
    if args.phase:
        run_phase(*args.phase)
        return
    base = args.keep or Path(tempfile.mkdtemp(prefix="prepguide-bench-"))
    root = base / "ws"
    if not (root / "guides").is_dir():
        root.mkdir(parents=True, exist_ok=True)
        start = time.perf_counter()
        # In its own process: Linux carries a process's peak memory across exec into children.
        subprocess.run(
            [
                sys.executable,
                __file__,
                "--phase",
                "setup",
                str(root),
                str(args.guides),
                str(args.articles),
            ],
            check=True,
        )
        print(f"setup: {args.guides} approved guides written in {time.perf_counter() - start:.1f}s")
    words = len((root / "guides" / "guide-00000.md").read_text().split("\n---\n", 1)[1].split())
    print(f"guide body: ~{words} words")
    run = 1 + sum(1 for _ in base.glob("run-*"))
    out = base / f"run-{run}"  # every phase writes into a new folder below this one
    python = pelican = None
    if not args.no_pelican:
        python = pelican_python(args.pelican_venv)
        pelican = out / "pelican"
        write_pelican_site(root, pelican)
    jobs = str(args.jobs or 0)
    colds: list[dict] = []
    pelicans: list[dict] = []
    floors: list[dict] = []
    nochange: list[dict] = []
    for i in range(args.rounds):  # alternating, so that both see the same machine
        colds.append(cold_publish(root, out / f"site-{i}", args.jobs))
        nochange.append(phase("publish", str(root), str(out / f"site-{i}"), jobs))
        if python and pelican:
            pelicans.append(run_pelican(python, pelican, out / f"pelican-{i}"))
        settle()
        floors.append(phase("site-floor", str(root), str(out / f"floor-{i}")))
    cold, guides = median(colds), colds[0]["guides"]
    print(
        f"cold publish (empty output, empty cache), median of {args.rounds}: {guides} guides, "
        f"{colds[0].get('articles', 0)} articles, "
        f"{colds[0]['pages']} pages in {cold:.2f}s = {guides / cold:.0f} guides/s "
        f"(CPU {median(colds, 'cpu'):.2f}s); "
        f"{memory(max(colds, key=lambda r: r['peak_mb']))}"
    )
    if pelicans:
        slow = median(pelicans)
        print(
            f"Pelican 4.12 (default theme, Atom feed), median of {args.rounds}: {guides} articles, "
            f"{pelicans[0]['pages']} pages in {slow:.2f}s = {guides / slow:.0f} guides/s; "
            f"peak memory {max(r['peak_mb'] for r in pelicans):.0f} MB"
        )
        ratios = sorted(p["elapsed"] / c["elapsed"] for p, c in zip(pelicans, colds, strict=True))
        print(
            f"prepguide/Pelican guides/s: {slow / cold:.2f}x (per round: "
            f"{', '.join(f'{r:.2f}' for r in ratios)}; target >= 2)"
        )
    floor = median(floors)
    print(
        f"floor (Markdown + Jinja2 + writes of the same {floors[0]['pages']} pages, one "
        f"process), median: {floor:.2f}s (CPU {median(floors, 'cpu'):.2f}s); publish/floor: "
        f"{cold / floor:.2f} (target <= 1.5)"
    )
    print(
        f"no-change rebuild, median: {median(nochange):.2f}s (CPU {median(nochange, 'cpu'):.2f}s) "
        f"({nochange[0]['written']} written, skipped: {nochange[0]['reused']}), "
        f"{memory(nochange[0])}"
    )
    # The last cold build's folder: each cold build empties the build cache, so only the
    # last one still has its manifest and kept state, as a user's one site does.
    site = out / f"site-{args.rounds - 1}"
    edit_draft(root, "guide-00000", "One more sentence about the design review.")
    edited = phase("publish", str(root), str(site), jobs)
    print(
        f"one draft edit (live version unchanged): {edited['written']} written in "
        f"{edited['elapsed']:.2f}s (CPU {edited['cpu']:.2f}s), {memory(edited)}"
    )
    phase("approve", str(root), "guide-00000")
    approved = phase("publish", str(root), str(site), jobs)
    print(
        f"one guide's new text approved: {approved['written']} pages written in "
        f"{approved['elapsed']:.2f}s (CPU {approved['cpu']:.2f}s), {memory(approved)}"
    )
    config = root / "prepguide.toml"
    settings = config.read_text(encoding="utf-8")
    changed = re.sub(r"(?m)^freshness_days = (\d+)", r"freshness_days = 1\1", settings)
    assert changed != settings, "prepguide.toml has no freshness_days line"
    config.write_text(changed, encoding="utf-8")
    try:
        recheck = cold_publish(root, out / "site-rechecked", args.jobs)
    finally:
        config.write_text(settings, encoding="utf-8")
    print(
        f"cold publish after a checks setting changed (every approved text re-checked): "
        f"{recheck['elapsed']:.2f}s = {guides / recheck['elapsed']:.0f} guides/s "
        f"(CPU {recheck['cpu']:.2f}s), "
        f"{memory(recheck)}"
    )
    print(f"load average at the end: {', '.join(f'{x:.2f}' for x in os.getloadavg())}")
    if args.keep is None:
        shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    main()
