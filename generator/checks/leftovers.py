"""leftovers.*: unrendered template syntax, placeholder text and model boilerplate."""

from __future__ import annotations

import re

from generator.checks.analysis import analysis
from generator.checks.base import CheckContext, ParsedGuide, finding, quote, sentences
from generator.checks.prefilter import EXOTIC_CHAR
from generator.guides.document import DISCLAIMER
from generator.guides.findings import Finding

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
# BOILERPLATE for lower-case text: it matches text.lower() where BOILERPLATE matches text, for
# a text without a character that matches an ASCII letter only case aside (prefilter.EXOTIC).
BOILERPLATE_LOWER = re.compile(BOILERPLATE.pattern[4:-1].replace(r"\bI\s", r"\bi\s"))
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
    # A section's block is its heading and text, both verbatim in the body, joined by a blank
    # line that no hint spans: hints the whole body lacks are in no section. The preamble's
    # block is re-spaced, so it is always searched itself.
    body = guide.body
    if "’" in body or "‘" in body:
        body = body.translate(APOSTROPHES)
    # The patterns allow any white space between words; the hints hold single spaces.
    body = " ".join(body.lower().split())
    in_body = [any(hint in body for hint in hints) for hints in LEFTOVER_HINTS]
    for block in guide.blocks:
        text = block.text
        if "’" in text or "‘" in text:
            text = text.translate(APOSTROPHES)
        lowered = text.lower()
        spaced = " ".join(lowered.split())
        preamble = block.section == DISCLAIMER
        for (pattern, rule, what, sourced_ok), hints, anywhere in zip(
            kinds, LEFTOVER_HINTS, in_body, strict=True
        ):
            if not (anywhere or preamble) or not any(hint in spaced for hint in hints):
                continue
            if (
                pattern is BOILERPLATE
                and BOILERPLATE_LOWER.search(lowered) is None
                and EXOTIC_CHAR.search(text) is None
            ):
                continue  # the same answer as a scan of the text, found three times faster
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
