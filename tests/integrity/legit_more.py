"""Correct edits that look like the wrong ones of wrong_more.py: the company named beside our
own advice, record terms and names in "reports", steps that open with a phrase, quotes that
are the reader's, and distinct steps that share words."""

from __future__ import annotations

from .edits import (
    add_step,
    append_sentence,
    edit_sentence,
    fragment,
    long_record_sentences,
    possessive,
)
from .kinds import FRAMING, INSTRUCTION, MENTION, OWN, QUOTE_OURS, STEPS
from .model import Registry
from .text import lower_first

R = Registry()


@R.add(FRAMING, "technique_named", "reports")
def _technique_named(text, guide, rng):
    techniques = guide.record.get("techniques") or []
    return techniques and append_sentence(
        text, f"The write-up files this work under {rng.choice(techniques)}."
    )


@R.add(FRAMING, "company_describes", "reports")
def _company_describes(text, guide, rng):
    return edit_sentence(
        text,
        rng,
        lambda s: None if guide.company in s else f"{guide.company} describes how {lower_first(s)}",
        skip_first=True,
    )


@R.add(OWN, "unlike_company", "interpretation")
def _unlike_company(text, guide, rng):
    return append_sentence(
        text,
        f"Unlike {guide.company}, you work with one machine, so you should say what would "
        "change at scale.",
    )


@R.add(OWN, "we_suggest_like", "case_study")
def _we_suggest_like(text, guide, rng):
    return append_sentence(
        text,
        f"We suggest that you read how {guide.company} tested the change before you plan yours.",
    )


@R.add(QUOTE_OURS, "reader_question", "case_study")
def _reader_question(text, guide, rng):
    return append_sentence(text, "Ask yourself: “what would I measure first?”")


@R.add(MENTION, "company_scale_compared", "interpretation")
def _company_scale_compared(text, guide, rng):
    return append_sentence(
        text,
        f"Your version will be far smaller than {possessive(guide.company)}, and that is fine.",
    )


@R.add(STEPS, "phrase_opening", "steps")
def _phrase_opening(text, guide, rng):
    return add_step(
        text,
        rng.choice(
            [
                "For each change, record the latency before and after.",
                "Before tuning anything, write down what you expect to see.",
                "If time allows, repeat the run on a second machine.",
            ]
        ),
    )


@R.add(STEPS, "uncommon_verb", "steps")
def _uncommon_verb(text, guide, rng):
    return add_step(
        text,
        rng.choice(
            [
                "Jot down one surprise from every run.",
                "Sanity-check your numbers against a back-of-the-envelope estimate.",
                "Timebox the project to two weekends.",
            ]
        ),
    )


@R.add(INSTRUCTION, "shared_words_step", "steps")
def _shared_words_step(text, guide, rng):
    return add_step(text, "Measure the same workload again after a cold restart.")


@R.add(QUOTE_OURS, "quote_then_company", "interpretation")
def _quote_then_company(text, guide, rng):
    items = [s for s in long_record_sentences(guide, 8) if "“" not in s and '"' not in s]
    piece = items and fragment(rng.choice(items), rng, (6, 10))
    return piece and append_sentence(text, f"“{piece}.” That is how {guide.company} puts it.")
