"""Legitimate editor edits to our sections: rewording, reordering, instructions with numbers,
verbatim quotes, headings, steps."""

from __future__ import annotations

import re

from .edits import add_step, append_sentence, fragment, long_record_sentences, possessive
from .kinds import HEADING, INSTRUCTION, MENTION, OWN, QUOTE_OURS, REORDER, REWORD, STEPS, TYPO
from .model import Registry
from .text import figures, join_steps, sentences, steps_of, strip_end

R = Registry()


def _sub_table(text, table):
    new = text
    for old, repl in table.items():
        new = re.sub(rf"\b{re.escape(old)}\b", repl, new, count=1)
    return new if new != text else None


@R.add(REWORD, "interpretation_synonyms", "interpretation")
def _interpretation_synonyms(text, guide, rng):
    return _sub_table(
        text,
        {
            "candidates": "applicants",
            "Explain": "Describe",
            "explain": "describe",
            "reviewer": "interviewer",
            "Show": "Make clear",
            "stand out": "get noticed",
            "Interviewers": "Hiring managers",
            "Read": "Study",
        },
    )


@R.add(REWORD, "case_study_synonyms", "case_study")
def _case_study_synonyms(text, guide, rng):
    return _sub_table(
        text,
        {
            "Record": "Write down",
            "Pick": "Choose",
            "Use": "Start with",
            "Label": "Mark",
            "Report": "Present",
            "Measure": "Track",
            "Simulate": "Emulate",
            "Train": "Fit",
            "Copy": "Replicate",
            "Put": "Place",
            "Rebuild": "Recreate",
        },
    )


@R.add(REWORD, "opening_rewritten", "interpretation")
def _opening_rewritten(text, guide, rng):
    items = sentences(text)
    if len(items) < 2:
        return None
    items[0] = "This write-up is a useful prompt for interview preparation."
    return " ".join(items)


@R.add(REWORD, "case_study_closing", "case_study", held_out=True)
def _case_study_closing(text, guide, rng):
    items = sentences(text)
    items[-1] = "Finish by saying plainly what you would try next and why."
    return " ".join(items)


def _swap_adjacent(text, rng):
    items = sentences(text)
    if len(items) < 3:
        return None
    at = rng.randrange(0, len(items) - 1)
    items[at], items[at + 1] = items[at + 1], items[at]
    return " ".join(items)


@R.add(REORDER, "interpretation_swapped", "interpretation")
def _interpretation_swapped(text, guide, rng):
    return _swap_adjacent(text, rng)


@R.add(REORDER, "case_study_swapped", "case_study")
def _case_study_swapped(text, guide, rng):
    return _swap_adjacent(text, rng)


@R.add(REORDER, "interpretation_cut", "interpretation")
def _interpretation_cut(text, guide, rng):
    items = sentences(text)
    if len(items) < 3:
        return None
    del items[rng.randrange(1, len(items))]
    return " ".join(items)


@R.add(REORDER, "case_study_cut", "case_study")
def _case_study_cut(text, guide, rng):
    items = sentences(text)
    if len(items) < 3:
        return None
    del items[rng.randrange(1, len(items))]
    return " ".join(items)


@R.add(REORDER, "paragraph_split", "interpretation")
def _paragraph_split(text, guide, rng):
    items = sentences(text)
    if len(items) < 3:
        return None
    at = rng.randrange(1, len(items))
    return " ".join(items[:at]) + "\n\n" + " ".join(items[at:])


OWN_INTERPRETATION = [
    "Interviewers remember candidates who can say what they would measure next.",
    "Keep the story honest: say what you ran and what you only designed.",
    "Trade-offs matter more than tool names in this kind of answer.",
    "A clear account of what went wrong is often more convincing than a success story.",
]
OWN_CASE_STUDY = [
    "Keep a short log of every run so you can explain surprises later.",
    "Share the code so that a reviewer can rerun your measurements.",
    "Prefer a small, finished project over a large, unfinished one.",
]


