"""What a step of "Put it into practice" must be: one imperative sentence, unlike the others.

A step is not an imperative when it opens with a question word, a modal or auxiliary, a
pronoun or article, a gerund, a plural noun or a past form, when it ends in a question mark,
or when it describes what people do. Two steps nearly repeat each other when their content
words, folded for spelling (-ise/-ize, -our/-or) and common synonyms, mostly coincide or one
holds the other with at most two words more, or their letters differ by a tenth at most
(spelling variants, typos, hyphens and spaces).
"""

from __future__ import annotations

import re
from difflib import SequenceMatcher
from functools import lru_cache

from generator.checks.subjects import ED_VERBS
from generator.checks.text import STOP, stem, words

# Openers that make a question or a statement, never an instruction.
NOT_COMMAND = frozenset(
    ["can", "could", "would", "will", "shall", "should", "may", "might", "must", "do", "does"]
    + ["did", "is", "are", "was", "were", "has", "have", "had", "am", "how", "what", "why"]
    + ["when", "where", "which", "who", "whom", "whose", "whether", "isn't", "aren't"]
    + ["it's", "there's", "someone", "anyone", "everyone"]
)
# A gerund opener ("Measuring …") is a noun phrase; these words end in -ing but are verbs.
ING_VERBS = frozenset(["bring", "string", "ring", "sing", "swing", "wring", "sling", "ping"])
# Openers after which the command follows a comma ("For each change, record …").
LEAD = frozenset(
    ["for", "before", "after", "if", "when", "once", "with", "in", "on", "at", "during"]
    + ["while", "until", "to", "using", "from", "as", "where", "whenever", "unless"]
)
# Verbs that end like plural nouns but are commands.
S_VERBS = frozenset(["focus", "discuss", "access", "process", "address", "pass", "bypass"])
THEN = re.compile(r";\s+(?:then\s+)?(?=[a-z])")
SYNONYMS = {
    stem(a): stem(b)
    for a, b in [
        ("gauge", "measure"),
        ("track", "measure"),
        ("quantify", "measure"),
        ("profile", "measure"),
        ("contrast", "compare"),
        ("jot", "write"),
        ("note", "write"),
        ("record", "write"),
        ("document", "write"),
        ("describe", "explain"),
        ("outline", "explain"),
        ("list", "name"),
        ("identify", "name"),
        ("present", "report"),
        ("share", "report"),
        ("create", "build"),
        ("make", "build"),
        ("distinguish", "separate"),
        ("examine", "study"),
        ("analyse", "study"),
        ("analyze", "study"),
        ("review", "study"),
    ]
}
SPELLING = (
    (re.compile(r"is(e|ing|ed|es|ation|ations)$"), r"iz\1"),
    (re.compile(r"ys(e|ing|ed|es)$"), r"yz\1"),
    (re.compile(r"([iblvm])our(s|ed|ing)?$"), r"\1or\2"),
    (re.compile(r"tre(s)?$"), r"ter\1"),
    (re.compile(r"ogue(s)?$"), r"og\1"),
    (re.compile(r"ll(ed|ing|er|ers)$"), r"l\1"),
)
OVERLAP = 0.75
LETTERS = 0.9
EXTRA_WORDS = 2


@lru_cache(maxsize=16384)
def form_problem(item: str) -> str | None:
    """Say why a step is not one imperative sentence, or return None."""
    text = item.strip()
    if text.endswith("?"):
        return "is a question"
    if THEN.search(text):
        return "is more than one sentence"
    tokens = words(text)
    if not tokens:
        return "is empty"
    first = tokens[0].casefold()
    if first in LEAD and "," in text:
        tokens = words(text.split(",", 1)[1]) or tokens
        first = tokens[0].casefold()
    if first.endswith("ly") and len(tokens) > 1:
        first = tokens[1].casefold()
    if first in NOT_COMMAND or first.rstrip("?") in NOT_COMMAND:
        return "is a question or a statement"
    if first.endswith("ing") and len(first) > 5 and first not in ING_VERBS:
        return "opens with a gerund"
    if len(first) > 3 and first.endswith("ed") and first not in ED_VERBS:
        return "opens with a past form"
    plural = first.endswith("s") and not first.endswith(("ss", "us", "is", "ys"))
    if len(first) > 3 and plural and first not in S_VERBS:
        return "opens with a noun"
    return None


@lru_cache(maxsize=65536)
def _fold(token: str) -> str:
    word = token.casefold()
    for pattern, repl in SPELLING:
        word = pattern.sub(repl, word)
    key = stem(word)
    return SYNONYMS.get(key, key)


@lru_cache(maxsize=16384)
def step_key(item: str) -> frozenset[str]:
    """Return a step's content words, folded for spelling and synonyms."""
    return frozenset(_fold(t) for t in words(item) if t.casefold() not in STOP)


@lru_cache(maxsize=16384)
def squashed(item: str) -> str:
    """Return a step's letters only, each word folded for spelling ("re-run" is "rerun")."""
    return "".join(_fold(t) for t in words(item)).replace("-", "").replace("'", "")


@lru_cache(maxsize=16384)
def same_letters(a: str, b: str) -> bool:
    """Return True when two squashed steps differ by a few letters (spelling, spacing)."""
    if not a or not b or abs(len(a) - len(b)) > max(2, len(a) // 10):
        return False
    if a == b:
        return True
    # Letter pairs as tuples: the same pairs, one for one, as the slices a[i : i + 2].
    pairs_a = set(zip(a, a[1:], strict=False))
    pairs_b = set(zip(b, b[1:], strict=False))
    if len(pairs_a & pairs_b) < LETTERS * max(len(pairs_a), len(pairs_b)) - 4:
        return False  # far apart already by letter pairs; spares the slower alignment
    return SequenceMatcher(None, a, b, autojunk=False).ratio() >= LETTERS


def near_duplicate(a: frozenset[str], b: frozenset[str]) -> bool:
    """Return True when two steps' folded content words mostly coincide."""
    if not a or not b:
        return False
    shared = len(a & b)
    if shared / len(a | b) >= OVERLAP:
        return True
    small, large = (a, b) if len(a) <= len(b) else (b, a)
    return len(small) >= 3 and shared == len(small) and len(large) - len(small) <= EXTRA_WORDS
