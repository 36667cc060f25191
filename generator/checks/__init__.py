"""Integrity checks over a guide: pure functions from text and records to findings.

One module per rule family; `registry.RULE_DOCS` lists every rule id with its severity, the
sections it reads, a one-line doc and a failing and a passing example.
"""

from generator.core.exports import lazy_exports

__all__ = [
    "RULES",
    "RULE_DOCS",
    "UNDATED_RULES",
    "CheckContext",
    "Evidence",
    "GuideCheck",
    "ParsedGuide",
    "blocked",
    "cached_findings",
    "cached_opinions",
    "check_body",
    "check_context",
    "check_dated",
    "check_guide",
    "check_guides",
    "check_run",
    "claim_evidence",
    "doc_evidence",
    "findings_cache",
    "has_errors",
    "judge_guides",
    "marked",
    "plan_check",
    "staleness_findings",
    "verdict_key",
]

__getattr__, __dir__ = lazy_exports(
    __name__,
    {
        "RULES": "engine",
        "RULE_DOCS": "registry",
        "UNDATED_RULES": "engine",
        "CheckContext": "engine",
        "Evidence": "engine",
        "GuideCheck": "memo",
        "ParsedGuide": "engine",
        "blocked": "runner",
        "cached_findings": "runner",
        "cached_opinions": "judge",
        "check_body": "engine",
        "check_context": "runner",
        "check_dated": "engine",
        "check_guide": "engine",
        "check_guides": "runner",
        "check_run": "engine",
        "claim_evidence": "evidence",
        "doc_evidence": "engine",
        "findings_cache": "runner",
        "has_errors": "engine",
        "judge_guides": "asking",
        "marked": "evidence",
        "plan_check": "memo",
        "staleness_findings": "engine",
        "verdict_key": "engine",
    },
)
