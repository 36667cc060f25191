"""The words a claim may not add to its evidence: negations, hedges and quantifiers,
superlatives and firsts, causes, bounds and outcomes. Word lists and the tests over them."""

from __future__ import annotations

import re
from functools import lru_cache

from generator.checks.prefilter import gated
from generator.checks.text import stem

NEGATION = frozenset(["not", "no", "never", "without", "none", "cannot", "nor", "neither", "n't"])
HEDGES = frozenset(
    [
        "may",
        "might",
        "possibly",
        "perhaps",
        "probably",
        "likely",
        "unlikely",
        "reportedly",
        "apparently",
        "allegedly",
        "seemingly",
        "arguably",
        "presumably",
        "supposedly",
    ]
)
QUANTIFIERS = frozenset(
    [
        "only",
        "alone",
        "solely",
        "exclusively",
        "all",
        "every",
        "some",
        "rarely",
        "always",
        "seldom",
        "sometimes",
        "often",
        "usually",
        "invariably",
        "unfailingly",
        "universally",
        "consistently",
        "perpetually",
    ]
)
POLARITY = NEGATION | HEDGES | QUANTIFIERS
SUPERLATIVES = frozenset(
    [
        "first",
        "largest",
        "biggest",
        "fastest",
        "best",
        "greatest",
        "highest",
        "lowest",
        "smallest",
        "cheapest",
        "strongest",
        "unprecedented",
        "unmatched",
        "unrivalled",
        "unrivaled",
        "unparalleled",
        "record-breaking",
        "world-first",
        "industry-first",
        "industry-leading",
        "world-class",
        "state-of-the-art",
        "groundbreaking",
        "revolutionary",
        "pioneering",
        "breakthrough",
        "never-before-seen",
        "pioneered",
        "pioneer",
        "pioneers",
        "trailblazing",
        "trailblazer",
        "first-ever",
        "cutting-edge",
        "leading-edge",
        "bleeding-edge",
        "gold-standard",
    ]
)
SUPERLATIVES |= frozenset(
    ["best-in-class", "world-leading", "market-leading", "all-time", "record-setting"]
    + ["record-breaking", "peerless", "unequalled", "unequaled", "unbeaten", "unsurpassed"]
    + ["second-to-none", "top-tier", "foremost", "finest", "unique", "one-of-a-kind"]
)
# Words ending in -est that are not superlatives.
NOT_SUPERLATIVE = frozenset(
    ["interest", "test", "request", "quest", "rest", "honest", "modest", "manifest", "digest"]
    + ["harvest", "forest", "protest", "contest", "invest", "suggest", "arrest", "attest"]
    + ["chest", "guest", "nest", "west", "pest", "vest", "crest", "priest", "behest", "unrest"]
    + ["ingest", "conquest", "inquest", "backtest", "pretest", "retest", "bequest", "earnest"]
    + ["midwest", "southwest", "northwest", "detest", "divest", "infest", "molest", "jest"]
    + ["zest", "lest", "wrest", "crest", "latest", "interest", "stress-test", "load-test"]
)
KIND_PHRASE = gated(
    re.compile(
        r"(?i)\bof\s+its\s+kind\b|\bin\s+the\s+(?:world|industry|market)\b|\bever\b"
        r"|\b(?:no|not\s+a)\s+(?:one|other|competitor|rival|company|team|system)s?\s+(?:else\s+)?"
        r"|\bnobody\s+else\b|\bunlike\s+any\b|\bsecond\s+to\s+none\b|\bthe\s+world['’]s\b"
        r"|\bahead\s+of\s+(?:every|all|its|the)\s+(?:\w+\s+)?(?:competitors?|rivals?|industry|others?|peers?)\b"
        r"|\b(?:leads?|led|leading)\s+the\s+(?:industry|market|field|world)\b|\bset\s+a\s+(?:new\s+)?record\b"
        r"|\ba\s+(?:new\s+)?record\b|\banywhere\b|\b(?:the|its|their)\s+most\s+(?!of\b)[a-z-]+"
        r"|\bmost\s+[a-z-]+(?:ive|ent|ant|ful|ous|able|ible|ic|al)\b|\bnumber\s+one\b"
        r"|\bthan\s+(?:any(?:one|thing)?|all|every(?:one|thing)?)\b(?:\s+other\b)?"
        # A rank among peers, in other words: "the leading example", "the go-to design".
        r"|\b(?:the|a)\s+(?:leading|premier|definitive|canonical|go-to|preeminent|pre-eminent)\b"
        r"|\bahead\s+of\s+the\s+(?:curve|pack|field)\b|\bat\s+the\s+forefront\b"
    )
)


