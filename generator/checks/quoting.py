"""Quotations: find quoted text and test it against a source, up to typography and case."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

# Every alternative starts with its opening mark (the check before ‘ looks back over it), so a
# scan skips straight to the next mark.
QUOTED = re.compile(
    r'"(?P<a>[^"\n]+)"'
    r"|“(?P<b>[^”\n]+)”"
    r"|«\s?(?P<c>[^»\n]+?)\s?»"
    r"|‘(?<![\w’']‘)(?P<d>[^‘\n]+?)’(?![\w])"
)
ELLIPSIS = re.compile(r"\s*(?:\.\s?\.\s?\.|…)\s*|\s*\[(?:\.\.\.|…)\]\s*")
TYPOGRAPHY = str.maketrans(
    {
        "“": '"',
        "”": '"',
        "„": '"',
        "«": '"',
        "»": '"',
        "‘": "'",
        "’": "'",
        "‚": "'",
        "`": "'",
        "´": "'",
        "–": "-",
        "—": "-",
        "‒": "-",
        "‐": "-",
        "‑": "-",
        "\u00a0": " ",
        "\u202f": " ",
        "\u2009": " ",
    }
)
EDGE_PUNCTUATION = " \t\n.,;:!?\"'"


@dataclass(frozen=True, slots=True)
class Quote:
    """One quotation in a text."""

    text: str
    start: int


@lru_cache(maxsize=4096)
def normalize(text: str) -> str:
    """Fold case, quote style, dash style and whitespace."""
    if not text.isascii() or "`" in text:  # the only ASCII character TYPOGRAPHY maps
        text = text.translate(TYPOGRAPHY)
    return " ".join(text.casefold().split())


@lru_cache(maxsize=4096)
def normalized_source(text: str) -> str:
    """Normalise a source text once; the result is reused for every quote checked against it."""
    return normalize(text)


def find_quotes(text: str) -> list[Quote]:
    """Return the quotations in a text."""
    quotes = []
    for match in QUOTED.finditer(text):
        inner = next(group for group in match.groups() if group is not None)
        if inner.strip():
            quotes.append(Quote(inner, match.start()))
    return quotes


def is_verbatim(quote: str, source_text: str) -> bool:
    """Return True when every part of a quote (split at ellipses) appears in order in the source."""
    haystack = normalized_source(source_text)
    position = 0
    parts = [normalize(part).strip(EDGE_PUNCTUATION) for part in ELLIPSIS.split(quote)]
    parts = [part for part in parts if part]
    if not parts:
        return True
    for part in parts:
        found = haystack.find(part, position)
        if found < 0:
            return False
        position = found + len(part)
    return True
