"""Figures inside claims: each with its unit noun, compared with an evidence sentence's figures."""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterator
from dataclasses import dataclass
from decimal import Decimal
from functools import lru_cache

from generator.checks.figurewords import VAGUE, WORD_NUMBERS
from generator.checks.numbers import Figure, extract_at, may_hold_figures
from generator.checks.text import STOP, WORD, parts, stem

# Counting words a claim may use as figures: figures.WORD_NUMBERS from two to fifty.
COUNTING_WORDS = {word: value for word, value in WORD_NUMBERS.items() if 2 <= value <= 50}
NUMBER_WORDS = {**COUNTING_WORDS, "dozen": 12}
NUMBER_WORD = re.compile(rf"(?<![\w-])(?i:{'|'.join(COUNTING_WORDS)})(?![\w-])")
# NUMBER_WORD for lower-case ASCII text, without the look-behind that makes a scan try every
# offset; number_word_spans drops the matches it would have refused.
NUMBER_WORD_LOWER = re.compile(rf"(?:{'|'.join(COUNTING_WORDS)})(?![\w-])")
WORD_OR_HYPHEN = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-")
# Words before a figure that make it a rounding of the record's value, and which way.
BELOW = ("nearly", "almost", "up to", "under", "less than", "fewer than", "below", "just under")
ABOVE = ("over", "more than", "above", "upwards of", "at least", "well over", "just over")
ABOVE += ("in excess of", "exceeding")
# Nouns that name the change itself, not what was counted ("a 100% improvement").
GENERIC_NOUNS = frozenset(
    stem(w)
    for w in [
        "improvement",
        "increase",
        "gain",
        "reduction",
        "decrease",
        "cut",
        "drop",
        "rise",
        "growth",
        "boost",
        "speedup",
        "speed-up",
        "jump",
        "fall",
        "decline",
        "more",
        "fewer",
        "less",
        "faster",
        "slower",
        "higher",
        "lower",
        "larger",
        "smaller",
        "bigger",
        "better",
        "times",
        "fold",
        "percent",
        "percentage",
        "point",
        "points",
        "increment",
        "uplift",
        "saving",
        "savings",
        "improvements",
        "increases",
        "reductions",
    ]
)
SKIP = frozenset(
    ["more", "fewer", "less", "the", "a", "an", "of", "additional", "extra", "total", "overall"]
)
# Words that end a noun run: what follows them is a new phrase, not the counted noun.
RUN_END = frozenset(
    ["every", "each", "all", "any", "some", "no", "per", "while", "when", "instead", "than", "less"]
    + ["more", "fewer", "ago", "earlier", "later", "faster", "slower", "longer", "shorter"]
    + ["rather", "versus", "vs", "today", "now", "overnight", "automatically"]
    # a reflexive or emphatic pronoun closes a noun phrase: "the cache key itself"
    + ["itself", "themselves", "himself", "herself", "ourselves", "yourself", "yourselves"]
)
# Words a subject may be called by in place of the company's name ("the company tripled").
COMPANY_WORDS = frozenset(
    stem(w)
    for w in ["company", "firm", "team", "organisation", "organization", "engineers", "it", "they"]
)


@dataclass(frozen=True, slots=True)
class Quantity:
    """A figure of a sentence with the noun it counts and the rounding word before it."""

    figure: Figure
    noun: str
    approx: str
    start: int
    run: tuple[str, ...] = ()
    before: bool = False
    rate: str = ""


def _noun(text: str, end: int) -> str:
    """Return the stem of the head noun a figure quantifies: the last word of the run after it."""
    run = noun_run(text, end)
    return run[-1] if run else ""


