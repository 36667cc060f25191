"""Wrong edits to "What X reports": terms, claims, polarity, actors, components, figures."""

from __future__ import annotations

import re

from .edits import (
    append_sentence,
    edit_sentence,
    is_scale_line,
    other_company,
    possessive,
    prose_sentences,
    word_sub,
)
from .kinds import ACTOR, COMPONENT, HEDGE, JOINED, NEGATION, OUTCOME, SUPERLATIVE, TERM
from .model import Registry
from .text import figures, lower_first, replace_once, strip_end, sub_once

R = Registry()


REPORTS = "reports"


def _before_end(sentence: str, clause: str) -> str:
    return f"{strip_end(sentence)}{clause}."


# --- invented technology or product -------------------------------------------------------


@R.add(TERM, "running_on", REPORTS)
def _running_on(text, guide, rng):
    tool = rng.choice(["Slurm", "Apache Mesos", "HashiCorp Nomad"])
    return edit_sentence(text, rng, lambda s: _before_end(s, f", running on {tool}"))


@R.add(TERM, "using_prefix", REPORTS)
def _using_prefix(text, guide, rng):
    tool = rng.choice(["Apache Spark", "ClickHouse", "Elasticsearch"])
    return edit_sentence(
        text, rng, lambda s: f"Using {tool}, {lower_first(s, guide.names)}", skip_first=True
    )


@R.add(TERM, "system_renamed", REPORTS)
def _system_renamed(text, guide, rng):
    names = [n for n in (*guide.hints.systems, *guide.record.get("stack", [])) if n in text]
    if not names:
        return None
    name = rng.choice(sorted(names))
    return text.replace(name, rng.choice(["Vitess", "Triton", "Pathfinder", "Memcached"]), 1)


@R.add(TERM, "also_runs_on", REPORTS)
def _also_runs_on(text, guide, rng):
    where = rng.choice(["Google Cloud TPUs", "AWS Lambda", "Azure Functions"])
    return append_sentence(text, f"{guide.company} also runs the system on {where}.")


@R.add(TERM, "technical_term", REPORTS, held_out=True)
def _technical_term(text, guide, rng):
    term = rng.choice(["speculative decoding", "federated learning", "vector quantization"])
    return edit_sentence(text, rng, lambda s: _before_end(s, f" with {term}"))


# --- superlatives ---------------------------------------------------------------------------


@R.add(SUPERLATIVE, "first_of_kind", REPORTS)
def _first_of_kind(text, guide, rng):
    return edit_sentence(text, rng, lambda s: _before_end(s, ", the first system of its kind"))


@R.add(SUPERLATIVE, "industry_first", REPORTS)
def _industry_first(text, guide, rng):
    return edit_sentence(
        text, rng, lambda s: f"In an industry first, {lower_first(s, guide.names)}"
    )


@R.add(SUPERLATIVE, "fastest_anywhere", REPORTS)
def _fastest_anywhere(text, guide, rng):
    return append_sentence(text, "It is the fastest system of its type anywhere.")


@R.add(SUPERLATIVE, "unmatched", REPORTS)
def _unmatched(text, guide, rng):
    return edit_sentence(
        text,
        rng,
        lambda s: (
            _before_end(s, ", a result no competitor has matched") if _has_figure(s) else None
        ),
    )


@R.add(SUPERLATIVE, "record_setting", REPORTS, held_out=True)
def _record_setting(text, guide, rng):
    return edit_sentence(
        text, rng, lambda s: f"In a record-setting result, {lower_first(s, guide.names)}"
    )


# --- invented outcomes ----------------------------------------------------------------------


def _has_figure(sentence: str) -> bool:
    return bool(figures(sentence)) and not is_scale_line(sentence)


@R.add(OUTCOME, "also_halved", REPORTS)
def _also_halved(text, guide, rng):
    return edit_sentence(
        text,
        rng,
        lambda s: _before_end(s, ", and it also halved on-call pages") if _has_figure(s) else None,
    )


@R.add(OUTCOME, "cost_cut", REPORTS)
def _cost_cut(text, guide, rng):
    return append_sentence(text, "The change also cut the team's cloud bill.")


