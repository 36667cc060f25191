"""What every rule shares: the guide as rules read it, the records it is checked against."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import date
from functools import lru_cache

from generator.checks.figureindex import Grounding, ground
from generator.checks.prefilter import Names
from generator.guides.compose import disclaimer
from generator.guides.document import DISCLAIMER, ORIGINALS, Section, split_sections
from generator.guides.findings import Finding, Severity
from generator.sources.citations import CitationView
from generator.sources.records import Source

QUOTE_LIMIT = 140


@dataclass(frozen=True)
class Evidence:
    """A reported statement as drafted, with the verbatim source span the model gave for it."""

    text: str
    quote: str


@dataclass(frozen=True)
class CheckContext:
    """The records a guide is checked against, and what the whole database knows."""

    source: Source
    originals: list[CitationView]
    today: date
    freshness_days: int
    site_name: str
    # Database-wide: every record's techniques and stack (lower case), and every company.
    vocabulary: tuple[str, ...] = ()
    companies: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
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
    body: str = ""
    evidence: tuple[Evidence, ...] = ()
    # What the rules compute once per check and share (see checks.analysis).
    memo: dict = field(default_factory=dict, compare=False, repr=False)

    def section(self, key: str) -> Section | None:
        return next((s for s in self.sections if s.key == key), None)


Rule = Callable[[ParsedGuide, CheckContext], list[Finding]]

SENTENCE_END = re.compile(r"(?<=[.!?])[\"”’)]*\s+(?=\S)|\n\s*\n|\n(?=\s*(?:[-*+]|\d+[.)])\s)")
# SENTENCE_END with its end mark or newline matched first (and looked back at): the scan can
# then skip to the next mark or newline instead of trying the pattern at every offset. A match
# that starts at a mark ends the sentence one character after its start.
_SENTENCE_BREAK = re.compile(
    r"[.!?\n](?:(?<=[.!?])[\"”’)]*\s+(?=\S)|(?<=\n)\s*\n|(?<=\n)(?=\s*(?:[-*+]|\d+[.)])\s))"
)
LIST_ITEM = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+(.*\S)\s*$")


def quote(text: str, limit: int = QUOTE_LIMIT) -> str:
    """Return text as a short double-quoted excerpt for a message."""
    text = " ".join(text.split())
    if len(text) > limit:
        text = text[: limit - 1].rstrip() + "…"
    return f"“{text}”"


def _breaks(text: str) -> Iterator[tuple[int, int]]:
    """Return the spans SENTENCE_END.finditer(text) finds."""
    for match in _SENTENCE_BREAK.finditer(text):
        start = match.start()
        yield (start if text[start] == "\n" else start + 1), match.end()


def split_sentences(text: str) -> list[str]:
    """Return SENTENCE_END.split(text): the pieces between sentence breaks, unstripped."""
    pieces, last = [], 0
    for match in _SENTENCE_BREAK.finditer(text):  # _breaks, inlined: this runs per block
        start = match.start()
        pieces.append(text[last : start if text[start] == "\n" else start + 1])
        last = match.end()
    pieces.append(text[last:])
    return pieces


def sentences(text: str) -> Iterator[str]:
    """Split prose into sentences and list items."""
    for part in split_sentences(text):
        part = part.strip()
        if part:
            yield part


def sentence_at(text: str, position: int) -> str:
    """Return the sentence or list item of a text that holds an offset."""
    start, end = 0, len(text)
    for begin, stop in _breaks(text):
        if stop <= position:
            start = stop
        else:
            end = begin
            break
    return text[start:end].strip()


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


def entity_names(ctx: CheckContext) -> tuple[str, ...]:
    """Return the company and publisher names a sentence could put words in the mouth of."""
    names = {ctx.source.company, ctx.source.publisher_name}
    names.update(view.publisher for view in ctx.originals)
    return tuple(sorted((n for n in names if n.strip()), key=len, reverse=True))


@lru_cache(maxsize=4096)
def entity_pattern(names: tuple[str, ...]) -> re.Pattern[str]:
    """Match any of the names as whole words."""
    alternatives = "|".join(re.escape(name) for name in names) or r"(?!x)x"
    pattern = re.compile(rf"(?<![\w])(?:{alternatives})(?![\w])", re.IGNORECASE)
    return Names(pattern, names)  # type: ignore[return-value]


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


def parse_guide_body(
    body: str, site_name: str = "", evidence: tuple[Evidence, ...] = ()
) -> ParsedGuide:
    """Split a guide body into its preamble, sections and the prose blocks rules read."""
    preamble, sections = split_sections(body)
    blocks = _blocks(preamble, sections, site_name)
    return ParsedGuide(preamble, sections, site_name, blocks, body, evidence)
