"""Check one guide: every rule family over its sections, and the key of its verdict."""

from __future__ import annotations

import gc
import hashlib
from collections.abc import Iterator
from contextlib import contextmanager
from functools import lru_cache

from generator.checks.attribution import check_attribution
from generator.checks.base import (
    CheckContext,
    Evidence,
    Rule,
    finding,
    parse_guide_body,
    record_file,
)
from generator.checks.citations import check_citations, citation_findings
from generator.checks.figures import check_figures
from generator.checks.grounding import check_grounding
from generator.checks.hidden import check_hidden
from generator.checks.leftovers import check_leftovers
from generator.checks.links import check_links
from generator.checks.originals import check_originals
from generator.checks.ourclaims import check_our_claims
from generator.checks.ours import check_ours
from generator.checks.quotes import check_quotes
from generator.checks.steps import check_steps
from generator.checks.structure import check_structure
from generator.core import collector
from generator.core.codeversion import module_version
from generator.guides.document import GuideDoc
from generator.guides.findings import Finding

RULES: list[Rule] = [
    check_structure,
    check_figures,
    check_quotes,
    check_grounding,
    check_attribution,
    check_links,
    check_leftovers,
    check_hidden,
    check_steps,
    check_ours,
    check_our_claims,
    check_citations,
    check_originals,
]
# check_citations is the only rule whose verdict can change with the date alone; it reads the
# records, not the text. The others depend only on the text and the records.
UNDATED_RULES: list[Rule] = [rule for rule in RULES if rule is not check_citations]


def doc_evidence(doc: GuideDoc) -> tuple[Evidence, ...]:
    """Return the drafted quote behind each reported statement, as stored with the guide."""
    return tuple(Evidence(item.text, item.quote) for item in doc.meta.evidence)


def check_body(
    body: str,
    ctx: CheckContext,
    rules: list[Rule] = RULES,
    evidence: tuple[Evidence, ...] = (),
) -> list[Finding]:
    """Run every rule (or the given ones) over a guide body."""
    guide = parse_guide_body(body, ctx.site_name, evidence)
    findings: list[Finding] = []
    for rule in rules:
        findings.extend(rule(guide, ctx))
    return findings


def verdict_key(doc: GuideDoc, ctx: CheckContext) -> str:
    """Key what the undated rules judge: the code, the guide text, its evidence and the records.

    The records include the database-wide vocabulary and company list the grounding rules read.
    """
    records = repr((ctx.originals, ctx.freshness_days, ctx.site_name))
    parts = [module_version("checks.engine"), doc.content_hash, ctx.source.content_hash(), records]
    parts += [database_digest(ctx.vocabulary, ctx.companies), repr(doc_evidence(doc))]
    return hashlib.sha256("\0".join(parts).encode()).hexdigest()


@lru_cache(maxsize=4)
def database_digest(vocabulary: tuple[str, ...], companies: tuple[str, ...]) -> str:
    """Hash the database-wide terms once per database, not once per guide."""
    return hashlib.sha256(repr((vocabulary, companies)).encode()).hexdigest()


def check_dated(ctx: CheckContext) -> list[Finding]:
    """Run only the rule that compares the records' dates with today."""
    return citation_findings(ctx)


def check_guide(doc: GuideDoc, ctx: CheckContext) -> list[Finding]:
    """Run every rule over a guide document, and report a source changed since generation."""
    return check_body(doc.body, ctx, evidence=doc_evidence(doc)) + staleness_findings(doc, ctx)


def staleness_findings(doc: GuideDoc, ctx: CheckContext) -> list[Finding]:
    """Report a source changed since the guide was generated."""
    findings: list[Finding] = []
    if doc.meta.provenance.source_hash != ctx.source.content_hash():
        findings.append(
            finding(
                "staleness.source",
                "warning",
                "guide",
                f"source changed since generation: {record_file(ctx.source)} no longer matches "
                "the record this guide was drafted from; compare them, then regenerate with "
                f"`prepguide generate {ctx.source.key}` or re-check the text by hand",
            )
        )
    return findings


# Young objects a check run may make before the collector looks at them (Python's default: 700).
RUN_GC_THRESHOLD = 50_000


@contextmanager
def check_run() -> Iterator[None]:
    """Check many guides with the collector spared the loaded records and most young objects.

    What is loaded before the run is frozen, so the collections the checks trigger do not
    walk every record and guide again and again.
    """
    threshold = gc.get_threshold()
    gc.set_threshold(max(threshold[0], RUN_GC_THRESHOLD), *threshold[1:])
    try:
        with collector.frozen():
            yield
    finally:
        gc.set_threshold(*threshold)


def has_errors(findings: list[Finding]) -> bool:
    """Return True when any finding blocks approval and publishing."""
    return any(finding.severity == "error" for finding in findings)