def superlative(token: str) -> bool:
    """Return True for a superlative word: listed, or an adjective's -est form ("busiest")."""
    lowered = token.casefold()
    if lowered in SUPERLATIVES:
        return True
    for piece in lowered.split("-"):
        if piece in SUPERLATIVES:
            return True
        if len(piece) >= 5 and piece.endswith("est") and piece not in NOT_SUPERLATIVE:
            return not token[:1].isupper() or piece.endswith("iest")
    return False


SEQUENCE_AFTER = frozenset(["then", "next", "later", "afterwards", "second", "finally"])


def in_sequence(tokens: list[str] | tuple[str, ...], at: int) -> bool:
    """Return True when "first" orders steps ("first calling …, then …"), not a superlative."""
    if tokens[at].casefold() != "first":
        return False
    if at and tokens[at - 1].casefold() in ("the", "its", "their", "a", "his", "her"):
        return False  # "the first company to …"
    later = [t.casefold() for t in tokens[at + 1 :]]
    return bool(later) and (later[0].endswith("ing") or any(t in SEQUENCE_AFTER for t in later))


# A cause credited in a claim ("thanks to Redis") needs a cause stated in its evidence.
CAUSE = gated(
    re.compile(
        r"(?i)\b(?:thanks\s+to|because\s+of|due\s+to|owing\s+to|powered\s+by|enabled\s+by"
        r"|made\s+possible\s+by|credit(?:ed)?\s+(?:goes\s+)?to|as\s+a\s+(?:direct\s+)?result\s+of"
        r"|(?:led|leads|leading)\s+to|result(?:ed|s)?\s+in|gave\s+rise\s+to|brought\s+about"
        r"|paved\s+the\s+way\s+for|on\s+the\s+back\s+of|courtesy\s+of|attribut(?:ed|es)\s+to)\b"
    )
)
EVIDENCE_CAUSE = re.compile(
    r"(?i)\b(?:thanks\s+to|because|due\s+to|owing\s+to|powered\s+by|enabled\s+by|since"
    r"|so\s+that|as\s+a\s+result|by\s+\w+ing|through|using|with)\b"
)
# Bounds that hedge a figure: "at least three" for the evidence's "up to three" is a flip.
BOUNDS = re.compile(r"(?i)\b(?:up\s+to|at\s+least|at\s+most|as\s+many\s+as|no\s+more\s+than)\b")
OUTCOMES = frozenset(
    stem(w)
    for w in [
        "reduced",
        "reduces",
        "cut",
        "cuts",
        "lowered",
        "lowers",
        "improved",
        "improves",
        "increased",
        "increases",
        "boosted",
        "boosts",
        "eliminated",
        "eliminates",
        "saved",
        "saves",
        "halved",
        "halves",
        "doubled",
        "doubles",
        "tripled",
        "triples",
        "quadrupled",
        "accelerated",
        "accelerates",
        "sped",
        "prevented",
        "prevents",
        "raised",
        "raises",
        "decreased",
        "decreases",
        "slashed",
        "slashes",
        "shrank",
        "shrunk",
        "achieved",
        "achieves",
        "outperformed",
        "outperforms",
        "surpassed",
        "exceeded",
        "beat",
        "beats",
        "avoided",
        "avoids",
        "removed",
        "removes",
        "fixed",
        "fixes",
        "solved",
        "solves",
        "rose",
        "grew",
        "fell",
        "dropped",
        "climbed",
        "jumped",
        "soared",
        "plunged",
        "plummeted",
        "gained",
        "lifted",
        "trimmed",
        "minimised",
        "minimized",
        "maximised",
        "maximized",
        "delivered",
        "yielded",
        "freed",
        "unlocked",
        "ended",
        "stopped",
        "erased",
        "resolved",
        "streamlined",
        "simplified",
        "won",
        "earned",
        "generated",
    ]
)
# What a business or an on-call rota gains: an outcome the record must state to be reported.
OUTCOME_NOUNS = frozenset(
    stem(w)
    for w in ["revenue", "profit", "profits", "churn", "retention", "engagement", "satisfaction"]
    + ["conversion", "conversions", "sales", "margin", "margins", "outage", "outages"]
    + ["incident", "incidents", "downtime", "uptime", "productivity", "morale", "complaints"]
    + ["tickets", "pages", "on-call", "bill", "bills", "spend", "headcount", "signups"]
    + ["adoption", "loyalty", "trust", "happiness", "burnout", "attrition", "toil", "roi"]
    + ["customers", "customer", "users", "user", "subscribers", "growth", "savings", "nps"]
)
# Nouns that name any stated improvement: the evidence's outcome verb says which.
GAINS = frozenset(stem(w) for w in ["gains", "gain", "improvement", "improvements"])
MONTHS_DAYS = frozenset(
    [
        "january",
        "february",
        "march",
        "april",
        "may",
        "june",
        "july",
        "august",
        "september",
        "october",
        "november",
        "december",
        "monday",
        "tuesday",
        "wednesday",
        "thursday",
        "friday",
        "saturday",
        "sunday",
        "i",
    ]
)


