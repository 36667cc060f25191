"""What a claim may not change from its evidence: direction and order, time, release and
availability, evaluation and sentiment. Pure functions from a claim and its evidence text to
(rule, words, message) triples; grounding and ourclaims turn them into findings."""

from __future__ import annotations

import re
from difflib import SequenceMatcher
from functools import lru_cache

from generator.checks.prefilter import gated
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
        + ["doubled", "tripled", "quadrupled", "expanded", "widened", "upward", "growing"]
        + ["rising", "increasing", "climbing", "expanding", "widening", "boosting", "raising"],
        ["lower", "less", "fewer", "smaller", "decrease", "decreased", "decreases", "fell"]
        + ["fall", "falls", "fallen", "dropped", "drop", "drops", "cut", "cuts", "reduced"]
        + ["reduce", "reduces", "shrank", "shrunk", "shrink", "declined", "halved"]
        + ["lowered", "lowers", "slashed", "trimmed", "narrowed", "downward", "shrinking"]
        + ["falling", "decreasing", "declining", "dropping", "reducing", "cutting", "lowering"],
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
# Phrasal verbs of an amount, read as one word: "went up" is "went-up", on the rising side.
PHRASAL = re.compile(
    r"(?i)\b(?P<verb>went|go|goes|gone|going|shot|crept|edged|ticked|came|come|comes|moved"
    r"|spiked|trended|crawled|dropped|tailed|fell)\s+(?P<way>up|down|off)\b"
)
_RISING = frozenset(["up"])
AXES.update(
    {
        f"{verb}-{way}": ("amount", 0 if way in _RISING else 1)
        for verb in ["went", "go", "goes", "gone", "going", "shot", "crept", "edged", "ticked"]
        + ["came", "come", "comes", "moved", "spiked", "trended", "crawled", "dropped"]
        + ["tailed", "fell"]
        for way in ("up", "down", "off")
    }
)


def _phrasal(text: str) -> str:
    """Join an amount's phrasal verb into one word ("went up" -> "went-up"), offsets kept."""
    if " up" not in text and " down" not in text and " off" not in text:
        return text
    return PHRASAL.sub(lambda m: f"{m.group('verb')}-{m.group('way')}", text)