@R.add(OWN, "interpretation_added", "interpretation")
def _interpretation_added(text, guide, rng):
    return append_sentence(text, rng.choice(OWN_INTERPRETATION))


@R.add(OWN, "case_study_added", "case_study")
def _case_study_added(text, guide, rng):
    return append_sentence(text, rng.choice(OWN_CASE_STUDY))


def _title_common_word(guide) -> str | None:
    """Return a word the title capitalises but the record's prose writes in lower case."""
    prose = " ".join([guide.record.get("summary", ""), guide.record.get("notes") or ""])
    lower = set(re.findall(r"\b[a-z][a-z-]+\b", prose))
    title_words = re.findall(r"\b[A-Z][a-z-]+\b", guide.record.get("title", ""))
    return next((w for w in title_words[1:] if w.lower() in lower), None)


@R.add(OWN, "title_word_with_figures", "interpretation")
def _title_word_with_figures(text, guide, rng):
    word = _title_common_word(guide)
    if word is None:
        return None
    return append_sentence(
        text, f"{word} work scoped to 3 weeks is easier to explain than 30 weeks of it."
    )


@R.add(OWN, "title_word_lower_case", "case_study")
def _title_word_lower_case(text, guide, rng):
    word = _title_common_word(guide)
    if word is None:
        return None
    return append_sentence(text, f"A {word.lower()} budget of 2 days keeps the project small.")


@R.add(OWN, "our_polarity_words", "case_study")
def _our_polarity_words(text, guide, rng):
    return append_sentence(
        text,
        "Do not present a classroom result as a production saving, and never round a result up.",
    )


@R.add(OWN, "only_claim_measured", "interpretation")
def _only_claim_measured(text, guide, rng):
    return append_sentence(text, "Only claim what you measured yourself; all else is a proposal.")


@R.add(OWN, "company_contrast", "interpretation", held_out=True)
def _company_contrast(text, guide, rng):
    return append_sentence(
        text, f"You will not have {possessive(guide.company)} resources, so keep the scope small."
    )


@R.add(INSTRUCTION, "word_limit", "interpretation")
def _word_limit(text, guide, rng):
    return append_sentence(text, "Keep your written answer under 300 words.")


@R.add(INSTRUCTION, "two_weekends", "case_study")
def _two_weekends(text, guide, rng):
    return append_sentence(text, "Give yourself two weekends for the first version, then stop.")


@R.add(INSTRUCTION, "three_runs", "case_study")
def _three_runs(text, guide, rng):
    return append_sentence(text, "Run each measurement three times and report the median.")


@R.add(INSTRUCTION, "step_500_words", "steps")
def _step_500_words(text, guide, rng):
    return add_step(text, "Write up the result in under 500 words.")


@R.add(INSTRUCTION, "one_variable_step", "steps")
def _one_variable_step(text, guide, rng):
    return add_step(text, "Change one variable at a time and rerun the benchmark five times.")


@R.add(INSTRUCTION, "five_minute_pitch", "interpretation", held_out=True)
def _five_minute_pitch(text, guide, rng):
    return append_sentence(
        text, "Practise presenting it in five minutes with at most three slides."
    )


@R.add(INSTRUCTION, "percent_target", "case_study")
def _percent_target(text, guide, rng):
    return append_sentence(
        text, "Aim to explain at least 90% of the run time before you change anything."
    )


def _quote_piece(guide, rng, want_figure=False):
    items = long_record_sentences(guide, 8)
    if want_figure:
        items = [s for s in items if figures(s)]
    if not items:
        return None
    for _ in range(20):
        piece = fragment(rng.choice(items), rng, (6, 10))
        if piece and (not want_figure or figures(piece)):
            return piece
    return None


@R.add(QUOTE_OURS, "as_company_puts_it", "interpretation")
def _as_company_puts_it(text, guide, rng):
    piece = _quote_piece(guide, rng)
    return piece and append_sentence(text, f"As {guide.company} puts it, “{piece}”.")


