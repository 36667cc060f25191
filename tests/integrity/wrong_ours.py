"""Wrong edits that present the source's words as ours, break headings or steps, or put a
figure about the company into our sections."""

from __future__ import annotations

import re

from .edits import (
    add_step,
    append_sentence,
    change_step,
    long_record_sentences,
    possessive,
    system_or_company,
)
from .kinds import ANGLE, COPIED, DUPLICATE, HEADINGS, NEAR, OURS_FIGURE, STEP_FORM
from .model import Registry
from .text import figures, lower_first, record_sentences, steps_of, strip_end

R = Registry()


# --- our sections stay ours -----------------------------------------------------------------


def _record_sentence(guide, rng, minimum=8):
    items = long_record_sentences(guide, minimum)
    return rng.choice(items) if items else None


@R.add(COPIED, "in_interpretation", "interpretation")
def _in_interpretation(text, guide, rng):
    sentence = _record_sentence(guide, rng)
    return sentence and append_sentence(text, sentence)


@R.add(COPIED, "in_case_study", "case_study")
def _in_case_study(text, guide, rng):
    sentence = _record_sentence(guide, rng)
    return sentence and f"{sentence} {text}"


@R.add(COPIED, "as_step", "steps")
def _as_step(text, guide, rng):
    sentence = _record_sentence(guide, rng)
    return sentence and add_step(text, sentence)


@R.add(NEAR, "one_word_changed", "interpretation")
def _one_word_changed(text, guide, rng):
    sentence = _record_sentence(guide, rng, 12)
    if not sentence:
        return None
    words = sentence.split()
    index = rng.randrange(1, len(words) - 1)
    words[index] = {"the": "a", "a": "the"}.get(words[index], "the")
    return append_sentence(text, " ".join(words))


@R.add(NEAR, "prefixed", "case_study")
def _prefixed(text, guide, rng):
    sentence = _record_sentence(guide, rng, 10)
    return sentence and append_sentence(text, f"Notably, {lower_first(sentence, guide.names)}")


@R.add(NEAR, "words_slipped_in", "interpretation")
def _words_slipped_in(text, guide, rng):
    sentence = _record_sentence(guide, rng, 8)
    if not sentence:
        return None
    words = strip_end(sentence).split()
    for extra in ("clearly", "in practice", "quietly", "at last", "as a result"):
        at = rng.randrange(1, len(words))
        words[at:at] = extra.split()
    return append_sentence(text, " ".join(words) + ".")


@R.add(NEAR, "step_from_record", "steps", held_out=True)
def _step_from_record(text, guide, rng):
    sentence = _record_sentence(guide, rng, 10)
    if not sentence:
        return None
    return add_step(text, f"Note that {lower_first(sentence, guide.names)}")


def _set_heading(guide, key, make):
    body = guide.parsed()
    heading = body.heading(key)
    if not heading:
        return None
    new = make(heading)
    if new is None or new == heading:
        return None
    body.set_heading(key, new)
    return body.render()


ANGLE_PREFIX = "Our career interpretation: "


@R.add(ANGLE, "first_sentence", "interpretation", whole=True)
def _first_sentence(guide, rng):
    items = long_record_sentences(guide, 6)
    return items and _set_heading(guide, "interpretation", lambda h: ANGLE_PREFIX + items[0])


@R.add(ANGLE, "sentence_without_period", "interpretation", whole=True)
def _sentence_without_period(guide, rng):
    sentence = _record_sentence(guide, rng, 8)
    return sentence and _set_heading(
        guide,
        "interpretation",
        lambda h: ANGLE_PREFIX + lower_first(strip_end(sentence), guide.names),
    )


@R.add(ANGLE, "clause_of_sentence", "interpretation", whole=True, held_out=True)
def _clause_of_sentence(guide, rng):
    sentence = _record_sentence(guide, rng, 12)
    if not sentence:
        return None
    words = strip_end(sentence).split()
    return _set_heading(guide, "interpretation", lambda h: ANGLE_PREFIX + " ".join(words[:10]))