# Rounding and bounds, not directions: "more than 3 billion", "up to three", "over 50K".
BOUNDED = re.compile(
    r"(?i)\b(?:(?:no\s+)?(?:more|less|fewer)\s+than|up\s+to|over\s+(?=\d)|under\s+(?=\d)"
    r"|(?:above|below|within)\s+(?=\d)|as\s+many\s+as|at\s+(?:least|most))\b"
)
# "from A to B": B runs to punctuation or for at most three words after an article.
FROM_TO = re.compile(
    r"(?i)\bfrom\s+([^,;.()]{1,40}?)\s+(?:to|into|towards?)\s+((?:(?:an?|the|its|their)\s+)?"
    r"[^\s,;.()]+(?:\s+(?!(?:and|or|but|while|in|at|on|for|by|with|after|before)\b)[^\s,;.()]+)"
    r"{0,2})"
)
REPLACED = re.compile(
    r"(?i)\b(?:replac(?:ed|es|e|ing)|swap(?:ped|s)?|substitut(?:ed|es|e))\s+"
    r"(?P<old>[^,;.()]{1,60}?)\s+(?:with|by|for)\s+(?P<new>[^,;.()]{1,60}?)(?=$|[,;.()])"
)
# The same order said the other way: "A was replaced by B", "B took the place of A".
_END = r"(?=$|[,;.()]|\s+(?:and|but|while|after|before|in|at|on|across)\b)"
REPLACED_BY = gated(
    re.compile(
        r"(?i)(?:^|[,;:]\s*|\b(?:and|but|that|while)\s+)(?P<old>[^,;.()]{1,60}?)\s+"
        r"(?:was|were|is|are|got|has\s+been|have\s+been|had\s+been)\s+(?:\w+ly\s+)?"
        r"(?:replaced|superseded|supplanted|succeeded|displaced)\s+(?:by|with)\s+"
        rf"(?P<new>[^,;.()]{{1,60}}?){_END}"
    )
)
TOOK_PLACE = gated(
    re.compile(
        r"(?i)(?:^|[,;:]\s*|\b(?:and|but|that|while)\s+)(?P<new>[^,;.()]{1,60}?)\s+"
        r"(?:took|takes|has\s+taken|had\s+taken)\s+(?:over\s+)?(?:the\s+place|the\s+role)\s+of\s+"
        rf"(?P<old>[^,;.()]{{1,60}}?){_END}"
        r"|(?:^|[,;:]\s*|\b(?:and|but|that|while)\s+)(?P<new2>[^,;.()]{1,60}?)\s+"
        r"(?:superseded|supplanted|displaced|succeeded)\s+"
        rf"(?P<old2>[^,;.()]{{1,60}}?){_END}"
    )
)
REPLACEMENTS = (REPLACED, REPLACED_BY, TOOK_PLACE)
DIGITS = re.compile(r"\d[\d.,]*")
RELATIVE_TIME = re.compile(
    r"(?i)\b(?:(?:last|this|next|past|previous|prior)\s+(?:year|month|week|quarter|decade"
    r"|summer|winter|spring|autumn)|recent(?:ly)?|lately|for\s+the\s+first\s+time"
    r"|earlier\s+this\s+\w+|these\s+days|nowadays|yesterday|soon|in\s+recent\s+(?:years|months)"
    r"|(?:has|have|had)\s+(?:only\s+)?just|just\s+(?:launched|shipped|moved|finished|completed"
    r"|released|rolled\s+out|switched|migrated)|newly|brand[- ]new|latest|fresh\s+off"
    r"|at\s+the\s+time|(?:over|in)\s+the\s+(?:past|last)\s+(?:few\s+)?\w+|a\s+year\s+ago"
    r"|(?:months|years|weeks)\s+ago|(?:19|20)\d\d|(?:january|february|march|april|june|july"
    r"|august|september|october|november|december)\s+\d{1,2})\b"
)
RELEASE_WORDS = gated(
    re.compile(
        r"(?i)\b(?:open[- ]?sourc\w*|(?:re-?)?releas(?:ed|es|e|ing)|publicly\s+available"
        r"|generally\s+available|made\s+(?:it\s+|them\s+)?(?:publicly\s+)?available"
        r"|available\s+to\s+(?:the\s+public|everyone|all|customers|developers|anyone)"
        r"|launch(?:ed|es|ing)?|on\s+github|open\s+to\s+the\s+public|shipped\s+(?:it\s+)?to"
        r"|published\s+(?:the|its|their)\s+(?:code|source|model|weights|library|tool)"
        r"|(?:is|are)\s+now\s+available|announced)\b"
        # Availability to outsiders, in other words: "shipped it as a public library", "offered to
        # other firms as a product", "made it open source", "commercialised".
        r"|\bpublic(?:ly)?\s+(?:library|package|api|sdk|repo(?:sitory)?|beta|preview|release)\b"
        r"|\b(?:offer(?:ed|s|ing)?|sell(?:s|ing)?|sold|licen[cs](?:ed|es|ing)|provid(?:ed|es|ing)"
        r"|market(?:ed|s|ing)|packag(?:ed|es|ing)|ship(?:ped|s|ping)?|made\s+available)"
        r"\s+(?:[\w'’-]+\s+){0,4}?(?:to\s+(?:other|outside|external|third[- ]party)\b"
        r"|as\s+(?:an?\s+)?(?:commercial\s+|public\s+|standalone\s+|open[- ]source\s+)?"
        r"(?:product|library|package|offering|open[- ]source)\b)"
        r"|\bcommerciali[sz]\w*|\bmade\s+(?:\w+\s+){0,3}?open[- ]source\b"
    )
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
    + ["adore", "adored", "adores", "enjoyed", "enjoys", "cherished", "admired", "admire"]
    + ["painfully", "thoughtful", "thoughtfully", "beautiful", "beautifully", "heroic"]
    + ["heroically", "clunky", "messy", "ugly", "annoying", "tedious", "dreaded", "slick"]
    + ["neat", "neatly", "ingenious", "ingeniously", "masterful", "masterfully", "savvy"]
    + ["graceful", "gracefully", "awkward", "awkwardly", "sloppy", "commendable", "laudable"]
)
SENTIMENT_PHRASES = gated(
    re.compile(
        r"(?i)\b(?:sets?\s+(?:a|the)\s+(?:high|new)?\s*(?:bar|standard|benchmark)"
        r"|gold\s+standard|high\s+bar|raised\s+the\s+bar|a\s+model\s+for|a\s+textbook\s+(?:example|case)"
        r"|worth\s+emulating|(?:a|an)\s+(?:huge|massive|big|resounding|great)\s+(?:success|win)"
        r"|well\s+received|to\s+great\s+effect|paid\s+off|paid\s+for\s+itself"
        r"|(?:a|an)\s+(?:clear|unqualified|undisputed|real)\s+(?:success|win|triumph)"
        r"|(?:went|goes|gone)\s+(?:smoothly|well|badly)|(?:a|an)\s+(?:pain|headache|nightmare)"
        r"|well[- ](?:designed|engineered|built|crafted|executed|architected|thought[- ]out"
        r"|structured|reasoned|judged|timed|handled|run)|nicely\s+\w+ed)\b"
    )
)