@R.add(QUOTE_OURS, "writeup_describes", "case_study")
def _writeup_describes(text, guide, rng):
    piece = _quote_piece(guide, rng)
    return piece and append_sentence(
        text, f"The write-up describes “{piece}”; look for the equivalent in your own project."
    )


@R.add(QUOTE_OURS, "quote_with_figure", "interpretation")
def _quote_with_figure(text, guide, rng):
    piece = _quote_piece(guide, rng, want_figure=True)
    return piece and append_sentence(text, f"In {possessive(guide.company)} words, “{piece}”.")


@R.add(QUOTE_OURS, "company_writes", "case_study", held_out=True)
def _company_writes(text, guide, rng):
    piece = _quote_piece(guide, rng)
    return piece and append_sentence(
        text, f"{guide.company} writes that “{piece}”, which is worth rereading before you start."
    )


@R.add(MENTION, "record_scale", "interpretation")
def _record_scale(text, guide, rng):
    scale = guide.record.get("scale") or []
    if not scale:
        return None
    return append_sentence(
        text,
        f"{guide.company} reports {rng.choice(scale)}; your project will be far smaller, "
        "so say so.",
    )


@R.add(MENTION, "results_suggest", "interpretation")
def _results_suggest(text, guide, rng):
    return append_sentence(
        text, f"As {possessive(guide.company)} results suggest, measure before you optimise."
    )


@R.add(MENTION, "team_write_up", "case_study")
def _team_write_up(text, guide, rng):
    name = rng.choice(guide.hints.systems) if guide.hints.systems else guide.company
    return append_sentence(text, f"The {name} team's write-up is worth reading closely.")


@R.add(MENTION, "system_named", "case_study")
def _system_named(text, guide, rng):
    if not guide.hints.systems:
        return None
    name = rng.choice(guide.hints.systems)
    return append_sentence(
        text, f"Read how {name} is described in the write-up before you design your own version."
    )


@R.add(MENTION, "source_link", "case_study")
def _source_link(text, guide, rng):
    url = guide.record.get("url")
    return url and append_sentence(text, f"Read [the original write-up](<{url}>) first.")


@R.add(MENTION, "stack_named", "interpretation", held_out=True)
def _stack_named(text, guide, rng):
    stack = [s for s in guide.record.get("stack") or [] if s not in guide.hints.systems]
    if not stack:
        return None
    return append_sentence(
        text, f"If you have used {rng.choice(stack)}, say what you would measure with it."
    )


ANGLES = [
    "measure before you optimise",
    "make trade-offs visible",
    "reason from evidence",
    "design for the common case",
    "show your judgement",
]
TITLES = ["hands-on", "small-scale", "portfolio"]


def _heading(guide, key, make):
    body = guide.parsed()
    if body.index(key) is None:
        return None
    body.set_heading(key, make(body.heading(key)))
    return body.render()


@R.add(HEADING, "angle_reworded", "interpretation", whole=True)
def _angle_reworded(guide, rng):
    angle = rng.choice(ANGLES)
    return _heading(guide, "interpretation", lambda h: f"Our career interpretation: {angle}")


@R.add(HEADING, "title_reworded", "case_study", whole=True)
def _title_reworded(guide, rng):
    title = rng.choice(TITLES)
    return _heading(guide, "case_study", lambda h: f"Build a {title} case study")


@R.add(HEADING, "angle_capitalised", "interpretation", whole=True, held_out=True)
def _angle_capitalised(guide, rng):
    return _heading(
        guide,
        "interpretation",
        lambda h: (
            "Our career interpretation: "
            + h.split(": ", 1)[-1][:1].upper()
            + h.split(": ", 1)[-1][1:]
        ),
    )


SPELLING = {
    "optimization": "optimisation",
    "optimizations": "optimisations",
    "modeling": "modelling",
    "behavior": "behaviour",
    "generalizing": "generalising",
    "specialised": "specialized",
    "Practise": "Practice",
}


