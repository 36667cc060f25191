"""Wrong edits to the figures of "What X reports", and meaning changes beyond the spec."""

from __future__ import annotations

import re

from .edits import edit_sentence, is_scale_line, prose_sentences, word_sub
from .kinds import CHANGED, DIRECTION, MAGNITUDE, NUMWORD, SWAP, UNIT, WITHIN
from .model import Registry
from .text import FIGURE, figures, replace_once, strip_end, sub_once

R = Registry()
REPORTS = "reports"


def _before_end(sentence: str, clause: str) -> str:
    return f"{strip_end(sentence)}{clause}."


def _has_figure(sentence: str) -> bool:
    return bool(figures(sentence)) and not is_scale_line(sentence)


# --- figures --------------------------------------------------------------------------------


def _figure_spots(text):
    """(sentence, match) for every figure of a prose sentence, scale line included."""
    return [
        (s, m)
        for s in [*prose_sentences(text), *[x for x in text.split(". ") if is_scale_line(x)]]
        for m in figures(s)
    ]


def _alike(a: re.Match[str], b: re.Match[str]) -> bool:
    """Two different figures of the same sort (both percentages, both multiples, or plain)."""
    return a.group(0) != b.group(0) and a.group(4) == b.group(4)


@R.add(SWAP, "between_claims", REPORTS)
def _between_claims(text, guide, rng):
    spots = [(s, m) for s, m in _figure_spots(text) if not is_scale_line(s)]
    pairs = [(a, b) for a in spots for b in spots if a[0] < b[0] and _alike(a[1], b[1])]
    if not pairs:
        return None
    (sa, ma), (sb, mb) = rng.choice(pairs)
    new_a = sa[: ma.start()] + mb.group(0) + sa[ma.end() :]
    new_b = sb[: mb.start()] + ma.group(0) + sb[mb.end() :]
    return text.replace(sa, new_a, 1).replace(sb, new_b, 1)


@R.add(SWAP, "borrowed", REPORTS)
def _borrowed(text, guide, rng):
    spots = [(s, m) for s, m in _figure_spots(text) if not is_scale_line(s)]
    pairs = [(a, b) for a in spots for b in spots if a[0] != b[0] and _alike(a[1], b[1])]
    if not pairs:
        return None
    (sa, ma), (_, mb) = rng.choice(pairs)
    return text.replace(sa, sa[: ma.start()] + mb.group(0) + sa[ma.end() :], 1)


@R.add(SWAP, "from_scale_line", REPORTS)
def _from_scale_line(text, guide, rng):
    spots = _figure_spots(text)
    scale = [(s, m) for s, m in spots if is_scale_line(s)]
    prose = [(s, m) for s, m in spots if not is_scale_line(s)]
    pairs = [
        (a, b) for a in prose for b in scale if _alike(a[1], b[1]) and a[1].group(0) not in b[0]
    ]
    if not pairs:
        return None
    (sa, ma), (_, mb) = rng.choice(pairs)
    if ma.group(0) in mb.string[: mb.start()] + mb.string[mb.end() :]:
        return None
    return text.replace(sa, sa[: ma.start()] + mb.group(0) + sa[ma.end() :], 1)


TIME_UNITS = {
    "ms": "seconds",
    "seconds": "minutes",
    "minutes": "hours",
    "hours": "days",
    "days": "weeks",
    "weeks": "months",
}
COUNT_NOUNS = {
    "shards": "replicas",
    "workers": "servers",
    "countries": "cities",
    "regions": "zones",
    "machines": "racks",
    "users": "accounts",
    "stores": "merchants",
    "listings": "stores",
    "stops": "routes",
    "events": "messages",
    "queries": "sessions",
    "requests": "sessions",
    "executions": "suites",
    "mismatches": "accounts",
    "payments": "refunds",
    "GPUs": "CPUs",
    "titles": "episodes",
    "pairs": "products",
    "terabytes": "gigabytes",
    "petabytes": "terabytes",
    "complexity": "parameters",
    "FLOPs": "tokens",
}
RATES = {
    "a day": "an hour",
    "a month": "a year",
    "per second": "per minute",
    "each hour": "each day",
    "per day": "per hour",
    "a week": "a day",
}
NUMBER = FIGURE.pattern


def _unit_after_figure(table):
    words = "|".join(re.escape(w) for w in sorted(table, key=len, reverse=True))
    pattern = re.compile(rf"({NUMBER}\s+(?:[\w-]+\s+){{0,2}}?)({words})\b")

    def change(sentence):
        return sub_once(sentence, pattern, lambda m: m.group(1) + table[m.group(m.lastindex)])

    return change


@R.add(UNIT, "time_unit", REPORTS)
def _time_unit(text, guide, rng):
    return edit_sentence(text, rng, _unit_after_figure(TIME_UNITS), scale=True)


@R.add(UNIT, "count_noun", REPORTS)
def _count_noun(text, guide, rng):
    return edit_sentence(text, rng, _unit_after_figure(COUNT_NOUNS), scale=True)


@R.add(UNIT, "rate_unit", REPORTS)
def _rate_unit(text, guide, rng):
    words = "|".join(re.escape(w) for w in RATES)
    pattern = re.compile(rf"({NUMBER}[^.;]{{0,40}}?)\b({words})\b")
    return edit_sentence(
        text,
        rng,
        lambda s: sub_once(s, pattern, lambda m: m.group(1) + RATES[m.group(m.lastindex)]),
    )


MAGNITUDE_WORDS = ["hundreds", "thousands", "millions", "billions", "trillions"]


