"""What a claim may not change from its evidence: direction and order, time, release and
availability, evaluation and sentiment. Pure functions from a claim and its evidence text to
(rule, words, message) triples; grounding and ourclaims turn them into findings."""

from __future__ import annotations

import re
from functools import lru_cache

from generator.checks.quoting import normalize
from generator.checks.text import STOP, stem, stems, words

DIRECTION = "grounding.direction"
TIME = "grounding.time"
RELEASE = "grounding.release"
SENTIMENT = "grounding.sentiment"

# Each axis: the words that go one way, and the words that go the other.
_AXES = {
    "amount": (
        ["higher", "more", "greater", "larger", "bigger", "increase", "increased", "increases"]
        + ["rose", "rise", "rises", "risen", "grew", "grow", "grows", "grown", "raised", "raise"]
        + ["raises", "boosted", "boost", "boosts", "gained", "climbed", "jumped", "soared"]
        + ["doubled", "tripled", "quadrupled", "expanded", "widened", "upward"],
        ["lower", "less", "fewer", "smaller", "decrease", "decreased", "decreases", "fell"]
        + ["fall", "falls", "fallen", "dropped", "drop", "drops", "cut", "cuts", "reduced"]
        + ["reduce", "reduces", "shrank", "shrunk", "shrink", "declined", "halved"]
        + ["lowered", "lowers", "slashed", "trimmed", "narrowed", "downward"],
    ),
    "speed": (
        ["faster", "quicker", "sooner", "accelerated", "sped"],
        ["slower", "slowed", "delayed"],
    ),
    "order": (["before", "earlier"], ["after", "later", "afterwards"]),
    "level": (["above", "exceeded", "exceeds"], ["below"]),
    "quality": (
        ["better", "improved", "improves", "improve", "improvement"],
        ["worse", "worsened", "degraded", "degrades", "regressed", "regression"],
    ),
}
AXES = {
    word.casefold(): (axis, side)
    for axis, sides in _AXES.items()
    for side, group in enumerate(sides)
    for word in group
}
# Rounding and bounds, not directions: "more than 3 billion", "up to three", "over 50K".
BOUNDED = re.compile(
    r"(?i)\b(?:(?:no\s+)?(?:more|less|fewer)\s+than|up\s+to|over\s+(?=\d)|under\s+(?=\d)"
    r"|(?:above|below|within)\s+(?=\d)|as\s+many\s+as|at\s+(?:least|most))\b"
)
FROM_TO = re.compile(
    r"(?i)\bfrom\s+([^,;.()]{1,40}?)\s+(?:to|into)\s+([^,;.()]{1,40}?)(?=$|[,;.()]|\s)"
)
REPLACED = re.compile(
    r"(?i)\b(?:replac(?:ed|es|e|ing)|swap(?:ped|s)?|substitut(?:ed|es|e))\s+"
    r"([^,;.()]{1,60}?)\s+(?:with|by|for)\s+([^,;.()]{1,60}?)(?=$|[,;.()])"
)
DIGITS = re.compile(r"\d[\d.,]*")
RELATIVE_TIME = re.compile(
    r"(?i)\b(?:(?:last|this|next|past|previous|prior)\s+(?:year|month|week|quarter|decade"
    r"|summer|winter|spring|autumn)|recent(?:ly)?|lately|for\s+the\s+first\s+time"
    r"|earlier\s+this\s+\w+|these\s+days|nowadays|yesterday|soon|in\s+recent\s+(?:years|months)"
    r"|at\s+the\s+time|(?:over|in)\s+the\s+(?:past|last)\s+(?:few\s+)?\w+|a\s+year\s+ago"
    r"|(?:months|years|weeks)\s+ago|(?:19|20)\d\d|(?:january|february|march|april|june|july"
    r"|august|september|october|november|december)\s+\d{1,2})\b"
)
RELEASE_WORDS = re.compile(
    r"(?i)\b(?:open[- ]?sourc\w*|(?:re-?)?releas(?:ed|es|e|ing)|publicly\s+available"
    r"|generally\s+available|made\s+(?:it\s+|them\s+)?(?:publicly\s+)?available"
    r"|available\s+to\s+(?:the\s+public|everyone|all|customers|developers|anyone)"
    r"|launch(?:ed|es|ing)?|on\s+github|open\s+to\s+the\s+public|shipped\s+(?:it\s+)?to"
    r"|published\s+(?:the|its|their)\s+(?:code|source|model|weights|library|tool)"
    r"|(?:is|are)\s+now\s+available|announced)\b"
)
SENTIMENT_WORDS = frozenset(
    ["impressive", "impressively", "impressed", "remarkable", "remarkably", "elegant"]
    + ["elegantly", "brilliant", "brilliantly", "clever", "cleverly", "amazing", "stunning"]
    + ["excellent", "outstanding", "exceptional", "admirable", "admirably", "loved", "love"]
    + ["loves", "beloved", "praised", "praise", "acclaimed", "celebrated", "welcomed"]
    + ["enthusiastic", "enthusiastically", "excited", "thrilled", "delighted", "proud"]
    + ["frustrated", "frustrating", "frustration", "struggled", "struggling", "struggle"]
    + ["painful", "hated", "disliked", "disappointed", "disappointing", "embraced"]
    + ["skeptical", "sceptical", "controversial", "notorious", "famous", "famously"]
    + ["renowned", "landmark", "exemplary", "well-regarded", "popular", "beautifully"]
    + ["seamless", "seamlessly", "effortless", "effortlessly", "painless", "heroic"]
    + ["masterful", "inspiring", "inspired", "game-changing", "game-changer", "stellar"]
    + ["spectacular", "superb", "fantastic", "wonderful", "terrible", "disastrous"]
    + ["happy", "happier", "unhappy", "grateful", "relieved", "eager", "reluctant"]
    + ["widely", "triumph", "successful", "successfully", "impressive-looking"]
)
SENTIMENT_PHRASES = re.compile(
    r"(?i)\b(?:sets?\s+(?:a|the)\s+(?:high|new)?\s*(?:bar|standard|benchmark)"
    r"|gold\s+standard|high\s+bar|raised\s+the\s+bar|a\s+model\s+for|a\s+textbook\s+(?:example|case)"
    r"|worth\s+emulating|(?:a|an)\s+(?:huge|massive|big|resounding|great)\s+(?:success|win)"
    r"|well\s+received|to\s+great\s+effect|paid\s+off)\b"
)


