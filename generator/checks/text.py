"""Plain language tools for the rules: tokens, stems, record sentences and their alignment."""

from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass
from functools import cached_property, lru_cache
from itertools import chain, filterfalse

from generator.checks.base import split_sentences
from generator.checks.quoting import normalize
from generator.sources.records import Source

# Words joined by hyphens or apostrophes stay one token; every separator is required, so a
# long hyphenated run is matched in one pass.
WORD = re.compile(r"[^\W_]+(?:[-'’][^\W_]+)*")
STOP = frozenset(
    [
        "a",
        "an",
        "the",
        "and",
        "or",
        "but",
        "of",
        "to",
        "in",
        "on",
        "at",
        "by",
        "for",
        "with",
        "from",
        "into",
        "onto",
        "over",
        "under",
        "as",
        "is",
        "are",
        "was",
        "were",
        "be",
        "been",
        "being",
        "it",
        "its",
        "this",
        "that",
        "these",
        "those",
        "their",
        "there",
        "they",
        "them",
        "we",
        "our",
        "you",
        "your",
        "i",
        "he",
        "she",
        "his",
        "her",
        "than",
        "then",
        "so",
        "such",
        "which",
        "who",
        "whom",
        "whose",
        "what",
        "when",
        "where",
        "while",
        "also",
        "can",
        "could",
        "would",
        "should",
        "will",
        "shall",
        "has",
        "have",
        "had",
        "do",
        "does",
        "did",
        "via",
        "per",
        "across",
        "about",
        "after",
        "before",
        "between",
        "both",
        "each",
        "more",
        "most",
        "less",
        "very",
        "just",
        "up",
        "out",
        "if",
        "because",
        "through",
        "during",
        "within",
        "without",
        "not",
        "no",
        "among",
        "around",
        "against",
        "upon",
        "any",
        "own",
        "same",
        "other",
        "another",
        "s",
    ]
)
POSSESSIVE = re.compile(r"['’]s\Z", re.IGNORECASE)


def words(text: str) -> list[str]:
    """Return the word tokens of a text, hyphenated words kept whole."""
    return list(_words(text))


@lru_cache(maxsize=8192)
def _words(text: str) -> tuple[str, ...]:
    return tuple(WORD.findall(text))


@lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """Fold a word to a crude stem that equal forms share ("hours"/"hour", "halved"/"halve")."""
    original = POSSESSIVE.sub("", word)
    word = original.casefold().replace("’", "'")
    if len(original) > 2 and original[-1] == "s" and original[-2].isupper():
        return word[:-1]  # "GPUs", "FLOPs"
    if len(word) > 4 and word.endswith("ies"):
        word = word[:-3] + "y"
    elif len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        word = word[:-1]
    for suffix in ("ing", "ed"):
        if len(word) > len(suffix) + 3 and word.endswith(suffix):
            word = word[: -len(suffix)]
            if len(word) > 2 and word[-1] == word[-2] and word[-1] not in "ls":
                word = word[:-1]
            break
    if len(word) > 4 and word.endswith("e"):
        word = word[:-1]
    return word


HYPHEN_PARTS = re.compile(r"[-'’]")


def parts(token: str) -> list[str]:
    """Split a hyphenated token into its parts (the token itself when it has none)."""
    return [p for p in HYPHEN_PARTS.split(token) if p] if "-" in token else [token]


@lru_cache(maxsize=65536)
def stems(text: str) -> tuple[str, ...]:
    """Return the stems of every word and hyphen part of a text (cached per text)."""
    if "-" not in text:
        return tuple(map(stem, words(text)))  # no token has a hyphen part
    out = []
    for token in words(text):
        if "-" in token:
            pieces = parts(token)
            out.extend(stem(piece) for piece in pieces)
            if len(pieces) > 1:
                out.append(stem(token))
        else:
            out.append(stem(token))
    return tuple(out)


@lru_cache(maxsize=65536)
def folded_words(text: str) -> frozenset[str]:
    """Return the case-folded words of a text (cached per text)."""
    return frozenset(w.casefold() for w in words(text))


def content(stemmed: tuple[str, ...] | list[str]) -> list[str]:
    return [s for s in stemmed if s not in STOP]


