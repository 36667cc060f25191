"""Integrity checks over a guide: pure functions from text and records to findings.

Rule ids are stable; scripts and reviewers match on them:

- structure.disclaimer, structure.heading, structure.order, structure.empty,
  structure.company, structure.angle, structure.unknown_heading (warning)
- figures.reports (error), figures.prose (warning), figures.attributed (error)
- quotes.verbatim, attribution.advice, links.foreign
- leftovers.template, leftovers.placeholder, leftovers.boilerplate
- steps.count
- citations.url, citations.published, citations.dates, citations.unverified,
  citations.stale, citations.link
- originals.mismatch (error), originals.outdated (warning)
- staleness.source (warning)
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from datetime import date, timedelta
from functools import lru_cache
from itertools import zip_longest
from urllib.parse import urlsplit

from generator.citations import CitationView
from generator.codehash import module_version
from generator.compose import disclaimer, originals_block
from generator.figures import Figure, Grounding, extract_at, ground
from generator.findings import Finding, Severity
from generator.guides import (
    DISCLAIMER,
    ORIGINALS,
    PRACTICE,
    REPORTS,
    SECTION_ORDER,
    GuideDoc,
    Section,
    split_sections,
)
from generator.quotes import find_quotes, is_verbatim, normalized_source
from generator.sources import Source, is_web_url

SECTION_TITLES = {
    "reports": "What <Company> reports",
    "interpretation": "Our career interpretation: <angle>",
    "case_study": "Build a <...> case study",
    "practice": "Put it into practice",
    "originals": "Read the originals",
}
QUOTE_LIMIT = 140


@dataclass(frozen=True)
class CheckContext:
    """The records a guide is checked against."""

    source: Source
    originals: list[CitationView]
    today: date
    freshness_days: int
    site_name: str


@dataclass(frozen=True)
class Block:
    """A piece of prose a rule reads: a section's heading and text, or the preamble."""

    section: str
    text: str


@dataclass(frozen=True)
class ParsedGuide:
    preamble: str
    sections: list[Section]
    site_name: str = ""
    blocks: list[Block] = field(default_factory=list)

    def section(self, key: str) -> Section | None:
        return next((s for s in self.sections if s.key == key), None)


Rule = Callable[[ParsedGuide, CheckContext], list[Finding]]


# --- helpers ---------------------------------------------------------------------------------

SENTENCE_END = re.compile(r"(?<=[.!?])[\"”’)]*\s+(?=\S)|\n\s*\n|\n(?=\s*(?:[-*+]|\d+[.)])\s)")
LIST_ITEM = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+(.*\S)\s*$")


def quote(text: str, limit: int = QUOTE_LIMIT) -> str:
    """Return text as a short double-quoted excerpt for a message."""
    text = " ".join(text.split())
    if len(text) > limit:
        text = text[: limit - 1].rstrip() + "…"
    return f"“{text}”"


def sentences(text: str) -> Iterator[str]:
    """Split prose into sentences and list items."""
    for part in SENTENCE_END.split(text):
        part = part.strip()
        if part:
            yield part


def record_file(source: Source) -> str:
    """Name the record file an editor should open."""
    if source.path is not None:
        return f"sources/{source.path.name}"
    return f"the source record {source.key!r}"


def grounding_text(source: Source) -> str:
    """Return every record text figures and quotes may come from."""
    extra = [source.company, source.publisher_name]
    for citation in source.citations:
        extra += [citation.title, citation.publisher or ""]
    return "\n".join([source.source_text, *extra])


def grounding(ctx: CheckContext) -> Grounding:
    """Index the figures the records state (cached per source text)."""
    dates = [d for view in ctx.originals for d in (view.published, view.checked) if d]
    return ground(grounding_text(ctx.source), dates)


def finding(rule: str, severity: Severity, section: str, message: str) -> Finding:
    return Finding(rule=rule, severity=severity, section=section, message=message)


# --- structure -------------------------------------------------------------------------------


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


# --- figures and quotes ----------------------------------------------------------------------


