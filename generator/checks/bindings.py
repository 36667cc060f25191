"""Which words a figure belongs to, and the hedges it carries: a claim may not move a figure
to another metric of its evidence ("hot reads" for "cold reads"), drop the approximation the
evidence gives it ("500 ms" for "about 500 ms") or state an estimate as a measurement.

Pure functions from a claim and its evidence sentence to (rule, words, message) triples.
"""

from __future__ import annotations

import re
from decimal import Decimal
from functools import lru_cache

from generator.checks.claims import (
    MAX_NUMBERS,
    MAX_RECORD_NUMBERS,
    Quantity,
    derived,
    match,
    quantities,
    rounds_to,
    too_many_numbers,
)
from generator.checks.quoting import normalize
from generator.checks.text import STOP, RecordIndex, align, content, stems

METRIC = "figures.unit"
HEDGE = "grounding.polarity"
QUOTED = "figures.claim"

# Where one figure's clause ends and the next one's begins.
CLAUSE_BREAK = re.compile(
    r"[;:]|,\s+|\s+(?:while|whereas|but|and|against|versus|vs\.?|compared\s+(?:with|to))\s+"
)
# Words that say a figure is estimated, targeted or projected, not measured.
ESTIMATE = re.compile(
    r"(?i)\b(?:estimat\w*|expect\w*|project(?:s|ed|ions?)|forecast\w*|target\w*|aim\w*"
    r"|goal|plan(?:s|ned)?|hope[sd]?|could|would|should|might|may|potential(?:ly)?"
    r"|predict\w*|anticipat\w*|on\s+track)\b"
)
# Words a claim states exactness with.
EXACT = re.compile(r"(?i)\b(?:exactly|precisely|just|only|a\s+full|fully)\s+(?=\S*\d)")
# Stems that name no metric: the figure's own words and verbs of change.
NOT_METRIC = frozenset(
    stems("fell rose dropped grew cut reduced increased decreased stayed remained reached held")
    + stems("from to by about over under around nearly roughly lift gain rise drop fall ms s")
    + stems("percent seconds milliseconds minutes hours days x times per a an of in on at")
)


@lru_cache(maxsize=64)
def _countable(texts: tuple[str, ...]) -> bool:
    """Return True when a record holds few enough numbers to compare figure by figure."""
    return not too_many_numbers("\n".join(texts), MAX_RECORD_NUMBERS)


def _key(q: Quantity) -> tuple[Decimal | None, Decimal | None, str]:
    return q.figure.lo, q.figure.hi, q.figure.unit


def _clauses(text: str) -> list[tuple[set[tuple], set[str], list[Quantity]]]:
    """Split a sentence into clauses that hold figures, each with its figures and words; a
    clause without a figure joins the next one that has one (its subject comes first)."""
    out: list[tuple[set[tuple], set[str], list[Quantity]]] = []
    pending: set[str] = set()
    for piece in CLAUSE_BREAK.split(text):
        if not piece or not piece.strip():
            continue
        found = [q for q in quantities(piece, number_words=False) if q.figure.kind == "value"]
        said = {s for s in stems(piece) if s not in STOP and s not in NOT_METRIC}
        said = {s for s in said if not any(ch.isdigit() for ch in s)}
        if not found:
            pending |= said
            continue
        out.append(({_key(q) for q in found}, said | pending, found))
        pending = set()
    if pending and out:
        out[-1][1].update(pending)
    return out


def _moved(claim: str, evidence: str) -> list[str]:
    """Return the claim's figures that stand with words the evidence gives another figure,
    while the evidence's own words for them stand with that other figure in the claim."""
    ours, theirs = _clauses(claim), _clauses(evidence)
    if len(ours) < 2 or len(theirs) < 2:
        return []
    out = []
    for figures, said, found in ours:
        home = [c for c in theirs if figures & c[0]]
        if len(home) != 1:
            continue
        own = home[0][1]
        elsewhere = set().union(*(c[1] for c in theirs if c is not home[0]))
        stray = (said - own) & elsewhere
        lost = own - said - elsewhere
        rest = set().union(*(c[1] for c in ours if c[1] is not said))
        if stray and lost & rest:
            out.append(found[0].figure.text)
    return out


# What joins the two ends of a range: "from about 3x to 1.5x" hedges both.
RANGE_JOIN = re.compile(r"(?i)\A\s*[\w-]{0,12}\s*(?:to|towards?|and|or|[-–—])\s*\Z")


def _hedged(claim: str, found: list[Quantity], at: int) -> bool:
    """Return True when a claim hedges a figure, itself or as the far end of a hedged range."""
    q = found[at]
    if q.approx:
        return True
    if not at:
        return False
    before = found[at - 1]
    between = claim[before.start + len(before.figure.text) : q.start]
    return bool(before.approx) and RANGE_JOIN.match(between) is not None