@dataclass(frozen=True, slots=True)
class Unit:
    """One sentence of a record (or a scale item) that a claim can take as its evidence."""

    text: str
    norm: str
    stems: frozenset[str]
    counts: tuple[tuple[str, int], ...]
    length: int
    all_stems: frozenset[str]
    tokens: tuple[str, ...]


LEAD_IN = re.compile(
    r"\A(?:according\s+to\s+[^:,\n]{1,80}[:,]|scale\s+stated\s+in\s+the\s+source:)\s*",
    re.IGNORECASE,
)


def split_units(text: str) -> list[str]:
    return [p.strip() for p in split_sentences(text) if p and p.strip()]


class RecordIndex:
    """A record's sentences, indexed for alignment, and every word the record uses.

    Only the sentences are indexed up front; the rest is built on first use, so a guide whose
    reported sentences are the record's own never pays for the alignment weights or vocabulary.
    """

    def __init__(self, texts: list[str], extra: str, titles: tuple[str, ...] = ()) -> None:
        self.texts = texts  # the record's sentences, scale items and titles
        self.extra = extra  # company, publishers, techniques and stack, space-separated
        self.titles = titles  # the record's and its citations' titles, also in texts
        self.units: tuple[Unit, ...] = tuple(_unit(text) for text in texts if text.strip())

    @cached_property
    def _weights(self) -> tuple[dict[str, float], float]:
        units = self.units
        frequency = Counter(chain.from_iterable(unit.stems for unit in units))
        total = max(1, len(units))
        weight = {n: math.log(1 + (total - n + 0.5) / (n + 0.5)) for n in set(frequency.values())}
        avg = sum(unit.length for unit in units) / total
        return {s: weight[n] for s, n in frequency.items()}, avg or 1.0

    @property
    def idf(self) -> dict[str, float]:
        return self._weights[0]

    @property
    def avg_length(self) -> float:
        return self._weights[1]

    @cached_property
    def vocabulary(self) -> frozenset[str]:
        pieces = [*self.texts, self.extra]
        return frozenset().union(*(stems(t) for t in pieces), *map(folded_words, pieces))

    @cached_property
    def norm_text(self) -> str:
        return normalize("\n".join([*self.texts, self.extra]))

    @cached_property
    def sequence(self) -> tuple[str, ...]:
        sequence: list[str] = []
        for t in [*self.texts, self.extra]:
            sequence += stems(t)
            sequence.append("\0")
        return tuple(sequence)

    @cached_property
    def names(self) -> frozenset[str]:
        return _names(self.texts)

    @cached_property
    def system_names(self) -> frozenset[str]:
        """Return the names that stand for the company's own systems and products.

        An acronym or mixed-case name (GEM, LoopFM, GB200) always does. A plain capitalised
        word does only when the record's prose capitalises it inside a sentence and never
        writes it in lower case: title case ("Scaling the Central Model") and common words
        ("Model", "Training") are not the company.
        """
        prose_texts = [text for text in self.texts if text not in self.titles]
        prose = _names(prose_texts)
        lower = {w for text in self.texts for w in words(text) if w.islower()}
        single = {
            name
            for name in self.names
            if name[1:] != name[1:].lower()
            or any(char.isdigit() for char in name)
            or (name in prose and name.lower() not in lower)
        }
        return frozenset(single | _name_runs(prose_texts, prose))


@lru_cache(maxsize=16384)
def _unit(text: str) -> Unit:
    every = stems(text)
    stemmed = content(every)
    counts = tuple(Counter(stemmed).items())
    return Unit(
        text,
        normalize(text),
        frozenset(stemmed),
        counts,
        len(stemmed),
        frozenset(every),
        tuple(words(text)),
    )


_LAST: dict[int, tuple[Source, RecordIndex]] = {}


def record_index(source: Source) -> RecordIndex:
    """Index a record's sentences (cached per record content)."""
    last = _LAST.get(id(source))
    if last is not None and last[0] is source:
        return last[1]
    index = _index_of(source)
    if len(_LAST) > 64:
        _LAST.clear()
    _LAST[id(source)] = (source, index)
    return index


