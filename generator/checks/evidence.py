"""Evidence for review: each reported claim beside its evidence, unsupported parts marked."""

from __future__ import annotations

import re
from dataclasses import dataclass

from generator.checks.base import CheckContext, Evidence, parse_guide_body
from generator.checks.grounding import analyze

KINDS = {
    "figures.claim": "figure",
    "figures.unit": "figure",
    "grounding.term": "term",
    "grounding.actor": "actor",
    "grounding.polarity": "polarity",
    "grounding.claim": "claim",
    "grounding.joined": "joined",
}


@dataclass(frozen=True)
class Mark:
    """A word or figure of a claim that its evidence does not support, and why."""

    text: str
    kind: str
    reason: str


@dataclass(frozen=True)
class ClaimEvidence:
    """One reported sentence, the record sentence it rests on, and its unsupported parts."""

    claim: str
    evidence: str
    verbatim: bool
    marks: tuple[Mark, ...]

    @property
    def supported(self) -> bool:
        return not self.marks


def claim_evidence(
    body: str, ctx: CheckContext, evidence: tuple[Evidence, ...] = ()
) -> list[ClaimEvidence]:
    """Pair each sentence of "What X reports" with its evidence sentence and unsupported parts."""
    guide = parse_guide_body(body, ctx.site_name, evidence)
    out = []
    for claim in analyze(guide, ctx):
        marks = tuple(
            Mark(problem.term, KINDS.get(problem.rule, "claim"), problem.message)
            for problem in claim.problems
        )
        out.append(ClaimEvidence(claim.text, claim.evidence, claim.verbatim, marks))
    return out


def marked(item: ClaimEvidence, left: str = "⟦", right: str = "⟧") -> str:
    """Return a claim with each unsupported term, figure or polarity word bracketed."""
    text = item.claim
    for mark in sorted({m.text for m in item.marks if m.text}, key=len, reverse=True):
        text = re.sub(
            rf"(?<![\w⟦]){re.escape(mark)}(?![\w⟧])",
            lambda m: f"{left}{m.group()}{right}",
            text,
            count=1,
            flags=re.IGNORECASE,
        )
    return text
