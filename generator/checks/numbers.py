"""Figures: find the numbers a text states and normalise them so equal facts compare equal."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date
from decimal import Decimal, InvalidOperation
from functools import lru_cache

SCALES = {
    "hundred": 2,
    "thousand": 3,
    "million": 6,
    "billion": 9,
    "trillion": 12,
    "k": 3,
    "m": 6,
    "mn": 6,
    "b": 9,
    "bn": 9,
    "t": 12,
}
WORD_NUMBERS = {
    "a": 1,
    "an": 1,
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "fifteen": 15,
    "twenty": 20,
    "thirty": 30,
    "fifty": 50,
    "hundred": 100,
}
MULTIPLIER_WORDS = {
    "twice": 2,
    "double": 2,
    "doubled": 2,
    "doubles": 2,
    "doubling": 2,
    "tripled": 3,
    "triples": 3,
    "tripling": 3,
    "quadrupled": 4,
    "quadruples": 4,
    "twofold": 2,
    "threefold": 3,
    "fourfold": 4,
    "fivefold": 5,
    "tenfold": 10,
    "halved": Decimal("0.5"),
    "halves": Decimal("0.5"),
    "halving": Decimal("0.5"),
}
# The magnitude each vague plural covers: "billions" is 10^9 up to (not including) 10^12.
VAGUE = {
    "dozens": (1, 2),
    "hundreds": (2, 3),
    "thousands": (3, 6),
    "millions": (6, 9),
    "billions": (9, 12),
    "trillions": (12, 15),
}
MONTHS = {
    name: index
    for index, names in enumerate(
        [
            ("january", "jan"),
            ("february", "feb"),
            ("march", "mar"),
            ("april", "apr"),
            ("may",),
            ("june", "jun"),
            ("july", "jul"),
            ("august", "aug"),
            ("september", "sep", "sept"),
            ("october", "oct"),
            ("november", "nov"),
            ("december", "dec"),
        ],
        start=1,
    )
    for name in names
}
CURRENCIES = {"$": "$", "€": "€", "£": "£", "¥": "¥", "usd": "$", "eur": "€", "gbp": "£"}

_NUM = r"(?:\d{1,3}(?:[,\u00a0\u202f\u2009]\d{3})+|\d+)(?:\.\d+)?|\.\d+"
_WORDS = "|".join(sorted(WORD_NUMBERS, key=len, reverse=True))
SCALES_SPELLED = ("hundred", "thousand", "million", "billion", "trillion")
BARE_WORDS = (*SCALES_SPELLED, "dozen")
_SCALE_WORDS = "|".join(SCALES_SPELLED)
_MONTH = "|".join(sorted(MONTHS, key=len, reverse=True))
_MULT = "|".join(sorted(MULTIPLIER_WORDS, key=len, reverse=True))

_CURRENCY = r"(?:(?P<cur>[$€£¥])\s?|(?i:(?P<curw>usd|eur|gbp))\s)?"
_UNIT = r"""(?:\s?(?P<unit>%|×|(?i:x)(?![\w])|(?i:per\s?cent|percent|percentage\s+points?)\b
        |(?i:-?fold)\b|\s(?i:times)\b))?
    (?![\w])"""
# Digits with an optional scale: "54K", "3.6 billion", "$1.2M", "20%", "2.5x".
QUANTITY = re.compile(
    rf"""(?<![\w.,]){_CURRENCY}
    (?P<num>{_NUM})
    (?:(?P<abbr>[KkMBT]|bn|mn)(?![\w])|\s?(?i:(?P<sw>{_SCALE_WORDS}))(?![\w]))?
    {_UNIT}""",
    re.VERBOSE,
)
# A number word before a scale or multiplier: "a billion", "three times", "two-fold".
WORD_QUANTITY = re.compile(
    rf"""(?<![\w.,]){_CURRENCY}
    (?i:(?P<wnum>{_WORDS}))
    (?:[\s-](?i:(?P<sw2>{_SCALE_WORDS}))(?![\w])|(?=[\s-](?i:times|fold)\b))
    {_UNIT}""",
    re.VERBOSE,
)
NUMBER_WORD = re.compile(rf"(?i)\b(?:{_WORDS})\b")
NUMBER_WORD_LOWER = re.compile(rf"\b(?:{_WORDS})\b")  # NUMBER_WORD for lower-case text
BARE_SCALE = re.compile(rf"(?<![\w-])(?i:(?P<sw>{_SCALE_WORDS}|dozen))(?![\w-])")
VAGUE_WORD = re.compile(
    r"(?<![\w-])(?i:(?P<word>dozens|hundreds|thousands|millions|billions|trillions))\b"
)
MULTIPLIER = re.compile(rf"(?<![\w-])(?i:(?P<word>{_MULT}))(?![\w-])")
ISO_DATE = re.compile(r"(?<![\w.-])(?P<y>\d{4})-(?P<m>\d{2})-(?P<d>\d{2})(?![\w-])")
MONTH_DATE = re.compile(
    rf"""(?<![\w])(?i:
        (?P<m1>{_MONTH})\.?\s+(?P<d1>\d{{1,2}})(?:st|nd|rd|th)?,?\s+(?P<y1>\d{{4}})
      | (?P<d2>\d{{1,2}})(?:st|nd|rd|th)?\s+(?P<m2>{_MONTH})\.?,?\s+(?P<y2>\d{{4}})
      | (?P<m3>{_MONTH})\.?\s+(?P<y3>\d{{4}})
    )(?![\w])""",
    re.VERBOSE,
)
RANGE_JOIN = re.compile(r"\s*(?:[-–—‒]|to|(?P<and>and))\s*\Z", re.IGNORECASE)
BETWEEN = re.compile(r"(?i:between)\s*\Z")
IDENTIFIER = re.compile(
    r"(?<![\w.-])(?=[A-Za-z0-9-]*\d)(?=[A-Za-z0-9-]*[A-Za-z])[A-Za-z0-9]+(?:-[A-Za-z0-9]+)*(?![\w])"
)
DIGIT = re.compile(r"\d")
YEAR = re.compile(r"\d{4}")
SCALE_TRIGGERS = ("hundred", "thousand", "million", "billion", "trillion", "dozen", "times", "fold")
MULTIPLIER_TRIGGERS = ("twice", "doubl", "tripl", "quadrupl", "halv", "fold")
VAGUE_TRIGGERS = tuple(VAGUE)
ORDINAL = re.compile(r"\A\d+(?:st|nd|rd|th)\Z", re.IGNORECASE)
URLISH = re.compile(r"(?:https?|ftp)://\S+|\bwww\.\S+|\]\([^)]*\)|<[^>\s]+>", re.IGNORECASE)
ORDERED_MARKER = re.compile(r"^\s*\d+[.)]\s", re.MULTILINE)
GROUPING = str.maketrans("", "", ",\u00a0\u202f\u2009")
DIGIT_RUN = re.compile(r"\d+")
WORD_RUN = re.compile(r"\w+")
# Characters that match an ASCII letter case-insensitively although lower() does not map them
# to it. While a text holds none, lower() keeps every offset and finds every place where a
# case-insensitive pattern of ASCII words can match, so the scans below try only those places.
EXOTIC = "\u0130\u0131\u017f\u212a"
ASCII_LETTERS = frozenset("abcdefghijklmnopqrstuvwxyz")
ID_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-")
CURRENCY_SIGNS = "$€£¥"
MONTH_STARTS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")


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


def _plain(text: str) -> bool:
    """Return True when lower() finds every case-insensitive match of an ASCII word in a text."""
    return not any(ch in text for ch in EXOTIC)


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


# The words a figure can end with and still go on past a space: "54 K\ntimes", "two\nmillion",
# "per\ncent", "May 5th\n2024", "20 to\n30"; a break after any other word is one no figure spans.
BRIDGE_WORDS = frozenset(
    [*WORD_NUMBERS, *SCALES, *MONTHS, "usd", "eur", "gbp", "to", "and", "between"]
    + ["x", "per", "cent", "percent", "percentage", "point", "points", "fold", "times"]
    + ["st", "nd", "rd", "th"]
)
# Spaces after a sentence mark, before a letter or digit: where a sentence may end.
MARK_SPACE = re.compile(r"[.!?](\s+)(?=[A-Za-z0-9])")
# Spaces after a semicolon or colon, before a letter or digit: where a clause may end.
CLAUSE_SPACE = re.compile(r"[;:](\s+)(?=[A-Za-z0-9])")
LIST_MARKER = re.compile(r"\d+[.)]\s")  # what ORDERED_MARKER blanks after a line start
LAST_LETTERS = re.compile(r"[A-Za-z]+\Z")
ASCII_WORD = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
ASCII_ALNUM = frozenset("0123456789").union(ASCII_WORD)


def _space_runs(text: str) -> dict[int, int]:
    """Return the runs of spaces after a sentence mark or holding a line break: start -> end."""
    runs = {match.start(1): match.end(1) for match in MARK_SPACE.finditer(text)}
    at = text.find("\n")
    while at >= 0:
        start, end = at, at + 1
        while start and text[start - 1].isspace():  # str.isspace is what \s matches
            start -= 1
        while end < len(text) and text[end].isspace():
            end += 1
        runs[start] = end
        at = text.find("\n", end)
    return runs


def _cuttable(text: str) -> bool:
    """Return False for a text that may hold a link (which _clean blanks) or an exotic letter."""
    return not ("://" in text or "www." in text or "](" in text or "<" in text) and _plain(text)


def pieces(text: str) -> list[tuple[int, str]]:
    """Cut a text where no figure spans the cut; return each piece with its offset.

    _scan finds in each piece, shifted by its offset, exactly the figures it finds in the
    whole text. A cut is a run of spaces before a letter or digit: one holding a line break
    after a word no figure ends with (BRIDGE_WORDS), that word maybe ending a sentence, or after
    a closing parenthesis that follows no digit; or one within a line, after a sentence mark
    that follows no digit, before a letter. A figure goes
    on past a space only after such a word, a digit or a sign, and a list marker starts only
    at a line start. A text that may hold a link (which _clean blanks, so that a piece could
    start with blanks and a list marker) or an exotic letter is not cut.
    """
    if not _cuttable(text):
        return [(0, text)]
    found, last = [], 0
    runs = _space_runs(text)
    for start in sorted(runs):
        end = runs[start]
        if not start or end >= len(text) or text[end] not in ASCII_ALNUM:
            continue
        if text[start - 1] == ")" and "\n" in text[start:end]:
            if start > 1 and not text[start - 2].isdigit():  # "3)" may be a list marker
                found.append((last, text[last:start]))
                last = end
            continue  # no figure holds a parenthesis, nor goes on past one
        mark = text[start - 1] in ".!?"
        if not mark and text[start - 1] not in ASCII_WORD:
            continue  # a line break after a digit, a sign or a space: a figure may go on
        if "\n" in text[start:end]:
            stop = start - 1 if mark else start
            word = LAST_LETTERS.search(text, max(last, stop - 24), stop)
            if word is None or word.start() == stop - 24 or word.group().lower() in BRIDGE_WORDS:
                continue
        elif not mark or not text[end].isalpha() or start < 2 or text[start - 2].isdigit():
            continue  # within a line: only sentences, and never before a digit
        found.append((last, text[last:start]))
        last = end
    found.append((last, text[last:]))
    return found


def clauses(text: str) -> list[tuple[int, str]]:
    """Cut a text after its semicolons and colons; return each clause with its offset.

    As pieces() does, and so that a list of the record's scale items ("Scale stated in the
    source: a; b; c.") yields the items' own texts: the mark and the spaces after it are left
    out, and so is a closing sentence mark after a word once the text is cut. No figure holds
    or goes on past such a mark; a clause must not start with a list marker, which _clean
    blanks only at a line start.
    """
    if not _cuttable(text):
        return [(0, text)]
    found, last = [], 0
    for cut in CLAUSE_SPACE.finditer(text):
        if LIST_MARKER.match(text, cut.end()) is None:
            found.append((last, text[last : cut.start()]))
            last = cut.end()
    if found and len(text) - last > 1 and text[-1] in ".!?" and text[-2] in ASCII_WORD:
        found.append((last, text[last:-1]))
    else:
        found.append((last, text[last:]))
    return found


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
