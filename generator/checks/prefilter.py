"""Skip a regular expression search when the text lacks a word every match must contain.

`gated(pattern)` reads the compiled pattern and finds a set of literal strings one of which
every match holds ("recommend", "advis", …); its `search` returns None at once when the text
holds none of them, and otherwise is the pattern's own search. The answer is always the
pattern's: the gate only spares scans that cannot succeed.
"""

from __future__ import annotations

import re
import re._constants as sre
import re._parser as sre_parse
from collections.abc import Iterator

# EXOTIC: characters that match an ASCII letter case-insensitively although lower() does not
# map them to it; a text holding one is always searched in full.
from generator.checks.figurewords import EXOTIC
from generator.checks.numbers import word_starts

ZERO_WIDTH = (sre.AT, sre.ASSERT, sre.ASSERT_NOT)
REPEATS = (sre.MAX_REPEAT, sre.MIN_REPEAT, sre.POSSESSIVE_REPEAT)


def _score(needles: frozenset[str]) -> tuple[int, int]:
    """Rank needle sets: the longer their shortest needle and the fewer they are, the better."""
    return min(len(n) for n in needles), -len(needles)


def _needles(items) -> frozenset[str] | None:
    """Return lower-case strings one of which every match of a parsed sequence holds, or None."""
    best: frozenset[str] | None = None
    run = ""

    def consider(found: frozenset[str] | None) -> None:
        nonlocal best
        if found and (best is None or _score(found) > _score(best)):
            best = found

    for op, av in items:
        if op is sre.LITERAL and chr(av).isascii():
            run += chr(av).lower()
            continue
        if op in ZERO_WIDTH:
            continue  # matches no character: the literals on either side stay adjacent
        consider(frozenset([run]) if run else None)
        run = ""
        if op is sre.SUBPATTERN:
            consider(_needles(av[-1]))
        elif op is sre.ATOMIC_GROUP:
            consider(_needles(av))
        elif op is sre.BRANCH:
            alternatives = [_needles(branch) for branch in av[1]]
            if all(alternatives):
                consider(frozenset().union(*alternatives))
        elif op in REPEATS and av[0] >= 1:
            consider(_needles(av[2]))
    consider(frozenset([run]) if run else None)
    return best


def needles(pattern: re.Pattern[str]) -> frozenset[str] | None:
    """Return lower-case strings one of which every match of a pattern holds, or None."""
    return _needles(sre_parse.parse(pattern.pattern, pattern.flags))


# At most this many ways a match may start, or the pattern is searched as it is.
MAX_STARTS = 64


def _heads(items, fold: bool = True) -> set[tuple[str, bool]] | None:
    """Return (head, whole) pairs: every match of a parsed sequence starts with a head, and
    is exactly that head where whole is True; None when there are too many to list."""
    current = {("", True)}
    for op, av in items:
        if op in ZERO_WIDTH:
            continue  # matches no character: the heads go on after it
        if not any(whole for _, whole in current):
            break
        following = _item_heads(op, av, fold)
        if following is None:
            return None
        current = {
            (head + more, whole and more_whole) if whole else (head, False)
            for head, whole in current
            for more, more_whole in (following if whole else [("", False)])
        }
        if len(current) > MAX_STARTS:
            return None
    return current


def _item_heads(op, av, fold: bool) -> set[tuple[str, bool]] | None:
    """Return the (head, whole) pairs of one parsed item (its characters unknown: ("", False))."""
    if op is sre.LITERAL:
        char = chr(av)
        if not (char.isascii() or 0xE000 <= av <= 0xF8FF):
            return UNKNOWN
        # A private-use mark has no case; an ASCII letter is found in lower case when folded.
        return {(char.lower() if fold else char, True)}
    if op is sre.SUBPATTERN:
        if not fold and av[1] & sre.SRE_FLAG_IGNORECASE:
            return UNKNOWN  # "(?i:…)" matches other cases than it spells
        return _heads(av[-1], fold)
    if op is sre.ATOMIC_GROUP:
        return _heads(av, fold)
    if op is sre.BRANCH:
        found: set[tuple[str, bool]] = set()
        for branch in av[1]:
            heads = _heads(branch, fold)
            if heads is None:
                return None
            found |= heads
        return found
    if op in REPEATS:
        low, high, body = av
        heads = _heads(body, fold)
        if heads is None:
            return None
        if low == 0 and high == 1:
            return heads | {("", True)}
        started = {(head, False) for head, _ in heads}
        return started if low else started | {("", True)}
    return UNKNOWN