def noun_run(text: str, end: int) -> tuple[str, ...]:
    """Return the stems of the words after a figure, up to a stop word or punctuation."""
    run: list[str] = []
    previous = end
    for match in WORD.finditer(text, end, min(len(text), end + 80)):
        if any(ch in text[previous : match.start()] for ch in ",;:()."):
            break
        token = match.group()
        lowered = token.casefold()
        if not run and lowered in SKIP:
            previous = match.end()
            continue
        if lowered in STOP or lowered in RUN_END or any(ch.isdigit() for ch in token):
            break
        if run and (lowered.endswith("ly") or (lowered.endswith("ed") and len(lowered) > 5)):
            break  # "the time needed": a participle after the noun is not its head
        if not lowered.endswith("ly"):
            run.append(token)
        previous = match.end()
        if len(run) == 4 or plural(token):
            break  # a plural ends its noun phrase: "transactions reconcile", "days cut"
    return tuple(stem(token) for token in run)


def run_words(text: str, end: int, run: tuple[str, ...]) -> list[str]:
    """Return the words after a position through the last of a noun run ("a class")."""
    after = WORD.findall(text, end, min(len(text), end + 80))
    if run:
        for at, token in enumerate(after):
            if stem(token) == run[-1]:
                return after[: at + 1]
    return after[: len(run)]


def plural(token: str) -> bool:
    """Return True for a plural noun form ("transactions", "GPUs"), not "class" or "bus"."""
    if len(token) > 2 and token[-1] == "s" and token[-2].isupper():
        return True
    lowered = token.casefold()
    return (
        token.islower()
        and len(lowered) > 3
        and lowered.endswith("s")
        and not lowered.endswith(("ss", "us", "is", "ics", "ous"))
    )


def noun_after(text: str, q: Quantity) -> str:
    """Return the stem of the noun a sentence's figure counts."""
    return _noun(text, q.start + len(q.figure.text))


def _subject(text: str, start: int) -> str:
    """Return the stem of the content word just before a figure, or ""."""
    before = WORD.findall(text[max(0, start - 60) : start])
    for token in reversed(before[-3:]):
        lowered = token.casefold()
        if lowered not in STOP and lowered not in RUN_END and not lowered.endswith("ly"):
            return stem(token)
    return ""


APPROX_ONE = frozenset(
    [
        "about",
        "around",
        "roughly",
        "approximately",
        "some",
        "nearly",
        "almost",
        "under",
        "below",
        "over",
        "above",
        "exceeding",
    ]
)
APPROX_TWO = frozenset(
    ["close to", "up to", "less than", "fewer than", "just under", "more than", "upwards of"]
    + ["at least", "well over", "just over"]
)


def _approx(text: str, start: int) -> str:
    """Return the rounding words just before a figure ("more than", "about"), or ""."""
    before = text[max(0, start - 24) : start].casefold().split()
    if len(before) >= 3 and " ".join(before[-3:]) == "in excess of":
        return "in excess of"
    if len(before) >= 2 and " ".join(before[-2:]) in APPROX_TWO:
        return " ".join(before[-2:])
    return before[-1] if before and before[-1] in APPROX_ONE else ""


# The time a rate is counted in: "1.8 million runs a day", "3.2 million events per second".
RATE = re.compile(
    r"[^,;:.()\d]{0,60}?\b(?:per|a|an|each|every)\s+(second|minute|hour|day|week|month|year)s?\b",
    re.IGNORECASE,
)


def _rate(text: str, end: int) -> str:
    """Return the time unit of a rate right after a figure ("a day" → "day"), or ""."""
    hit = RATE.match(text, end)
    return hit.group(1).casefold() if hit else ""


