"""structure.*: the disclaimer and the five contract headings, in order, non-empty."""

from __future__ import annotations

from generator.checks.base import CheckContext, ParsedGuide, finding, quote
from generator.guides.compose import disclaimer
from generator.guides.document import DISCLAIMER, REPORTS, SECTION_ORDER
from generator.guides.findings import Finding

SECTION_TITLES = {
    "reports": "What <Company> reports",
    "interpretation": "Our career interpretation: <angle>",
    "case_study": "Build a <...> case study",
    "practice": "Put it into practice",
    "originals": "Read the originals",
}


def check_structure(guide: ParsedGuide, ctx: CheckContext) -> list[Finding]:
    """Require the disclaimer and the five contract headings, in order, non-empty."""
    findings = []
    if disclaimer(ctx.site_name) not in " ".join(guide.preamble.split()):
        findings.append(
            finding(
                "structure.disclaimer",
                "error",
                DISCLAIMER,
                "the disclaimer paragraph is missing or altered; restore it above the "
                f"first heading: {quote(disclaimer(ctx.site_name), 400)}",
            )
        )
    keys = [s.key for s in guide.sections if s.key]
    for key in SECTION_ORDER:
        if key not in keys:
            findings.append(
                finding(
                    "structure.heading",
                    "error",
                    key,
                    f"heading '## {SECTION_TITLES[key]}' is missing; add it",
                )
            )
    present = [k for k in keys if k in SECTION_ORDER]
    if present != sorted(present, key=SECTION_ORDER.index) or len(present) != len(set(present)):
        findings.append(
            finding(
                "structure.order",
                "error",
                "body",
                f"headings appear as {present}; use the order {list(SECTION_ORDER)}, once each",
            )
        )
    for section in guide.sections:
        if section.key is None:
            findings.append(
                finding(
                    "structure.unknown_heading",
                    "warning",
                    "body",
                    f"heading '## {section.heading}' is not one of the contract headings; "
                    "merge its text into a contract section and remove the heading",
                )
            )
        elif not section.text:
            findings.append(
                finding(
                    "structure.empty",
                    "error",
                    section.key,
                    f"section '## {section.heading}' is empty; write its text",
                )
            )
    reports = guide.section(REPORTS)
    if reports and reports.heading != f"What {ctx.source.company} reports":
        findings.append(
            finding(
                "structure.company",
                "error",
                REPORTS,
                f"heading '## {reports.heading}' must name the record's company: "
                f"'## What {ctx.source.company} reports'",
            )
        )
    interpretation = guide.section("interpretation")
    if interpretation is not None:
        angle = interpretation.heading.removeprefix("Our career interpretation")
        if not angle.startswith(":") or not angle[1:].strip():
            findings.append(
                finding(
                    "structure.angle",
                    "error",
                    "interpretation",
                    f"heading '## {interpretation.heading}' needs an angle after a colon, e.g. "
                    "'## Our career interpretation: connect measurement to the bottleneck'",
                )
            )
    return findings
