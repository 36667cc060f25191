"""Benchmark: Markdown renderers on guide bodies, and whether each keeps the safety properties.

Run: python tests/bench/bench_markdown.py [--bodies 400] [--rounds 7]
Bodies: the sample guides plus synthetic guides composed like real ones (disclaimer, five
sections, steps list, originals with links), about 650 words each. Renderers, each timed over
all bodies in alternating rounds (median of the rounds):
- prepguide: generator.guides.markdown.to_html (the site's renderer);
- markdown-it-py (CommonMark preset, HTML off, the same link filter): the previous renderer;
- cmarkgfm (cmark-gfm, C) in its default safe mode, and pyromark.html (pulldown-cmark, Rust)
  as they come, for reference: neither keeps the safety properties, as the table shows.
Renderers that are not installed are left out.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_publish import prose  # noqa: E402

PROBES = {
    "raw HTML escaped": ("a <b>x</b>", lambda h: "&lt;b&gt;" in h and "<b>" not in h),
    "mailto: not a link": ("[m](mailto:a@b.org)", lambda h: "href" not in h),
    "relative not a link": ("[r](/about)", lambda h: "href" not in h),
    "javascript: not a link": ("[j](javascript:alert(1))", lambda h: "href" not in h),
    "http kept": ("[h](https://a.org)", lambda h: 'href="https://a.org"' in h),
    'quote as &quot;': ('say "hi"', lambda h: "&quot;hi&quot;" in h),
}  # fmt: skip


def bodies(count: int) -> list[str]:
    """Return the sample guides' bodies and synthetic ones composed over the sample records."""
    from generator.guides.compose import compose_body
    from generator.guides.project import Project
    from generator.guides.schema import Draft, ReportedStatement

    project = Project(REPO)
    out = [p.read_text().split("\n---\n", 1)[1] for p in sorted((REPO / "guides").glob("*.md"))]
    rng = random.Random(7)
    sources = project.sources.sources
    while len(out) < count:
        source = sources[len(out) % len(sources)]
        sentences = [s.strip() + "." for s in source.summary.split(".") if s.strip()]
        draft = Draft(
            reported=[ReportedStatement(text=s, quote=s) for s in sentences[:6]],
            angle="connect measurement to the *bottleneck*",
            interpretation="\n\n".join(prose(rng, 110) for _ in range(2)),
            case_study_title="systems-oriented",
            case_study="\n\n".join(prose(rng, 100) for _ in range(2)),
            steps=[prose(rng, 10) for _ in range(4)],
        )
        out.append(compose_body(draft, source, project.originals(source), "Prepguide"))
    return out


def renderers() -> dict[str, Callable[[str], str]]:
    """Return the installed renderers by name."""
    from generator.guides.markdown import safe_link, to_html

    found: dict[str, Callable[[str], str]] = {"prepguide (pyromark events)": to_html}
    try:
        from markdown_it import MarkdownIt

        md = MarkdownIt("commonmark", {"html": False, "linkify": False, "typographer": False})
        md.validateLink = safe_link
        found["markdown-it-py"] = md.render
    except ImportError:
        pass
    try:
        import cmarkgfm

        found["cmarkgfm (safe mode)"] = cmarkgfm.markdown_to_html
    except ImportError:
        pass
    try:
        import pyromark

        found["pyromark.html"] = pyromark.html
    except ImportError:
        pass
    return found


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--bodies", type=int, default=400)
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args()
    texts = bodies(args.bodies)
    size = sum(len(t.encode()) for t in texts)
    words = sum(len(t.split()) for t in texts) / len(texts)
    print(f"{len(texts)} guide bodies, ~{words:.0f} words, {size / 1e6:.2f} MB in all")
    found = renderers()
    to_html = found["prepguide (pyromark events)"]
    times: dict[str, list[float]] = {name: [] for name in found}
    for _ in range(args.rounds):  # alternating: each round times every renderer once
        for name, render in found.items():
            start = time.perf_counter()
            for text in texts:
                render(text)
            times[name].append(time.perf_counter() - start)
    base = statistics.median(times.get("markdown-it-py", times[next(iter(found))]))
    print(f"{'renderer':30} {'bodies/s':>9} {'MB/s':>6} {'x markdown-it':>13}  safety")
    for name, render in found.items():
        median = statistics.median(times[name])
        failed = [probe for probe, (text, ok) in PROBES.items() if not ok(render(text))]
        safety = "keeps all" if not failed else "fails: " + ", ".join(failed)
        print(
            f"{name:30} {len(texts) / median:9.0f} {size / 1e6 / median:6.1f} "
            f"{base / median:13.1f}  {safety}"
        )
    print(f"medians of {args.rounds} alternating rounds")
    if "markdown-it-py" in found:
        same = sum(to_html(t) == found["markdown-it-py"](t) for t in texts)
        print(f"prepguide's HTML is identical to markdown-it-py's on {same} of {len(texts)} bodies")


if __name__ == "__main__":
    main()