@R.add(OUTCOME, "eliminated_review", REPORTS)
def _eliminated_review(text, guide, rng):
    return edit_sentence(
        text, rng, lambda s: _before_end(s, ", which eliminated manual review entirely")
    )


@R.add(OUTCOME, "satisfaction", REPORTS, held_out=True)
def _satisfaction(text, guide, rng):
    return append_sentence(text, "As a result, customer satisfaction rose across every market.")


# --- negation -------------------------------------------------------------------------------

NEGATION_WORDS = re.compile(r"\b(not|no|never|without|n't)\b", re.I)


@R.add(NEGATION, "without_to_with", REPORTS)
def _without_to_with(text, guide, rng):
    return edit_sentence(text, rng, lambda s: sub_once(s, r"\bwithout\b", "with"), scale=True)


@R.add(NEGATION, "not_dropped", REPORTS)
def _not_dropped(text, guide, rng):
    pattern = r"\b(did|does|do|has|have|is|are|was|were|can) not\b"
    return edit_sentence(text, rng, lambda s: sub_once(s, pattern, r"\1"))


@R.add(NEGATION, "never_to_sometimes", REPORTS)
def _never_to_sometimes(text, guide, rng):
    return edit_sentence(text, rng, lambda s: sub_once(s, r"\bnever\b", "sometimes"))


@R.add(NEGATION, "no_to_every", REPORTS)
def _no_to_every(text, guide, rng):
    return edit_sentence(text, rng, lambda s: sub_once(s, r"\bno (?=[a-z])", "every "))


@R.add(NEGATION, "hint_negation", REPORTS, held_out=True)
def _hint_negation(text, guide, rng):
    pairs = [p for p in guide.hints.polarity if NEGATION_WORDS.search(" ".join(p)) and p[0] in text]
    if not pairs:
        return None
    old, new = rng.choice(pairs)
    return replace_once(text, old, new)


# --- hedges and quantifiers -----------------------------------------------------------------


@R.add(HEDGE, "only_dropped", REPORTS)
def _only_dropped(text, guide, rng):
    return edit_sentence(text, rng, lambda s: sub_once(s, r"(?<![\w-])only ", ""))


@R.add(HEDGE, "quantifier_swap", REPORTS)
def _quantifier_swap(text, guide, rng):
    table = {"all": "some", "every": "most", "each": "some", "Every": "Most", "All": "Some"}
    return edit_sentence(text, rng, lambda s: word_sub(s, table, rng))


@R.add(HEDGE, "hedge_to_certain", REPORTS)
def _hedge_to_certain(text, guide, rng):
    table = {"may": "will", "can": "always", "rarely": "often", "up to": "at least"}
    return edit_sentence(text, rng, lambda s: word_sub(s, table, rng))


@R.add(HEDGE, "hint_hedge", REPORTS)
def _hint_hedge(text, guide, rng):
    pairs = [
        p for p in guide.hints.polarity if not NEGATION_WORDS.search(" ".join(p)) and p[0] in text
    ]
    if not pairs:
        return None
    old, new = rng.choice(pairs)
    return replace_once(text, old, new)


@R.add(HEDGE, "hedge_adverb_added", REPORTS)
def _hedge_adverb_added(text, guide, rng):
    adverb = rng.choice(["probably", "reportedly", "apparently", "likely"])
    company = re.escape(guide.company)
    return edit_sentence(
        text, rng, lambda s: sub_once(s, rf"^({company}) (?=[a-z]+ed\b)", rf"\1 {adverb} ")
    )


@R.add(HEDGE, "alone_added", REPORTS)
def _alone_added(text, guide, rng):
    return edit_sentence(
        text, rng, lambda s: sub_once(s, r"^((?:[A-Z][\w-]*\s){1,4})(?=[a-z]+ed\b)", r"\1alone ")
    )


@R.add(HEDGE, "always_added", REPORTS, held_out=True)
def _always_added(text, guide, rng):
    company = re.escape(guide.company)
    return edit_sentence(
        text, rng, lambda s: sub_once(s, rf"^({company}) (?=[a-z]+s\b)", r"\1 always ")
    )