UNKNOWN = {("", False)}


def starts(pattern: re.Pattern[str], fold: bool = True) -> tuple[str, ...] | None:
    """Return strings one of which every match of a pattern starts with, or None.

    In lower case when fold (for a scan of the lower-case text), else as the pattern spells
    them. None when a match may start with any character. No string of the result starts
    with another: the shorter one finds every place the longer one would.
    """
    heads = _heads(sre_parse.parse(pattern.pattern, pattern.flags), fold)
    if heads is None or any(not head for head, _ in heads):
        return None
    found: list[str] = []
    for head in sorted({head for head, _ in heads}, key=len):
        if not any(head.startswith(shorter) for shorter in found):
            found.append(head)
    return tuple(found)


EXOTIC_CHAR = re.compile(f"[{EXOTIC}]")
_LAST: tuple[str, str | None] = ("", "")


def _lowered(text: str) -> str | None:
    """Return text.lower(), or None for a text with an exotic character (search it in full).

    Computed once for the several patterns that search one text in a row.
    """
    global _LAST
    last = _LAST
    if last[0] is text:
        return last[1]
    lowered = None if EXOTIC_CHAR.search(text) else text.lower()
    _LAST = (text, lowered)
    return lowered


class Gated:
    """A compiled pattern whose search first looks for a word every match holds.

    When every match starts with one of a few words and no single one (the scan skips to a
    pattern's one opening word by itself), the search tries the pattern only where such a word
    starts, in order: the first match there is the one a full scan finds first.
    """

    def __init__(self, pattern: re.Pattern[str]) -> None:
        self.compiled = pattern
        found = sorted(needles(pattern) or (), key=lambda n: (-len(n), n))
        self.gate = re.compile("|".join(map(re.escape, found))) if found else None
        heads = starts(pattern)
        self.starts = heads if heads is not None and len(heads) > 1 else None

    def search(self, text: str, *args) -> re.Match[str] | None:
        if args or (self.gate is None and self.starts is None):
            return self.compiled.search(text, *args)
        lowered = _lowered(text)
        if lowered is None:
            return self.compiled.search(text)
        if self.gate is not None and self.gate.search(lowered) is None:
            return None
        if self.starts is None:
            return self.compiled.search(text)
        return _first_match(self.compiled, self.starts, text, lowered)

    def finditer(self, text: str, *args):
        """Return what pattern.finditer(text) finds, trying only where a match can start."""
        if args or (self.gate is None and self.starts is None):
            return self.compiled.finditer(text, *args)
        lowered = _lowered(text)
        if lowered is None:
            return self.compiled.finditer(text)
        if self.gate is not None and self.gate.search(lowered) is None:
            return iter(())
        if self.starts is None:
            return self.compiled.finditer(text)
        return iter(_all_matches(self.compiled, self.starts, text, lowered))

    def __getattr__(self, name: str):
        return getattr(self.compiled, name)


def _all_matches(
    pattern: re.Pattern[str], heads: tuple[str, ...], text: str, where: str
) -> list[re.Match[str]]:
    """Return pattern.finditer(text)'s matches, trying only where one of the heads starts."""
    found: list[re.Match[str]] = []
    last = 0
    for at in sorted(word_starts(where, heads)):
        if at < last:
            continue
        match = pattern.match(text, at)
        if match is not None and match.end() > match.start():
            found.append(match)
            last = match.end()
    return found