def _directions(text: str) -> dict[str, set[int]]:
    """Map each axis a text moves along to the sides it names."""
    found: dict[str, set[int]] = {}
    for token in words(BOUNDED.sub(" ", _phrasal(text))):
        hit = AXES.get(token.casefold())
        if hit is not None:
            found.setdefault(hit[0], set()).add(hit[1])
    return found


def _pairs(
    patterns: tuple[re.Pattern[str], ...], text: str
) -> list[tuple[frozenset[str], frozenset[str]]]:
    """Return each ordered pair the patterns find: (from, to), or (what was replaced, by what)."""
    out = []
    for pattern in patterns:
        for match in pattern.finditer(text):
            named = {k: v for k, v in match.groupdict().items() if v is not None}
            if named:
                old = named.get("old") or named.get("old2", "")
                new = named.get("new") or named.get("new2", "")
                ends = (old, new)
            else:
                ends = match.groups()
            a, b = (_key(g) for g in ends)
            if a and b and a != b:
                out.append((a, b))
    return out


def _key(phrase: str) -> frozenset[str]:
    """Return a phrase's figures, or else its content stems."""
    figures = frozenset(DIGITS.findall(phrase))
    return figures or frozenset(s for s in stems(phrase) if s not in STOP)


def _apart(a: frozenset[str], b: frozenset[str]) -> tuple[frozenset[str], frozenset[str]]:
    """Return two ends without the words they share, unless that leaves one of them empty."""
    if a - b and b - a:
        return a - b, b - a
    return a, b


def _reversed(claim: str, evidence: str, patterns: tuple[re.Pattern[str], ...]) -> str:
    """Return the claim's pair (from/to, what replaced what) that its evidence states the
    other way round; the words both ends share ("releases") say nothing of the order."""
    stated = _pairs(patterns, evidence)
    for a, b in _pairs(patterns, claim):
        a, b = _apart(a, b)
        for x, y in stated:
            x, y = _apart(x, y)
            if a & y and b & x and not a & x and not b & y:
                match = next(filter(None, (p.search(claim) for p in patterns)), None)
                return match.group().strip(" ,;:") if match else ""
    return ""


# Comparisons with an order: "A lost to B" says A is the worse, as "B beat A" and "A performed
# worse than B" do.
_WORSE = (
    r"lost\s+to|loses\s+to|trail(?:ed|s)?|fell\s+behind|lagged(?:\s+behind)?|underperformed"
    r"|(?:was|were|is|are)\s+(?:beaten|outperformed|surpassed)\s+by"
    r"|(?:performed|performs|did|does|was|were|is|are|scored|ran|fared)\s+(?:\w+\s+)?"
    r"(?:worse|poorer)\s+than|(?:was|were|is|are)\s+(?:\w+\s+)?(?:worse|weaker)\s+than"
)
_BETTER = (
    r"beat|beats|outperformed|outperforms|surpassed|bested|topped|outscored"
    r"|(?:performed|performs|did|does|was|were|is|are|scored|ran|fared)\s+(?:\w+\s+)?"
    r"better\s+than|(?:was|were|is|are)\s+(?:\w+\s+)?(?:better|stronger)\s+than"
)
_SIDE = r"((?:[\w-]+\s+){0,4}?[\w-]+)"
RANKED = re.compile(
    rf"(?i)(?:^|[,;:]\s*|\b(?:and|but|while|that)\s+){_SIDE}\s+(?:({_WORSE})|({_BETTER}))\s+"
    rf"{_SIDE}(?=$|[,;.()]|\s+(?:and|but|while|on|in|at|for|by)\b)"
)