def _approximate(q: Quantity, evidence: tuple[Quantity, ...]) -> Quantity | None:
    """Return the evidence's figure of the same value when the evidence hedges it."""
    for e in evidence:
        if _key(e) == _key(q) and e.approx:
            return e
    return None


@lru_cache(maxsize=16384)
def moved_figures(claim: str, texts: tuple[str, ...]) -> tuple[tuple[str, str, str], ...]:
    """Return (rule, words, message) for each figure a claim moves to another metric of one
    record sentence."""
    out: list[tuple[str, str, str]] = []
    if too_many_numbers(claim) or not _countable(texts) or len(_clauses(claim)) < 2:
        return ()
    for text in texts:
        for figure in _moved(claim, text):
            if all(figure != said for _, said, _ in out):
                message = f"{figure!r} stands with a metric that its evidence gives another figure"
                out.append((METRIC, figure, message))
    return tuple(out)


@lru_cache(maxsize=16384)
def hedge_shifts(claim: str, evidence: str) -> tuple[tuple[str, str, str], ...]:
    """Return (rule, words, message) for each figure a claim makes exact or measured that its
    evidence gives as approximate or estimated."""
    out = []
    if too_many_numbers(claim) or too_many_numbers(evidence, MAX_RECORD_NUMBERS):
        return ()
    claim_q = [q for q in quantities(claim, number_words=False) if q.figure.kind == "value"]
    evidence_q = quantities(evidence, number_words=False)
    for at, q in enumerate(claim_q):
        hedged = _approximate(q, evidence_q)
        if hedged is not None and not _hedged(claim, claim_q, at):
            said = f"{hedged.approx} {hedged.figure.text}"
            out.append((HEDGE, q.figure.text, f"{q.figure.text!r} drops the evidence's {said!r}"))
    for q in quantities(claim, number_words=False):
        if q.figure.kind != "range" or q.approx:
            continue  # "from 400 to 90" for "from about 400 to about 90": each end is hedged
        ends = {(q.figure.lo, None, q.figure.unit), (q.figure.hi, None, q.figure.unit)}
        hedged = [e for e in evidence_q if e.approx and _key(e) in ends]
        if hedged:
            said = f"{hedged[0].approx} {hedged[0].figure.text}"
            out.append((HEDGE, q.figure.text, f"{q.figure.text!r} drops the evidence's {said!r}"))
    for hit in EXACT.finditer(claim):
        said = hit.group().strip()
        if said.casefold() not in evidence.casefold() and any(
            _approximate(q, evidence_q) for q in claim_q
        ):
            message = f"{said!r} makes exact a figure its evidence gives as approximate"
            out.append((HEDGE, said, message))
    estimated = [m.group() for m in ESTIMATE.finditer(evidence)]
    if estimated and not ESTIMATE.search(claim):
        shared = [q for q in claim_q if any(_key(q) == _key(e) for e in evidence_q)]
        if shared and _governs(evidence, estimated, shared, evidence_q):
            text = shared[0].figure.text
            out.append(
                (HEDGE, text, f"{text!r} is stated as measured; its evidence says {estimated[0]!r}")
            )
    return tuple(out)


# "a microsecond" is a figure of one: its unit is what a claim may not change.
ONE_UNIT = re.compile(
    r"(?i)\b(?:a|an|one|single)\s+(nanosecond|microsecond|millisecond|second|minute|hour|day"
    r"|week|month|year|kilobyte|megabyte|gigabyte|terabyte|byte)s?\b"
)


def one_unit_shift(claim: str, evidence: str) -> tuple[tuple[str, str, str], ...]:
    """Return a finding when a claim's "a <unit>" stands where its evidence says "a <another>"."""
    said = {m.group(1).casefold(): m.group() for m in ONE_UNIT.finditer(claim)}
    given = {m.group(1).casefold(): m.group() for m in ONE_UNIT.finditer(evidence)}
    if not said or not given or said.keys() & given.keys():
        return ()
    words = next(iter(said.values()))
    message = f"{words!r} is not the evidence's {next(iter(given.values()))!r}"
    return ((METRIC, words, message),)


def _governs(
    evidence: str, estimated: list[str], shared: list[Quantity], evidence_q: tuple[Quantity, ...]
) -> bool:
    """Return True when an estimate word of the evidence stands in the clause of one of the
    claim's figures (within a few words before it)."""
    for q in shared:
        for e in evidence_q:
            if _key(e) != _key(q):
                continue
            before = evidence[max(0, e.start - 80) : e.start]
            clause = CLAUSE_BREAK.split(before)[-1] if before else ""
            around = clause + re.split(r",\s", evidence[e.start : e.start + 60])[0]
            if ESTIMATE.search(clause) or ESTIMATE.search(around[len(clause) :]):
                return True
    return False


