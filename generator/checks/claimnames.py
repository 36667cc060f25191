"""The names and terms a claim names: capitalised names and acronyms, the database's
technical terms, and the other companies of the database."""

from __future__ import annotations

import re
from functools import lru_cache

from generator.checks.lexicon import TECH_TERMS_TUPLE
from generator.checks.text import name_head, parts, stems, words

DIGIT_NAME = re.compile(r"\d+(?![KMBTG]\Z|[KMGTP]B\Z|[GMk]W\Z|[GM]Hz\Z)[A-Z][A-Za-z]*")


def proper_nouns(claim: str) -> list[str]:
    """Return the capitalised names, acronyms and product names of a sentence."""
    found = []
    initial = True
    for chunk in claim.split():
        for token in words(chunk):
            for piece in parts(token) if "-" in token else [token]:
                letters = name_head(piece)
                if not letters or not (letters[0].isalpha() or DIGIT_NAME.fullmatch(letters)):
                    continue  # words, and names that open with a digit ("5D", not "40K")
                mixed = any(ch.isupper() for ch in letters[1:]) or any(
                    ch.isdigit() for ch in letters
                )
                if (letters[0].isupper() and not initial) or (mixed and len(letters) > 1):
                    found.append(letters)
            initial = False
        if chunk.endswith((":", ".", "!", "?", "“", '"')) or chunk in ("-", "–", "—"):
            initial = True
    return found


@lru_cache(maxsize=16)
def all_terms(vocabulary: tuple[str, ...]) -> tuple[str, ...]:
    """Return the database's techniques and stack with the common engineering terms."""
    return tuple(sorted({*vocabulary, *TECH_TERMS_TUPLE}))


@lru_cache(maxsize=16)
def _phrases(vocabulary: tuple[str, ...]) -> dict[str, list[tuple[str, ...]]]:
    index: dict[str, list[tuple[str, ...]]] = {}
    for term in vocabulary:
        key = tuple(stems(term))
        if key:
            index.setdefault(key[0], []).append(key)
    return index


def named_terms(claim_stems: list[str], vocabulary: tuple[str, ...]) -> list[tuple[str, ...]]:
    """Return the database's technical terms a claim names."""
    index = _phrases(vocabulary)
    found = []
    for i, token in enumerate(claim_stems):
        for phrase in index.get(token, ()):
            if tuple(claim_stems[i : i + len(phrase)]) == phrase:
                found.append(phrase)
    return found


def contains(haystack: tuple[str, ...], phrase: tuple[str, ...]) -> bool:
    n = len(phrase)
    return any(tuple(haystack[i : i + n]) == phrase for i in range(len(haystack) - n + 1))


def _company_pattern(companies: tuple[str, ...]) -> re.Pattern[str] | None:
    names = [re.escape(c) for c in sorted(companies, key=len, reverse=True) if c.strip()]
    if not names:
        return None
    return re.compile(rf"(?<![\w])(?:{'|'.join(names)})(?![\w])", re.IGNORECASE)


company_pattern = lru_cache(maxsize=16)(_company_pattern)
