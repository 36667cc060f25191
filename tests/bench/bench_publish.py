"""Benchmark: publish 5,000 synthetic approved guides and compare with the raw floor.

Run: python tests/bench/bench_publish.py [--guides 5000] [--keep DIR]
Setup drafts, approves (the real approval, which runs the checks) and publishes once.
Prints pages/s and peak memory for a cold publish (empty output folder, no build cache), the
floor (markdown-it + Jinja2 + file writes of the same number of pages in one process, nothing
else), their ratio, a no-change rebuild, and a cold publish that must re-check every text.
Each measured phase runs in a fresh subprocess so that its peak RSS is its own; publish uses
one worker process per CPU, whose peak is printed too.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))
os.environ.setdefault("SOURCE_DATE_EPOCH", "1795996800")

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


def prose(rng: random.Random, words: int) -> str:
    """Return number-free filler sentences of roughly the given length."""
    out, count = [], 0
    while count < words:
        n = rng.randint(9, 16)
        sentence = " ".join(rng.choice(WORDS) for _ in range(n))
        out.append(sentence[0].upper() + sentence[1:] + ".")
        count += n
    return " ".join(out)


def make_workspace(root: Path, count: int) -> None:
    """Write sources, guides, revisions and approved review state for count guides."""
    import yaml

    from generator import review
    from generator.compose import compose_body
    from generator.draft import Draft, ReportedStatement
    from generator.fsio import sha256_text
    from generator.guides import GuideDoc, GuideMeta, Provenance
    from generator.project import Project
    from generator.site import publish

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
            "summary": prose(rng, 60),
            "scale": [f"{rng.randint(2, 900)} million requests per day"] if i % 3 else [],
            "techniques": rng.sample(techniques, 4),
            "stack": rng.sample(stack, 3),
        }
        text = yaml.safe_dump(data, sort_keys=False)
        (root / "sources" / f"guide-{i:05d}.yaml").write_text(text, encoding="utf-8")
    project = Project(root)
    site = project.settings.site.name
    for source in project.sources.sources:
        sentences = [s.strip() + "." for s in source.summary.split(".") if s.strip()]
        draft = Draft(
            reported=[ReportedStatement(text=s, quote=s) for s in sentences[:6]],
            angle="connect measurement to the bottleneck",
            interpretation="\n\n".join(prose(rng, 110) for _ in range(2)),
            case_study_title="systems-oriented",
            case_study="\n\n".join(prose(rng, 100) for _ in range(2)),
            steps=[prose(rng, 10) for _ in range(4)],
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
        review.approve(project, source.key, by="bench")
    # The first publication records itself in the review state; later builds only read it.
    publish(project, root.parent / "first-site", preview=False)


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def worker_peak_mb() -> float:
    """Return the largest peak memory of a finished worker process (0 when none ran)."""
    return resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024


def run_publish(root: Path, out: Path) -> dict:
    from generator.project import Project
    from generator.site import publish

    start = time.perf_counter()
    report = publish(Project(root), out, preview=False)
    elapsed = time.perf_counter() - start
    return {
        "elapsed": elapsed,
        "pages": len(report.pages),
        "written": report.written,
        "guides": len(report.guides),
        "left_out": len(report.left_out),
        "reused": report.reused,
        "peak_mb": peak_mb(),
        "worker_peak_mb": worker_peak_mb(),
    }


def run_floor(root: Path, out: Path, pages: int) -> dict:
    """Markdown-it + the site's own guide template + plain file writes, nothing else.

    Contexts (the same shape as a real guide page: one citation, three related stories) are
    prepared before the clock starts; the timed loop converts, renders and writes each page.
    """
    from markdown_it import MarkdownIt
    from markupsafe import Markup

    from generator.config import SiteSettings
    from generator.site.render import page_environment

    bodies = []
    for path in sorted((root / "guides").glob("*.md")):
        text = path.read_text(encoding="utf-8")
        bodies.append(text.split("\n---\n", 1)[1])
    md = MarkdownIt("commonmark", {"html": False})
    template = page_environment().get_template("guide.html")
    tags = [{"name": f"tag {i}", "href": f"topics/tag-{i}/index.html"} for i in range(7)]
    related = [
        {
            "title": f"Related story {i}",
            "company": "Company",
            "year": 2025,
            "summary": "A summary sentence of a related write-up. " * 4,
            "href": f"guides/other-{i}/index.html",
            "is_guide": True,
            "tags": tags,
        }
        for i in range(3)
    ]
    citation = {
        "title": "Original title",
        "url": "https://engineering.example.com/post",
        "publisher": "Engineering",
        "published": "2025-01-01",
        "checked": "2026-11-01",
    }
    site = SiteSettings()
    start = time.perf_counter()
    for i in range(pages):
        body = Markup(md.render(bodies[i % len(bodies)]))
        html = template.render(
            site=site,
            root="../../",
            canonical=f"https://prepguide.example.org/p{i}/",
            noindex=False,
            banner=None,
            subscribe=None,
            description="A summary sentence of this write-up.",
            guide={
                "id": f"p{i}",
                "title": f"Page {i}",
                "company": "Company",
                "draft": False,
                "updated": "2026-11-02",
                "first_published": "2026-11-02",
                "preamble": Markup(""),
                "sections": [{"kind": "reports", "css": "ours", "label": "x", "html": body}],
                "originals": [citation],
                "topics": tags,
                "related": related,
                "see_also": [{**tag, "note": "3 write-ups"} for tag in tags[:2]],
            },
        )
        target = out / f"p{i}" / "index.html"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(html.encode("utf-8"))
    return {"elapsed": time.perf_counter() - start, "pages": pages, "peak_mb": peak_mb()}


def run_site_floor(root: Path, out: Path) -> dict:
    """Markdown-it, Jinja2 and plain writes of exactly the pages publish makes, nothing else.

    Everything that is not rendering is done before the clock starts: loading the records and
    the live versions, the checks, the hub statistics and the related-story ranking. The timed
    loop converts each guide body, renders each page (and each source card once, as publish
    does) and writes it, in one process.
    """
    from generator.project import Project
    from generator.site.cache import BuildCache
    from generator.site.model import SiteModel
    from generator.site.render import listing_pages, render_guide_page, render_listing
    from generator.site.select import select_guides

    project = Project(root)
    guides, _ = select_guides(project, preview=False)
    model = SiteModel(project, guides)
    for source in model.sources:
        model.related_items(source)
    common = {"site": model.site, "noindex": False, "description": None}
    no_cache = BuildCache(None)
    pages = 0

    def write(relative: str, html: str) -> None:
        target = out / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(html.encode("utf-8"))

    start = time.perf_counter()
    for guide in sorted(guides, key=lambda g: g.id):
        write(guide.href, render_guide_page(model, guide, no_cache, preview=False)[0])
        pages += 1
    for task in listing_pages(model):
        write(*render_listing(model, task, common, False))
        pages += 1
    return {"elapsed": time.perf_counter() - start, "pages": pages, "peak_mb": peak_mb()}


def memory(run: dict) -> str:
    workers = f", largest worker {run['worker_peak_mb']:.0f} MB" if run["worker_peak_mb"] else ""
    return f"peak memory {run['peak_mb']:.0f} MB{workers}"


def cold_publish(root: Path, site: Path) -> dict:
    """Publish into a new folder with no build cache."""
    assert not site.exists(), site
    shutil.rmtree(root / ".prepguide" / "publish", ignore_errors=True)
    settle()
    return phase("publish", str(root), str(site))


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


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--guides", type=int, default=5000)
    parser.add_argument("--keep", type=Path, default=None)
    parser.add_argument("--phase", nargs="+", default=None)
    args = parser.parse_args()
    if args.phase:
        kind, root, out, *rest = args.phase
        if kind == "setup":
            make_workspace(Path(root), int(out))
        elif kind == "publish":
            print(json.dumps(run_publish(Path(root), Path(out))))
        elif kind == "site-floor":
            print(json.dumps(run_site_floor(Path(root), Path(out))))
        else:
            print(json.dumps(run_floor(Path(root), Path(out), int(rest[0]))))
        return
    base = args.keep or Path(tempfile.mkdtemp(prefix="prepguide-bench-"))
    root = base / "ws"
    if not (root / "guides").is_dir():
        root.mkdir(parents=True, exist_ok=True)
        start = time.perf_counter()
        # In its own process: Linux carries a process's peak memory across exec into children.
        subprocess.run(
            [sys.executable, __file__, "--phase", "setup", str(root), str(args.guides)], check=True
        )
        print(f"setup: {args.guides} approved guides written in {time.perf_counter() - start:.1f}s")
    words = len((root / "guides" / "guide-00000.md").read_text().split("\n---\n", 1)[1].split())
    print(f"guide body: ~{words} words")
    run = 1 + sum(1 for _ in base.glob("run-*"))
    out = base / f"run-{run}"  # every phase writes into a new folder below this one
    site = out / "site"
    cold = cold_publish(root, site)
    rate = cold["pages"] / cold["elapsed"]
    print(
        f"cold publish (no site, no build cache): {cold['guides']} guides, {cold['pages']} "
        f"pages ({cold['written']} written, {cold['left_out']} left out) in "
        f"{cold['elapsed']:.2f}s = {rate:.0f} pages/s; {memory(cold)}"
    )
    settle()
    floor = phase("floor", str(root), str(out / "floor"), str(cold["pages"]))
    floor_rate = floor["pages"] / floor["elapsed"]
    print(
        f"guide-template floor (markdown-it + Jinja2 guide template + writes of {floor['pages']} "
        f"guide-like pages, one process): {floor['elapsed']:.2f}s = {floor_rate:.0f} pages/s, "
        f"peak memory {floor['peak_mb']:.0f} MB"
    )
    settle()
    same = phase("site-floor", str(root), str(out / "same-floor"))
    print(
        f"same-pages floor (markdown-it + Jinja2 + writes of the site's own {same['pages']} "
        f"pages: guide pages, hubs, company and index pages; one process): "
        f"{same['elapsed']:.2f}s = {same['pages'] / same['elapsed']:.0f} pages/s"
    )
    print(
        f"ratio publish/same-pages floor (time): {cold['elapsed'] / same['elapsed']:.2f} "
        f"(target <= 1.5); publish/guide-template floor: "
        f"{cold['elapsed'] / floor['elapsed']:.2f}"
    )
    again = phase("publish", str(root), str(site))
    print(
        f"no-change rebuild: {again['pages']} pages, {again['written']} written in "
        f"{again['elapsed']:.2f}s (cache reused: {again['reused']}), {memory(again)}"
    )
    settle()
    rerender = phase("publish", str(root), str(out / "site-again"))
    print(
        f"into a new folder, build cache kept (body HTML by content hash): "
        f"{rerender['pages']} pages in {rerender['elapsed']:.2f}s "
        f"= {rerender['pages'] / rerender['elapsed']:.0f} pages/s, "
        f"ratio to the same-pages floor {rerender['elapsed'] / same['elapsed']:.2f}, "
        f"{memory(rerender)}"
    )
    first = root / "guides" / "guide-00000.md"
    first.write_text(first.read_text(encoding="utf-8") + "\nOne more line.\n", encoding="utf-8")
    edited = phase("publish", str(root), str(site))
    print(
        f"rebuild after one draft edit (live version unchanged): {edited['written']} written "
        f"in {edited['elapsed']:.2f}s"
    )
    config = root / "prepguide.toml"
    settings = config.read_text(encoding="utf-8")
    changed = re.sub(r"(?m)^freshness_days = (\d+)", r"freshness_days = 1\1", settings)
    assert changed != settings, "prepguide.toml has no freshness_days line"
    config.write_text(changed, encoding="utf-8")
    try:
        recheck = cold_publish(root, out / "site-rechecked")
    finally:
        config.write_text(settings, encoding="utf-8")
    print(
        f"cold publish after a checks setting changed (every approved text re-checked): "
        f"{recheck['elapsed']:.2f}s = {recheck['pages'] / recheck['elapsed']:.0f} pages/s, "
        f"ratio to the same-pages floor {recheck['elapsed'] / same['elapsed']:.2f}, "
        f"{memory(recheck)}"
    )
    if args.keep is None:
        shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    main()
