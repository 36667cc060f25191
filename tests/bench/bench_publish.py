"""Benchmark: publishing on every path, side by side with Pelican 4.12, Hugo and the floor.

Run: python tests/bench/bench_publish.py [--guides 5000] [--articles 200] [--rounds 5] [--jobs N]
[--keep DIR] [--no-pelican] [--no-hugo] (--guides 300 --rounds 5 runs in a few minutes). Setup
drafts N guides and approves them (the real approval, which runs the checks), plus one more
draft per round that passes the checks, and --articles career articles over three records each
(offline, approved); nothing is published. --keep reuses that setup.

Pelican 4.12 is installed in a separate venv, ~/.cache/prepguide-bench/pelican-4.12
(--pelican-venv), never in the project's dependencies; the same guide bodies become Pelican
articles (default theme, Atom feed, company as category, techniques and stack as tags, the
same page size). Hugo is Debian's `hugo` where it is installed (hugo_site.py writes the same
bodies with a minimal layout); its column is skipped, with the reason, where it is not.

Each round, alternating, so that every build sees the same machine: the first publish of the
N newly approved guides (into a copy of the workspace as the approvals left it; only the
publish that marks them published is timed), a cold re-publish (no site, nothing under
.prepguide/), a no-change rebuild, one draft edit, that edit approved (one guide's new text),
one newly approved guide, a cold Pelican build (no content cache), a cold Hugo build (new
output and cache folders) and the floor (Markdown + Jinja2 + writes of the same pages in one
process, nothing else). Prints medians and spreads, guides/s and the ratios; then a cold
publish that must re-check every text. Timings are of the build call alone for prepguide and
Pelican (interpreter start-up and imports left out) and of the whole process for Hugo. Each
phase runs in a fresh process; peak memory is the sum of the peak RSS of the main process and
its live workers.
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

from hugo_site import guide_entries, hugo_binary, run_hugo, write_hugo_site

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))
os.environ.setdefault("SOURCE_DATE_EPOCH", "1795996800")
PELICAN_VENV = Path.home() / ".cache" / "prepguide-bench" / "pelican-4.12"
SETUP_FILE = "setup.json"  # which guides are approved and which held back as drafts

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


def make_workspace(root: Path, count: int, held: int) -> None:
    """Write sources, guides and revisions: count guides approved, held more drafts that pass.

    Nothing is published: the first publish of the approved guides is a measured phase.
    """
    from generator import review
    from generator.checks import check_context, check_guide, has_errors
    from generator.core.errors import ReviewError
    from generator.core.fsio import sha256_text
    from generator.guides.compose import compose_body
    from generator.guides.document import GuideDoc, GuideMeta, Provenance
    from generator.guides.project import Project
    from generator.guides.schema import Draft, ReportedStatement

    rng = write_records(root, count + held)
    project = Project(root)
    site = project.settings.site.name
    ordered = sorted(project.sources.sources, key=lambda s: s.key)
    for n, source in enumerate(ordered):
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
            doc = GuideDoc(meta=meta, body=body)
            project.guides.write(doc)
            if n >= count:  # held back as a draft that an editor can approve later
                if not has_errors(check_guide(doc, check_context(project, source))):
                    break
            else:
                # The real approval: it runs the checks and records the live revision.
                try:
                    review.approve(project, source.key, by="bench")
                    break
                except ReviewError:
                    pass
            if attempt == 4:
                raise SystemExit(f"{source.key}: no draft of five passes the checks")
    ids = [s.key for s in ordered]
    setup = {"approved": ids[:count], "held": ids[count:]}
    (root.parent / SETUP_FILE).write_text(json.dumps(setup), encoding="utf-8")


def add_articles(root: Path, count: int) -> int:
    """Draft count articles over three records each (offline), approve them; return how many."""
    import yaml

    from generator import review
    from generator.core.errors import ReviewError
    from generator.drafting.article_run import generate_articles
    from generator.guides.project import Project
    from generator.review.articles import article_view

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
        except ReviewError:
            continue
    return approved


class MemorySampler:
    """Sample the peak RSS of a process (this one by default) and of its live descendants.

    The figure is the largest sum, at one sampling moment, of the peak RSS of every process
    then alive: workers of a pool that has ended do not add to the next pool's.
    """

    def __init__(self, interval: float = 0.05, pid: int | None = None) -> None:
        self.interval = interval
        self.pid = pid or os.getpid()
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
        pending, alive = [self.pid], set()
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
        main = self.peaks.get(self.pid, 0.0)
        workers = [mb for pid, mb in self.peaks.items() if pid != self.pid]
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


def write_pelican_site(root: Path, site: Path, ids: list[str], page_size: int) -> int:
    """Write the given guides of the workspace as Pelican articles; return the count."""
    content = site / "content"
    content.mkdir(parents=True)
    count = 0
    for guide_id, record, body in guide_entries(root, ids):
        tags = ", ".join(record["techniques"] + record["stack"])
        head = (
            f"Title: {record['title']}\nDate: {record['published']}\n"
            f"Category: {record['company']}\nTags: {tags}\nSlug: {guide_id}\n"
            f"Summary: {' '.join(record['summary'].split()[:40])}\n\n"
        )
        (content / f"{guide_id}.md").write_text(head + body, encoding="utf-8")
        count += 1
    conf = PELICAN_CONF.format(page_size=page_size)
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
    """Publish into a new folder with no build cache nor any other cache under .prepguide/."""
    assert not site.exists(), site
    shutil.rmtree(root / ".prepguide", ignore_errors=True)
    settle()
    return phase("publish", str(root), str(site), str(jobs or 0))


def copy_workspace(source: Path, target: Path) -> None:
    """Copy a workspace as it is (review state, revisions, audit trail and .prepguide/)."""
    assert not target.exists(), target
    shutil.copytree(source, target, symlinks=True)


def published_count(root: Path) -> int:
    """Return how many publications the workspace's audit trail records."""
    count = 0
    with open(root / "guides" / ".audit.jsonl", encoding="utf-8") as lines:
        for line in lines:
            if '"publish"' in line and json.loads(line).get("action") == "publish":
                count += 1
    return count


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
        make_workspace(Path(root), int(out), int(rest[0]))
        if len(rest) > 1 and int(rest[1]):
            print(f"articles approved: {add_articles(Path(root), int(rest[1]))}")
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