# Words that say what a quantifier says, in evidence: "each hop" is "every hop".
SAME_AS = {"each": "every", "solely": "only", "exclusively": "only"}
# "are not allowed to" is what "may not" says of a permission.
PERMISSION = frozenset(["allowed", "permitted"])
# Adverbs between a negation and the word it negates: "does not yet support".
NEGATED_ADVERBS = frozenset(
    ["yet", "currently", "always", "necessarily", "fully", "entirely", "ever", "really"]
)
SAME_AS |= dict.fromkeys(PERMISSION, "may")
# A contrast that says "not X but Y" another way: "Y rather than X".
CONTRAST = re.compile(r"(?i)\b(?:rather\s+than|instead\s+of|as\s+opposed\s+to)\b")
# A comparison with everything else says what a superlative says: "took longer than any".
THAN_ANY = re.compile(r"(?i)\bthan\s+(?:any(?:one|thing)?|all|every(?:one|thing)?)\b")


def polarity_words(tokens: list[str] | tuple[str, ...], evidence: bool = False) -> dict[str, str]:
    """Map each polarity class of a text ("not" for every negation) to the word that says it;
    in evidence, a word that says the same ("each" for "every") counts too."""
    found: dict[str, str] = {}
    for token in tokens:
        lowered = token.casefold().replace("’", "'")
        if lowered.endswith("n't"):
            found.setdefault("not", token)
        elif evidence and lowered in SAME_AS:
            found.setdefault(SAME_AS[lowered], token)
        elif lowered in POLARITY:
            found.setdefault("not" if lowered in NEGATION else lowered, token)
    return found


# Comparatives that name a benefit: a report that says the work made something "faster" or
# "cheaper" needs that word (or its stem) in the record.
BENEFITS = frozenset(
    ["faster", "quicker", "cheaper", "easier", "simpler", "safer", "smoother", "snappier"]
    + ["leaner", "sooner", "shorter", "stabler", "cleaner", "happier", "lighter", "tighter"]
    + ["sturdier", "healthier", "calmer", "quieter", "nimbler", "speedier", "swifter"]
)
# Adjectives of a benefit after "more" or "less": "more reliable", "less expensive".
BENEFIT_ADJECTIVES = frozenset(
    ["efficient", "reliable", "scalable", "robust", "resilient", "stable", "responsive"]
    + ["accurate", "predictable", "performant", "maintainable", "consistent", "available"]
    + ["expensive", "costly", "brittle", "fragile", "flaky", "error-prone", "productive"]
    + ["secure", "durable", "flexible", "affordable", "economical", "dependable", "agile"]
    + ["modular", "observable", "testable", "elastic", "fault-tolerant", "cost-effective"]
)
BENEFIT_SUFFIXES = ("able", "ible", "ient", "ive", "ust")


