"""Benchmark: Lighthouse scores of a published site, and what search costs a cold publish.

Run: python tests/bench/bench_lighthouse.py [--guides 5000] [--keep DIR] [--tool DIR]
[--runs 1]. Setup drafts and approves N guides (bench_publish.py's setup, reused with --keep),
then publishes them into a new folder with nothing under .prepguide/, and prints the publish's
time and the part the Pagefind bundle took. The site is served on 127.0.0.1 and Lighthouse
(the npm package, installed into --tool on first use) scores the index, a guide, a topic hub,
a company page and a digest issue with Debian's Chromium at its default mobile settings
(emulated phone, simulated slow 4G and CPU throttling). Prints the four category scores of
each page and every audit that cost a point. Where Node or Chromium is missing it says so and
measures nothing.
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import bench_publish

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))
TOOL_DIR = Path.home() / ".cache" / "prepguide-bench" / "lighthouse"
LIGHTHOUSE = "lighthouse@12"
CATEGORIES = ("performance", "accessibility", "best-practices", "seo")
CHROME_FLAGS = "--headless=new --no-sandbox --disable-gpu --disable-dev-shm-usage"


def chromium() -> str | None:
    """Return Debian's Chromium, or None where it is not installed."""
    for name in ("chromium", "chromium-browser"):
        found = shutil.which(name)
        if found:
            return found
    return None


def lighthouse(tool: Path) -> Path | None:
    """Return the Lighthouse command, installing the npm package into tool on first use."""
    binary = tool / "node_modules" / ".bin" / "lighthouse"
    if binary.exists():
        return binary
    if shutil.which("npm") is None or shutil.which("node") is None:
        return None
    tool.mkdir(parents=True, exist_ok=True)
    if not (tool / "package.json").exists():
        (tool / "package.json").write_text('{"private": true}\n', encoding="utf-8")
    subprocess.run(["npm", "install", "--no-audit", "--no-fund", LIGHTHOUSE], cwd=tool, check=True)
    return binary if binary.exists() else None


def publish_cold(root: Path, out: Path) -> dict:
    """Publish every approved guide into a new folder with no build state; return figures."""
    from generator.guides.project import Project
    from generator.site import publish

    shutil.rmtree(root / ".prepguide", ignore_errors=True)
    bench_publish.settle()
    start = time.perf_counter()
    report = publish(Project(root), out, preview=False)
    elapsed = time.perf_counter() - start
    found = report.search
    return {
        "elapsed": elapsed,
        "pages": len(report.pages),
        "guides": len(report.guides),
        "search_s": found.seconds if found else 0.0,
        "indexed": found.pages if found else 0,
        "bundle_files": found.files if found else 0,
        "bundle_mb": sum(p.stat().st_size for p in (out / "pagefind").rglob("*") if p.is_file())
        / 1e6,
    }


def pages_to_score(site: Path) -> dict[str, str]:
    """Pick the five kinds of page: the index, a guide, a hub, a company and a digest issue."""

    def first(pattern: str) -> str:
        found = sorted(site.glob(pattern))
        assert found, f"no page matches {pattern}"
        return found[0].relative_to(site).as_posix()

    return {
        "index": "index.html",
        "guide": first("guides/*/index.html"),
        "hub": first("topics/*/index.html"),
        "company": first("companies/*/index.html"),
        "digest issue": first("digest/2*/index.html"),
    }


class Quiet(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


def serve(site: Path) -> tuple[ThreadingHTTPServer, str]:
    """Serve the site as a static host does, on a free port of 127.0.0.1."""
    handler = functools.partial(Quiet, directory=str(site))
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}/"


def score(binary: Path, browser: str, url: str) -> dict:
    """Run Lighthouse on one URL and return its category scores and the audits that cost."""
    env = {**os.environ, "CHROME_PATH": browser}
    with tempfile.TemporaryDirectory() as scratch:
        report_path = Path(scratch) / "report.json"
        subprocess.run(
            [
                str(binary),
                url,
                "--quiet",
                "--output=json",
                f"--output-path={report_path}",
                f"--only-categories={','.join(CATEGORIES)}",
                f"--chrome-flags={CHROME_FLAGS}",
            ],
            env=env,
            check=True,
            capture_output=True,
        )
        data = json.loads(report_path.read_text(encoding="utf-8"))
    scores = {name: round(data["categories"][name]["score"] * 100) for name in CATEGORIES}
    lost = []
    for name in CATEGORIES:
        for ref in data["categories"][name]["auditRefs"]:
            audit = data["audits"][ref["id"]]
            if ref["weight"] > 0 and audit.get("score") is not None and audit["score"] < 1:
                lost.append(f"{name}: {ref['id']} ({audit.get('displayValue') or audit['score']})")
    return {"scores": scores, "lost": lost}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--guides", type=int, default=5000, help="size of the site")
    parser.add_argument("--keep", type=Path, default=None, help="reuse this work folder")
    parser.add_argument("--tool", type=Path, default=TOOL_DIR, help="where Lighthouse lives")
    parser.add_argument("--runs", type=int, default=1, help="Lighthouse runs per page (median)")
    args = parser.parse_args()
    browser = chromium()
    if browser is None:
        print("skipped: Chromium is not installed (apt-get install -y chromium)")
        return
    binary = lighthouse(args.tool)
    if binary is None:
        print("skipped: Node and npm are needed for Lighthouse (apt-get install -y npm)")
        return
    base = args.keep or Path(tempfile.mkdtemp(prefix="bench-lighthouse-"))
    base.mkdir(parents=True, exist_ok=True)
    bench_publish.prepare(base, args.guides, 1)
    root = base / f"published-{time.time_ns()}"
    bench_publish.copy_workspace(base / "approved", root)
    site = root / "site"
    figures = publish_cold(root, site)
    print(
        f"publish of {figures['guides']} newly approved guides ({figures['pages']} pages): "
        f"{figures['elapsed']:.1f}s, of which the search bundle {figures['search_s']:.1f}s "
        f"({figures['search_s'] / figures['elapsed']:.0%}; {figures['indexed']} pages indexed, "
        f"{figures['bundle_files']} files, {figures['bundle_mb']:.1f} MB)"
    )
    version = subprocess.run([str(binary), "--version"], capture_output=True, text=True)
    print(f"Lighthouse {version.stdout.strip()}, {browser}, mobile defaults")
    server, home = serve(site)
    try:
        for kind, relative in pages_to_score(site).items():
            runs = [score(binary, browser, home + relative) for _ in range(args.runs)]
            scores = {
                name: statistics.median(run["scores"][name] for run in runs) for name in CATEGORIES
            }
            shown = " / ".join(f"{scores[name]:.0f}" for name in CATEGORIES)
            print(f"{kind:13} {shown}  ({relative})")
            for item in sorted({item for run in runs for item in run["lost"]}):
                print(f"{'':13}   lost: {item}")
    finally:
        server.shutdown()
    print("scores: " + " / ".join(CATEGORIES))
    if args.keep is None:
        shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    main()