def _first_match(
    pattern: re.Pattern[str], heads: tuple[str, ...], text: str, where: str
) -> re.Match[str] | None:
    """Return pattern.search(text), trying only where one of the heads starts in where."""
    for at in sorted(word_starts(where, heads)):
        match = pattern.match(text, at)
        if match is not None:
            return match
    return None


class Started:
    """A case-sensitive compiled pattern searched only where one of its opening words starts.

    A pattern with one opening word, or none to tell, is searched as it is (the engine skips
    to a single opening word by itself).
    """

    def __init__(self, pattern: re.Pattern[str]) -> None:
        self.compiled = pattern
        heads = None if pattern.flags & re.IGNORECASE else starts(pattern, fold=False)
        self.heads = heads if heads is not None and len(heads) > 1 else None

    def search(self, text: str) -> re.Match[str] | None:
        if self.heads is None:
            return self.compiled.search(text)
        return _first_match(self.compiled, self.heads, text, text)

    def __getattr__(self, name: str):
        return getattr(self.compiled, name)


def gated(pattern: re.Pattern[str]) -> Gated:
    """Wrap a compiled pattern so that hopeless searches return None without scanning."""
    return Gated(pattern)


class Names:
    """A compiled pattern of whole-word names (base.entity_pattern's), scanned in lower case.

    Behaves as the pattern for search, finditer and sub with a function. For ASCII names and a
    text without an exotic character, the same pattern in lower case, matched case-sensitively
    on the lower-case text, matches at the same offsets (lower() keeps every offset and word
    boundary there) and scans faster; each of its matches is then taken from the pattern at
    that offset, so callers see the text's own letters. Otherwise it is the pattern's own scan.
    The matches of the last text are kept: a rule asks whether a sentence names the company,
    then masks the names in it.
    """

    def __init__(self, pattern: re.Pattern[str], names: tuple[str, ...]) -> None:
        self.compiled = pattern
        self.lower = None
        if names and all(name.isascii() for name in names):
            alternatives = "|".join(re.escape(name.lower()) for name in names)
            self.lower = re.compile(rf"(?<![\w])(?:{alternatives})(?![\w])")
        self._last: tuple[str | None, list[re.Match[str]]] = (None, [])

    def _at(self, text: str, hit: re.Match[str]) -> re.Match[str] | None:
        """Return the pattern's match where the lower-case scan found one (None if it differs)."""
        found = self.compiled.match(text, hit.start())
        return found if found is not None and found.end() == hit.end() else None

    def _matches(self, text: str) -> list[re.Match[str]]:
        last = self._last
        if last[0] is text:
            return last[1]
        lowered = _lowered(text) if self.lower is not None else None
        found = None
        if lowered is not None:
            found = [self._at(text, hit) for hit in self.lower.finditer(lowered)]
        if found is None or None in found:
            found = list(self.compiled.finditer(text))
        self._last = (text, found)
        return found

    def finditer(self, text: str) -> Iterator[re.Match[str]]:
        return iter(self._matches(text))

    def search(self, text: str, *args) -> re.Match[str] | None:
        if args:
            return self.compiled.search(text, *args)
        last = self._last
        if last[0] is text:
            return last[1][0] if last[1] else None
        lowered = _lowered(text) if self.lower is not None else None
        if lowered is None:
            return self.compiled.search(text)
        hit = self.lower.search(lowered)
        if hit is None:
            return None
        found = self._at(text, hit)
        return found if found is not None else self.compiled.search(text)

    def sub(self, repl, text: str, *args) -> str:
        if args or not callable(repl):
            return self.compiled.sub(repl, text, *args)
        pieces, last = [], 0
        for match in self._matches(text):
            pieces += [text[last : match.start()], repl(match)]
            last = match.end()
        pieces.append(text[last:])
        return "".join(pieces)

    def __getattr__(self, name: str):
        return getattr(self.compiled, name)