def _index_of(source: Source) -> RecordIndex:
    return _record_index(
        source.title,
        source.summary,
        source.notes or "",
        tuple(source.scale),
        tuple(c.title for c in source.citations),
        " ".join(
            [source.company, source.publisher_name, *source.techniques, *source.stack]
            + [c.publisher or "" for c in source.citations]
        ),
    )


@lru_cache(maxsize=4096)
def _record_index(
    title: str,
    summary: str,
    notes: str,
    scale: tuple[str, ...],
    titles: tuple[str, ...],
    extra: str,
) -> RecordIndex:
    texts = [*split_units(summary), *split_units(notes), *scale, title, *titles]
    if len(scale) > 1:
        texts.append("; ".join(scale))
    return RecordIndex(texts, extra, (title, *titles))


GENERIC_ACRONYMS = frozenset(
    [
        "ai",
        "ml",
        "llm",
        "llms",
        "gpu",
        "gpus",
        "cpu",
        "cpus",
        "tpu",
        "tpus",
        "api",
        "apis",
        "mfu",
        "flop",
        "flops",
        "sql",
        "http",
        "sla",
        "slas",
        "p99",
        "p50",
        "ram",
        "ssd",
        "io",
        "etl",
        "ci",
        "cd",
        "os",
        "id",
        "ids",
        "ui",
        "ux",
        "qps",
        "rps",
    ]
)


def _names(texts: list[str]) -> frozenset[str]:
    """Return the record's own names: capitalised words inside sentences, and acronyms."""
    return frozenset().union(*(_text_names(text) for text in texts))


@lru_cache(maxsize=16384)
def _text_names(text: str) -> frozenset[str]:
    """Return the capitalised words inside one sentence, and its acronyms."""
    tokens = words(text)
    found: set[str] = set()
    if tokens:
        _add_heads(found, tokens[0], False)
    # A token with no capital (islower) has no capitalised head: most words are skipped in C.
    for token in filterfalse(str.islower, tokens[1:]):
        if "-" in token or token[0].isupper():  # else its one head starts without a capital
            _add_heads(found, token, True)
    return frozenset(found)


def name_head(token: str) -> str:
    """Return a word without its possessive or contraction ("GEM's" -> "GEM")."""
    return token.split("'", 1)[0].split("’", 1)[0]


CAPITALISED_RUN = re.compile(r"[A-Z][\w-]*(?:['’]s)?(?:[ \t]+[A-Z][\w-]*(?:['’]s)?)+")


def _name_runs(texts: list[str], names: frozenset[str]) -> set[str]:
    """Return the runs of two or more names written together ("Universal Product Identifier")."""
    runs: set[str] = set()
    for text in texts:
        for match in CAPITALISED_RUN.finditer(text):
            run: list[str] = []
            for token in [*match.group().split(), ""]:
                head = name_head(token)
                if head and head in names:
                    run.append(head)
                    if head != token:  # a possessive ends the name
                        token = ""
                if not head or head not in names or not token:
                    if len(run) >= 2:
                        runs.add(" ".join(run))
                    run = []
    return runs


def _add_heads(found: set[str], token: str, inside: bool) -> None:
    """Add a token's capitalised heads; the first word of a sentence counts only when mixed."""
    for piece in parts(token):
        head = name_head(piece)
        if len(head) < 2 or not head[0].isupper():
            continue
        if (inside or head[1:] != head[1:].lower()) and head.casefold() not in GENERIC_ACRONYMS:
            found.add(head)


def align(claim_stems: list[str], index: RecordIndex, limit: int = 3) -> list[tuple[float, Unit]]:
    """Rank the record's sentences by BM25 against a claim; return the best few."""
    query = set(claim_stems)
    scored = []
    for unit in index.units:
        counts = dict(unit.counts)
        score = 0.0
        for term in query & unit.stems:
            tf = counts[term]
            norm = tf * 2.2 / (tf + 1.2 * (0.25 + 0.75 * unit.length / index.avg_length))
            score += index.idf.get(term, 0.0) * norm
        if score > 0:
            scored.append((score, unit))
    scored.sort(key=lambda pair: -pair[0])
    return scored[:limit]


def overlap(a: list[str], b: frozenset[str]) -> float:
    """Return the share of a's tokens that b holds."""
    return sum(1 for token in a if token in b) / len(a) if a else 0.0