def _ranked(text: str) -> list[tuple[frozenset[str], frozenset[str], str]]:
    """Return (worse, better, words) for each ordered comparison of a text."""
    out = []
    for match in RANKED.finditer(text):
        left, worse, _better, right = match.groups()
        a, b = _key(left), _key(right)
        if a and b and a != b:
            said = match.group().strip(" ,;:")
            out.append((a, b, said) if worse else (b, a, said))
    return out


def _rank_flip(claim: str, evidence: str) -> str:
    """Return the claim's ordered comparison that its evidence states the other way round."""
    stated = _ranked(evidence)
    for worse, better, said in _ranked(claim):
        worse, better = _apart(worse, better)
        for x, y, _ in stated:
            x, y = _apart(x, y)
            if worse & y and better & x and not worse & x:
                return said
    return ""


# "A before B" and "B after A" tell one order: the events on each side of the word decide.
ORDER_WORD = re.compile(r"(?i)\b(before|after)\s+")
LEFT_BREAK = re.compile(r"(?i)[,;:]|\b(?:and|but|that|which|while|so|then|when|where)\b")
RIGHT_BREAK = re.compile(r"(?i)[,;:.]|\s(?:and|but|while|so)\s")


def _events(text: str) -> tuple[frozenset[str], frozenset[str]] | None:
    """Return what happens first and what happens second in a text's "X before/after Y"."""
    hit = ORDER_WORD.search(text)
    if hit is None:
        return None
    left = LEFT_BREAK.split(text[: hit.start()])[-1]
    right = RIGHT_BREAK.split(text[hit.end() :])[0]
    a = frozenset(s for s in stems(" ".join(left.split()[-8:])) if s not in STOP)
    b = frozenset(s for s in stems(" ".join(right.split()[:8])) if s not in STOP)
    if not a or not b:
        return None
    return (a, b) if hit.group(1).casefold() == "before" else (b, a)


def _order_flip(claim: str, evidence: str) -> bool | None:
    """Return whether a claim's "before/after" puts its evidence's events the other way round,
    or None when either text does not name both events."""
    ours, theirs = _events(claim), _events(evidence)
    if ours is None or theirs is None:
        return None
    (first, second), (was_first, was_second) = ours, theirs
    kept = len(first & was_first) + len(second & was_second)
    turned = len(first & was_second) + len(second & was_first)
    return turned > kept


# Verbs that take a thing away ("removing per-user parameters"); "dropping" or "cutting" a
# thing that the evidence removes in these words is its removal, not a fall of an amount.
REMOVAL_SENSE = frozenset(["drop", "drops", "dropped", "dropping", "cut", "cuts", "cutting"])
REMOVAL = re.compile(
    r"(?i)\b(?:remov|eliminat|delet|strip|drop|discard|retir|deprecat|cut)\w*\s+"
    r"((?:[\w'-]+\s+){0,3}[\w'-]+)"
)


def _removes_as_evidence_does(claim: str, token: str, evidence: str) -> bool:
    """Tell whether a claim's "dropping X" takes away an X that the evidence removes."""
    if token.casefold() not in REMOVAL_SENSE:
        return False
    after = re.search(rf"(?i)\b{re.escape(token)}\s+((?:[\w'-]+\s+){{0,2}}[\w'-]+)", claim)
    if after is None:
        return False
    wanted = {stem(w) for w in words(after.group(1)) if w.casefold() not in STOP}
    for removed in REMOVAL.finditer(evidence):
        if wanted & {stem(w) for w in words(removed.group(1)) if w.casefold() not in STOP}:
            return True
    return False


