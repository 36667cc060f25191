"""Builders for the checks tests: a complete record, its context and a clean composed body."""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import replace
from datetime import date
from pathlib import Path
from typing import Any

import yaml

from generator.checks import CheckContext, check_body
from generator.guides.compose import compose_body
from generator.guides.findings import Finding
from generator.guides.schema import Draft, ReportedStatement
from generator.sources.citations import CitationView, resolve_originals
from generator.sources.records import Source

TODAY = date(2026, 11, 30)
SITE = "Prepguide"

GEM: dict[str, Any] = {
    "id": "meta-gem",
    "company": "Meta",
    "title": "Meta's Generative Ads Model (GEM): Scaling the Central Model",
    "url": "https://engineering.fb.com/2025/11/10/ml-applications/meta-gem/",
    "publisher": "Engineering at Meta",
    "published": "2026-10-13",
    "checked": "2026-10-22",
    "summary": (
        "Meta replaced separate per-surface ad prediction systems with GEM. Custom "
        "low-precision kernels and 5D parallelism doubled end-to-end training efficiency to "
        "20-25% MFU at 4x the training FLOPs across thousands of GPUs."
    ),
    "notes": "Mean time between interruptions passed 54K GPU hours.",
    "scale": ["2.5x model complexity", "3.6 billion daily users across Meta apps"],
    "citations": [
        {
            "title": "GEM Training: How Meta Doubled the Efficiency",
            "url": "https://engineering.fb.com/2026/08/03/ml-applications/gem-training/",
            "publisher": "Engineering at Meta",
            "published": "2026-08-03",
            "checked": "2026-10-22",
        }
    ],
}

REPORTED = [
    "Meta replaced separate per-surface ad prediction systems with GEM.",
    "Custom low-precision kernels and 5D parallelism doubled end-to-end training efficiency "
    "to 20-25% MFU at 4x the training FLOPs.",
]
INTERPRETATION = (
    "For candidates interested in ML systems, explain where time and memory go before "
    "proposing a distributed architecture. A small project can reveal the same reasoning "
    "without reproducing Meta's scale."
)
CASE_STUDY = (
    "Use a modest dataset and an existing baseline that fits your own hardware. Record the "
    "environment, batch size and measurement method."
)
STEPS = [
    "Profile before choosing an optimization.",
    "Report end-to-end effects, not only a faster kernel.",
    "Separate a local measurement from a scaling proposal.",
]


def source(**changes: Any) -> Source:
    """Return a complete, valid record (the GEM sample with URL and dates), with changes."""
    return Source.model_validate({**GEM, **changes}, context={"today": TODAY})


def context(record: Source | None = None, **changes: Any) -> CheckContext:
    """Return a check context for a record, verified on its recorded Checked dates."""
    record = record or source()
    base = CheckContext(
        source=record,
        originals=resolve_originals(record),
        today=TODAY,
        freshness_days=180,
        site_name=SITE,
    )
    return replace(base, **changes)


def body(
    *,
    reported: list[str] | None = None,
    interpretation: str = INTERPRETATION,
    case_study: str = CASE_STUDY,
    steps: list[str] | None = None,
    angle: str = "connect measurement to the bottleneck",
    ctx: CheckContext | None = None,
) -> str:
    """Compose a guide body the way generate does, from prose parts."""
    ctx = ctx or context()
    draft = Draft(
        reported=[ReportedStatement(text=t, quote=t) for t in (reported or REPORTED)],
        angle=angle,
        interpretation=interpretation,
        case_study_title="systems-oriented",
        case_study=case_study,
        steps=steps or STEPS,
    )
    return compose_body(draft, ctx.source, ctx.originals, ctx.site_name)


def findings(text: str, ctx: CheckContext | None = None) -> list[Finding]:
    return check_body(text, ctx or context())


def rules(text: str, ctx: CheckContext | None = None, severity: str = "error") -> list[str]:
    """Return the rule ids of the findings of one severity."""
    return [f.rule for f in findings(text, ctx) if f.severity == severity]


def view(**changes: Any) -> CitationView:
    base = CitationView(
        title="GEM Training",
        url="https://engineering.fb.com/gem/",
        publisher="Engineering at Meta",
        published=date(2026, 8, 3),
        checked=date(2026, 10, 22),
    )
    return replace(base, **changes)


# Complete what the sample records leave for an editor: url, published and checked.
COMPLETIONS = {
    "meta-gem": {
        "url": "https://engineering.fb.com/2025/11/10/ml-applications/meta-gem-frontier-ads-ai/",
        "checked": "2026-10-22",
        "citations": [
            {
                "url": "https://engineering.fb.com/2026/08/03/ml-applications/gem-training/",
            }
        ],
    },
    "meta-llm-training-at-scale": {"checked": "2026-10-22"},
    "meta-prometheus": {
        "url": "https://engineering.fb.com/2026/01/15/data-center-engineering/prometheus/",
        "published": "2026-01-15",
        "checked": "2026-10-22",
    },
}


def complete_records(root: Path) -> None:
    """Give every sample record and citation a URL, a published and a Checked date."""
    for path in (root / "sources").glob("*.yaml"):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        extra = COMPLETIONS.get(path.stem, {})
        for key, value in extra.items():
            if key == "citations":
                for citation, more in zip(data["citations"], value, strict=True):
                    citation.update(more)
            else:
                data[key] = value
        path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True), "utf-8")


def run_prepguide(root: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    """Run the CLI on root in a child process, with env added to this one's environment."""
    return subprocess.run(
        [sys.executable, "-m", "generator", "--root", str(root), *args],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONIOENCODING": "utf-8", **env},
        timeout=120,
    )


def prepguide_against(base_url: str, root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """Run the CLI on root with an API key and the given OpenAI-compatible base URL."""
    return run_prepguide(root, *args, OPENAI_API_KEY="test", OPENAI_BASE_URL=base_url)