# --- another company as the actor -----------------------------------------------------------


def _starts_with_company(guide):
    return lambda s: s.startswith(guide.company + " ")


@R.add(ACTOR, "subject_swapped", REPORTS)
def _subject_swapped(text, guide, rng):
    other = other_company(guide, rng)
    return edit_sentence(
        text,
        rng,
        lambda s: other + s[len(guide.company) :] if s.startswith(guide.company + " ") else None,
    )


@R.add(ACTOR, "outside_company_subject", REPORTS)
def _outside_company_subject(text, guide, rng):
    other = rng.choice(["Google", "Netflix", "Uber", "Microsoft"])
    return edit_sentence(
        text,
        rng,
        lambda s: other + s[len(guide.company) :] if s.startswith(guide.company + " ") else None,
    )


@R.add(ACTOR, "possessive", REPORTS)
def _its_to_other(text, guide, rng):
    other = other_company(guide, rng)
    return edit_sentence(text, rng, lambda s: sub_once(s, r"\bits\b", f"{possessive(other)}"))


@R.add(ACTOR, "working_with", REPORTS)
def _working_with(text, guide, rng):
    other = other_company(guide, rng)
    name = guide.company
    return edit_sentence(
        text,
        rng,
        lambda s: (
            f"{name}, working with {other},{s[len(name) :]}" if s.startswith(name + " ") else None
        ),
    )


@R.add(ACTOR, "team_of_other", REPORTS)
def _team_of_other(text, guide, rng):
    other = other_company(guide, rng)
    return edit_sentence(
        text, rng, lambda s: sub_once(s, r"\b[Tt]he team\b", f"{possessive(other)} team")
    )


@R.add(ACTOR, "outside_company", REPORTS, held_out=True)
def _outside_company(text, guide, rng):
    other = rng.choice(["Google", "Amazon", "Netflix"])
    name = guide.company
    return edit_sentence(
        text,
        rng,
        lambda s: f"Engineers at {other}{s[len(name) :]}" if s.startswith(name + " ") else None,
    )


# --- a result credited to the wrong component -----------------------------------------------


@R.add(COMPONENT, "names_swapped", REPORTS)
def _names_swapped(text, guide, rng):
    names = [n for n in (*guide.hints.components, *guide.hints.systems) if n in text]
    pairs = []
    for a in sorted(set(names)):
        for b in sorted(set(names)):
            if a < b and a not in b and b not in a:
                pairs.append((a, b))
    rng.shuffle(pairs)
    for a, b in pairs:
        swapped = text.replace(a, "\0").replace(b, a).replace("\0", b)
        if swapped != text:
            return swapped
    return None


@R.add(COMPONENT, "hint_credit", REPORTS)
def _hint_credit(text, guide, rng):
    pairs = [p for p in guide.hints.wrong_credit if p[0] in text]
    if not pairs:
        return None
    old, new = rng.choice(pairs)
    return replace_once(text, old, new)


@R.add(COMPONENT, "thanks_to", REPORTS)
def _thanks_to(text, guide, rng):
    names = [n for n in guide.hints.components if n in text]
    if not names:
        return None

    def change(sentence):
        elsewhere = [n for n in names if n not in sentence]
        if not elsewhere or not _has_figure(sentence):
            return None
        name = rng.choice(elsewhere)
        return _before_end(sentence, f", thanks to {'' if name[:1].isupper() else 'the '}{name}")

    return edit_sentence(text, rng, change)


@R.add(JOINED, "hint_joined", REPORTS)
def _hint_joined(text, guide, rng):
    if not guide.hints.joined:
        return None
    return append_sentence(text, rng.choice(guide.hints.joined))


@R.add(JOINED, "spliced", REPORTS, held_out=True)
def _spliced(text, guide, rng):
    items = [s for s in prose_sentences(text) if "," in s and len(s.split()) > 8]
    if len(items) < 2:
        return None
    a, b = rng.sample(items, 2)
    head = a.split(",")[0]
    tail = b.rsplit(",", 1)[1].strip()
    return append_sentence(text, f"{head}, {tail}")
