"""Our sentences about the company are claims; what a claim may not change; false flags on
model-style prose fixed at their mechanism."""

from __future__ import annotations

from dataclasses import replace

import pytest
from checkhelp import body, context, source
from integrity.records import SEED_RECORD

from generator.checks import Evidence, check_body
from generator.checks.stepform import form_problem

RECORD = {
    "id": "larkspur-dispatch",
    "company": "Larkspur",
    "title": "How Larkspur rebuilt courier dispatch",
    "url": "https://larkspur.example/eng/dispatch",
    "publisher": "Larkspur Engineering",
    "published": "2026-08-20",
    "checked": "2026-10-30",
    "summary": (
        "Larkspur rebuilt courier dispatch around a matching service called Relay. The "
        "dispatch team replaced a nightly batch assignment with streaming matches on Postgres "
        "and Kafka. They report 3.1 million assignments a day across 40 cities. Median "
        "assignment time fell from 9 minutes to 40 seconds after the rollout."
    ),
    "notes": "Relay keeps courier positions in Redis and retries a failed match at most twice.",
    "scale": ["3.1 million assignments a day", "12K CPU hours per week"],
    "techniques": ["stream processing", "assignment matching"],
    "stack": ["Postgres", "Kafka", "Redis", "Relay"],
}
REPORTED = ["Larkspur rebuilt courier dispatch around a matching service called Relay."]
VOCABULARY = ("postgres", "kafka", "redis", "relay", "stream processing", "envoy")
COMPANIES = ("Larkspur", "Quillon", "Uber")


def ctx():
    return replace(
        context(source(**RECORD, citations=[])), vocabulary=VOCABULARY, companies=COMPANIES
    )


def findings(reported=None, interpretation=None, steps=None, evidence=()):
    c = ctx()
    kw = {"interpretation": interpretation} if interpretation else {}
    text = body(reported=reported or REPORTED, steps=steps, ctx=c, **kw)
    return [f for f in check_body(text, c, evidence=evidence) if f.severity == "error"]


def rules(**kw) -> list[str]:
    return [f.rule for f in findings(**kw)]


BASE_INTERPRETATION = "For candidates in platform roles, explain a queue before a cache."


def ours(sentence: str) -> list[str]:
    return rules(interpretation=f"{BASE_INTERPRETATION} {sentence}")


@pytest.mark.parametrize(
    ("sentence", "rule"),
    [
        ("Larkspur took the same path as Quillon when it moved to streaming.", "grounding.actor"),
        ("Larkspur later open-sourced Relay for other delivery firms.", "grounding.release"),
        ("Relay became publicly available after the rollout.", "grounding.release"),
        ("Larkspur rebuilt dispatch because couriers kept complaining.", "grounding.claim"),
        ("The dispatch team was proud of how Relay turned out.", "grounding.sentiment"),
        ("Larkspur's write-up is widely praised among logistics engineers.", "grounding.sentiment"),
        ("Relay always finds a courier within a minute.", "grounding.polarity"),
        ("Larkspur was the first courier firm to match orders in a stream.", "grounding.claim"),
        ("Larkspur's story proves that streaming beats batch jobs.", "grounding.claim"),
        ("Larkspur moved dispatch onto DynamoDB streams.", "grounding.term"),
        ("Larkspur rebuilt dispatch earlier this year.", "grounding.time"),
        ("Ask how Larkspur grew revenue with Relay, then compare.", "grounding.claim"),
    ],
)
def test_our_sentence_about_the_company_is_held_to_the_record(sentence, rule) -> None:
    assert rule in ours(sentence)


@pytest.mark.parametrize(
    "sentence",
    [
        "Sketch how Larkspur assigns couriers, and say which parts you would always test first.",
        "Pick a queue you know well; the best choice is the one you can explain.",
        "Describe the Relay design, then say what you would never copy from it.",
        "Interviewers often ask why a batch job was replaced, so practise that answer.",
        "Read Larkspur's write-up before you draft your own matching service.",
    ],
)
def test_advice_to_the_reader_stays_ours(sentence) -> None:
    assert ours(sentence) == []


