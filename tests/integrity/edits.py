"""Shared edit helpers: choose a sentence, a fragment, a step, deterministically."""

from __future__ import annotations

import random
import re
from collections.abc import Callable

from .model import GuideInput
from .text import join_steps, paragraphs, record_sentences, sentences, steps_of, strip_end

SCALE_LINE = "Scale stated in the source"


def is_scale_line(sentence: str) -> bool:
    return sentence.startswith(SCALE_LINE)


def edit_sentence(
    text: str,
    rng: random.Random,
    change: Callable[[str], str | None],
    *,
    skip_first: bool = False,
    scale: bool = False,
) -> str | None:
    """Apply change to one randomly chosen sentence where it applies; None if none does."""
    paras = [sentences(p) if not p.lstrip().startswith("- ") else [p] for p in paragraphs(text)]
    spots = []
    for pi, para in enumerate(paras):
        for si, sentence in enumerate(para):
            if skip_first and (pi, si) == (0, 0):
                continue
            if is_scale_line(sentence) and not scale:
                continue
            new = change(sentence)
            if new is not None and new != sentence:
                spots.append((pi, si, new))
    if not spots:
        return None
    pi, si, new = rng.choice(spots)
    paras[pi][si] = new
    return "\n\n".join(" ".join(para) for para in paras)


def prose_sentences(text: str) -> list[str]:
    """Every sentence of a section's prose, outside lists and the scale line."""
    return [
        s
        for p in paragraphs(text)
        if not p.lstrip().startswith("- ")
        for s in sentences(p)
        if not is_scale_line(s)
    ]


def append_sentence(text: str, sentence: str) -> str:
    """Append a sentence to the last paragraph of a section."""
    return f"{text.rstrip()} {sentence}"


def add_paragraph(text: str, paragraph: str) -> str:
    return f"{text.rstrip()}\n\n{paragraph}"


def other_company(guide: GuideInput, rng: random.Random) -> str:
    return rng.choice(sorted(set(guide.others) - {guide.company}))


def long_record_sentences(guide: GuideInput, minimum: int = 8) -> list[str]:
    return [s for s in record_sentences(guide.record) if len(s.split()) >= minimum]


FUNCTION_WORDS = "a an the of to by with and or for in on at from its that so as into while than"
EDGE_WORDS = set(FUNCTION_WORDS.split()) | {"instead", "is", "are", "only", "no", "not", "then"}


def fragment(sentence: str, rng: random.Random, size: tuple[int, int] = (5, 10)) -> str | None:
    """Return a clause of a sentence, or its start, verbatim, not ending on a function word."""
    spans = []
    for clause in re.split(r"[,;:]\s+|\s+\(|\)\s*", strip_end(sentence)):
        words = clause.split()
        while words and words[0].lower() in EDGE_WORDS:
            words = words[1:]
        for end in range(min(len(words), size[1]), size[0] - 1, -1):
            if words[end - 1].lower() not in EDGE_WORDS:
                spans.append(" ".join(words[:end]))
                break
    return rng.choice(spans) if spans else None


def possessive(name: str) -> str:
    return f"{name}'" if name.endswith("s") else f"{name}'s"


def fragments_in_order(sentence: str, count: int, rng: random.Random) -> list[str] | None:
    """Return count non-adjacent word runs of one sentence, in source order."""
    words = strip_end(sentence).split()
    if len(words) < count * 5:
        return None
    size = 3
    gap = (len(words) - count * size) // count
    parts = []
    for index in range(count):
        start = index * (size + gap) + rng.randint(0, max(0, gap - 1))
        parts.append(" ".join(words[start : start + size]).strip(",;:()"))
    return parts


ADVICE = [
    "measure the slowest requests before tuning anything",
    "keep a rollback plan ready before every change",
    "start with the simplest design that could work",
    "write down the invariant before you move any data",
]


def advice(rng: random.Random) -> str:
    """A piece of career advice as a verb phrase ("measure the slowest requests ...")."""
    return rng.choice(ADVICE)


def system_or_company(guide: GuideInput, rng: random.Random) -> str:
    return rng.choice(guide.hints.systems) if guide.hints.systems else guide.company


def word_sub(text: str, table: dict[str, str], rng: random.Random) -> str | None:
    """Replace one whole word found in text by its entry in table."""
    present = [w for w in table if re.search(rf"\b{re.escape(w)}\b", text)]
    if not present:
        return None
    word = rng.choice(sorted(present))
    return re.sub(rf"\b{re.escape(word)}\b", table[word], text, count=1)


def add_step(text: str, step: str) -> str | None:
    """Add a step to the practice list, if it holds fewer than five."""
    before, items, after = steps_of(text)
    if not items or len(items) >= 5:
        return None
    return join_steps(before, [*items, step], after)


def change_step(text: str, rng: random.Random, change) -> str | None:
    """Change one randomly chosen step."""
    before, items, after = steps_of(text)
    if not items:
        return None
    index = rng.randrange(len(items))
    new = change(items[index])
    if new is None:
        return None
    items[index] = new
    return join_steps(before, items, after)