@R.add(MAGNITUDE, "next_magnitude", REPORTS)
def _next_magnitude(text, guide, rng):
    table = dict(zip(MAGNITUDE_WORDS, MAGNITUDE_WORDS[1:], strict=False))
    alone = r"(?<!of )\b(hundreds|thousands|millions|billions)\b(?! of (?:thousands|millions))"
    return edit_sentence(
        text, rng, lambda s: sub_once(s, alone, lambda m: table[m.group(1)]), scale=True
    )


@R.add(MAGNITUDE, "borrowed_magnitude", REPORTS)
def _borrowed_magnitude(text, guide, rng):
    record = " ".join(str(v) for v in guide.record.values())
    known = [w for w in MAGNITUDE_WORDS if w in record]
    if len(known) < 2:
        return None

    def change(sentence):
        present = [w for w in known if re.search(rf"\b{w}\b", sentence)]
        if not present:
            return None
        word = rng.choice(present)
        other = rng.choice([w for w in known if w != word])
        return re.sub(rf"\b{word}\b", other, sentence, count=1)

    return edit_sentence(text, rng, change)


@R.add(MAGNITUDE, "serving_millions", REPORTS)
def _serving_millions(text, guide, rng):
    name = guide.company
    phrase = rng.choice(["which serves millions of customers", "used by billions of people"])
    return edit_sentence(
        text,
        rng,
        lambda s: f"{name}, {phrase},{s[len(name) :]}" if s.startswith(name + " ") else None,
    )


NUMBER_WORDS = {
    "two": "three",
    "three": "four",
    "four": "five",
    "five": "six",
    "nine": "ten",
    "twice": "three times",
    "doubled": "tripled",
    "tripled": "quadrupled",
    "halved": "quartered",
}


@R.add(NUMWORD, "word_bumped", REPORTS)
def _word_bumped(text, guide, rng):
    return edit_sentence(text, rng, lambda s: word_sub(s, NUMBER_WORDS, rng), scale=True)


@R.add(NUMWORD, "count_added", REPORTS)
def _count_added(text, guide, rng):
    record = " ".join(str(value) for value in guide.record.values())
    phrases = [" in three regions", " across two data centres", " for four teams"]
    phrase = rng.choice([p for p in phrases if p.split()[-1] not in record])
    return edit_sentence(text, rng, lambda s: _before_end(s, phrase), skip_first=True)


@R.add(NUMWORD, "verb_to_multiple", REPORTS)
def _verb_to_multiple(text, guide, rng):
    table = {
        "cut": "halved",
        "reduced": "halved",
        "dropped": "halved",
        "fell": "halved",
        "improved": "quadrupled",
        "increased": "quadrupled",
        "raised": "quadrupled",
    }
    return edit_sentence(text, rng, lambda s: word_sub(s, table, rng))


@R.add(NUMWORD, "doubling_clause", REPORTS, held_out=True)
def _doubling_clause(text, guide, rng):
    return edit_sentence(
        text, rng, lambda s: _before_end(s, ", doubling throughput") if _has_figure(s) else None
    )


def _bump(match: re.Match[str]) -> str:
    number = match.group(1)
    if "." in number:
        whole, frac = number.split(".")
        new = f"{whole}.{(int(frac) + 3) % 10 if len(frac) == 1 else frac}"
        new = new if new != number else f"{int(whole) + 1}.{frac}"
    else:
        digits = number.replace(",", "")
        new = f"{int(digits) + (1 if int(digits) < 20 else 10 ** (len(digits) - 2) * 3):,}"
        new = new if "," in number else new.replace(",", "")
    return new + match.group(0)[len(number) :]


@R.add(CHANGED, "number_bumped", REPORTS)
def _number_bumped(text, guide, rng):
    return edit_sentence(text, rng, lambda s: sub_once(s, FIGURE, _bump))


@R.add(CHANGED, "percent_changed", REPORTS)
def _percent_changed(text, guide, rng):
    return edit_sentence(
        text,
        rng,
        lambda s: sub_once(s, r"\b(\d+)%", lambda m: f"{int(m.group(1)) + 10}%"),
        scale=True,
    )


@R.add(CHANGED, "scale_line_changed", REPORTS)
def _scale_line_changed(text, guide, rng):
    return edit_sentence(
        text, rng, lambda s: sub_once(s, FIGURE, _bump) if is_scale_line(s) else None, scale=True
    )


# --- beyond the spec: meaning changes the rules are not asked to see -------------------------


@R.add(WITHIN, "from_to_swapped", REPORTS)
def _from_to_swapped(text, guide, rng):
    pattern = rf"from ({NUMBER}(?:\s\w+)?) to ({NUMBER}(?:\s\w+)?)"
    return edit_sentence(text, rng, lambda s: _swap_from_to(s, pattern))


def _swap_from_to(sentence, pattern):
    match = re.search(pattern, sentence)
    if not match:
        return None
    inner = match.group(0)[len("from ") :]
    left, right = inner.split(" to ", 1)
    return sentence.replace(match.group(0), f"from {right} to {left}", 1)


@R.add(DIRECTION, "hint_direction", REPORTS)
def _hint_direction(text, guide, rng):
    pairs = [p for p in guide.hints.direction if p[0] in text]
    if not pairs:
        return None
    old, new = rng.choice(pairs)
    return replace_once(text, old, new)


@R.add(DIRECTION, "verb_reversed", REPORTS)
def _verb_reversed(text, guide, rng):
    table = {
        "cut": "raised",
        "reduced": "increased",
        "dropped": "rose",
        "fell": "rose",
        "doubled": "halved",
        "tripled": "cut",
    }
    return edit_sentence(text, rng, lambda s: word_sub(s, table, rng))