def prepare(base: Path, guides: int, held: int, articles: int = 0) -> dict:
    """Make (or reuse) the approved workspace base/approved; return its setup figures."""
    approved, setup_file = base / "approved", base / SETUP_FILE
    if setup_file.exists():
        setup = json.loads(setup_file.read_text(encoding="utf-8"))
        same = setup.get("articles", 0) == articles
        if len(setup["approved"]) == guides and len(setup["held"]) >= held and same:
            return setup
    shutil.rmtree(approved, ignore_errors=True)
    approved.mkdir(parents=True)
    start = time.perf_counter()
    # In its own process: Linux carries a process's peak memory across exec into children.
    cmd = [sys.executable, __file__, "--phase", "setup", str(approved), str(guides), str(held)]
    subprocess.run([*cmd, str(articles)], check=True)
    setup = json.loads(setup_file.read_text(encoding="utf-8"))
    setup_file.write_text(json.dumps({**setup, "articles": articles}), encoding="utf-8")
    print(
        f"setup: {guides} guides drafted and approved (not yet published), {held} more drafts, "
        f"in {time.perf_counter() - start:.1f}s"
    )
    return json.loads(setup_file.read_text(encoding="utf-8"))


def spread(runs: list[dict], key: str = "elapsed") -> str:
    values = [run[key] for run in runs]
    return f"{min(values):.2f}-{max(values):.2f}"


def per_round(values: list[float]) -> str:
    return ", ".join(f"{v:.2f}" for v in values)


