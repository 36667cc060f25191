"""Figures: find the numbers a text states and normalise them so equal facts compare equal."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date
from decimal import Decimal, InvalidOperation
from functools import lru_cache

from generator.checks.cuts import clauses, pieces
from generator.checks.figurewords import (
    ASCII_LETTERS,
    BARE_SCALE,
    BARE_WORDS,
    BETWEEN,
    CURRENCIES,
    CURRENCY_SIGNS,
    DIGIT,
    DIGIT_RUN,
    GROUPING,
    ID_CHARS,
    IDENTIFIER,
    ISO_DATE,
    MONTH_DATE,
    MONTH_STARTS,
    MONTHS,
    MULTIPLIER,
    MULTIPLIER_TRIGGERS,
    MULTIPLIER_WORDS,
    ORDERED_MARKER,
    ORDINAL,
    QUANTITY,
    RANGE_JOIN,
    SCALE_TRIGGERS,
    SCALES,
    SCALES_SPELLED,
    URLISH,
    VAGUE,
    VAGUE_TRIGGERS,
    VAGUE_WORD,
    WORD_NUMBERS,
    WORD_QUANTITY,
    _plain,
)


@dataclass(frozen=True, slots=True)
class Figure:
    """One stated figure: its text and a normalised key."""

    text: str
    kind: str  # value | range | date | month | vague | ident
    unit: str = ""
    lo: Decimal | None = None
    hi: Decimal | None = None
    label: str = ""


def _decimal(text: str) -> Decimal:
    cleaned = text.translate(GROUPING) if not text.isdigit() else text
    try:
        return Decimal(cleaned)
    except InvalidOperation:
        return Decimal(0)


def _norm(value: Decimal) -> Decimal:
    return value.normalize()


def _unit(match: re.Match[str]) -> str:
    unit = (match.group("unit") or "").strip().casefold()
    if not unit:
        currency = match.group("cur") or match.group("curw")
        return CURRENCIES[currency.casefold()] if currency else ""
    if unit in ("x", "×", "times") or unit.endswith("fold"):
        return "x"
    return "%"


def _value(match: re.Match[str]) -> tuple[Decimal, bool]:
    """Return the value and whether the figure carried its own scale."""
    if match.re is QUANTITY:  # its number is required; WORD_QUANTITY has a number word
        value = _decimal(match.group("num"))
        scale = match.group("abbr") or match.group("sw")
    else:
        value = Decimal(WORD_NUMBERS[match.group("wnum").casefold()])
        scale = match.group("sw2")
    if scale:
        return value.scaleb(SCALES[scale.casefold()]), True
    return value, False


def _joins(text: str, low: re.Match[str], high: re.Match[str]) -> bool:
    """Return True when two quantities form a range: "20-25%", "20 to 25%", "between 2 and 3"."""
    join = RANGE_JOIN.match(text, low.end(), high.start())
    if join is None:
        return False
    return not join.group("and") or BETWEEN.search(text, max(0, low.start() - 12), low.start())


def _scale_exponent(match: re.Match[str]) -> int:
    groups = match.groupdict()
    scale = groups.get("abbr") or groups.get("sw") or groups.get("sw2")
    return SCALES[scale.casefold()] if scale else 0


def _mask(text: str, spans: Iterable[tuple[int, int]]) -> str:
    """Blank out spans, keeping every other offset where it was."""
    parts, last = [], 0
    for start, end in sorted(spans):
        if start < last:
            start = last
        parts.append(text[last:start])
        parts.append(" " * max(0, end - start))
        last = max(last, end)
    parts.append(text[last:])
    return "".join(parts)


def _blank(match: re.Match[str]) -> str:
    return " " * len(match.group())


def _clean(text: str) -> str:
    """Drop URLs and ordered-list markers, which hold digits that are not figures."""
    if "://" in text or "www." in text or "](" in text or "<" in text:
        text = URLISH.sub(_blank, text)
    return ORDERED_MARKER.sub(_blank, text)


def _month_date(match: re.Match[str]) -> Figure | None:
    groups = match.groupdict()
    for suffix in ("1", "2"):
        month, day, year = groups[f"m{suffix}"], groups[f"d{suffix}"], groups[f"y{suffix}"]
        if month:
            try:
                when = date(int(year), MONTHS[month.casefold().rstrip(".")], int(day))
            except ValueError:
                return None
            return Figure(match.group(), "date", label=when.isoformat())
    month, year = groups["m3"], groups["y3"]
    label = f"{int(year):04d}-{MONTHS[month.casefold()]:02d}"
    return Figure(match.group(), "month", label=label)


def word_starts(text: str, words: Iterable[str]) -> set[int]:
    """Return every offset of a text where one of the words starts (as spelt: fold first)."""
    found = set()
    for word in words:
        at = text.find(word)
        while at >= 0:
            found.add(at)
            at = text.find(word, at + 1)
    return found


def _matches(pattern: re.Pattern[str], text: str, starts: Iterable[int]) -> list[re.Match[str]]:
    """Return what pattern.finditer(text) finds, trying only the offsets a match can start at."""
    found: list[re.Match[str]] = []
    last = 0
    for start in sorted(starts):
        if start < last:
            continue
        match = pattern.match(text, start)
        if match is not None:
            found.append(match)
            last = match.end()
    return found


def _run_starts(text: str) -> tuple[list[int], bool]:
    """Return where each run of digits starts (a figure never starts inside one), and whether
    a run has four digits or more (YEAR.search(text) finds one).

    Masking a matched figure blanks whole runs, so the runs of the cleaned text cover every
    later masked copy of it.
    """
    starts, year = [], False
    for match in DIGIT_RUN.finditer(text):
        start = match.start()
        starts.append(start)
        if not year and match.end() - start >= 4:
            year = True
    return starts, year


def _identifier_starts(text: str, runs: list[int]) -> set[int]:
    """Return where an identifier holding a digit can start: the start of its letter-digit run."""
    starts = set()
    for start in runs:
        while start > 0 and text[start - 1] in ID_CHARS:
            start -= 1
        starts.add(start)
    return starts


def may_hold_figures(text: str) -> bool:
    """Return False only when no piece of a text can hold a figure (_scan finds none in any)."""
    if DIGIT.search(text) is not None:
        return True
    lowered = text.lower()  # lower() maps each character alone: a piece's is a piece of this
    return any(word in lowered for word in SCALE_TRIGGERS) or any(
        word in lowered for word in MULTIPLIER_TRIGGERS
    )


def extract(text: str) -> list[Figure]:
    """Return every figure stated in a text, in order of appearance."""
    return [figure for _, figure in extract_at(text)]


def extract_at(text: str) -> list[tuple[int, Figure]]:
    """Return every figure stated in a text with its offset, in order of appearance."""
    return list(_extract_at(text))


@lru_cache(maxsize=8192)
def _extract_at(text: str) -> tuple[tuple[int, Figure], ...]:
    """Extract once per text: the rules read one sentence's figures several ways.

    A long text with several sentences, lines or clauses is scanned piece by piece (see
    pieces): the same figures, and a record's sentences, lines and scale items are then the
    texts that the guide's reported sentences and the record's own index hold.
    """
    if len(text) >= CUT_LENGTH:
        for cutter, cues in ((pieces, ("\n", ". ", "! ", "? ")), (clauses, ("; ", ": "))):
            if any(cue in text for cue in cues):
                cut = cutter(text)  # sentences first: each is then a text of its own
                if len(cut) > 1:
                    return tuple(
                        (offset + at, figure)
                        for offset, piece in cut
                        for at, figure in _extract_at(piece)
                    )
    return tuple(_scan(text))


CUT_LENGTH = 60  # shorter texts are scanned whole: cutting would cost more than it shares


def _scan(text: str) -> list[tuple[int, Figure]]:
    lowered = text.lower()
    digits = DIGIT.search(text) is not None
    scale_words = any(word in lowered for word in SCALE_TRIGGERS)
    multipliers = None
    if not digits and not scale_words:
        multipliers = any(w in lowered for w in MULTIPLIER_TRIGGERS)
        if not multipliers:
            return []
    plain = _plain(text)
    text = _clean(text) if digits else text
    runs, year = _run_starts(text) if digits else ([], False)
    figures: list[tuple[int, Figure]] = []
    spans: list[tuple[int, int]] = []
    if digits:
        _dates(text, lowered if plain else None, runs, year, figures, spans)
    if spans:
        text = _mask(text, spans)
        spans = []
    if digits or scale_words:
        _quantities(text, lowered if plain else None, runs, figures, spans, digits, scale_words)
    if spans:
        text = _mask(text, spans)
        spans = []
    if multipliers is None:
        multipliers = any(w in lowered for w in MULTIPLIER_TRIGGERS)
    vague = any(w in lowered for w in VAGUE_TRIGGERS)
    for pattern, kind, present, words in (
        (MULTIPLIER, "mult", multipliers, MULTIPLIER_WORDS),
        (VAGUE_WORD, "vague", vague, VAGUE),
        (BARE_SCALE, "bare", scale_words, BARE_WORDS),
    ):
        if not present:
            continue
        found = (
            _matches(pattern, text, word_starts(lowered, words))
            if plain
            else pattern.finditer(text)
        )
        for match in found:
            word = match.group().casefold()
            if kind == "mult":
                figure = Figure(match.group(), "value", "x", _norm(Decimal(MULTIPLIER_WORDS[word])))
            elif kind == "vague":
                figure = Figure(match.group(), "vague", label=word)
            else:
                exponent = 1 if word == "dozen" else SCALES[word]
                value = Decimal(12) if word == "dozen" else Decimal(1).scaleb(exponent)
                figure = Figure(match.group(), "value", "", _norm(value))
            figures.append((match.start(), figure))
            spans.append(match.span())
        if spans:
            text = _mask(text, spans)
            spans = []
    if digits:
        for match in _matches(IDENTIFIER, text, _identifier_starts(text, runs)):
            token = match.group()
            if ORDINAL.match(token):
                continue
            figures.append((match.start(), Figure(token, "ident", label=token.casefold())))
    figures.sort(key=lambda pair: pair[0])
    return figures


def _dates(
    text: str,
    lowered: str | None,
    runs: list[int],
    year: bool,
    figures: list[tuple[int, Figure]],
    spans: list[tuple[int, int]],
) -> None:
    if not year:
        return
    for match in _matches(ISO_DATE, text, runs):
        figures.append((match.start(), Figure(match.group(), "date", label=match.group())))
        spans.append(match.span())
    if lowered is None:
        months = list(MONTH_DATE.finditer(text))
    else:
        months = _matches(MONTH_DATE, text, word_starts(lowered, MONTH_STARTS).union(runs))
    for match in months:
        if match.group("m3") and match.group("y3") and match.group().strip().isdigit():
            continue
        figure = _month_date(match)
        if figure is not None:
            figures.append((match.start(), figure))
            spans.append(match.span())


def _currency_starts(text: str, lowered: str) -> set[int]:
    return word_starts(text, CURRENCY_SIGNS) | word_starts(lowered, ("usd", "eur", "gbp"))


def _quantity_matches(
    text: str, lowered: str | None, runs: list[int], currency: set[int]
) -> list[re.Match[str]]:
    if lowered is None:
        return list(QUANTITY.finditer(text))
    starts = currency.union(runs)
    starts.update(start - 1 for start in runs if start and text[start - 1] == ".")
    return _matches(QUANTITY, text, starts)


def _word_quantity_matches(
    text: str, lowered: str | None, currency: set[int]
) -> list[re.Match[str]]:
    if lowered is None:
        return list(WORD_QUANTITY.finditer(text))
    starts = set(currency)
    # A number word, one separator, then the scale, "times" or "fold": "a billion", "two-fold".
    for after in word_starts(lowered, (*SCALES_SPELLED, "times", "fold")):
        start = after - 1
        while start > 0 and lowered[start - 1] in ASCII_LETTERS:
            start -= 1
        if lowered[start : after - 1] in WORD_NUMBERS:
            starts.add(start)
    return _matches(WORD_QUANTITY, text, starts)


def _quantities(
    text: str,
    lowered: str | None,
    runs: list[int],
    figures: list[tuple[int, Figure]],
    spans: list[tuple[int, int]],
    digits: bool,
    scale_words: bool,
) -> None:
    currency = _currency_starts(text, lowered) if lowered is not None else set()
    quantities = _quantity_matches(text, lowered, runs, currency) if digits else []
    if scale_words:
        taken = [m.span() for m in quantities]
        for match in _word_quantity_matches(text, lowered, currency):
            if not any(start < match.end() and match.start() < end for start, end in taken):
                quantities.append(match)
        quantities.sort(key=lambda m: m.start())
    units = [_unit(match) for match in quantities]
    index = 0
    while index < len(quantities):
        match = quantities[index]
        value, scaled = _value(match)
        unit = units[index]
        following = quantities[index + 1] if index + 1 < len(quantities) else None
        high_unit = units[index + 1] if following is not None else ""
        if (
            following is not None
            and (unit == high_unit or not unit or not high_unit)
            and _joins(text, match, following)
        ):
            high, high_scaled = _value(following)
            if not scaled and high_scaled:
                value = value.scaleb(_scale_exponent(following))
            joined = text[match.start() : following.end()]
            figures.append(
                (
                    match.start(),
                    Figure(joined, "range", unit or high_unit, _norm(value), _norm(high)),
                )
            )
            spans.append((match.start(), following.end()))
            index += 2
            continue
        figures.append((match.start(), Figure(match.group(), "value", unit, _norm(value))))
        spans.append(match.span())
        index += 1
