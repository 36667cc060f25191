"""Benchmark: what the search index costs, cold and after one guide's edit, by shard count.

Run: python tests/bench/bench_search.py [--guides 3000] [--shards 1 4 8 16] [--keep DIR]
Setup copies the sample database and adds N draft guides, each with words of its own; every
figure is of a preview publish (drafts are pages, nothing is approved). For each shard count
it prints, each phase in a fresh process: a cold publish (new output folder) and then one
guide's edit, each with the publish time, the part the search index took and the peak RSS of
the largest Pagefind process. --shards 1 is one bundle for the whole site, as before shards.
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "tests"))
sys.path.insert(0, str(REPO / "tests/site"))

WORDS = [
    "latency",
    "cache",
    "shard",
    "replica",
    "queue",
    "batch",
    "index",
    "vector",
    "model",
    "shopify",
    "edge",
    "gpu",
]


def setup(root: Path, count: int) -> None:
    """Make a database of the samples and count drafts with words of their own."""
    from test_publish import published_workspace
    from test_publish_hardening import add_guides

    root.mkdir(parents=True)
    for name in ("sources", "prompts"):
        shutil.copytree(REPO / name, root / name)
    shutil.copy(REPO / "prepguide.toml", root / "prepguide.toml")
    published_workspace(root)
    add_guides(root, count)
    rng = random.Random(7)
    for path in sorted((root / "guides").glob("clone-*.md")):
        words = " ".join(f"{rng.choice(WORDS)}{rng.randrange(5000)}" for _ in range(60))
        text = path.read_text(encoding="utf-8")
        path.write_text(
            text.replace("## Put it into practice", f"{words}.\n\n## Put it into practice", 1),
            encoding="utf-8",
        )


def phase(root: Path, out: Path, shards: int, edit: bool) -> dict:
    """Publish once in this process; return the figures."""
    from generator.guides.project import Project
    from generator.site import publish, search

    search.SHARDS = shards
    if edit:
        path = root / "guides/clone-0004.md"
        text = path.read_text(encoding="utf-8")
        path.write_text(
            text.replace(
                "## Put it into practice", f"Edit{time.time_ns()}.\n\n## Put it into practice", 1
            ),
            encoding="utf-8",
        )
    started = time.perf_counter()
    report = publish(Project(root), out, preview=True)
    took = time.perf_counter() - started
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    found = report.search
    return {
        "publish_s": round(took, 2),
        "search_s": round(found.seconds, 2),
        "indexed": found.pages,
        "pagefind_peak_mb": round(peak),
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--guides", type=int, default=3000)
    parser.add_argument("--shards", type=int, nargs="+", default=[1, 4, 8, 16])
    parser.add_argument("--keep", type=Path, default=None)
    parser.add_argument("--phase", nargs=4, default=None)
    args = parser.parse_args()
    if args.phase:
        root, out, shards, edit = args.phase
        print(json.dumps(phase(Path(root), Path(out), int(shards), edit == "edit")))
        return
    work = args.keep or Path(tempfile.mkdtemp(prefix="bench-search-"))
    root = work / "ws"
    if not root.exists():
        setup(root, args.guides)
    for shards in args.shards:
        out = work / f"site-{shards}"
        shutil.rmtree(out, ignore_errors=True)
        for name in ("cold", "edit"):
            done = subprocess.run(
                [sys.executable, __file__, "--phase", str(root), str(out), str(shards), name],
                capture_output=True,
                text=True,
                check=True,
            )
            print(f"shards={shards:<3} {name:<5} {done.stdout.strip()}", flush=True)


if __name__ == "__main__":
    main()