# The measure a benefit is about: "faster" is backed by a record that states a time falling or
# improving, "safer" by one whose rollbacks or incidents became rarer; the rest need the word.
_MEASURES = {
    "time": (
        ["faster", "quicker", "speedier", "swifter", "snappier", "sooner", "shorter"]
        + ["responsive"],
        ["latency", "time", "duration", "interval", "freshness", "second", "seconds", "minute"]
        + ["minutes", "hour", "hours", "day", "days", "ms", "milliseconds", "wait", "delay"],
    ),
    "risk": (
        ["safer", "stabler", "sturdier", "healthier", "calmer", "quieter", "reliable", "stable"]
        + ["robust", "resilient", "dependable", "fault-tolerant", "brittle", "fragile", "flaky"]
        + ["error-prone", "durable"],
        ["rollback", "rollbacks", "incident", "incidents", "failure", "failures", "outage"]
        + ["outages", "crash", "crashes", "crash-free", "error", "errors", "risk", "pages"]
        + ["downtime", "regression", "regressions", "bug", "bugs", "availability", "uptime"],
    ),
    "cost": (
        ["cheaper", "leaner", "expensive", "costly", "affordable", "economical"]
        + ["cost-effective"],
        ["cost", "costs", "spend", "spending", "bill", "bills", "budget", "price", "dollars"]
        + ["savings", "$", "cpu", "gpu", "hardware", "servers", "machines", "nodes"],
    ),
    "work": (
        ["efficient", "productive", "scalable", "elastic"],
        ["efficiency", "utilization", "utilisation", "throughput", "mfu", "productivity"]
        + ["capacity"],
    ),
}
MEASURE_OF = {word: measure for measure, (said, _) in _MEASURES.items() for word in said}
MEASURE_WORDS = {measure: frozenset(names) for measure, (_, names) in _MEASURES.items()}
# What a record says when a measure changed: "fell", "rarer", "improved from 6 hours to 4".
CHANGED = frozenset(
    ["fell", "dropped", "drop", "reduced", "reduce", "cut", "cuts", "lower", "lowered", "fewer"]
    + ["rarer", "less", "decreased", "shrank", "halved", "improved", "improve", "improvement"]
    + ["doubled", "tripled", "increased", "higher", "rose", "grew", "saved", "removed"]
    + ["eliminated", "gains", "gain", "better", "faster", "quicker", "sped", "shorter"]
    + ["down", "declined", "smaller", "slashed", "trimmed", "shrunk", "plunged", "instead"]
)


def benefit_backed(word: str, record_words: frozenset[str], texts: tuple[str, ...]) -> bool:
    """Return True when the record states the benefit: the word itself, or one record sentence
    that changes the measure the benefit is about ("faster" where a time fell)."""
    if word in record_words or stem(word) in record_words:
        return True
    measure = MEASURE_OF.get(word)
    if measure is None:
        return False
    return any(MEASURE_WORDS[measure] & said and CHANGED & said for said in map(_folded, texts))


@lru_cache(maxsize=16384)
def _folded(text: str) -> frozenset[str]:
    return frozenset(t.casefold() for t in re.findall(r"[\w$-]+", text))


def benefit_words(tokens: list[str] | tuple[str, ...]) -> list[tuple[str, str]]:
    """Return each benefit a text names as (phrase, word to find in the record): a listed
    comparative ("faster") or "more"/"less" before a benefit adjective ("more reliable")."""
    found = []
    for at, token in enumerate(tokens):
        lowered = token.casefold()
        if lowered in BENEFITS:
            found.append((token, lowered))
        elif lowered in ("more", "less") and at + 1 < len(tokens):
            adjective = tokens[at + 1].casefold()
            if adjective in BENEFIT_ADJECTIVES or (
                len(adjective) > 5 and adjective.endswith(BENEFIT_SUFFIXES)
            ):
                found.append((f"{token} {tokens[at + 1]}", adjective))
    return found