def sentence_at(text: str, position: int) -> str:
    """Return the sentence or list item of a text that holds an offset."""
    start, end = 0, len(text)
    for match in SENTENCE_END.finditer(text):
        if match.end() <= position:
            start = match.end()
        else:
            end = match.start()
            break
    return text[start:end].strip()


def _unsupported(text: str, facts: Grounding) -> Iterator[tuple[str, Figure]]:
    for position, figure in extract_at(text):
        if not facts.supports(figure):
            yield sentence_at(text, position), figure


def check_figures(guide: ParsedGuide, ctx: CheckContext) -> list[Finding]:
    """Require every figure to be in the record: an error in "reports" or when attributed."""
    facts = grounding(ctx)
    names = entity_pattern(entity_names(ctx))
    where = record_file(ctx.source)
    findings = []
    seen: set[tuple[str, str]] = set()
    for block in guide.blocks:
        for sentence, figure in _unsupported(block.text, facts):
            if (block.section, figure.text) in seen:
                continue
            seen.add((block.section, figure.text))
            if block.section == REPORTS:
                findings.append(
                    finding(
                        "figures.reports",
                        "error",
                        REPORTS,
                        f"figure {figure.text!r} in {quote(sentence)} is not in the source "
                        f"(title, summary, notes, scale of {where}); remove it, or add it to the "
                        "record if the original states it",
                    )
                )
            elif names.search(sentence) or mentions_document(sentence):
                findings.append(
                    finding(
                        "figures.attributed",
                        "error",
                        block.section,
                        f"figure {figure.text!r} in {quote(sentence)} is attributed to the "
                        f"source but {where} does not state it; remove the figure or the "
                        "attribution",
                    )
                )
            else:
                findings.append(
                    finding(
                        "figures.prose",
                        "warning",
                        block.section,
                        f"figure {figure.text!r} in {quote(sentence)} is not in the source; "
                        "make sure it is ours and not presented as the source's, or remove it",
                    )
                )
    return findings


def check_quotes(guide: ParsedGuide, ctx: CheckContext) -> list[Finding]:
    """Require quotations in "reports" to be verbatim in the record."""
    text = grounding_text(ctx.source)
    findings = []
    for block in guide.blocks:
        if block.section != REPORTS:
            continue
        for found in find_quotes(block.text):
            if not is_verbatim(found.text, text):
                findings.append(
                    finding(
                        "quotes.verbatim",
                        "error",
                        REPORTS,
                        f"quotation {quote(found.text)} is not verbatim in "
                        f"{record_file(ctx.source)}; copy the source's exact words or "
                        "paraphrase without quotation marks",
                    )
                )
    return findings


# --- attribution -----------------------------------------------------------------------------

ADVICE = (
    r"recommend(?:s|ed|ing)?|advis(?:e|es|ed|ing)|endors(?:e|es|ed|ing)|urg(?:e|es|ed)"
    r"|encourag(?:e|es|ed)|counsel(?:s|ed)?|prescrib(?:e|es|ed)|approv(?:e|es|ed)"
    r"|vouch(?:es|ed)?\s+for|insist(?:s|ed)?\s+(?:that\s+)?(?:you|candidates)"
    r"|suggest(?:s|ed)?\s+(?:that\s+)?(?:you|candidates|readers|applicants|job\s+seekers)"
    r"|(?:want|expect|tell|ask)(?:s|ed)?\s+(?:you|candidates|readers|applicants|job\s+seekers)"
    r"|looks?\s+for\s+(?:candidates|engineers|applicants|people)"
    r"|hires?\s+(?:candidates|engineers|applicants|people)\s+who"
)
READER = r"(?:you|candidates?|readers?|applicants?|job\s+seekers|engineers|everyone|one)"
# Who a guide's reader is: advice aimed at them has no place in what a source reports.
AUDIENCE = re.compile(
    r"\b(?:you|your|candidates?|readers?|applicants?|job\s+seekers|interviewees)\b", re.I
)
DIRECTIVE = rf"{READER}\s+(?:should|must|ought\s+to|need\s+to|have\s+to|shouldn't|mustn't)"
SAYING = r"(?:says?|said|states?|stated|claims?|believes?|thinks?|argues?|writes?|insists?)"
ROLE = (
    r"(?:\s+(?:engineers?|engineering(?:\s+team)?|teams?|researchers?|authors?|leadership"
    r"|hiring\s+managers?|recruiters?|interviewers?|staff|itself))?"
)
AUXILIARY = r"(?:\s+(?:also|strongly|explicitly|officially|now|even|would|does|did|do|not|n't))*"
DOCUMENT = re.compile(
    r"\b(?:the|this|that)\s+(?:original\s+|source\s+)?(?:article|write-?up|blog\s+post|post"
    r"|paper|source|authors?)\b|\baccording\s+to\b",
    re.IGNORECASE,
)
DOCUMENT_HINTS = ("according to", "article", "write", "post", "paper", "source", "author")


