"""Findings: what a check reports about one guide."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

Severity = Literal["error", "warning"]


class Finding(BaseModel):
    """One rule violation, quoting the offending text and saying how to fix it."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    rule: str
    severity: Severity
    section: str
    message: str


def count(findings: list[Finding], severity: Severity) -> int:
    """Count findings of one severity."""
    return sum(1 for finding in findings if finding.severity == severity)


class Tallied:
    """Counts of the error and warning findings of anything that holds findings."""

    findings: list[Finding]

    @property
    def errors(self) -> int:
        return count(self.findings, "error")

    @property
    def warnings(self) -> int:
        return count(self.findings, "warning")
