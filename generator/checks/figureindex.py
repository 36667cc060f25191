"""Index the figures a source states, so that a claim's figure is looked up, not searched."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from functools import lru_cache

from generator.checks.figurewords import (
    NUMBER_WORD,
    NUMBER_WORD_LOWER,
    VAGUE,
    WORD_NUMBERS,
    WORD_RUN,
    _plain,
)
from generator.checks.numbers import Figure, _extract_at, _norm


@dataclass(frozen=True)
class Grounding:
    """Every figure a source states, indexed for fast lookups."""

    keyed: frozenset[tuple[str, Decimal]]
    values: frozenset[Decimal]
    ranges: frozenset[tuple[str, Decimal, Decimal]]
    labels: frozenset[str]
    idents: frozenset[str]

    def supports(self, figure: Figure) -> bool:
        """Return True when the source states this figure (after normalisation)."""
        if figure.kind == "value":
            return self._value(figure.unit, figure.lo)
        if figure.kind == "range":
            if (figure.unit, figure.lo, figure.hi) in self.ranges:
                return True
            return self._value(figure.unit, figure.lo) and self._value(figure.unit, figure.hi)
        if figure.kind in ("date", "month", "vague"):
            if figure.label in self.labels:
                return True
            if figure.kind == "vague":
                low, high = VAGUE[figure.label]
                return any(low <= value.adjusted() < high for value in self.values if value > 0)
            if figure.kind == "month":
                return any(label.startswith(figure.label + "-") for label in self.labels)
            return False
        token = figure.label
        if token in self.idents or (token.endswith("s") and token[:-1] in self.idents):
            return True
        parts = [part for part in token.split("-") if any(ch.isdigit() for ch in part)]
        return len(parts) > 1 and all(part in self.idents for part in parts)

    def _value(self, unit: str, value: Decimal | None) -> bool:
        if value is None:
            return False
        if unit == "":
            return value in self.values
        return (unit, value) in self.keyed


def _number_words(text: str) -> set[str]:
    """Return the whole words that are numbers (NUMBER_WORD.findall), case aside, once each."""
    if not _plain(text):
        return set(NUMBER_WORD.findall(text))
    if text.isascii():
        # lower() maps ASCII letters one to one and keeps every word boundary.
        return set(NUMBER_WORD_LOWER.findall(text.lower()))
    return {word for word in set(WORD_RUN.findall(text)) if word.lower() in WORD_NUMBERS}


def ground(text: str, dates: Iterable[date] = ()) -> Grounding:
    """Index the figures of a source text and its record dates."""
    return _ground(text, tuple(sorted(set(dates))))


@lru_cache(maxsize=4096)
def _ground(text: str, dates: tuple[date, ...]) -> Grounding:
    keyed: set[tuple[str, Decimal]] = set()
    values: set[Decimal] = set()
    ranges: set[tuple[str, Decimal, Decimal]] = set()
    labels: set[str] = set()
    idents: set[str] = set()

    def add(unit: str, value: Decimal | None) -> None:
        if value is not None:
            keyed.add((unit, value))
            values.add(value)

    for _, figure in _extract_at(text):
        if figure.kind == "value":
            add(figure.unit, figure.lo)
        elif figure.kind == "range":
            assert figure.lo is not None and figure.hi is not None
            ranges.add((figure.unit, figure.lo, figure.hi))
            add(figure.unit, figure.lo)
            add(figure.unit, figure.hi)
        elif figure.kind == "ident":
            idents.add(figure.label)
            idents.update(figure.label.split("-"))
        else:
            labels.add(figure.label)
            if figure.kind == "date":
                values.add(_norm(Decimal(int(figure.label[:4]))))
    for word in _number_words(text):
        values.add(_norm(Decimal(WORD_NUMBERS[word.casefold()])))
    for when in dates:
        labels.add(when.isoformat())
        values.add(_norm(Decimal(when.year)))
    return Grounding(
        frozenset(keyed), frozenset(values), frozenset(ranges), frozenset(labels), frozenset(idents)
    )