def mentions_document(text: str) -> bool:
    """Return True when a text refers to the source document ("the article", "according to")."""
    lowered = text.lower()
    return any(hint in lowered for hint in DOCUMENT_HINTS) and DOCUMENT.search(text) is not None


NEGATION = re.compile(r"\b(?:not|never|neither|nor|no)\b|n't\b", re.IGNORECASE)
SYSTEM_NOUNS = (
    r"systems?|models?|engines?|infrastructure|stack|pipelines?|services?|algorithms?|ranking"
    r"|feeds?|products?|surfaces?|teams?|workloads?|quality|problems?|tasks?"
)


def entity_names(ctx: CheckContext) -> tuple[str, ...]:
    """Return the company and publisher names a sentence could put words in the mouth of."""
    names = {ctx.source.company, ctx.source.publisher_name}
    names.update(view.publisher for view in ctx.originals)
    return tuple(sorted((n for n in names if n.strip()), key=len, reverse=True))


@lru_cache(maxsize=4096)
def entity_pattern(names: tuple[str, ...]) -> re.Pattern[str]:
    """Match any of the names as whole words."""
    alternatives = "|".join(re.escape(name) for name in names) or r"(?!x)x"
    return re.compile(rf"(?<![\w])(?:{alternatives})(?![\w])", re.IGNORECASE)


# Entity names are masked with one private-use character, so the attribution patterns below
# are compiled once instead of once per company.
ENTITY_MARK = "\ue000"
_ENTITY = (
    rf"(?:{ENTITY_MARK}(?:['’]s)?{ROLE}"
    r"|\b(?:the|this)\s+(?:original\s+)?(?:article|write-?up|blog\s+post|post|paper"
    r"|source|authors?))"
)
ATTRIBUTION_PATTERNS = tuple(
    re.compile(pattern, re.IGNORECASE)
    for pattern in (
        rf"{_ENTITY}{AUXILIARY}\s+(?:{ADVICE})(?![\w-])",
        rf"\baccording\s+to\s+{_ENTITY}.*?\b{DIRECTIVE}\b",
        rf"\b{DIRECTIVE}\b.*?\baccording\s+to\s+{_ENTITY}",
        rf"{_ENTITY}{AUXILIARY}\s+{SAYING}\s+(?:that\s+)?{DIRECTIVE}\b",
        rf"\bas\s+{_ENTITY}\s+(?:{ADVICE}|{SAYING}|puts\s+it)(?![\w-])",
        rf"{ENTITY_MARK}['’]s\s+(?:own\s+)?(?:advice|recommendations?"
        rf"|endorsement|guidance|tips?|suggestions?|verdict)\b(?!\s+(?:{SYSTEM_NOUNS})\b)",
        rf"\b(?:endorsed|recommended|approved|sponsored|backed|vetted|certified|sanctioned"
        rf"|commissioned|blessed)\s+by\s+{_ENTITY}",
    )
)


