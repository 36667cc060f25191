"""Repair rounds: which findings go back to the model, and how a re-ask names them.

A finding is the model's to fix when its sentence is one the model wrote. Citations, dates,
staleness and record findings are the editor's (they come from the record, not the prose) and
never cause a re-ask; neither do warnings. This module is the one place that says so.
"""

from __future__ import annotations

from pydantic import ValidationError

from generator.guides.document import RepairRound
from generator.guides.findings import Finding

# Rule families (or single rules) about the record or what our tool composes, not the prose.
EDITOR_RULES = (
    "citations.",
    "originals.",
    "staleness.",
    "record.",
    "guide.",
    "structure.disclaimer",
    "structure.heading",
    "structure.order",
    "structure.company",
    "structure.unknown_heading",
)
# Sections whose sentences the model wrote ("body" holds the hidden-text rules over them).
MODEL_SECTIONS = ("reports", "interpretation", "case_study", "practice", "body")
SECTION_NAMES = {
    "reports": "What … reports",
    "interpretation": "Our career interpretation",
    "case_study": "the case study",
    "practice": "Put it into practice",
    "body": "the guide text",
}
# Rule names for the answers that never became a draft.
SCHEMA_RULE = "schema"
QUOTE_RULE = "quote"
MAX_FINDINGS_SENT = 10


def is_fixable(finding: Finding) -> bool:
    """Return True when the model can fix this finding by rewriting its own sentence."""
    return (
        finding.severity == "error"
        and finding.section in MODEL_SECTIONS
        and not finding.rule.startswith(EDITOR_RULES)
    )


def fixable(findings: list[Finding]) -> list[Finding]:
    """Return the findings a re-ask sends back, in the order the checks found them."""
    return [finding for finding in findings if is_fixable(finding)]


def finding_line(finding: Finding) -> str:
    """Name the rule, the section and the sentence with what to change, for the model."""
    where = SECTION_NAMES.get(finding.section, finding.section)
    return f"[{finding.rule}] in {where}: {finding.message}"


def finding_lines(findings: list[Finding]) -> list[str]:
    """Return the repair lines for the fixable findings (at most MAX_FINDINGS_SENT)."""
    return [finding_line(finding) for finding in fixable(findings)[:MAX_FINDINGS_SENT]]


def error_lines(rule: str, errors: list[str]) -> list[str]:
    """Return the repair lines for schema or quote errors of an answer that is not a draft."""
    return [f"[{rule}] {error}" for error in errors]


def rules_of(lines: list[str]) -> list[str]:
    """Return the distinct rule ids named by repair lines, in order."""
    rules: list[str] = []
    for line in lines:
        if line.startswith("[") and "]" in line:
            rule = line[1 : line.index("]")]
            if rule not in rules:
                rules.append(rule)
    return rules


def repairs_of(history: list[tuple[str, list[str]]]) -> list[RepairRound]:
    """Return the re-asks a batch request's history records (a cut-off answer: `length`)."""
    return [
        RepairRound(round=index + 2, rules=rules_of(lines) if lines else ["length"])
        for index, (_, lines) in enumerate(history)
    ]


# Errors of one answer sent back in a re-ask, at most.
MAX_ERRORS_SENT = 10


def schema_errors(exc: ValidationError) -> list[str]:
    """Return the first schema errors of an answer as "field: message" lines for a re-ask."""
    errors = []
    for error in exc.errors(include_url=False):
        loc = ".".join(str(part) for part in error["loc"]) or "answer"
        errors.append(f"{loc}: {error['msg']}")
    return errors[:MAX_ERRORS_SENT]
