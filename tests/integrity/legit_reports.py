"""Legitimate editor edits to "What X reports": rounding, arithmetic, style, framing, cuts."""

from __future__ import annotations

import math
import re

from .edits import (
    append_sentence,
    edit_sentence,
    fragment,
    is_scale_line,
    long_record_sentences,
)
from .kinds import ARITHMETIC, CUT, FORMAT, FRAMING, QUOTE, ROUNDING, STYLE
from .model import Registry
from .text import FIGURE, lower_first, paragraphs, replace_once, sentences, sub_once, value

R = Registry()

QUALIFIERS = re.compile(
    r"(?:about|over|above|past|more than|nearly|up to|under|roughly|around|almost|~)\s*$", re.I
)
REPORTS = "reports"
WORDS = {
    1: "one",
    2: "two",
    3: "three",
    4: "four",
    5: "five",
    6: "six",
    7: "seven",
    8: "eight",
    9: "nine",
    10: "ten",
    11: "eleven",
    12: "twelve",
    14: "fourteen",
    20: "twenty",
}


def _write(number: float, like: re.Match[str]) -> str:
    """Write a value in the notation of an existing figure (magnitude word, K, commas)."""
    magnitude = like.group(3) or ""
    unit = like.group(4) or ""
    scale = value(like) / float((like.group(2) or like.group(1)).replace(",", ""))
    shown = number / scale
    text = f"{shown:,.0f}" if shown == int(shown) else f"{shown:g}"
    if "," not in like.group(1):
        text = text.replace(",", "")
    return f"{text}{magnitude}{unit}"


def _rounded(sentence: str, word: str, pick) -> str | None:
    for match in FIGURE.finditer(sentence):
        before = sentence[: match.start()]
        if match.group(2) or QUALIFIERS.search(before) or re.search(r"\b(from|to)\s*$", before):
            continue
        if match.group(4) == "x":
            continue
        number = value(match)
        target = pick(number, match)
        if target is None:
            continue
        return before + f"{word} {_write(target, match)}" + sentence[match.end() :]
    return None


def _big(number: float, match: re.Match[str]) -> bool:
    return number >= 1000 or bool(match.group(3)) or match.group(4) == "%"


def _step(number: float) -> float:
    return 10 ** math.floor(math.log10(number))


def _floor(number, match):
    """The coarsest round number below, within a quarter of the value."""
    if not _big(number, match):
        return None
    for grain in (_step(number), _step(number) / 2):
        target = math.floor(number / grain) * grain
        if 0 < target < number and (number - target) / number <= 0.25:
            return target
    return None


def _nearly(number, match):
    """A round number just above, within 5 % of it (counts of things stay exact)."""
    unit = match.string[match.end() :].split(" ", 2)[1:2]
    if not _big(number, match) and unit not in (["seconds"], ["minutes"], ["hours"], ["ms"]):
        return None
    for grain in (_step(number), _step(number) / 2):
        target = math.ceil(number / grain) * grain
        if target > number and (target - number) / target <= 0.05:
            return target
    return None


def _about(number, match):
    """The nearest round number within 15 %, else the figure itself."""
    if not _big(number, match):
        return None
    step = _step(number)
    target = round(number / step) * step
    return target if target != number and abs(target - number) / number <= 0.15 else number


@R.add(ROUNDING, "more_than", REPORTS)
def _more_than(text, guide, rng):
    return edit_sentence(text, rng, lambda s: _rounded(s, "more than", _floor), scale=True)


@R.add(ROUNDING, "over", REPORTS)
def _over(text, guide, rng):
    return edit_sentence(text, rng, lambda s: _rounded(s, "over", _floor), scale=True)


@R.add(ROUNDING, "nearly", REPORTS)
def _nearly_edit(text, guide, rng):
    return edit_sentence(text, rng, lambda s: _rounded(s, "nearly", _nearly), scale=True)


@R.add(ROUNDING, "about", REPORTS)
def _about_edit(text, guide, rng):
    return edit_sentence(text, rng, lambda s: _rounded(s, "about", _about), scale=True)


@R.add(ROUNDING, "up_to_range", REPORTS)
def _up_to_range(text, guide, rng):
    pattern = r"(?<![\w.])\d+(?:\.\d+)?[-–](\d+(?:\.\d+)?)"
    return edit_sentence(text, rng, lambda s: sub_once(s, pattern, r"up to \1"), scale=True)