def _attributed_advice(
    sentence: str, mentions: re.Pattern[str], patterns: tuple[re.Pattern[str], ...]
) -> str | None:
    """Return the words that put advice in an entity's mouth, or None."""
    names = mentions.findall(sentence)
    masked = mentions.sub(ENTITY_MARK, sentence)
    for index, pattern in enumerate(patterns):
        match = pattern.search(masked)
        if match is None:
            continue
        if index == len(ATTRIBUTION_PATTERNS) - 1 and NEGATION.search(masked, 0, match.start()):
            continue
        hit = match.group()
        before = masked[: match.start()].count(ENTITY_MARK)
        for name in names[before:]:
            hit = hit.replace(ENTITY_MARK, name, 1)
        return hit
    return None


def check_attribution(guide: ParsedGuide, ctx: CheckContext) -> list[Finding]:
    """Refuse advice, recommendations or endorsements put in the company's or publisher's mouth."""
    mentions = entity_pattern(entity_names(ctx))
    reader_patterns = ATTRIBUTION_PATTERNS[:1]
    source_text = normalized_source(grounding_text(ctx.source))
    findings = []
    for block in guide.blocks:
        if not mentions.search(block.text) and not mentions_document(block.text):
            continue
        for sentence in sentences(block.text):
            if not mentions.search(sentence) and not mentions_document(sentence):
                continue
            if block.section == REPORTS:
                hit = _attributed_advice(sentence, mentions, reader_patterns)
                if hit is None or not AUDIENCE.search(sentence):
                    continue
                if " ".join(sentence.casefold().split()) in source_text:
                    continue
            else:
                hit = _attributed_advice(sentence, mentions, ATTRIBUTION_PATTERNS)
                if hit is None:
                    continue
            findings.append(
                finding(
                    "attribution.advice",
                    "error",
                    block.section,
                    f"{quote(sentence)} puts advice or endorsement in the mouth of "
                    f"{quote(hit, 60)}; the publishers do not advise candidates. Rewrite it as "
                    "our own suggestion (e.g. 'We suggest …') or state only what the source "
                    "reports",
                )
            )
    return findings


# --- links -----------------------------------------------------------------------------------

