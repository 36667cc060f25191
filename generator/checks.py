"""Integrity checks over a guide: pure functions from text and records to findings."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date

from generator.citations import CitationView
from generator.compose import disclaimer
from generator.findings import Finding
from generator.guides import (
    DISCLAIMER,
    PRACTICE,
    SECTION_ORDER,
    GuideDoc,
    Section,
    split_sections,
)
from generator.sources import Source

SECTION_TITLES = {
    "reports": "What <Company> reports",
    "interpretation": "Our career interpretation: <angle>",
    "case_study": "Build a <...> case study",
    "practice": "Put it into practice",
    "originals": "Read the originals",
}


@dataclass(frozen=True)
class CheckContext:
    """The records a guide is checked against."""

    source: Source
    originals: list[CitationView]
    today: date
    freshness_days: int
    site_name: str


@dataclass(frozen=True)
class ParsedGuide:
    preamble: str
    sections: list[Section]

    def section(self, key: str) -> Section | None:
        return next((s for s in self.sections if s.key == key), None)


Rule = Callable[[ParsedGuide, CheckContext], list[Finding]]


def check_structure(guide: ParsedGuide, ctx: CheckContext) -> list[Finding]:
    """Require the disclaimer and the five contract headings, in order, non-empty."""
    findings = []
    if disclaimer(ctx.site_name) not in " ".join(guide.preamble.split()):
        findings.append(
            Finding(
                rule="structure.disclaimer",
                severity="error",
                section=DISCLAIMER,
                message="the disclaimer paragraph is missing or altered; restore it above the "
                f"first heading: {disclaimer(ctx.site_name)!r}",
            )
        )
    keys = [s.key for s in guide.sections if s.key]
    for key in SECTION_ORDER:
        if key not in keys:
            findings.append(
                Finding(
                    rule="structure.heading",
                    severity="error",
                    section=key,
                    message=f"heading '## {SECTION_TITLES[key]}' is missing; add it",
                )
            )
    present = [k for k in keys if k in SECTION_ORDER]
    if present != sorted(present, key=SECTION_ORDER.index) or len(present) != len(set(present)):
        findings.append(
            Finding(
                rule="structure.order",
                severity="error",
                section="body",
                message=f"headings appear as {present}; "
                f"use the order {list(SECTION_ORDER)}, once each",
            )
        )
    for section in guide.sections:
        if section.key and not section.text:
            findings.append(
                Finding(
                    rule="structure.empty",
                    severity="error",
                    section=section.key,
                    message=f"section '## {section.heading}' is empty; write its text",
                )
            )
    reports = guide.section("reports")
    if reports and reports.heading != f"What {ctx.source.company} reports":
        findings.append(
            Finding(
                rule="structure.company",
                severity="error",
                section="reports",
                message=f"heading '## {reports.heading}' must name the record's company: "
                f"'## What {ctx.source.company} reports'",
            )
        )
    return findings


def check_steps(guide: ParsedGuide, ctx: CheckContext) -> list[Finding]:
    """Require 3 to 5 distinct list items under "Put it into practice"."""
    practice = guide.section(PRACTICE)
    if practice is None:
        return []
    items = [
        line.strip()[2:].strip()
        for line in practice.text.splitlines()
        if line.strip().startswith(("- ", "* "))
    ]
    distinct = {" ".join(item.casefold().split()) for item in items}
    if 3 <= len(distinct) <= 5 and len(distinct) == len(items):
        return []
    return [
        Finding(
            rule="steps.count",
            severity="error",
            section=PRACTICE,
            message=f"found {len(items)} list items ({len(distinct)} distinct); "
            "write 3 to 5 distinct steps as '- ' items",
        )
    ]


RULES: list[Rule] = [check_structure, check_steps]


def parse_guide_body(body: str) -> ParsedGuide:
    """Split a guide body into its preamble and sections."""
    preamble, sections = split_sections(body)
    return ParsedGuide(preamble=preamble, sections=sections)


def check_body(body: str, ctx: CheckContext) -> list[Finding]:
    """Run every rule over a guide body."""
    guide = parse_guide_body(body)
    findings: list[Finding] = []
    for rule in RULES:
        findings.extend(rule(guide, ctx))
    return findings


def check_guide(doc: GuideDoc, ctx: CheckContext) -> list[Finding]:
    """Run every rule over a guide document."""
    return check_body(doc.body, ctx)


def has_errors(findings: list[Finding]) -> bool:
    """Return True when any finding blocks approval and publishing."""
    return any(finding.severity == "error" for finding in findings)