@lru_cache(maxsize=8192)
def quantities(text: str, number_words: bool = True, nouns: bool = True) -> tuple[Quantity, ...]:
    """Return the figures of a sentence (and its number words) with unit noun and rounding."""
    found = []
    for start, figure in extract_at(text):
        end = start + len(figure.text)
        run = noun_run(text, end) if nouns else ()
        noun, before = (run[-1] if run else ""), False
        if nouns and not noun and figure.text.isalpha():
            noun, before = _subject(text, start), True  # "training efficiency quadrupled"
        rate = _rate(text, end) if nouns else ""
        found.append(Quantity(figure, noun, _approx(text, start), start, run, before, rate))
    if number_words:
        starts = [q.start for q in found]
        ends = [q.start + len(q.figure.text) for q in found]
        for start, end in number_word_spans(text):
            at = bisect_right(starts, start) - 1
            if at >= 0 and start < ends[at]:
                continue
            word = text[start:end]
            figure = Figure(word, "value", "", Decimal(NUMBER_WORDS[word.casefold()]))
            noun = _noun(text, end) if nouns else ""
            found.append(Quantity(figure, noun, "", start))
    return tuple(found)


def number_word_spans(text: str) -> Iterator[tuple[int, int]]:
    """Yield the spans NUMBER_WORD.finditer(text) finds.

    In ASCII text, lower() keeps every offset and the pattern matches case aside; a match
    after a letter, digit or hyphen is one the look-behind refuses. It covers only letters, so
    no match the look-behind allows starts inside it.
    """
    if not text.isascii():
        yield from (match.span() for match in NUMBER_WORD.finditer(text))
        return
    for match in NUMBER_WORD_LOWER.finditer(text.lower()):
        start = match.start()
        if not start or text[start - 1] not in WORD_OR_HYPHEN:
            yield start, match.end()


def may_hold_quantities(text: str) -> bool:
    """Return False only when quantities() is empty for every sentence of a text.

    A sentence is a stripped piece between breaks, and a break ends in a space or a newline,
    so a number word standing alone in a sentence stands alone in the text too.
    """
    return may_hold_figures(text) or next(number_word_spans(text), None) is not None


NUMBER_RUN = re.compile(r"\d+")
# More separate numbers than this in one section is not prose; the figure rules refuse it
# outright instead of matching each one.
MAX_NUMBERS = 400
MAX_RECORD_NUMBERS = 2000


def too_many_numbers(text: str, limit: int = MAX_NUMBERS) -> int:
    """Return how many numbers a text holds when that is more than the limit, else 0."""
    if len(text) < limit * 2:
        return 0
    count = sum(1 for _ in NUMBER_RUN.finditer(text))
    return count if count > limit else 0


def _step(value: Decimal) -> Decimal:
    """Return one unit of a figure's last significant digit (3 billion → 1 billion)."""
    exponent = value.normalize().as_tuple().exponent
    return Decimal(1).scaleb(int(exponent)) if isinstance(exponent, int) else Decimal(1)


def rounds_to(claimed: Decimal, stated: Decimal, approx: str) -> bool:
    """Return True when a claimed figure is the stated one, or a consistent rounding of it."""
    if claimed == stated:
        return True
    if not approx:
        return False
    step = _step(claimed)
    if approx in ABOVE:  # a lower bound within a quarter of the value: "over 1.5M" for 1.8M
        return claimed <= stated < claimed + max(step, claimed / 4)
    if approx in BELOW:  # an upper bound close above the value: "nearly 95%" for 92%
        return claimed - step < stated <= claimed or claimed * Decimal(0.95) <= stated < claimed
    return abs(stated - claimed) * 2 <= step


def _equivalent(claim: Figure, stated: Figure) -> bool:
    """Return True for exact arithmetic restatements: "doubled" is "a 100% increase"."""
    pairs = ((claim, stated), (stated, claim))
    for percent, multiple in pairs:
        if percent.unit == "%" and multiple.unit == "x" and percent.lo is not None:
            m, p = multiple.lo, percent.lo
            if m is None:
                continue
            if p == (m - 1) * 100 or (m < 1 and p == (1 - m) * 100):
                return True
            if m > 1 and p == ((1 - 1 / m) * 100).quantize(Decimal("0.01")).normalize():
                return True
    return False


def _direction(approx: str) -> int:
    """Return 1 for a lower bound ("over"), -1 for an upper bound ("up to"), else 0."""
    return 1 if approx in ABOVE else -1 if approx in BELOW else 0


