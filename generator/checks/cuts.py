"""Cut a text into sentences, lines or clauses where no figure can span the cut."""

from __future__ import annotations

import re

from generator.checks.figurewords import MONTHS, SCALES, WORD_NUMBERS, _plain

# The words a figure can end with and still go on past a space: "54 K\ntimes", "two\nmillion",
# "per\ncent", "May 5th\n2024", "20 to\n30"; a break after any other word is one no figure spans.
BRIDGE_WORDS = frozenset(
    [*WORD_NUMBERS, *SCALES, *MONTHS, "usd", "eur", "gbp", "to", "and", "between"]
    + ["x", "per", "cent", "percent", "percentage", "point", "points", "fold", "times"]
    + ["st", "nd", "rd", "th"]
)
# Spaces after a sentence mark, before a letter or digit: where a sentence may end.
MARK_SPACE = re.compile(r"[.!?](\s+)(?=[A-Za-z0-9])")
# Spaces after a semicolon or colon, before a letter or digit: where a clause may end.
CLAUSE_SPACE = re.compile(r"[;:](\s+)(?=[A-Za-z0-9])")
LIST_MARKER = re.compile(r"\d+[.)]\s")  # what ORDERED_MARKER blanks after a line start
LAST_LETTERS = re.compile(r"[A-Za-z]+\Z")
ASCII_WORD = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
ASCII_ALNUM = frozenset("0123456789").union(ASCII_WORD)


def _space_runs(text: str) -> dict[int, int]:
    """Return the runs of spaces after a sentence mark or holding a line break: start -> end."""
    runs = {match.start(1): match.end(1) for match in MARK_SPACE.finditer(text)}
    at = text.find("\n")
    while at >= 0:
        start, end = at, at + 1
        while start and text[start - 1].isspace():  # str.isspace is what \s matches
            start -= 1
        while end < len(text) and text[end].isspace():
            end += 1
        runs[start] = end
        at = text.find("\n", end)
    return runs


def _cuttable(text: str) -> bool:
    """Return False for a text that may hold a link (which _clean blanks) or an exotic letter."""
    return not ("://" in text or "www." in text or "](" in text or "<" in text) and _plain(text)


def pieces(text: str) -> list[tuple[int, str]]:
    """Cut a text where no figure spans the cut; return each piece with its offset.

    _scan finds in each piece, shifted by its offset, exactly the figures it finds in the
    whole text. A cut is a run of spaces before a letter or digit: one holding a line break
    after a word no figure ends with (BRIDGE_WORDS), that word maybe ending a sentence, or after
    a closing parenthesis that follows no digit; or one within a line, after a sentence mark
    that follows no digit, before a letter. A figure goes
    on past a space only after such a word, a digit or a sign, and a list marker starts only
    at a line start. A text that may hold a link (which _clean blanks, so that a piece could
    start with blanks and a list marker) or an exotic letter is not cut.
    """
    if not _cuttable(text):
        return [(0, text)]
    found, last = [], 0
    runs = _space_runs(text)
    for start in sorted(runs):
        end = runs[start]
        if not start or end >= len(text) or text[end] not in ASCII_ALNUM:
            continue
        if text[start - 1] == ")" and "\n" in text[start:end]:
            if start > 1 and not text[start - 2].isdigit():  # "3)" may be a list marker
                found.append((last, text[last:start]))
                last = end
            continue  # no figure holds a parenthesis, nor goes on past one
        mark = text[start - 1] in ".!?"
        if not mark and text[start - 1] not in ASCII_WORD:
            continue  # a line break after a digit, a sign or a space: a figure may go on
        if "\n" in text[start:end]:
            stop = start - 1 if mark else start
            word = LAST_LETTERS.search(text, max(last, stop - 24), stop)
            if word is None or word.start() == stop - 24 or word.group().lower() in BRIDGE_WORDS:
                continue
        elif not mark or not text[end].isalpha() or start < 2 or text[start - 2].isdigit():
            continue  # within a line: only sentences, and never before a digit
        found.append((last, text[last:start]))
        last = end
    found.append((last, text[last:]))
    return found


def clauses(text: str) -> list[tuple[int, str]]:
    """Cut a text after its semicolons and colons; return each clause with its offset.

    As pieces() does, and so that a list of the record's scale items ("Scale stated in the
    source: a; b; c.") yields the items' own texts: the mark and the spaces after it are left
    out, and so is a closing sentence mark after a word once the text is cut. No figure holds
    or goes on past such a mark; a clause must not start with a list marker, which _clean
    blanks only at a line start.
    """
    if not _cuttable(text):
        return [(0, text)]
    found, last = [], 0
    for cut in CLAUSE_SPACE.finditer(text):
        if LIST_MARKER.match(text, cut.end()) is None:
            found.append((last, text[last : cut.start()]))
            last = cut.end()
    if found and len(text) - last > 1 and text[-1] in ".!?" and text[-2] in ASCII_WORD:
        found.append((last, text[last:-1]))
    else:
        found.append((last, text[last:]))
    return found