def row(name: str, runs: list[dict], guides: int | None = None) -> str:
    took = median(runs)
    rate = f"{guides / took:9.0f}" if guides else f"{'':9}"
    pages = runs[0].get("pages", "")
    written = runs[0].get("written", "")
    cpu = f"{median(runs, 'cpu'):7.2f}" if "cpu" in runs[0] else f"{'':7}"
    peak = max(run["peak_mb"] for run in runs)
    return (
        f"{name:44} {took:8.2f} {spread(runs):>13} {cpu} {rate} {pages!s:>6} {written!s:>7} "
        f"{peak:7.0f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--guides", type=int, default=5000, help="size of the site")
    parser.add_argument("--articles", type=int, default=0, help="career articles (e.g. 200)")
    parser.add_argument("--rounds", type=int, default=5, help="alternating rounds")
    parser.add_argument("--jobs", type=int, default=None, help="publish --jobs (default: auto)")
    parser.add_argument("--keep", type=Path, default=None, help="reuse this work folder")
    parser.add_argument("--pelican-venv", type=Path, default=PELICAN_VENV)
    parser.add_argument("--no-pelican", action="store_true")
    parser.add_argument("--no-hugo", action="store_true")
    parser.add_argument("--phase", nargs="+", default=None)
    args = parser.parse_args()
    if args.phase:
        run_phase(*args.phase)
        return
    base = args.keep or Path(tempfile.mkdtemp(prefix="prepguide-bench-"))
    setup = prepare(base, args.guides, args.rounds, args.articles)
    ids, held = setup["approved"], setup["held"]
    approved = base / "approved"
    body = (approved / "guides" / f"{ids[0]}.md").read_text().split("\n---\n", 1)[1]
    print(f"guide body: ~{len(body.split())} words")
    run = 1 + sum(1 for _ in base.glob("run-*"))
    out = base / f"run-{run}"  # every phase writes into a new folder below this one
    from generator.core.config import SiteSettings

    page_size = SiteSettings().page_size
    python = pelican = None
    if args.no_pelican:
        print("Pelican: skipped (--no-pelican)")
    else:
        python = pelican_python(args.pelican_venv)
        pelican = out / "pelican"
        write_pelican_site(approved, pelican, ids, page_size)
    hugo, why = (None, "skipped (--no-hugo)") if args.no_hugo else hugo_binary()
    hugo_version = ""
    if hugo is None:
        print(f"Hugo: {why}")
    else:
        hugo_version = why.split()[1].split("+")[0] if len(why.split()) > 1 else why
        write_hugo_site(approved, out / "hugo", ids, page_size)
    jobs = str(args.jobs or 0)
    # The workspace of the later phases is the first round's, once it is published.
    root = out / "first-0" / "ws"
    firsts: list[dict] = []
    colds: list[dict] = []
    nochange: list[dict] = []
    edits: list[dict] = []
    reapproved: list[dict] = []
    newly: list[dict] = []
    pelicans: list[dict] = []
    hugos: list[dict] = []
    floors: list[dict] = []
    for i in range(args.rounds):  # alternating, so that every build sees the same machine
        # the first publish after the approvals, of a copy of the workspace as approval left it
        first = out / f"first-{i}"
        copy_workspace(approved, first / "ws")
        settle()
        firsts.append(phase("publish", str(first / "ws"), str(first / "site"), jobs))
        firsts[-1]["marked"] = published_count(first / "ws")
        site = out / f"site-{i}"
        colds.append(cold_publish(root, site, args.jobs))
        nochange.append(phase("publish", str(root), str(site), jobs))
        # on the site and kept state of this round's cold build, as a user's one site
        edit_draft(root, ids[i], "One more sentence about the design review.")
        edits.append(phase("publish", str(root), str(site), jobs))
        phase("approve", str(root), ids[i])
        reapproved.append(phase("publish", str(root), str(site), jobs))
        phase("approve", str(root), held[i])
        newly.append(phase("publish", str(root), str(site), jobs))
        if python and pelican:
            pelicans.append(run_pelican(python, pelican, out / f"pelican-{i}"))
        if hugo:
            settle()
            hugos.append(run_hugo(hugo, out / "hugo", out / f"hugo-{i}"))
        settle()
        floors.append(phase("site-floor", str(root), str(out / f"floor-{i}")))
    guides = len(ids)
    print(
        f"{guides} guides, {colds[0].get('articles', 0)} articles, {args.rounds} alternating "
        "rounds; medians and spread (min-max) in s"
    )
    print(
        f"{'phase':44} {'median':>8} {'spread':>13} {'CPU':>7} {'guides/s':>9} {'pages':>6} "
        f"{'written':>7} {'peak MB':>7}"
    )
    print(row(f"first publish of {guides} newly approved", firsts, guides))
    print(row("cold re-publish (no site, no cache)", colds, colds[0]["guides"]))
    print(row("no-change rebuild", nochange))
    print(row("one draft edit (live version unchanged)", edits))
    print(row("one guide's new text approved", reapproved))
    print(row("one newly approved guide", newly))
    if pelicans:
        print(row("Pelican 4.12 cold build (default theme)", pelicans, guides))
    if hugos:
        print(row(f"Hugo {hugo_version} cold build (minimal layout)", hugos, guides))
    print(row("floor (Markdown + Jinja2 + writes, 1 process)", floors))
    marked = sorted({run["marked"] for run in firsts})
    if marked != [guides]:
        print(f"WARNING: the first publish recorded {marked} publications, not {guides}")
    first, cold = median(firsts), median(colds)
    rate = colds[0]["guides"] / guides  # the cold builds also hold the guides approved since
    if pelicans:
        slow = median(pelicans)
        pairs = zip(pelicans, firsts, strict=True)
        ratios = [p["elapsed"] / f["elapsed"] for p, f in pairs]
        print(
            f"first publish / Pelican guides/s: {slow / first:.2f}x "
            f"(per round: {per_round(ratios)}; target >= 2)"
        )
        pairs = zip(pelicans, colds, strict=True)
        ratios = [rate * p["elapsed"] / c["elapsed"] for p, c in pairs]
        print(
            f"cold re-publish / Pelican guides/s: {rate * slow / cold:.2f}x "
            f"(per round: {per_round(ratios)}; target >= 2)"
        )
    if hugos:
        fast = median(hugos)
        ratios = [c["elapsed"] / h["elapsed"] for h, c in zip(hugos, colds, strict=True)]
        print(
            f"cold re-publish time / Hugo's: {cold / fast:.2f}x "
            f"(per round: {per_round(ratios)}; target <= 1.5)"
        )
        ratios = [f["elapsed"] / h["elapsed"] for h, f in zip(hugos, firsts, strict=True)]
        print(f"first publish time / Hugo's: {first / fast:.2f}x (per round: {per_round(ratios)})")
    print(f"publish/floor: {cold / median(floors):.2f} (target <= 1.5)")
    print(f"first publish: {memory(max(firsts, key=lambda r: r['peak_mb']))}")
    print(f"cold re-publish: {memory(max(colds, key=lambda r: r['peak_mb']))}")
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
        f"{recheck['elapsed']:.2f}s = {recheck['guides'] / recheck['elapsed']:.0f} guides/s "
        f"(CPU {recheck['cpu']:.2f}s), {memory(recheck)}"
    )
    print(f"load average at the end: {', '.join(f'{x:.2f}' for x in os.getloadavg())}")
    if args.keep is None:
        shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    main()