@pytest.mark.parametrize(
    ("claim", "rule"),
    [
        ("Median assignment time rose from 40 seconds to 9 minutes after it.", "direction"),
        ("Median assignment time fell from 40 seconds to 9 minutes after it.", "direction"),
        ("Median assignment time fell from 9 minutes to 40 seconds before it.", "direction"),
        (
            "The dispatch team replaced streaming matches on Postgres and Kafka with a nightly "
            "batch assignment.",
            "direction",
        ),
        ("Last month, Larkspur rebuilt courier dispatch around Relay.", "time"),
        ("Larkspur recently rebuilt courier dispatch around Relay.", "time"),
        ("Larkspur rebuilt dispatch around an impressive service called Relay.", "sentiment"),
        ("Larkspur released Relay, its matching service for courier dispatch.", "release"),
    ],
)
def test_a_report_may_not_change_direction_time_release_or_sentiment(claim, rule) -> None:
    assert f"grounding.{rule}" in rules(reported=[*REPORTED, claim])


def test_an_advice_verb_in_reports_needs_no_reader() -> None:
    claim = "The write-up recommends keeping courier positions in Redis."
    assert "attribution.advice" in rules(reported=[*REPORTED, claim])
    chosen = "Larkspur suggests retrying a failed match at most twice."
    assert "attribution.advice" in rules(reported=[*REPORTED, chosen])


def test_a_unit_modifier_is_not_the_counted_noun() -> None:
    claim = "Larkspur uses 12K CPUs per week."
    assert "figures.unit" in rules(reported=[*REPORTED, claim])
    assert rules(reported=[*REPORTED, "Larkspur uses 12K CPU hours per week."]) == []


# False flags fixed at the mechanism.


def test_a_pronoun_subject_in_the_evidence_is_the_subject_before_it() -> None:
    claim = "The dispatch team reports 3.1 million assignments a day across 40 cities."
    assert rules(reported=[*REPORTED, claim]) == []


def test_a_claim_may_rest_on_sentences_about_its_subject() -> None:
    claim = (
        "The dispatch team replaced a nightly batch assignment with streaming matches while "
        "handling 3.1 million assignments a day."
    )
    assert rules(reported=[*REPORTED, claim]) == []


def test_a_scale_item_cannot_lend_words_to_another_claim() -> None:
    claim = "Relay keeps courier positions in CPU hours and retries a failed match at most twice."
    assert "grounding.joined" in rules(reported=[*REPORTED, claim])


def test_one_finding_per_rule_and_sentence_names_every_word() -> None:
    claim = "Relay keeps assignment time and streaming matches in Redis."
    found = [f for f in findings(reported=[*REPORTED, claim]) if f.rule == "grounding.joined"]
    assert len(found) == 1
    assert "'assignment time'" in found[0].message and "'stream match'" in found[0].message


@pytest.mark.parametrize(
    "step",
    [
        "Stand up an API backed by Postgres and chart its p95 latency.",
        "Feed a Kafka topic with synthetic orders and track p99.9 end-to-end delay.",
        "Compare an L1 cache with an L2 tier and a BM25 baseline on your own data.",
    ],
)
def test_a_third_party_tool_or_metric_name_is_not_the_company(step) -> None:
    steps = [step, "Write down what a local test cannot show.", "Profile before tuning."]
    assert rules(steps=steps) == []


def test_a_record_system_stays_the_company() -> None:
    steps = ["Write down what a local test cannot show.", "Profile before tuning."]
    steps.append("Explain why Relay handles 9,000 couriers an hour.")
    assert "figures.attributed" in rules(steps=steps)


def test_an_endorsement_needs_the_guide_or_the_reader_as_object() -> None:
    assert ours("This checklist is backed by Larkspur's dispatch team.") == ["attribution.advice"]


@pytest.mark.parametrize("step", ["Embed each order address", "Shed load at the queue", "Seed it"])
def test_base_verbs_ending_in_ed_are_imperatives(step) -> None:
    assert form_problem(step + ".") is None
    assert form_problem("Embedded vectors first.") is not None


def test_seed_004_sentence_passes_against_the_title_it_quoted() -> None:
    record = source(**{**SEED_RECORD, "notes": None, "scale": []})
    c = context(record)
    sentence = (
        "It reports end-to-end gains for the described system, rather than a recipe that "
        "automatically transfers to another model or cluster."
    )
    title = record.citations[0].title if record.citations else record.title
    text = body(reported=[sentence], ctx=c)
    found = check_body(text, c, evidence=(Evidence(sentence, title),))
    assert [f.rule for f in found if f.rule.startswith("grounding")] == []
