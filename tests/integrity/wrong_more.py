"""More wordings of the wrong edits the checks caught least: new superlatives, outcomes and
terms, advice in the company's or a product's mouth, quotes outside "reports", near-duplicate
steps and steps that are not imperatives, figures about the company in our sections, joined
claims and results credited to another component."""

from __future__ import annotations

import re

from .edits import (
    add_paragraph,
    add_step,
    advice,
    append_sentence,
    change_step,
    edit_sentence,
    is_scale_line,
    possessive,
    system_or_company,
)
from .kinds import (
    COMPONENT,
    DUPLICATE,
    JOINED,
    MAGNITUDE,
    OURS_FIGURE,
    OUTCOME,
    PARAPHRASE,
    PRODUCT,
    QUOTE_OUT,
    STEP_FORM,
    SUPERLATIVE,
    TERM,
)
from .model import Registry
from .text import figures, lower_first, record_sentences, steps_of, strip_end

R = Registry()
REPORTS = "reports"


def _before_end(sentence: str, clause: str) -> str:
    return f"{strip_end(sentence)}{clause}."


def _with_figure(change):
    return lambda s: change(s) if figures(s) and not is_scale_line(s) else None


# --- superlatives ---------------------------------------------------------------------------


@R.add(SUPERLATIVE, "best_in_class", REPORTS)
def _best_in_class(text, guide, rng):
    return edit_sentence(
        text, rng, _with_figure(lambda s: _before_end(s, ", a best-in-class result"))
    )


@R.add(SUPERLATIVE, "worlds_largest", REPORTS)
def _worlds_largest(text, guide, rng):
    return append_sentence(
        text, f"{guide.company} now operates the world's largest deployment of its kind."
    )


@R.add(SUPERLATIVE, "no_one_else", REPORTS)
def _no_one_else(text, guide, rng):
    return edit_sentence(
        text, rng, _with_figure(lambda s: _before_end(s, ", something no one else has done"))
    )


@R.add(SUPERLATIVE, "most_efficient", REPORTS)
def _most_efficient(text, guide, rng):
    return append_sentence(text, "The result is the most efficient design the company has built.")


@R.add(SUPERLATIVE, "leading_sentence", REPORTS)
def _leading_sentence(text, guide, rng):
    return edit_sentence(
        text,
        rng,
        lambda s: f"In an industry-leading move, {lower_first(s, guide.names)}",
        skip_first=True,
    )


# --- invented outcomes ----------------------------------------------------------------------


@R.add(OUTCOME, "reduced_churn", REPORTS)
def _reduced_churn(text, guide, rng):
    return edit_sentence(
        text, rng, _with_figure(lambda s: _before_end(s, ", which also reduced customer churn"))
    )


@R.add(OUTCOME, "eliminated_outages", REPORTS)
def _eliminated_outages(text, guide, rng):
    return append_sentence(text, "Since then, the system has eliminated weekend outages.")


@R.add(OUTCOME, "revenue_grew", REPORTS)
def _revenue_grew(text, guide, rng):
    return append_sentence(text, f"As a result, {possessive(guide.company)} revenue grew.")


@R.add(OUTCOME, "engineers_happier", REPORTS)
def _engineers_happier(text, guide, rng):
    return edit_sentence(
        text, rng, _with_figure(lambda s: _before_end(s, ", and engineer productivity rose"))
    )


# --- invented technology or product: lower-case technical terms and product names ----------


@R.add(TERM, "lowercase_technique", REPORTS)
def _lowercase_technique(text, guide, rng):
    term = rng.choice(["a bloom filter", "consistent hashing", "vector quantization"])
    return edit_sentence(text, rng, lambda s: _before_end(s, f", using {term}"), skip_first=True)


@R.add(TERM, "built_on_product", REPORTS)
def _built_on_product(text, guide, rng):
    product = rng.choice(["Snowflake", "BigQuery", "DynamoDB"])
    return append_sentence(text, f"The whole pipeline is built on {product}.")


@R.add(TERM, "stored_in_store", REPORTS)
def _stored_in_store(text, guide, rng):
    store = rng.choice(["a columnar feature store", "an append-only event log", "a graph database"])
    return edit_sentence(
        text, rng, lambda s: _before_end(s, f", with results kept in {store}"), skip_first=True
    )


# --- advice paraphrased into the company's mouth --------------------------------------------


@R.add(PARAPHRASE, "guidance_is_to", "interpretation")
def _guidance_is_to(text, guide, rng):
    return append_sentence(text, f"{possessive(guide.company)} guidance is to {advice(rng)}.")


@R.add(PARAPHRASE, "according_teams_should", "case_study")
def _according_teams_should(text, guide, rng):
    return append_sentence(
        text, f"According to {guide.company}, engineering teams ought to {advice(rng)}."
    )