def _directions(text: str) -> dict[str, set[int]]:
    """Map each axis a text moves along to the sides it names."""
    found: dict[str, set[int]] = {}
    for token in words(BOUNDED.sub(" ", text)):
        hit = AXES.get(token.casefold())
        if hit is not None:
            found.setdefault(hit[0], set()).add(hit[1])
    return found


def _pairs(pattern: re.Pattern[str], text: str) -> list[tuple[frozenset[str], frozenset[str]]]:
    out = []
    for match in pattern.finditer(text):
        a, b = (_key(g) for g in match.groups())
        if a and b and a != b:
            out.append((a, b))
    return out


def _key(phrase: str) -> frozenset[str]:
    """Return a phrase's figures, or else its content stems."""
    figures = frozenset(DIGITS.findall(phrase))
    return figures or frozenset(s for s in stems(phrase) if s not in STOP)


def _reversed(claim: str, evidence: str, pattern: re.Pattern[str]) -> str:
    stated = _pairs(pattern, evidence)
    for a, b in _pairs(pattern, claim):
        for x, y in stated:
            if a & y and b & x and not a & x:
                match = pattern.search(claim)
                return match.group() if match else ""
    return ""


@lru_cache(maxsize=16384)
def direction_shift(claim: str, evidence: str) -> tuple[str, ...]:
    """Return the words of a claim that turn its evidence's direction or order around."""
    said = []
    stated = _directions(evidence)
    for token in words(BOUNDED.sub(" ", claim)):
        hit = AXES.get(token.casefold())
        if hit is None or hit[0] not in stated:
            continue
        axis, side = hit
        if side not in stated[axis] and (1 - side) in stated[axis] and token not in said:
            said.append(token)
    for pattern in (FROM_TO, REPLACED):
        flipped = _reversed(claim, evidence, pattern)
        if flipped:
            said.append(flipped)
    return tuple(said)


def _missing(found: list[str], evidence: str) -> list[str]:
    norm = normalize(evidence)
    evidence_stems = set(stems(evidence))
    out = []
    for phrase in found:
        key = normalize(phrase)
        if key in norm or all(s in evidence_stems for s in stems(phrase) if s not in STOP):
            continue
        if all(p.casefold() != phrase.casefold() for p in out):
            out.append(phrase)
    return out


@lru_cache(maxsize=16384)
def time_shift(claim: str, evidence: str, dates: tuple[str, ...] = ()) -> tuple[str, ...]:
    """Return the years, dates and relative times of a claim its evidence lacks."""
    found = [m.group() for m in RELATIVE_TIME.finditer(claim)]
    found = [f for f in found if not (f.isdigit() and any(d.startswith(f) for d in dates))]
    return tuple(_missing(found, evidence))


@lru_cache(maxsize=16384)
def release_shift(claim: str, evidence: str) -> tuple[str, ...]:
    """Return a claim's release or availability words ("open-sourced") its evidence lacks."""
    return tuple(_missing([m.group() for m in RELEASE_WORDS.finditer(claim)], evidence))


@lru_cache(maxsize=16384)
def sentiment_shift(claim: str, evidence: str) -> tuple[str, ...]:
    """Return a claim's praise, blame or feelings ("loved", "impressive") its evidence lacks."""
    found = [t for t in words(claim) if t.casefold() in SENTIMENT_WORDS]
    found += [m.group() for m in SENTIMENT_PHRASES.finditer(claim)]
    evidence_stems = set(stems(evidence))
    return tuple(f for f in _missing(found, evidence) if " " in f or stem(f) not in evidence_stems)


def shifts(claim: str, evidence: str, dates: tuple[str, ...] = ()) -> list[tuple[str, str, str]]:
    """Return (rule, words, message) for each way a claim changes its evidence."""
    out = []
    for rule, found, what in (
        (DIRECTION, direction_shift(claim, evidence), "turns the direction or order around"),
        (TIME, time_shift(claim, evidence, dates), "is a time the evidence does not give"),
        (RELEASE, release_shift(claim, evidence), "is a release or availability not stated"),
        (SENTIMENT, sentiment_shift(claim, evidence), "is an evaluation or feeling not stated"),
    ):
        for term in found:
            out.append((rule, term, f"{term!r} {what}"))
    return out


FIXES = {
    DIRECTION: "keep the evidence's direction and order (higher/lower, before/after, from/to, "
    "what replaced what)",
    TIME: "keep only the times the record gives",
    RELEASE: "say nothing of a release or availability the record does not state",
    SENTIMENT: "state what the record reports, without praise, blame or feelings",
}