URL = re.compile(r"\b(?:https?|ftp)://[^\s<>()\[\]\"'`]+|\bwww\.[^\s<>()\[\]\"'`]+", re.I)
MD_TARGET = re.compile(r"\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
EMAIL = re.compile(r"\b[\w.+-]+@((?:[a-z0-9-]+\.)+[a-z]{2,})\b", re.IGNORECASE)
SCHEME = re.compile(r"\b(?:javascript|data|vbscript|file|mailto):[^\s)]*", re.IGNORECASE)
TLDS = (
    "com|net|org|io|ai|dev|co|app|xyz|info|biz|me|ly|gg|us|uk|de|fr|cn|ru|eu|nl|jp|ca|au|ch"
    "|tech|site|online|page|link|cc|tv|engineering|blog|news|cloud|gov|edu|top|click|lol"
)
HOST = re.compile(
    rf"(?<![\w@/.-])((?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+(?:{TLDS}))(?![\w-]|\.[a-z0-9])",
    re.IGNORECASE,
)
TRAILING = ".,;:!?)]}>'\"”’*_"


def _host(url: str) -> str:
    text = url if "://" in url else f"http://{url}"
    host = (urlsplit(text).hostname or "").casefold()
    return host.removeprefix("www.")


def _url_key(url: str) -> str:
    text = url if "://" in url else f"http://{url}"
    parts = urlsplit(text)
    path = parts.path.rstrip("/")
    query = f"?{parts.query}" if parts.query else ""
    return f"{_host(text)}{path}{query}"


TLD_HINT = re.compile(rf"\.(?:{TLDS})(?![\w-])", re.IGNORECASE)
LINK_HINTS = ("://", "www.", "](", "@", "javascript:", "data:", "vbscript:", "file:", "mailto:")


def _may_link(text: str) -> bool:
    """Return False when a text cannot hold a URL, link, e-mail or host (a cheap pre-scan)."""
    lowered = text.lower()
    return any(hint in lowered for hint in LINK_HINTS) or TLD_HINT.search(text) is not None


def check_links(guide: ParsedGuide, ctx: CheckContext) -> list[Finding]:
    """Refuse any URL, link or host in the prose that is not one of the citations."""
    urls = {_url_key(view.url) for view in ctx.originals if view.url}
    hosts = {_host(view.url) for view in ctx.originals if view.url}
    findings = []
    for block in guide.blocks:
        text = block.text
        if not _may_link(text):
            continue
        found: list[tuple[str, bool]] = []
        for match in MD_TARGET.finditer(text):
            target = match.group(1)
            if not target.startswith("#") and not URL.match(target):
                found.append((target, False))
        for match in SCHEME.finditer(text):
            target = match.group()
            if target.casefold().startswith("mailto:"):
                found.append((_host(target.split("@")[-1]), False))
            else:
                found.append((target, False))
        for match in URL.finditer(text):
            url = match.group().rstrip(TRAILING)
            found.append((url, _url_key(url) in urls))
        masked = URL.sub(lambda m: " " * len(m.group()), text)
        for match in EMAIL.finditer(masked):
            found.append((match.group(), _host(match.group(1)) in hosts))
        masked = EMAIL.sub(lambda m: " " * len(m.group()), masked)
        masked = SCHEME.sub(lambda m: " " * len(m.group()), masked)
        for match in HOST.finditer(masked):
            if match.group(1).isupper():
                continue  # "ASP.NET" names a framework, not a host
            found.append((match.group(1), _host(match.group(1)) in hosts))
        reported: set[str] = set()
        for target, allowed in found:
            if allowed or target in reported:
                continue
            reported.add(target)
            findings.append(
                finding(
                    "links.foreign",
                    "error",
                    block.section,
                    f"link or host {quote(target, 100)} is not one of this guide's citations; "
                    "remove it (links come only from the record's url and citations, shown "
                    "under 'Read the originals'), or add the original to "
                    f"{record_file(ctx.source)} as a citation",
                )
            )
    return findings


# --- leftovers -------------------------------------------------------------------------------

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
    source_text = normalized_source(grounding_text(ctx.source))
    findings = []
    kinds = (
        (TEMPLATE, "leftovers.template", "unrendered template syntax", False),
        (PLACEHOLDER, "leftovers.placeholder", "placeholder text", True),
        (BOILERPLATE, "leftovers.boilerplate", "model boilerplate", True),
    )
    for block in guide.blocks:
        text = block.text.translate(APOSTROPHES)
        lowered = text.lower()
        for (pattern, rule, what, sourced_ok), hints in zip(kinds, LEFTOVER_HINTS, strict=True):
            if not any(hint in lowered for hint in hints):
                continue
            for match in pattern.finditer(text):
                if sourced_ok and " ".join(match.group().casefold().split()) in source_text:
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


# --- steps -----------------------------------------------------------------------------------


def check_steps(guide: ParsedGuide, ctx: CheckContext) -> list[Finding]:
    """Require 3 to 5 distinct list items under "Put it into practice"."""
    practice = guide.section(PRACTICE)
    if practice is None:
        return []
    items = [m.group(1) for line in practice.text.splitlines() if (m := LIST_ITEM.match(line))]
    keys = [" ".join(item.casefold().rstrip(".!;").split()) for item in items]
    distinct = set(keys)
    if 3 <= len(distinct) <= 5 and len(distinct) == len(items):
        return []
    repeated = sorted({items[i] for i, key in enumerate(keys) if keys.index(key) != i})
    detail = f"; repeated: {', '.join(quote(item, 80) for item in repeated)}" if repeated else ""
    return [
        finding(
            "steps.count",
            "error",
            PRACTICE,
            f"found {len(items)} list items ({len(distinct)} distinct){detail}; "
            "write 3 to 5 distinct steps as '- ' items",
        )
    ]


# --- citations and the originals block -------------------------------------------------------


def _verify_hint(ctx: CheckContext) -> str:
    key = ctx.source.key
    return (
        f"run `prepguide verify {key}` (or, after checking the page yourself, "
        f"`prepguide verify --manual {key} --by NAME`)"
    )


def check_citations(guide: ParsedGuide, ctx: CheckContext) -> list[Finding]:
    """Require an http(s) URL, a published date, and a fresh, live verification per original."""
    return citation_findings(ctx)


def citation_findings(ctx: CheckContext) -> list[Finding]:
    """Judge the originals' records against today; the guide text plays no part."""
    where = record_file(ctx.source)
    findings = []

    def add(rule: str, message: str, severity: Severity = "error") -> None:
        findings.append(finding(rule, severity, ORIGINALS, message))

    for index, view in enumerate(ctx.originals):
        label = quote(view.title, 90)
        field = "" if index == 0 else f"citations[{index - 1}]."
        if not view.url or not is_web_url(view.url):
            add(
                "citations.url",
                f"{label} has no http(s) URL; add `{field}url:` to {where}, then "
                f"{_verify_hint(ctx)}",
            )
        if view.published is None:
            add(
                "citations.published",
                f"{label} has no published date; add `{field}published: YYYY-MM-DD` "
                f"(the original's full date) to {where}",
            )
        if view.published and view.published > ctx.today:
            add(
                "citations.dates",
                f"{label} is published {view.published}, after today ({ctx.today}); "
                f"correct `{field}published` in {where}",
            )
        if view.checked is None:
            if view.url:
                add(
                    "citations.unverified",
                    f"{label} is unverified (no Checked date); {_verify_hint(ctx)}",
                )
            else:
                add(
                    "citations.unverified",
                    f"{label} is unverified (no Checked date); add its URL, then "
                    f"{_verify_hint(ctx)}",
                )
        else:
            if view.published and view.checked < view.published:
                add(
                    "citations.dates",
                    f"{label} is Checked {view.checked}, before it was published "
                    f"({view.published}); correct the dates in {where} or {_verify_hint(ctx)}",
                )
            if view.checked > ctx.today:
                add(
                    "citations.dates",
                    f"{label} is Checked {view.checked}, after today ({ctx.today}); "
                    f"correct `{field}checked` in {where}",
                )
            elif view.checked < ctx.today - timedelta(days=ctx.freshness_days):
                add(
                    "citations.stale",
                    f"{label} was last Checked {view.checked}, more than "
                    f"{ctx.freshness_days} days ago (checks.freshness_days); "
                    f"{_verify_hint(ctx)}",
                )
        findings.extend(_link_status(view, label, ctx))
    return findings


def _link_status(view: CitationView, label: str, ctx: CheckContext) -> list[Finding]:
    status = view.link_status
    if status in (None, "live"):
        return []
    key = ctx.source.key
    manual = f"`prepguide verify --manual {key} --by NAME --url {view.url}`"
    fixes = {
        "dead": "the page is gone: fix the URL in the record, or add an archive URL",
        "failing": "the link fails: fix the URL in the record, or add an archive URL",
        "not-live": "the link does not resolve to a live page: fix the URL, or add an archive URL",
        "changed": f"the page changed since it was checked: re-read it, then confirm with {manual}",
        "inconclusive": "the link checker could not decide (e.g. blocked): open the page "
        f"yourself and confirm with {manual}",
    }
    severity: Severity = "warning" if status == "inconclusive" else "error"
    fix = fixes.get(status, "fix the URL in the record, or add an archive URL")
    if status not in ("changed", "inconclusive"):
        fix += f", then run `prepguide verify {key}` (or confirm by hand with {manual})"
    message = f"{label} <{view.url}> is {status} at the last verification; {fix}"
    return [finding("citations.link", severity, ORIGINALS, message)]


CHECKED_PART = re.compile(r"·\s*(?:Checked\s+(\d{4}-\d{2}-\d{2})|Not yet checked)\s*$")


def _block_lines(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines() if line.strip()]


def check_originals(guide: ParsedGuide, ctx: CheckContext) -> list[Finding]:
    """Require "Read the originals" to be exactly what the records and verifications render."""
    section = guide.section(ORIGINALS)
    if section is None or not section.text:
        return []
    expected = _block_lines(originals_block(ctx.originals))
    actual = _block_lines(section.text)
    if expected == actual:
        return []
    rendered = originals_block(ctx.originals)
    if len(expected) == len(actual) and all(
        _only_older_checked(want, got) for want, got in zip(expected, actual, strict=True)
    ):
        return [
            finding(
                "originals.outdated",
                "warning",
                ORIGINALS,
                "newer Checked dates have been recorded since this guide was written; "
                "regenerate it (`prepguide generate "
                f"{ctx.source.key} --force`) or replace the block with: {quote(rendered, 600)}",
            )
        ]
    got, want = next(
        ((g, w) for g, w in zip_longest(actual, expected, fillvalue="") if g != w),
        ("", ""),
    )
    return [
        finding(
            "originals.mismatch",
            "error",
            ORIGINALS,
            f"'Read the originals' differs from the records: found {quote(got or '(nothing)')}, "
            f"expected {quote(want or '(nothing)')}. This block is rendered from "
            f"{record_file(ctx.source)} and verification; do not edit it by hand. Fix the "
            f"record instead and regenerate, or restore the block to: {quote(rendered, 600)}",
        )
    ]


def _only_older_checked(want: str, got: str) -> bool:
    """Return True when two lines differ only by an older (or missing) Checked date."""
    want_match, got_match = CHECKED_PART.search(want), CHECKED_PART.search(got)
    if want_match is None or got_match is None:
        return want == got
    if want[: want_match.start()] != got[: got_match.start()]:
        return False
    newer, older = want_match.group(1), got_match.group(1)
    if older is None:
        return True
    return newer is not None and older <= newer


RULES: list[Rule] = [
    check_structure,
    check_figures,
    check_quotes,
    check_attribution,
    check_links,
    check_leftovers,
    check_steps,
    check_citations,
    check_originals,
]
# check_citations is the only rule whose verdict can change with the date alone; it reads the
# records, not the text. The others depend only on the text and the records.
UNDATED_RULES: list[Rule] = [rule for rule in RULES if rule is not check_citations]


# --- entry points ----------------------------------------------------------------------------


def _blocks(preamble: str, sections: list[Section], site_name: str) -> list[Block]:
    blocks = []
    extra = " ".join(preamble.split()).replace(disclaimer(site_name), "").strip()
    if extra:
        blocks.append(Block(DISCLAIMER, extra))
    for section in sections:
        if section.key == ORIGINALS:
            continue
        blocks.append(Block(section.key or "body", f"{section.heading}\n\n{section.text}"))
    return blocks


def parse_guide_body(body: str, site_name: str = "") -> ParsedGuide:
    """Split a guide body into its preamble, sections and the prose blocks rules read."""
    preamble, sections = split_sections(body)
    return ParsedGuide(preamble, sections, site_name, _blocks(preamble, sections, site_name))


def check_body(body: str, ctx: CheckContext, rules: list[Rule] = RULES) -> list[Finding]:
    """Run every rule (or the given ones) over a guide body."""
    guide = parse_guide_body(body, ctx.site_name)
    findings: list[Finding] = []
    for rule in rules:
        findings.extend(rule(guide, ctx))
    return findings


def verdict_key(doc: GuideDoc, ctx: CheckContext) -> str:
    """Key what the undated rules judge: the code, the guide text and the records, not the date."""
    records = repr(replace(ctx, today=date.min))
    payload = f"{module_version('checks')}\0{doc.content_hash}\0{records}"
    return hashlib.sha256(payload.encode()).hexdigest()


def check_dated(ctx: CheckContext) -> list[Finding]:
    """Run only the rule that compares the records' dates with today."""
    return citation_findings(ctx)


def check_guide(doc: GuideDoc, ctx: CheckContext) -> list[Finding]:
    """Run every rule over a guide document, and report a source changed since generation."""
    findings = check_body(doc.body, ctx)
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


def has_errors(findings: list[Finding]) -> bool:
    """Return True when any finding blocks approval and publishing."""
    return any(finding.severity == "error" for finding in findings)


__all__ = [
    "RULES",
    "UNDATED_RULES",
    "CheckContext",
    "ParsedGuide",
    "check_body",
    "check_dated",
    "check_guide",
    "has_errors",
    "verdict_key",
]