@R.add(PARAPHRASE, "taught_its_team", "interpretation")
def _taught_its_team(text, guide, rng):
    name = system_or_company(guide, rng)
    return append_sentence(
        text, f"Running {name} taught {guide.company} that every team must {advice(rng)}."
    )


@R.add(PARAPHRASE, "lesson_from", "case_study")
def _lesson_from(text, guide, rng):
    return append_sentence(
        text, f"The lesson {guide.company} wants candidates to take away: {advice(rng)}."
    )


# --- advice in a product's or system's mouth ------------------------------------------------


def _system(guide, rng):
    return rng.choice(guide.hints.systems) if guide.hints.systems else None


@R.add(PRODUCT, "system_teaches", "interpretation")
def _system_teaches(text, guide, rng):
    name = _system(guide, rng)
    return name and append_sentence(text, f"{name} teaches engineers to {advice(rng)}.")


@R.add(PRODUCT, "system_message", "case_study")
def _system_message(text, guide, rng):
    name = _system(guide, rng)
    return name and append_sentence(
        text, f"The message of {name} for candidates is simple: {advice(rng)}."
    )


@R.add(PRODUCT, "built_system_say", "steps")
def _built_system_say(text, guide, rng):
    name = _system(guide, rng)
    return name and add_paragraph(
        text, f"The people who built {name} would say that you need to {advice(rng)}."
    )


# --- quotes in the company's mouth outside "reports" ----------------------------------------


@R.add(QUOTE_OUT, "motto", "case_study")
def _motto(text, guide, rng):
    return append_sentence(
        text, f"{possessive(guide.company)} motto for this project was “ship small, measure twice”."
    )


@R.add(QUOTE_OUT, "system_lead_said", "interpretation")
def _system_lead_said(text, guide, rng):
    name = system_or_company(guide, rng)
    return append_sentence(
        text, f"One engineer on {name} said: “we stopped guessing once we measured.”"
    )


@R.add(QUOTE_OUT, "pronoun_wrote", "case_study")
def _pronoun_wrote(text, guide, rng):
    return append_sentence(
        text,
        f"{guide.company} kept the first design. Its engineers later wrote that it was "
        "“the easiest system we ever operated”.",
    )


# --- near-duplicate steps -------------------------------------------------------------------

SYNONYMS = {
    "Compare": "Contrast",
    "Measure": "Gauge",
    "Write": "Jot",
    "Report": "Present",
    "Name": "List",
    "Explain": "Describe",
    "Profile": "Measure",
}


@R.add(DUPLICATE, "words_reordered", "steps")
def _words_reordered(text, guide, rng):
    _, items, _ = steps_of(text)
    long = [s for s in items if re.match(r"\S+ \S.* and \S", s)]
    if not long:
        return None
    step = strip_end(rng.choice(long))
    left, right = step.split(" and ", 1)
    verb, rest = left.split(" ", 1)
    return add_step(text, f"{verb} {right} and {rest}.")


@R.add(DUPLICATE, "verb_synonym", "steps")
def _verb_synonym(text, guide, rng):
    _, items, _ = steps_of(text)
    spots = [s for s in items if s.split(" ", 1)[0] in SYNONYMS]
    if not spots:
        return None
    first, rest = rng.choice(spots).split(" ", 1)
    return add_step(text, f"{SYNONYMS[first]} {rest}")


@R.add(DUPLICATE, "carefully_again", "steps")
def _carefully_again(text, guide, rng):
    _, items, _ = steps_of(text)
    return items and add_step(text, f"Carefully {lower_first(strip_end(rng.choice(items)))} again.")


# --- steps that are not one imperative ------------------------------------------------------


@R.add(STEP_FORM, "gerund", "steps")
def _gerund(text, guide, rng):
    return add_step(text, "Measuring the slowest request before tuning anything.")


@R.add(STEP_FORM, "you_should", "steps")
def _you_should(text, guide, rng):
    return change_step(text, rng, lambda s: f"You should {lower_first(s)}")


@R.add(STEP_FORM, "modal_question", "steps")
def _modal_question(text, guide, rng):
    return change_step(text, rng, lambda s: f"Could you {lower_first(strip_end(s))}?")


@R.add(STEP_FORM, "noun_phrase", "steps")
def _noun_phrase(text, guide, rng):
    return add_step(text, "Notes on what you measured and why.")


# --- figures about the company in our sections ----------------------------------------------


@R.add(OURS_FIGURE, "trillions_of_events", "interpretation")
def _trillions_of_events(text, guide, rng):
    name = system_or_company(guide, rng)
    return append_sentence(
        text, f"{name} processes trillions of events, so scale your claims down."
    )


