"""leftovers.*: unrendered template syntax, placeholder text and model boilerplate."""

from __future__ import annotations

import re

from generator.checks.analysis import analysis
from generator.checks.base import CheckContext, ParsedGuide, finding, quote, sentences
from generator.findings import Finding

TEMPLATE = re.compile(r"\{\{.*?\}\}|\{%.*?%\}|\{#.*?#\}|\{\{|\}\}|\{%|%\}|\$\{?[a-z_]\w*\}?")
PLACEHOLDER = re.compile(
    r"\b(?:TODO|TBD|FIXME|XXX)\b|(?i:lorem\s+ipsum|\[\s*(?:insert|add|your|placeholder|company"
    r"|angle|name|todo|tbd|citation\s+needed)\b[^\]]*\]|<\s*(?:insert|placeholder|your)\b[^>]*>"
    r"|\bplaceholder\s+text\b)"
)
BOILERPLATE = re.compile(
    r"(?i:\bas\s+an\s+ai\b(?:\s+language\s+model)?|\bas\s+a\s+(?:large\s+)?language\s+model\b"
    r"|\bI\s+(?:cannot|can\s*not|can't|am\s+unable|'m\s+unable|am\s+not\s+able|apologi[sz]e"
    r"|'m\s+sorry|am\s+sorry|don't\s+have\s+access|do\s+not\s+have\s+access)\b"
    r"|\bmy\s+(?:knowledge|training)\s+(?:cutoff|cut-off|data)\b"
    r"|\b(?:certainly|sure|of\s+course)[!,.]\s+here\s+(?:is|are)\b"
    r"|\bhere\s+(?:is|are)\s+(?:the|your)\s+(?:guide|draft|json|response|summary)\b)"
)
APOSTROPHES = str.maketrans({"’": "'", "‘": "'"})
# Substrings (lower case) without which a leftover pattern cannot match; they spare the scan.
LEFTOVER_HINTS = (
    ("{", "}", "$"),
    ("todo", "tbd", "fixme", "xxx", "lorem", "[", "<", "placeholder"),
    (
        "as an ai",
        " model",
        "i can",
        "i am",
        "i'm",
        "i apolog",
        "i don't",
        "i do not",
        "my ",
        "here is",
        "here are",
    ),
)


def check_leftovers(guide: ParsedGuide, ctx: CheckContext) -> list[Finding]:
    """Refuse unrendered template syntax, placeholder text and model boilerplate."""
    source_text = None
    findings = []
    kinds = (
        (TEMPLATE, "leftovers.template", "unrendered template syntax", False),
        (PLACEHOLDER, "leftovers.placeholder", "placeholder text", True),
        (BOILERPLATE, "leftovers.boilerplate", "model boilerplate", True),
    )
    for block in guide.blocks:
        text = block.text
        if "’" in text or "‘" in text:
            text = text.translate(APOSTROPHES)
        lowered = text.lower()
        for (pattern, rule, what, sourced_ok), hints in zip(kinds, LEFTOVER_HINTS, strict=True):
            if not any(hint in lowered for hint in hints):
                continue
            for match in pattern.finditer(text):
                if sourced_ok:
                    if source_text is None:
                        source_text = analysis(guide, ctx).normalized_source
                    if " ".join(match.group().casefold().split()) in source_text:
                        continue
                line = next((s for s in sentences(text) if match.group() in s), match.group())
                findings.append(
                    finding(
                        rule,
                        "error",
                        block.section,
                        f"{what} {quote(match.group(), 60)} in {quote(line)}; replace it with "
                        "finished prose (or regenerate the guide)",
                    )
                )
                break
    return findings