def unquoted_figures(claim: str, quotes: tuple[str, ...]) -> tuple[tuple[str, str, str], ...]:
    """Return (rule, words, message) for each figure of a reported statement that the quote
    drafted for it lacks, rounded or spelled out: a statement states no figure its quote
    does not."""
    text = " … ".join(quotes)
    if not quotes or too_many_numbers(claim) or too_many_numbers(text, MAX_RECORD_NUMBERS):
        return ()
    quoted = quantities(text)
    said = frozenset(stems(text))
    out = []
    for q in quantities(claim, number_words=False):
        if q.figure.kind != "value" or match(q, quoted, said) != "value" or derived(q, quoted):
            continue
        out.append((QUOTED, q.figure.text, f"{q.figure.text!r} is not in the quote drafted for it"))
    return tuple(out)


# A drafted quote supports its statement when its record sentence aligns with the statement
# at least this well against the best-aligned record sentence.
QUOTE_FIT = 0.4


def off_quote(claim: str, quotes: tuple[str, ...], index: RecordIndex) -> tuple[str, ...]:
    """Return the quotes drafted for a statement when none of their record sentences is about
    what the statement says (another record sentence aligns far better)."""
    if not quotes:
        return ()
    ranked = align(content(stems(claim)), index, limit=len(index.units))
    if not ranked:
        return ()
    keys = [normalize(q).strip(" .") for q in quotes]
    if any(k and k in normalize(title) for k in keys for title in index.titles):
        return ()  # a title names the whole write-up, which a statement about it rests on
    fit = max((s for s, unit in ranked if any(k and k in unit.norm for k in keys)), default=0.0)
    return quotes if fit < QUOTE_FIT * ranked[0][0] else ()


@lru_cache(maxsize=16384)
def record_hedges(sentence: str, texts: tuple[str, ...]) -> tuple[tuple[str, str, str], ...]:
    """Return hedge_shifts of a sentence of ours against each record sentence that states one
    of its figures: a figure of the record keeps the record's approximation and estimate."""
    if too_many_numbers(sentence, MAX_NUMBERS) or not _countable(texts):
        return ()
    mine = {_key(q) for q in quantities(sentence, number_words=False) if q.figure.kind == "value"}
    if not mine:
        return ()
    out: list[tuple[str, str, str]] = []
    for text in texts:
        if mine & {_key(q) for q in quantities(text, number_words=False)}:
            out += [p for p in hedge_shifts(sentence, text) if p not in out]
    return tuple(out)


ROUND_METRIC_WORDS = 2  # content words a figure's clause shares with the record figure's


def _as_percent(q: Quantity) -> tuple[Decimal, ...]:
    """Return the percentages a figure may stand for: itself, or a multiple's change or level
    ("halves" is a 50% cut)."""
    f = q.figure
    if f.lo is None:
        return ()
    if f.unit == "%":
        return (f.lo,)
    if f.unit == "x" and 0 < f.lo < 1:
        return ((1 - f.lo) * 100, f.lo * 100)
    if f.unit == "x" and f.lo > 1:
        return ((f.lo - 1) * 100,)
    return ()


def _clause_words(text: str, at: int) -> set[str]:
    """Return the metric stems of the clause of a text that holds a position."""
    start = 0
    for piece in CLAUSE_BREAK.split(text):
        start = text.find(piece, start)
        if start <= at < start + len(piece):
            return {s for s in stems(piece) if s not in STOP and s not in NOT_METRIC}
        start += len(piece)
    return set()


@lru_cache(maxsize=16384)
def rounded_hedges(sentence: str, texts: tuple[str, ...]) -> tuple[tuple[str, str, str], ...]:
    """Return a finding for each unhedged figure of ours that rounds a figure the record
    hedges, said of the same metric ("halves median size" for "fell by about 48%")."""
    if too_many_numbers(sentence, MAX_NUMBERS) or not _countable(texts):
        return ()
    out = []
    for q in quantities(sentence, number_words=False):
        if q.figure.kind != "value":
            continue
        if q.approx or q.figure.unit not in ("%", "x"):
            continue
        ours = _as_percent(q)
        said = _clause_words(sentence, q.start)
        for text in texts:
            for e in quantities(text, number_words=False):
                if not e.approx or e.figure.unit != "%" or e.figure.lo is None:
                    continue
                if _key(e) == _key(q):
                    continue  # the same figure: hedge_shifts judges it
                close = any(v != e.figure.lo and rounds_to(v, e.figure.lo, "about") for v in ours)
                if close and len(said & _clause_words(text, e.start)) >= ROUND_METRIC_WORDS:
                    given = f"{e.approx} {e.figure.text}"
                    message = f"{q.figure.text!r} rounds the record's {given!r} without a hedge"
                    out.append((HEDGE, q.figure.text, message))
                    break
    return tuple(out)
