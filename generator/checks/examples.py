"""The example guide that the registry's rule examples change, and the shapes of a rule's doc."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import date
from typing import Any

from generator.checks.base import CheckContext
from generator.checks.engine import check_guide
from generator.core.fsio import sha256_text
from generator.guides.compose import compose_body
from generator.guides.document import GuideDoc, GuideMeta, Provenance
from generator.guides.findings import Finding
from generator.guides.schema import Draft, ReportedStatement
from generator.sources.citations import resolve_originals
from generator.sources.records import Source

R, I, C, P, O = "reports", "interpretation", "case_study", "practice", "originals"  # noqa: E741
ALL = (R, I, C, P)


@dataclass(frozen=True)
class Example:
    """A change to the example guide (old text → new text) and/or to its record."""

    old: str = ""
    new: str = ""
    record: dict[str, Any] = field(default_factory=dict)
    view: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class RuleDoc:
    id: str
    severity: str
    sections: tuple[str, ...]
    doc: str
    failing: Example
    passing: Example
    # Rules that run only with `check --judge` (a model answers); their examples need one.
    judge: bool = False


def _ex(old: str = "", new: str = "", **kw: Any) -> Example:
    return Example(old, new, **kw)


SUMMARY = (
    "Meta replaced separate per-surface ad prediction systems with GEM. Custom low-precision "
    "kernels and 5D parallelism doubled end-to-end training efficiency to 20-25% MFU at 4x the "
    "training FLOPs across thousands of GPUs. Post-training transfer (LoopFM) passes GEM's gains "
    "to serving models without extra latency."
)
RECORD: dict[str, Any] = {
    "id": "example",
    "company": "Meta",
    "title": "Meta's Generative Ads Model (GEM)",
    "url": "https://engineering.fb.com/gem/",
    "publisher": "Engineering at Meta",
    "published": "2026-10-13",
    "checked": "2026-10-22",
    "summary": SUMMARY,
    "notes": "Mean time between interruptions passed 54K GPU hours.",
    "scale": ["3.6 billion daily users across Meta apps"],
    "techniques": ["recommendation systems"],
    "stack": ["GPUs"],
}
TODAY = date(2026, 11, 30)
VOCABULARY = ("GPUs", "Slurm", "embedding retrieval", "recommendation systems")
COMPANIES = ("Meta", "Shopify")
S1 = "Meta replaced separate per-surface ad prediction systems with GEM."
S2 = "Custom low-precision kernels and 5D parallelism doubled end-to-end training efficiency."
S3 = "Mean time between interruptions passed 54K GPU hours."
INTERPRETATION = (
    "For candidates interested in ML systems, explain where time and memory go before "
    "proposing a distributed architecture."
)
CASE = "Use a modest dataset and an existing baseline that fits your own hardware."
STEPS = [
    "Profile before choosing an optimization.",
    "Report end-to-end effects, not only a faster kernel.",
    "Separate a local measurement from a scaling proposal.",
]
ANGLE = "## Our career interpretation: connect measurement to the bottleneck"
TITLE = "## Build a systems-oriented case study"
PRACTICE = "- Separate a local measurement from a scaling proposal."


def _in(section_text: str, extra: str) -> tuple[str, str]:
    return section_text, f"{section_text} {extra}"


def example_context(example: Example | None = None) -> CheckContext:
    """Return the example record's context, with an example's record changes."""
    data = {**RECORD, **(example.record if example else {})}
    data = {k: v for k, v in data.items() if v is not None}
    record = Source.model_validate(data, context={"today": TODAY})
    views = resolve_originals(record)
    if example is not None and example.view:
        views = [replace(view, **example.view) for view in views]
    return CheckContext(record, views, TODAY, 180, "Prepguide", VOCABULARY, COMPANIES)


def example_body() -> str:
    """Return the clean example guide, composed the way generate composes one."""
    ctx = example_context()
    draft = Draft(
        reported=[ReportedStatement(text=t, quote=t) for t in (S1, S2, S3)],
        angle="connect measurement to the bottleneck",
        interpretation=INTERPRETATION,
        case_study_title="systems-oriented",
        case_study=CASE,
        steps=STEPS,
    )
    return compose_body(draft, ctx.source, ctx.originals, ctx.site_name)


def run_example(example: Example) -> list[Finding]:
    """Check the example guide with one example's change applied."""
    base = example_context()
    ctx = example_context(example)
    body = example_body()
    if example.old:
        if example.old not in body:
            raise ValueError(f"example text {example.old!r} is not in the example guide")
        body = body.replace(example.old, example.new, 1)
    meta = GuideMeta(
        id="example",
        source="example",
        company="Meta",
        title=base.source.title,
        provenance=Provenance(
            backend="offline",
            drafter_version="example",
            prompt_hash="example",
            source_hash=base.source.content_hash(),
            generated_at="2026-11-30T00:00:00Z",
        ),
        generated_hash=sha256_text(body),
    )
    return check_guide(GuideDoc(meta=meta, body=body), ctx)