@R.add(ROUNDING, "roughly", REPORTS, held_out=True)
def _roughly(text, guide, rng):
    return edit_sentence(text, rng, lambda s: _rounded(s, "roughly", _about), scale=True)


def _hint(guide, kind, text):
    pairs = [(old, new) for k, old, new in guide.hints.arithmetic if k == kind and old in text]
    return pairs


@R.add(ARITHMETIC, "percent", REPORTS)
def _percent(text, guide, rng):
    pairs = _hint(guide, "percent", text)
    return pairs and replace_once(text, *rng.choice(pairs))


@R.add(ARITHMETIC, "fold", REPORTS)
def _fold(text, guide, rng):
    pairs = _hint(guide, "fold", text)
    return pairs and replace_once(text, *rng.choice(pairs))


@R.add(ARITHMETIC, "difference", REPORTS)
def _difference(text, guide, rng):
    pairs = _hint(guide, "difference", text)
    return pairs and replace_once(text, *rng.choice(pairs))


@R.add(ARITHMETIC, "unit_conversion", REPORTS, held_out=True)
def _unit_conversion(text, guide, rng):
    pairs = _hint(guide, "conversion", text)
    return pairs and replace_once(text, *rng.choice(pairs))


@R.add(ARITHMETIC, "times_word", REPORTS)
def _times_word(text, guide, rng):
    def change(sentence):
        return sub_once(
            sentence,
            r"(?<![\w.])(\d+)x\b",
            lambda m: f"{WORDS.get(int(m.group(1)), m.group(1))} times",
        )

    return edit_sentence(text, rng, change, scale=True)


@R.add(FORMAT, "expanded", REPORTS)
def _expanded(text, guide, rng):
    def change(sentence):
        for match in FIGURE.finditer(sentence):
            if match.group(3) and not match.group(2) and not match.group(4):
                number = value(match)
                if number == int(number):
                    return sentence[: match.start()] + f"{int(number):,}" + sentence[match.end() :]
        return None

    return edit_sentence(text, rng, change, scale=True)


@R.add(FORMAT, "compact", REPORTS)
def _compact(text, guide, rng):
    def change(sentence):
        match = re.search(r"(?<![\w.])(\d{1,3}),(\d)00\b(?!,)", sentence)
        if not match:
            return None
        short = match.group(1) + ("" if match.group(2) == "0" else f".{match.group(2)}")
        return sentence[: match.start()] + f"{short}K" + sentence[match.end() :]

    return edit_sentence(text, rng, change, scale=True)


@R.add(FORMAT, "small_to_words", REPORTS)
def _small_to_words(text, guide, rng):
    def change(sentence):
        return sub_once(
            sentence,
            r"(?<![\w.,-])(\d{1,2}) (?=[a-z]{3,})(?!ms\b)",
            lambda m: f"{WORDS[int(m.group(1))]} " if int(m.group(1)) in WORDS else m.group(0),
        )

    return edit_sentence(text, rng, change, scale=True)


@R.add(FORMAT, "words_to_digits", REPORTS)
def _words_to_digits(text, guide, rng):
    numbers = {word: str(n) for n, word in WORDS.items() if n > 1}
    pattern = r"\b(" + "|".join(numbers) + r") (?=[a-z]{3,})"
    return edit_sentence(
        text, rng, lambda s: sub_once(s, pattern, lambda m: numbers[m.group(1)] + " "), scale=True
    )


@R.add(FORMAT, "percent_word", REPORTS)
def _percent_word(text, guide, rng):
    return edit_sentence(text, rng, lambda s: sub_once(s, r"(\d)%", r"\1 percent"), scale=True)


@R.add(FORMAT, "en_dash_range", REPORTS)
def _en_dash_range(text, guide, rng):
    return edit_sentence(text, rng, lambda s: sub_once(s, r"(\d)-(\d)", "\\1–\\2"), scale=True)


@R.add(FRAMING, "according_to_writeup", REPORTS)
def _according_to_writeup(text, guide, rng):
    return edit_sentence(
        text,
        rng,
        lambda s: f"According to the write-up, {lower_first(s, guide.names)}",
        skip_first=True,
    )


@R.add(FRAMING, "company_reports_that", REPORTS)
def _company_reports_that(text, guide, rng):
    return edit_sentence(
        text,
        rng,
        lambda s: (
            None
            if guide.company in s
            else f"{guide.company} reports that {lower_first(s, guide.names)}"
        ),
    )


