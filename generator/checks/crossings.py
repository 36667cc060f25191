"""A clause of ours about one company of an article that gives it what another source reports.

Each clause that names a company is held to that company's records (`checks/articles.py`);
this module says whose the words are when they are another source's: a figure or a name
that one write-up states and another is credited with ("about 94% at B" when A's write-up
states the 94%), and the words of a technique that only another source of the article
describes ("Vireo pre-generates …" when only the image pipeline's write-up pre-generates).
"""

from __future__ import annotations

from generator.checks.base import CheckContext, finding, grounding, quote, split_sentences
from generator.checks.claimnames import proper_nouns
from generator.checks.claims import quantities
from generator.checks.figures import stated
from generator.checks.quoting import normalize
from generator.checks.text import STOP, RecordIndex, record_index, stem, stems, words
from generator.guides.document import REPORTS
from generator.guides.findings import Finding

# The findings of a clause about a company whose figure or name may be another source's.
CROSSABLE = ("figures.attributed", "grounding.term", "grounding.actor")
# Shorter words are too common to tell one write-up from another.
MIN_LETTERS = 4
# Plain words of another source that, together in one of its sentences, make a technique.
TOGETHER = 2
# Words any write-up uses of its own work: they tell no technique from another.
COMMON = frozenset(
    stem(w)
    for w in ["uses", "used", "using", "moved", "moves", "handles", "results", "keeps", "runs"]
    + ["makes", "takes", "gives", "shows", "reports", "system", "systems", "service", "data"]
    + ["work", "works", "change", "changes", "changed", "team", "teams", "users", "latency"]
    + ["time", "times", "cost", "costs", "faster", "slower", "higher", "lower", "better"]
    + ["built", "builds", "added", "adds", "needs", "needed", "large", "small", "every"]
    + ["only", "real", "real-world", "production", "about"]
)


def crossed(
    company: str,
    sections: dict[str, list[str]],
    kept: list[Finding],
    contexts: dict[str, CheckContext],
) -> list[Finding]:
    """Say whose a figure or name is when a clause gives the company what another source of
    the article reports: "about 94% at B" when A's write-up states the 94%."""
    out = []
    for section, texts in sections.items():
        said = [f.message for f in kept if f.section == section and f.rule in CROSSABLE]
        if not said:
            continue
        for clause in texts:
            whose: dict[str, list[str]] = {}
            items = [q.figure.text for q in quantities(clause, number_words=False, nouns=False)]
            items += [n for n in proper_nouns(clause) if n not in contexts]
            for item in dict.fromkeys(items):
                if not any(f"{item!r}" in message for message in said):
                    continue
                for other, other_ctx in contexts.items():
                    if other != company and _states(item, clause, other_ctx):
                        whose.setdefault(other, []).append(item)
            for other, found in whose.items():
                out.append(_credit(section, clause, company, other, found, "figure and name"))
    return out


def _states(item: str, clause: str, ctx: CheckContext) -> bool:
    """Return True when a record states a figure or a name of a clause."""
    for q in quantities(clause, number_words=False, nouns=False):
        if q.figure.text == item:
            return stated(q, grounding(ctx), ctx)
    return normalize(item) in record_index(ctx.source).norm_text


def borrowed_words(
    company: str,
    sections: dict[str, list[str]],
    contexts: dict[str, CheckContext],
    beside: dict[tuple[str, str], set[str]],
) -> list[Finding]:
    """Say whose a technique is when a clause about the company uses words that its records
    lack and that only one other source of the article uses: a compound word of that
    source's ("pre-generates"), or two of its plain words from one of its sentences."""
    indexes = {name: record_index(c.source) for name, c in contexts.items()}
    own = indexes.get(company)
    if own is None or len(indexes) < 2:
        return []
    out = []
    for section, texts in sections.items():
        for clause in texts:
            whose: dict[str, list[str]] = {}
            for other, found in _theirs(clause, company, indexes).items():
                if other in beside.get((company, clause), ()):
                    continue  # the clause names that company too: the words may be its
                whose.setdefault(other, []).extend(found)
            for other, found in whose.items():
                out.append(_credit(section, clause, company, other, found, "technique"))
    return out


def borrowed_reports(
    company: str, key: str, text: str, contexts: dict[str, CheckContext]
) -> list[Finding]:
    """Say whose a technique is when a sentence of a company's block uses words that its
    records lack and that only one other source of the article uses."""
    indexes = {name: record_index(c.source) for name, c in contexts.items()}
    if company not in indexes or len(indexes) < 2:
        return []
    out = []
    for sentence in split_sentences(text):
        if any(name != company and name in sentence for name in indexes):
            continue  # another company named: the name rules judge it
        for other, found in _theirs(sentence, company, indexes).items():
            listed = ", ".join(repr(item) for item in found)
            out.append(
                finding(
                    "grounding.claim",
                    "error",
                    REPORTS,
                    f"in the block of {key}: {quote(sentence)} gives {company} {listed}, which "
                    f"the write-up of {other} reports, not that of {company}; report in each "
                    "block only what its own write-up states",
                )
            )
    return out


def _theirs(clause: str, company: str, indexes: dict[str, RecordIndex]) -> dict[str, list[str]]:
    """Return, by source, the clause's words that only that source of the article uses."""
    own = indexes[company]
    lacking: list[tuple[str, str, bool]] = []  # (word, its stem, a compound)
    for token in words(clause):
        if token[:1].isupper() or len(token) < MIN_LETTERS:
            continue
        key = stem(token)
        if key in STOP or token.casefold() in STOP or key in COMMON or _uses(own, token):
            continue
        if "-" in token:
            parts = [p for p in stems(token)[:-1] if len(p) >= MIN_LETTERS and p not in STOP]
            if not any(p not in own.vocabulary for p in parts):
                continue  # "read-only" of two words the company's write-up uses
        lacking.append((token, key, "-" in token))
    out: dict[str, list[str]] = {}
    for other, index in indexes.items():
        if other == company:
            continue
        rest = [i for name, i in indexes.items() if name not in (company, other)]
        theirs = [
            (token, key, compound)
            for token, key, compound in lacking
            if key in index.vocabulary and not any(_uses(i, token) for i in rest)
        ]
        compounds = [token for token, _, compound in theirs if compound]
        plain = [(token, key) for token, key, compound in theirs if not compound]
        together = [
            {key: token for token, key in plain if key in unit.all_stems} for unit in index.units
        ]
        best = max(together, key=len, default={})
        found = compounds + (list(best.values()) if len(best) >= TOGETHER else [])
        if found:
            out[other] = list(dict.fromkeys(found))
    return out


def _uses(index: RecordIndex, token: str) -> bool:
    """Return True when a record uses a word in any of its forms ("miss" for "misses")."""
    lowered = token.casefold()
    forms = {lowered, stem(lowered), stem(f"{lowered}es"), stem(f"{lowered}s")}
    if lowered.endswith("es"):
        forms.add(lowered[:-2])
    return bool(forms & index.vocabulary)


def _credit(
    section: str, clause: str, company: str, other: str, items: list[str], what: str
) -> Finding:
    listed = ", ".join(repr(item) for item in items)
    return finding(
        "grounding.claim",
        "error",
        section,
        f"{quote(clause)} gives {company} {listed}, which the write-up of {other} reports, not "
        f"that of {company}; credit each {what} to the company whose write-up states it",
    )