@R.add(HEADINGS, "long_angle", "interpretation", whole=True)
def _long_angle(guide, rng):
    return _set_heading(
        guide,
        "interpretation",
        lambda h: f"{h} and explain every trade-off to the hiring committee clearly",
    )


@R.add(HEADINGS, "figure_angle", "interpretation", whole=True)
def _figure_angle(guide, rng):
    items = [m.group(0) for s in record_sentences(guide.record) for m in figures(s)]
    if not items:
        return None
    return _set_heading(
        guide, "interpretation", lambda h: f"{ANGLE_PREFIX}learn from {rng.choice(items)}"
    )


@R.add(HEADINGS, "title_sentence", "case_study", whole=True)
def _title_sentence(guide, rng):
    sentence = _record_sentence(guide, rng, 8)
    return sentence and _set_heading(
        guide, "case_study", lambda h: f"Build a {sentence} case study"
    )


@R.add(HEADINGS, "angle_punctuation", "interpretation", whole=True)
def _angle_punctuation(guide, rng):
    return _set_heading(guide, "interpretation", lambda h: f"{h}. Then optimise!")


@R.add(HEADINGS, "title_figure", "case_study", whole=True, held_out=True)
def _title_figure(guide, rng):
    items = [m.group(0) for s in record_sentences(guide.record) for m in figures(s)]
    if not items:
        return None
    return _set_heading(
        guide, "case_study", lambda h: f"Build a {rng.choice(items)} scale case study"
    )


@R.add(DUPLICATE, "exact_copy", "steps")
def _exact_copy(text, guide, rng):
    _, items, _ = steps_of(text)
    return items and add_step(text, rng.choice(items))


@R.add(DUPLICATE, "always_prefix", "steps")
def _always_prefix(text, guide, rng):
    _, items, _ = steps_of(text)
    return items and add_step(text, f"Always {lower_first(rng.choice(items))}")


@R.add(DUPLICATE, "first_suffix", "steps")
def _first_suffix(text, guide, rng):
    _, items, _ = steps_of(text)
    return items and add_step(text, f"{strip_end(rng.choice(items))} first.")


@R.add(DUPLICATE, "spelling_variant", "steps", held_out=True)
def _spelling_variant(text, guide, rng):
    _, items, _ = steps_of(text)
    table = {
        "optimization": "optimisation",
        "measure": "track",
        "Report": "Present",
        "Build": "Create",
        "Write": "Draft",
        "Compare": "Contrast",
        "model": "network",
    }
    variants = []
    for item in items:
        new = item
        for old, repl in table.items():
            new = re.sub(rf"\b{old}\b", repl, new, count=1)
        if new != item:
            variants.append(new)
    return variants and add_step(text, rng.choice(variants))


@R.add(STEP_FORM, "two_sentences", "steps")
def _two_step_sentences(text, guide, rng):
    return change_step(text, rng, lambda s: f"{s} Then write down what you learned.")


@R.add(STEP_FORM, "declarative", "steps")
def _declarative(text, guide, rng):
    return change_step(text, rng, lambda s: f"Strong candidates often {lower_first(s)}")


@R.add(STEP_FORM, "question", "steps", held_out=True)
def _question(text, guide, rng):
    return change_step(text, rng, lambda s: f"Why not {lower_first(strip_end(s))}?")


@R.add(OURS_FIGURE, "company_servers", "interpretation")
def _company_servers(text, guide, rng):
    return append_sentence(
        text,
        f"Remember that {guide.company} runs this on 12,000 servers, far more than you will have.",
    )


@R.add(OURS_FIGURE, "system_rate", "case_study")
def _system_rate(text, guide, rng):
    name = system_or_company(guide, rng)
    return append_sentence(
        text, f"{name} handles 5 million requests per second, so keep your version small."
    )


@R.add(OURS_FIGURE, "company_saving_step", "steps")
def _company_saving_step(text, guide, rng):
    return add_step(text, f"Compare your result with {possessive(guide.company)} 70% cost saving.")


@R.add(OURS_FIGURE, "company_magnitude", "interpretation", held_out=True)
def _company_magnitude(text, guide, rng):
    return append_sentence(
        text, f"{guide.company} operates at the scale of hundreds of millions of people."
    )