@R.add(TYPO, "spelling_variant", "interpretation")
def _spelling_variant(text, guide, rng):
    return _sub_table(text, SPELLING)


@R.add(TYPO, "hyphenation", "case_study")
def _hyphenation(text, guide, rng):
    return _sub_table(
        text,
        {
            "end-to-end": "end to end",
            "trade-off": "tradeoff",
            "multi-process": "multiprocess",
            "entity-matching": "entity matching",
            "production-scale": "production scale",
        },
    )


@R.add(TYPO, "oxford_comma", "interpretation")
def _oxford_comma(text, guide, rng):
    new = re.sub(r"(\w+), (\w+), and ", r"\1, \2 and ", text, count=1)
    if new == text:
        new = re.sub(r"(\w+), (\w+) and ", r"\1, \2, and ", text, count=1)
    return new if new != text else None


@R.add(TYPO, "emphasis", "interpretation")
def _emphasis(text, guide, rng):
    match = re.search(r"\b(before|cost|why|measure|what)\b", text)
    if not match:
        return None
    return text[: match.start()] + f"*{match.group(1)}*" + text[match.end() :]


@R.add(TYPO, "double_spaces", "case_study")
def _double_spaces(text, guide, rng):
    return text.replace(". ", ".  ") if ". " in text else None


@R.add(TYPO, "curly_quotes_ours", "interpretation", held_out=True)
def _curly_quotes_ours(text, guide, rng):
    return text.replace("'", "’") if "'" in text else None


VERBS = {
    "Profile": "Measure",
    "Report": "Present",
    "Separate": "Distinguish",
    "Build": "Create",
    "Add": "Introduce",
    "Compare": "Contrast",
    "Write": "Draft",
    "Inject": "Introduce",
    "Measure": "Track",
    "Explain": "Describe",
    "Name": "Identify",
    "Reproduce": "Rebuild",
    "Distil": "Compress",
    "Describe": "Outline",
    "Break": "Damage",
}


@R.add(STEPS, "verb_reworded", "steps")
def _verb_reworded(text, guide, rng):
    before, items, after = steps_of(text)
    spots = [i for i, s in enumerate(items) if s.split(" ", 1)[0] in VERBS]
    if not spots:
        return None
    at = rng.choice(spots)
    first, rest = items[at].split(" ", 1)
    items[at] = f"{VERBS[first]} {rest}"
    return join_steps(before, items, after)


@R.add(STEPS, "reversed", "steps")
def _reversed(text, guide, rng):
    before, items, after = steps_of(text)
    return items and join_steps(before, items[::-1], after)


@R.add(STEPS, "own_step_replaces_last", "steps")
def _own_step_replaces_last(text, guide, rng):
    before, items, after = steps_of(text)
    if not items:
        return None
    items[-1] = "Ask a peer to review your write-up before you share it."
    return join_steps(before, items, after)


@R.add(STEPS, "own_step_added", "steps")
def _own_step_added(text, guide, rng):
    return add_step(text, "Explain the result to someone outside your field.")


@R.add(STEPS, "intro_reworded", "steps")
def _intro_reworded(text, guide, rng):
    return text.replace("Your next research steps.", "Steps to try next.", 1)


@R.add(STEPS, "periods_dropped", "steps")
def _periods_dropped(text, guide, rng):
    before, items, after = steps_of(text)
    return items and join_steps(before, [strip_end(s) for s in items], after)


@R.add(STEPS, "intro_with_count", "steps", held_out=True)
def _intro_with_count(text, guide, rng):
    before, items, after = steps_of(text)
    if len(items) != 3:
        return None
    return text.replace("Your next research steps.", "Three steps to start with.", 1)


@R.add(STEPS, "article_to_one", "steps", held_out=True)
def _article_to_one(text, guide, rng):
    before, items, after = steps_of(text)
    spots = [i for i, s in enumerate(items) if " a " in s]
    if not spots:
        return None
    at = rng.choice(spots)
    items[at] = items[at].replace(" a ", " one ", 1)
    return join_steps(before, items, after)
