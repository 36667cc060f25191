"""Words of ours that restate a record though the record lacks them.

A claim about the company may not add a sweeping quantifier or a motive, but some of these
words only restate what the record already says:
- "only" before a subset the record itself selects ("only the most-viewed images" for
  "generated ahead of time for the most-viewed 5% of images");
- "every" or "all" before what a record sentence states of the whole kind, as a bare plural
  ("every edit reaches the others" for "edits reach other participants");
- "because" before a general truth about a technique the record names, not about the
  company ("because approximate search trades one against the other");
- a benefit the clause explains by a change the record states ("a more sensitive test with
  less traffic" where the record's test needs a tenth of the traffic);
- a removal of a class of problems the record states held before the change ("removes a
  class of errors" where, before it, one in five features differed between two systems);
- "everyone" in a clause that says a thing is shared ("the tables everyone reads" for the
  record's "shared tables").
"""

from __future__ import annotations

import re

from generator.checks.claimwords import CHANGED, OUTCOME_NOUNS, OUTCOMES, superlative
from generator.checks.text import STOP, RecordIndex, Unit, content, stem, stems, words

# Words between "only" and the subset it restricts to: "only for the most-viewed …".
LEADS = frozenset(["the", "a", "an", "its", "their", "for", "to", "on", "in", "at", "with"])
# Words that select a subset: "the top 200", "the first shard", "the newest data".
SELECTING = frozenset(
    ["top", "first", "last", "newest", "oldest", "latest", "recent", "hottest", "busiest"]
    + ["popular", "largest", "smallest", "biggest", "heaviest", "slowest", "fastest"]
)
# Words before a plural that make it part of its kind, not the whole: "some edits".
PARTIAL = frozenset(
    ["some", "most", "many", "few", "several", "certain", "these", "those", "a", "an", "one"]
    + ["of", "no", "two", "three", "half", "such", "other", "fewer", "more", "its", "their"]
)
WHOLE = frozenset(["every", "each", "all"])
# Words of a record sentence that hold what it says to a part of the kind.
LIMITS = frozenset(
    ["only", "some", "except", "unless", "rest", "remaining", "when", "if", "once", "most"]
    + ["sometimes", "occasionally", "partly", "selected", "certain"]
)
# What "because" names when it credits the company with a reason: an agent or a demand.
AGENTS = frozenset(
    ["it", "they", "its", "their", "we", "our", "team", "teams", "company", "engineers"]
    + ["authors", "management", "leadership", "customers", "users", "regulators", "law"]
)
DEMANDS = frozenset(
    ["requires", "required", "demands", "mandates", "forces", "obliges", "wants", "wanted"]
    + ["needed", "needs", "must", "expects", "asks", "insists", "prefers", "hoped", "feared"]
)
BECAUSE = re.compile(r"(?i)\Abecause\b")
SHARED_WORDS = 2  # content words a record sentence shares with the claim, besides the noun


def restricted_subset(tokens: list[str], at: int, index: RecordIndex) -> bool:
    """Return True when "only" stands before a subset that a record sentence selects."""
    after = at + 1
    while after < len(tokens) and tokens[after].casefold() in LEADS:
        after += 1
    if after >= len(tokens):
        return False
    word = tokens[after].casefold()
    selective = (
        word.startswith(("most-", "least-"))
        or word in SELECTING
        or superlative(word)
        or word[:1].isdigit()
    )
    if not selective:
        return False
    noun = [stem(t) for t in tokens[after + 1 : after + 3] if t.casefold() not in STOP][:1]
    return any(
        stem(word) in unit.all_stems and all(n in unit.all_stems for n in noun)
        for unit in index.units
    )


def whole_kind(tokens: list[str], at: int, index: RecordIndex) -> bool:
    """Return True when "every" or "all" quantifies what a record sentence the claim restates
    says of a bare plural: the record speaks of the whole kind already."""
    if tokens[at].casefold() not in WHOLE or at + 1 >= len(tokens):
        return False
    noun = stem(tokens[at + 1])
    if tokens[at + 1].casefold() in STOP:
        return False
    others = set(content([stem(t) for t in tokens if not t[:1].isupper()])) - {noun}
    for unit in index.units:
        said = [t.casefold() for t in unit.tokens]
        bare = any(
            stem(t) == noun
            and t != noun
            and t.endswith("s")
            and (i == 0 or said[i - 1] not in PARTIAL)
            and not (i and said[i - 1][:1].isdigit())
            for i, t in enumerate(said)
        )
        if bare and len(others & unit.stems) >= SHARED_WORDS and not _restricting(unit):
            return True
    return False


def _restricting(unit: Unit) -> bool:
    """Return True when a record sentence holds its statement to a part ("for the busiest 3%",
    "except", "only when"), so that it says nothing of the whole kind."""
    return "%" in unit.text or any(
        t.casefold() in LIMITS
        or t.casefold() in SELECTING
        or superlative(t)
        or t.casefold().startswith(("most-", "least-"))
        for t in unit.tokens
    )


