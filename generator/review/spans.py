"""Locate the figures and quotes of a guide's "What X reports" in its source record's fields."""

from __future__ import annotations

import re
from dataclasses import dataclass

from generator.checks.figureindex import ground
from generator.checks.numbers import extract_at
from generator.checks.quoting import find_quotes
from generator.guides.document import REPORTS, GuideDoc, split_sections
from generator.sources.records import Source


@dataclass(frozen=True)
class Span:
    """Where a claim occurs in one field of the source record."""

    field: str
    start: int
    end: int


@dataclass(frozen=True)
class Claim:
    """A figure or quote from "What X reports" and where the source holds it."""

    kind: str
    text: str
    spans: tuple[Span, ...]

    @property
    def found(self) -> bool:
        return bool(self.spans)


def source_fields(source: Source) -> list[tuple[str, str]]:
    """List the fields of a record that count as source text, in display order."""
    fields = [("title", source.title), ("summary", source.summary)]
    if source.notes:
        fields.append(("notes", source.notes))
    fields.extend((f"scale[{i}]", item) for i, item in enumerate(source.scale))
    return fields


def _quote_pattern(quote: str) -> re.Pattern[str]:
    words = [re.escape(word) for word in quote.strip(" .,;:").split()]
    return re.compile(r"\s+".join(words), re.IGNORECASE)


def locate_claims(reports_text: str, fields: list[tuple[str, str]]) -> list[Claim]:
    """Find each figure and quote of a "reports" text in the source fields, as the checks do."""
    claims = []
    seen: set[str] = set()
    for found in find_quotes(reports_text):
        quote = found.text.strip()
        if quote in seen or not quote.strip(" .,;:"):
            continue
        seen.add(quote)
        pattern = _quote_pattern(quote)
        spans = tuple(
            Span(name, hit.start(), hit.end())
            for name, value in fields
            for hit in pattern.finditer(value)
        )
        claims.append(Claim("quote", quote, spans))
    stated = [
        (name, offset, figure) for name, value in fields for offset, figure in extract_at(value)
    ]
    for _, figure in extract_at(reports_text):
        if figure.text in seen:
            continue
        seen.add(figure.text)
        spans = tuple(
            Span(name, offset, offset + len(source_figure.text))
            for name, offset, source_figure in stated
            if ground(source_figure.text).supports(figure)
        )
        claims.append(Claim("figure", figure.text, spans))
    return claims


def reports_text(doc: GuideDoc) -> str:
    """Return the text of the "What X reports" section."""
    _, sections = split_sections(doc.body)
    return next((s.text for s in sections if s.key == REPORTS), "")


@dataclass(frozen=True)
class Segment:
    """A run of source text, highlighted when claims point at it."""

    text: str
    claims: tuple[int, ...] = ()


def highlight(value: str, spans: list[tuple[int, int, int]]) -> list[Segment]:
    """Split text into segments, tagging each with the claim numbers whose spans cover it."""
    cuts = sorted({0, len(value), *(s for s, _, _ in spans), *(e for _, e, _ in spans)})
    segments = []
    for start, end in zip(cuts, cuts[1:], strict=False):
        if start >= end:
            continue
        covering = tuple(sorted({n for s, e, n in spans if s <= start and end <= e}))
        segments.append(Segment(value[start:end], covering))
    return segments


def marked_fields(text: str, source: Source) -> tuple[list[Claim], list[dict]]:
    """Locate the figures and quotes of a text in its record; split each field into highlights."""
    fields = source_fields(source)
    claims = locate_claims(text, fields)
    shown = []
    for name, value in fields:
        covered = [
            (span.start, span.end, number)
            for number, claim in enumerate(claims, start=1)
            for span in claim.spans
            if span.field == name
        ]
        shown.append({"name": name, "segments": highlight(value, covered)})
    return claims, shown