@R.add(FRAMING, "writeup_explains", REPORTS)
def _writeup_explains(text, guide, rng):
    return edit_sentence(
        text,
        rng,
        lambda s: f"The write-up explains that {lower_first(s, guide.names)}",
        skip_first=True,
    )


@R.add(FRAMING, "company_pronoun", REPORTS)
def _company_pronoun(text, guide, rng):
    name = guide.company
    return edit_sentence(
        text,
        rng,
        lambda s: "The company" + s[len(name) :] if s.startswith(name + " ") else None,
        skip_first=True,
    )


@R.add(FRAMING, "scale_line_reworded", REPORTS)
def _scale_line_reworded(text, guide, rng):
    return replace_once(text, "Scale stated in the source:", "Figures from the write-up:")


@R.add(FRAMING, "team_to_engineers", REPORTS, held_out=True)
def _team_to_engineers(text, guide, rng):
    return edit_sentence(text, rng, lambda s: sub_once(s, r"^The team\b", "Its engineers"))


def _sentence_list(text):
    return [s for p in paragraphs(text) for s in sentences(p)]


@R.add(CUT, "sentence_removed", REPORTS)
def _sentence_removed(text, guide, rng):
    items = _sentence_list(text)
    spots = [i for i, s in enumerate(items) if i > 0 and not is_scale_line(s)]
    if not spots:
        return None
    del items[rng.choice(spots)]
    return " ".join(items)


@R.add(CUT, "scale_line_removed", REPORTS)
def _scale_line_removed(text, guide, rng):
    items = _sentence_list(text)
    kept = [s for s in items if not is_scale_line(s)]
    return " ".join(kept) if kept and len(kept) < len(items) else None


@R.add(CUT, "first_two_kept", REPORTS)
def _first_two_kept(text, guide, rng):
    items = _sentence_list(text)
    return " ".join(items[:2]) if len(items) >= 4 else None


@R.add(CUT, "adjacent_swapped", REPORTS)
def _adjacent_swapped(text, guide, rng):
    items = _sentence_list(text)
    if len(items) < 3:
        return None
    at = rng.randrange(1, len(items) - 1)
    items[at], items[at + 1] = items[at + 1], items[at]
    return " ".join(items)


@R.add(CUT, "scale_line_moved_up", REPORTS)
def _scale_line_moved_up(text, guide, rng):
    items = _sentence_list(text)
    scale = [s for s in items if is_scale_line(s)]
    rest = [s for s in items if not is_scale_line(s)]
    if not scale or len(rest) < 2:
        return None
    return " ".join([rest[0], *scale, *rest[1:]])


@R.add(CUT, "semicolon_merge", REPORTS, held_out=True)
def _semicolon_merge(text, guide, rng):
    items = _sentence_list(text)
    spots = [i for i in range(1, len(items) - 1) if not is_scale_line(items[i + 1])]
    if not spots:
        return None
    at = rng.choice(spots)
    merged = items[at].rstrip(".") + "; " + lower_first(items[at + 1], guide.names)
    return " ".join([*items[:at], merged, *items[at + 2 :]])


@R.add(STYLE, "curly_apostrophes", REPORTS)
def _curly_apostrophes(text, guide, rng):
    return text.replace("'", "’") if "'" in text else None


@R.add(STYLE, "parenthetical_dropped", REPORTS)
def _parenthetical_dropped(text, guide, rng):
    return sub_once(text, r" \((?:[\w-]+ ?){1,2}\)", "")


@R.add(STYLE, "and_split", REPORTS)
def _and_split(text, guide, rng):
    return edit_sentence(
        text,
        rng,
        lambda s: sub_once(
            s, r", and (the|a|an|no|every) ", lambda m: ". " + m.group(1).capitalize() + " "
        ),
    )


@R.add(STYLE, "hyphens_in_reports", REPORTS, held_out=True)
def _hyphens_in_reports(text, guide, rng):
    table = {
        "end-to-end": "end to end",
        "real-time": "real time",
        "main-branch": "main branch",
        "on-demand": "on demand",
        "image-aware": "image aware",
    }
    for old, new in table.items():
        if old in text:
            return text.replace(old, new, 1)
    return None


@R.add(QUOTE, "as_company_puts_it", REPORTS)
def _as_company_puts_it(text, guide, rng):
    items = long_record_sentences(guide, 8)
    if not items:
        return None
    piece = fragment(rng.choice(items), rng, (6, 10))
    return append_sentence(text, f"As {guide.company} puts it, “{piece}”.")