def general_reason(claim: str, hit: re.Match[str], index: RecordIndex) -> bool:
    """Return True when "because" gives a present-tense truth about a thing the record names
    ("because approximate search trades one against the other"), not the company's motive."""
    if BECAUSE.match(hit.group()) is None:
        return False
    reason = words(claim[hit.end() :])
    if any(stem(t) in OUTCOMES or stem(t) in OUTCOME_NOUNS for t in reason):
        return False  # "because slow pages cost sales": a business reason is a motive
    rest = reason[:5]
    for at in range(1, min(4, len(rest))):
        verb = rest[at].casefold()
        if not _present(verb):
            continue
        subject = rest[:at]
        if verb in DEMANDS or any(w[:1].isupper() or w.casefold() in AGENTS for w in subject):
            return False
        head = stems(subject[-1])[-1]
        return head not in STOP and head in index.vocabulary
    return False


def _present(word: str) -> bool:
    """Return True for a third-person present verb form ("trades", "is", "has")."""
    if word in ("is", "are", "has", "does"):
        return True
    return len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is", "'s"))


# A comparative that says what a benefit is made of: "with less traffic", "using fewer GPUs".
LESS = frozenset(["less", "fewer", "lower", "smaller", "cheaper", "shorter"])
MEANS = frozenset(["with", "using", "on", "from", "in", "at", "for", "needing"])
# Words of a record sentence that compare one amount with another: "one tenth of the traffic".
RATIO = frozenset(["tenth", "half", "third", "quarter", "fifth", "fraction", "than", "instead"])


def explained_benefit(tokens: list[str], phrase: str, index: RecordIndex) -> bool:
    """Return True when a benefit is followed by what it is made of ("with less traffic") and a
    record sentence states that amount changed or compared ("a tenth of the traffic")."""
    last = words(phrase)[-1:]
    starts = [at for at, t in enumerate(tokens) if last and t == last[0]]
    if not starts:
        return False
    for at in range(starts[0] + 1, len(tokens) - 2):
        if tokens[at].casefold() not in MEANS or tokens[at + 1].casefold() not in LESS:
            continue
        noun = stem(tokens[at + 2])
        for text in index.texts:
            said = {t.casefold() for t in words(text)}
            if noun in {stem(t) for t in said} and (CHANGED & said or RATIO & said):
                return True
    return False


REMOVES = frozenset(
    stem(w) for w in ["removes", "removed", "eliminates", "eliminated", "prevents", "avoids"]
)
KINDS = frozenset(["class", "kind", "type", "category", "family", "source", "whole"])
PROBLEMS = frozenset(
    stem(w)
    for noun in ["error", "bug", "mistake", "failure", "problem", "issue", "fault", "drift"]
    + ["mismatch", "inconsistency", "discrepancy"]
    for w in (noun, f"{noun}s", f"{noun}es", f"{noun[:-1]}ies")
)
BEFORE = re.compile(r"(?i)\b(?:before|until|previously|used\s+to|formerly)\b")


def removed_problem(claim: str, hit: re.Match[str], index: RecordIndex) -> bool:
    """Return True when a removal verb names only a class of problems ("removes a class of
    errors") and a record sentence says how things stood before ("Before X, one in five
    features differed"), sharing two of the claim's words besides its company."""
    if stem(hit.group()) not in REMOVES:
        return False
    after = [t.casefold() for t in words(claim[hit.end() :])[:5]]
    while after and after[0] in ("a", "an", "the", "one", "this", "that", "out"):
        after.pop(0)
    if len(after) < 3 or after[0] not in KINDS or after[1] != "of":
        return False
    if stem(after[2]) not in PROBLEMS:
        return False
    said = set(content([stem(t) for t in words(claim) if not t[:1].isupper()]))
    return any(
        BEFORE.search(unit.text) and len(said & unit.stems) >= SHARED_WORDS for unit in index.units
    )


# "the tables everyone reads": a clause of use after a noun, which "shared tables" restates.
EVERYONE = frozenset(["everyone", "everybody"])
USE_VERBS = frozenset(
    stem(w)
    for w in ["uses", "use", "used", "reads", "read", "touches", "touched", "shares", "shared"]
    + ["needs", "needed", "depends", "relies", "calls", "queries", "writes", "edits", "owns"]
)
SHARED = frozenset(["shared", "common", "communal", "global"])


def shared_by_all(tokens: list[str], at: int, index: RecordIndex) -> bool:
    """Return True when "everyone" says, after a noun and before a verb of use, that the
    thing is shared ("the types everyone uses"), and a record sentence calls it shared."""
    if tokens[at].casefold() not in EVERYONE or not 0 < at < len(tokens) - 1:
        return False
    noun, verb = tokens[at - 1].casefold(), stem(tokens[at + 1].casefold())
    if noun in STOP or verb not in USE_VERBS:
        return False
    head = stem(noun)
    for unit in index.units:
        said = [t.casefold() for t in unit.tokens]
        if any(w in SHARED and stem(n) == head for w, n in zip(said, said[1:], strict=False)):
            return True
    return False