@lru_cache(maxsize=16384)
def direction_shift(claim: str, evidence: str) -> tuple[str, ...]:
    """Return the words of a claim that turn its evidence's direction or order around."""
    said = []
    stated = _directions(evidence)
    for token in words(BOUNDED.sub(" ", _phrasal(claim))):
        hit = AXES.get(token.casefold())
        if hit is None or hit[0] not in stated:
            continue
        axis, side = hit
        if axis == "amount" and _removes_as_evidence_does(claim, token, evidence):
            continue
        if side not in stated[axis] and (1 - side) in stated[axis] and token not in said:
            events = _order_flip(claim, evidence) if axis == "order" else None
            if events is None or events:
                said.append(token)
    for patterns in ((FROM_TO,), REPLACEMENTS):
        flipped = _reversed(claim, evidence, patterns)
        if flipped:
            said.append(flipped)
    flipped = _rank_flip(claim, evidence)
    if flipped:
        said.append(flipped)
    said += [w for w in swapped(claim, evidence, ORDER_FAMILIES) if w not in said]
    return tuple(said)


# Words of one family name different things of one kind; a claim that keeps its evidence's
# words around one of them but puts another in its place turns the evidence around.
ORDER_FAMILIES = (
    frozenset(["peak", "off-peak", "peak-hour", "off-hours", "busiest"]),
    frozenset(["hourly", "daily", "nightly", "weekly", "fortnightly", "monthly", "quarterly"])
    | frozenset(["yearly", "annual", "annually"]),
    frozenset(["first", "last", "final"]),
    frozenset(["minimum", "maximum", "min", "max"]),
    frozenset(["upstream", "downstream"]),
    frozenset(["inbound", "outbound"]),
    frozenset(["ingress", "egress"]),
    frozenset(["backward", "backwards", "forward", "forwards"]),
    frozenset(["synchronous", "asynchronous", "sync", "async"]),
    frozenset(["synchronously", "asynchronously"]),
    frozenset(["stateless", "stateful"]),
    frozenset(["horizontal", "horizontally", "vertical", "vertically"]),
    frozenset(["optimistic", "pessimistic"]),
    frozenset(["lossy", "lossless"]),
    frozenset(["client-side", "server-side"]),
)


# Sentences longer than this (in words) are not aligned word by word.
MAX_ALIGNED = 150


def swapped(claim: str, evidence: str, families: tuple[frozenset[str], ...]) -> list[str]:
    """Return the claim's words that stand where its evidence has another word of their
    family, the words around them kept ("off-peak hours" → "peak hours")."""
    a = [w.casefold() for w in words(claim)]
    b = [w.casefold() for w in words(evidence)]
    members = frozenset().union(*families)
    if max(len(a), len(b)) > MAX_ALIGNED or members.isdisjoint(a) or members.isdisjoint(b):
        return []  # nothing to swap, or no sentence of prose
    out = []
    matcher = SequenceMatcher(None, b, a, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag != "replace" or i2 - i1 != j2 - j1:
            continue
        for old, new in zip(b[i1:i2], a[j1:j2], strict=True):
            if old != new and any(old in f and new in f for f in families):
                out.append(words(claim)[a.index(new, j1)])
    # Unaligned, a word of a family before the same word: "forward compatible" for the
    # evidence's "backward compatible", unless the claim says the evidence's pair too.
    pairs = set(zip(b, b[1:], strict=False))
    claimed = set(zip(a, a[1:], strict=False))
    for at, (word, after) in enumerate(zip(a, a[1:], strict=False)):
        family = next((f for f in families if word in f), None)
        if family is None or (word, after) in pairs or words(claim)[at] in out:
            continue
        said = [(m, after) for m in family if m != word and (m, after) in pairs]
        if said and not any(pair in claimed for pair in said):
            out.append(words(claim)[at])
    return out


def _missing(found: list[str], evidence: str) -> list[str]:
    norm = normalize(evidence)
    evidence_stems = set(stems(evidence))
    out = []
    for phrase in found:
        key = normalize(phrase)
        said = [s for s in stems(phrase) if s not in STOP]
        if key in norm or (said and all(s in evidence_stems for s in said)):
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