@R.add(OURS_FIGURE, "company_team_size", "case_study")
def _company_team_size(text, guide, rng):
    return append_sentence(
        text, f"{guide.company} needed 40 engineers for this; one person can still learn from it."
    )


@R.add(OURS_FIGURE, "pronoun_uptime", "interpretation")
def _pronoun_uptime(text, guide, rng):
    return append_sentence(
        text,
        f"{guide.company} is a useful reference here. The company kept 99.99% uptime throughout.",
    )


# --- magnitude words ------------------------------------------------------------------------

SCALE_UP = {
    "thousands": "millions",
    "millions": "billions",
    "billions": "trillions",
    "hundreds": "thousands",
}


@R.add(MAGNITUDE, "magnitude_added", REPORTS)
def _magnitude_added(text, guide, rng):
    def change(sentence):
        match = re.search(r"\b(a|the) (fleet|catalogue|ledger|graph|cluster)\b", sentence)
        if not match:
            return None
        return sentence.replace(match.group(0), f"{match.group(1)} {match.group(2)} of millions", 1)

    return edit_sentence(text, rng, change)


@R.add(MAGNITUDE, "scaled_up", REPORTS)
def _scaled_up(text, guide, rng):
    def change(sentence):
        present = [w for w in SCALE_UP if re.search(rf"\b{w}\b", sentence)]
        if not present:
            return None
        word = rng.choice(present)
        return re.sub(rf"\b{word}\b", SCALE_UP[word], sentence, count=1)

    return edit_sentence(text, rng, change, scale=True)


# --- a result credited to another component, and joined claims ------------------------------


@R.add(COMPONENT, "credited_component", REPORTS)
def _credited_component(text, guide, rng):
    names = [n for n in (*guide.hints.components, *guide.hints.systems) if n in text]
    if len(names) < 2:
        return None

    def change(sentence):
        here = [n for n in names if n in sentence]
        others = [n for n in names if n not in sentence]
        if not here or not others or not figures(sentence) or is_scale_line(sentence):
            return None
        # the name that does something, not the noun a figure counts ("2,400 GPU workers")
        here = [n for n in here if not re.search(rf"\d\S*\s+{re.escape(n)}", sentence)]
        if not here:
            return None
        old = rng.choice(here)
        return sentence.replace(old, rng.choice(others), 1)

    return edit_sentence(text, rng, change)


def _subject_and_result(guide, rng):
    """A name from one record sentence with a figure clause from another one."""
    items = [s for s in record_sentences(guide.record) if len(s.split()) >= 6]
    names = [*guide.hints.systems, *guide.hints.components]
    pairs = []
    for a in items:
        for b in items:
            if a == b or not figures(b):
                continue
            for name in names:
                if name in a and name not in b:
                    pairs.append((name, b))
    if not pairs:
        return None
    name, sentence = rng.choice(sorted(pairs))
    match = figures(sentence)[0]
    tail = strip_end(sentence[match.start() :])
    tail = re.split(r",\s|;\s", tail)[0]
    return name, tail


@R.add(JOINED, "credited_figure", REPORTS)
def _credited_figure(text, guide, rng):
    picked = _subject_and_result(guide, rng)
    if not picked:
        return None
    name, tail = picked
    subject = name if name[:1].isupper() else f"The {name}"
    return append_sentence(text, f"{subject} delivered {tail}.")


@R.add(JOINED, "led_to", REPORTS)
def _led_to(text, guide, rng):
    picked = _subject_and_result(guide, rng)
    if not picked:
        return None
    name, tail = picked
    subject = name if name[:1].isupper() else f"The {name}"
    return append_sentence(text, f"{subject} is what led to {tail}.")


RESULT_VERB = re.compile(
    r"\b(?:cut|reduced|doubled|tripled|halved|fell|dropped|improved|lowered|raised)\b.*"
)


@R.add(JOINED, "subjectless_clause", REPORTS)
def _subjectless_clause(text, guide, rng):
    items = [s for s in record_sentences(guide.record) if len(s.split()) >= 6]
    results = [m.group(0) for s in items if (m := RESULT_VERB.search(strip_end(s)))]
    results = [r for r in results if figures(r)]
    subjects = [strip_end(s).split(",")[0] for s in items if not figures(s)]
    if not results or not subjects:
        return None
    result = re.split(r",\s|;\s", rng.choice(results))[0]
    return append_sentence(text, f"{rng.choice(subjects)}, and {result}.")


@R.add(QUOTE_OUT, "quote_then_speaker", "interpretation")
def _quote_then_speaker(text, guide, rng):
    return append_sentence(
        text,
        "“Most of the win came from deleting code.” That is how "
        f"{possessive(guide.company)} engineers sum up the project.",
    )