def same_figure(claim: Quantity, stated: Quantity) -> bool:
    """Return True when an evidence figure states the claimed one (value, rounding, unit)."""
    c, s = claim.figure, stated.figure
    if c.kind == "ident":
        return s.kind == "ident" and s.label == c.label
    if c.kind == "vague":
        if s.kind == "vague":
            return c.label == s.label
        low, high = VAGUE[c.label]
        return s.lo is not None and s.lo > 0 and low <= s.lo.adjusted() < high
    if c.kind in ("date", "month"):
        return s.kind in ("date", "month") and s.label.startswith(c.label)
    if c.kind == "range":
        return s.kind == "range" and (c.unit, c.lo, c.hi) == (s.unit, s.lo, s.hi)
    if c.kind != "value" or c.lo is None:
        return False
    values = [s.lo] if s.kind == "value" else [s.lo, s.hi] if s.kind == "range" else []
    if _direction(claim.approx) * _direction(stated.approx) < 0:
        return False  # "at least three" for "up to three"
    for value in values:
        if value is None:
            continue
        if (c.unit == s.unit or not c.unit) and rounds_to(c.lo, value, claim.approx):
            return True
    return s.kind == "value" and _equivalent(c, s)


def noun_fits(claim: Quantity, stated: Quantity, evidence_stems: frozenset[str]) -> bool:
    """Return True when the claim counts the same thing as the evidence figure."""
    if claim.rate and stated.rate and claim.rate != stated.rate:
        return False  # "a million runs an hour" for "a million runs a day"
    if not claim.noun or claim.noun in GENERIC_NOUNS or claim.noun == stated.noun:
        return True
    if claim.figure.kind == "vague" and claim.noun in evidence_stems and not stated.noun:
        return True  # "thousands of GPUs" for "a cluster of 54,000 GPUs"
    if claim.before and claim.noun in stated.run:
        return True  # "training twice as efficient" for "doubled training efficiency"
    if claim.before and claim.noun in COMPANY_WORDS and stated.before:
        return True  # "the company tripled" for "Quillon tripled"
    if claim.noun in stated.run[:-1] and not claim.before:
        return False  # "54K GPUs" for "54K GPU hours": a modifier is not the counted noun
    if claim.noun in _run_parts(stated.run):
        return True  # "end to end training" for "end-to-end training"
    if stated.before and claim.noun in evidence_stems:
        return True  # "100% more accounts" for "flagged twice as many accounts"
    return not stated.noun and claim.noun in evidence_stems


def _run_parts(run: tuple[str, ...]) -> frozenset[str]:
    """Return the stems of a noun run's words and of their hyphen parts."""
    return frozenset(p for word in run for p in (word, *(stem(x) for x in parts(word))))


def match(
    claim: Quantity, evidence: tuple[Quantity, ...], evidence_stems: frozenset[str]
) -> str | None:
    """Return None when the evidence states the figure, "unit" or "value" for how it differs."""
    valued = [q for q in evidence if same_figure(claim, q)]
    if not valued and claim.figure.kind == "range":
        valued = _range_ends(claim, evidence)
    if not valued:
        return "value"
    if any(noun_fits(claim, q, evidence_stems) for q in valued):
        return None
    return "unit"


def _range_ends(claim: Quantity, evidence: tuple[Quantity, ...]) -> list[Quantity]:
    """Return the evidence figure that ends a claimed range ("41 to 12 minutes") when the
    evidence states both ends as figures of their own ("from 41 minutes to 12 minutes")."""
    f = claim.figure
    ends = {}
    for q in evidence:
        s = q.figure
        if s.kind == "value" and s.lo is not None and (s.unit == f.unit or not f.unit):
            for side, value in (("lo", f.lo), ("hi", f.hi)):
                if value is not None and rounds_to(value, s.lo, claim.approx):
                    ends.setdefault(side, q)
    return [ends["hi"]] if len(ends) == 2 else []


# Seconds per time unit, for restatements such as "two weeks" for "14 days".
SECONDS = {
    stem("second"): 1,
    stem("minute"): 60,
    stem("hour"): 3600,
    stem("day"): 86400,
    stem("week"): 604800,
}


def _values(q: Quantity) -> list[Decimal]:
    f = q.figure
    if f.kind not in ("value", "range") or f.lo is None:
        return []
    return [v for v in (f.lo, f.hi) if v is not None]


POINT = stem("point")


def counted_in_points(q: Quantity) -> bool:
    """Return True for a figure with no unit that counts points ("ten points", "a 10-point
    gain"): a difference of two percentages."""
    return not q.figure.unit and (q.noun == POINT or q.run[:1] == (POINT,))


def derived(claim: Quantity, evidence: tuple[Quantity, ...]) -> bool:
    """Return True when a figure is exact arithmetic on one sentence's figures.

    Covers the rest of a percentage ("the remaining 3%" for 97%), the difference of two
    percentages in points, and time in another unit or as a difference ("660 seconds" for
    11 minutes, "612 seconds less" for 48 seconds against 11 minutes).
    """
    values = _values(claim)
    if claim.figure.kind != "value" or not values or claim.approx:
        return False
    value = values[0]
    if counted_in_points(claim):  # "ten points of hit ratio" for "from 87% to 97%"
        percents = [v for q in evidence if q.figure.unit == "%" for v in _values(q)]
        return any(value == abs(a - b) for a in percents for b in percents if a != b)
    if claim.figure.unit == "%":
        percents = [v for q in evidence if q.figure.unit == "%" for v in _values(q)]
        if any(value == 100 - p for p in percents):
            return True
        if "point" not in claim.figure.text.casefold():
            return False  # the difference of two percentages is in points ("10 points")
        return any(value == abs(a - b) for a in percents for b in percents if a != b)
    scale = SECONDS.get(claim.noun)
    if claim.figure.unit or scale is None:
        return False
    times = [
        v * SECONDS[q.noun]
        for q in evidence
        if not q.figure.unit and q.noun in SECONDS
        for v in _values(q)
    ]
    seconds = value * scale
    return any(seconds == t for t in times) or any(
        seconds == abs(a - b) for a in times for b in times if a != b
    )


# A record sentence's list of what was done: "… by normalising URLs, removing parameters and
# extending lifetimes".
RECORD_LIST = re.compile(r"(?i)(?:\bby|\bthrough|\bvia|:)\s+(.+)$")
ITEM_BREAK = re.compile(r"\s*(?:,\s*(?:and|or)\s+|,\s*|;\s*|\s+(?:and|or)\s+)")
# Nouns that group a list's items: "one of the three changes behind …".
GROUPING = frozenset(
    stem(w)
    for w in ["changes", "steps", "parts", "measures", "techniques", "ways", "things", "fixes"]
    + ["levers", "stages", "moves", "practices", "methods", "components", "pieces", "factors"]
    + ["causes", "reasons", "ideas", "tactics", "actions", "improvements", "decisions"]
)
SHARED_ITEM_WORDS = 2


def lists_count(sentence: str, q: Quantity, text: str) -> bool:
    """Return True when a number word counts the items a record text lists, one of which the
    sentence restates ("one of the three changes" for "by A, B and C")."""
    value = NUMBER_WORDS.get(q.figure.text.casefold())
    if value is None or noun_after(sentence, q) not in GROUPING:
        return False
    listed = RECORD_LIST.search(text.rstrip(". "))
    if listed is None:
        return False
    items = [part for part in ITEM_BREAK.split(listed.group(1)) if part.strip()]
    said = {stem(t) for t in WORD.findall(sentence) if t.casefold() not in STOP}
    return len(items) == value and any(
        len(said & {stem(t) for t in WORD.findall(item) if t.casefold() not in STOP})
        >= SHARED_ITEM_WORDS
        for item in items
    )
