"""Claims about the company in wordings the first rules did not anticipate: synonyms,
passive voice, hedges and reordered clauses; and advice to the reader that stays free."""

from __future__ import annotations

import pytest
from test_checks_claims_ours import REPORTED, ours, rules


@pytest.mark.parametrize(
    ("sentence", "rule"),
    [
        ("Much like Uber, Larkspur moved its dispatch to streaming.", "grounding.actor"),
        ("Larkspur's approach mirrors what Quillon built for its couriers.", "grounding.actor"),
        ("Relay has since been made open source by Larkspur.", "grounding.release"),
        ("Larkspur shipped Relay as a public library.", "grounding.release"),
        ("Relay is now offered to other delivery firms as a product.", "grounding.release"),
        ("Larkspur has commercialised Relay for grocery chains.", "grounding.release"),
        ("Larkspur pioneered streaming courier matching.", "grounding.claim"),
        ("Larkspur is the leading example of streaming dispatch.", "grounding.claim"),
        ("Relay is arguably the fastest dispatch matcher in the industry.", "grounding.claim"),
        ("Relay invariably retries a failed match.", "grounding.polarity"),
        ("Relay consistently finds a courier within a minute.", "grounding.polarity"),
        ("Relay matches couriers without exception in each of the cities.", "grounding.polarity"),
        ("The Relay rebuild was prompted by a series of outages at Larkspur.", "grounding.claim"),
        ("Larkspur rebuilt dispatch in a bid to win over couriers.", "grounding.claim"),
        ("Larkspur's goal with Relay was to win back couriers.", "grounding.claim"),
        ("Larkspur's rebuild led to fewer late deliveries.", "grounding.claim"),
        ("Relay boosted courier earnings across the 40 cities.", "grounding.claim"),
        ("Relay lowered Larkspur's infrastructure costs.", "grounding.claim"),
        ("Relay was well received across the company.", "grounding.sentiment"),
        ("Relay paid for itself within months, Larkspur says.", "grounding.sentiment"),
        ("A couple of years ago, Larkspur moved dispatch to streaming.", "grounding.time"),
    ],
)
def test_a_reworded_claim_about_the_company_is_still_held_to_the_record(sentence, rule) -> None:
    assert rule in ours(sentence)


@pytest.mark.parametrize(
    "sentence",
    [
        "Relay made dispatch faster and cheaper for Larkspur.",
        "Larkspur's streaming matches are more reliable than the nightly batch.",
        "Relay is less expensive to run than the batch job it replaced.",
        "Larkspur's dispatch became more efficient after the move to Kafka.",
    ],
)
def test_a_benefit_said_of_the_company_needs_the_record(sentence) -> None:
    assert "grounding.claim" in ours(sentence)


def test_a_benefit_is_backed_by_a_record_sentence_that_changes_its_measure() -> None:
    # The record: "Median assignment time fell from 9 minutes to 40 seconds after the rollout."
    assert ours("Relay made Larkspur's courier dispatch faster.") == []
    assert "grounding.claim" in ours("Relay made Larkspur's courier dispatch cheaper.")
    claim = "Relay made courier dispatch more reliable."
    assert "grounding.claim" in rules(reported=[*REPORTED, claim])


@pytest.mark.parametrize(
    "sentence",
    [
        "Explain how Larkspur cut assignment time, then compare it with a design you know.",
        "You could always start with a batch job and measure it first.",
        "The fastest way to learn this is to build a tiny matcher yourself.",
        "Never copy a design you cannot explain, whichever company it comes from.",
        "A cheaper option for a portfolio project is a single Postgres table.",
        "Embed a short benchmark in your write-up so readers can rerun it.",
        "Seed the test database with synthetic couriers before you time anything.",
        "Feed the matcher a replay of real orders and note where it slows down.",
        "Shed load at the queue rather than at the matcher.",
        "Streaming is faster than batching only when the queue stays short, so measure yours.",
        "A more reliable portfolio project is one whose numbers you can rerun.",
    ],
)
def test_advice_and_general_reasoning_in_new_wordings_stay_ours(sentence) -> None:
    assert ours(sentence) == []


def test_led_to_restates_an_effect_the_record_orders_after_a_change() -> None:
    # The record: "Median assignment time fell from 9 minutes to 40 seconds after the rollout."
    assert ours("At Larkspur, the rollout led to a shorter median assignment time.") == []
    assert "grounding.claim" in ours("At Larkspur, the rollout led to fewer late deliveries.")


@pytest.mark.parametrize(
    ("claim", "rule"),
    [
        (
            "After the rollout, median assignment time went up from 9 minutes to 40 seconds.",
            "grounding.direction",
        ),
        (
            "Streaming matches on Postgres and Kafka were replaced by a nightly batch assignment.",
            "grounding.direction",
        ),
        (
            "A nightly batch assignment took the place of streaming matches on Postgres and Kafka.",
            "grounding.direction",
        ),
        ("Larkspur rebuilt courier dispatch around Relay a few months ago.", "grounding.time"),
        (
            "Larkspur rebuilt courier dispatch around a well-designed matching service called "
            "Relay.",
            "grounding.sentiment",
        ),
        (
            "Larkspur rebuilt courier dispatch around Relay, a matching service its couriers adore.",
            "grounding.sentiment",
        ),
        (
            "Larkspur painfully rebuilt courier dispatch around a matching service called Relay.",
            "grounding.sentiment",
        ),
        (
            "The post argues that teams should keep courier positions in Redis.",
            "attribution.advice",
        ),
        (
            "According to the post, keeping courier positions in Redis is the way to go.",
            "attribution.advice",
        ),
        ("Larkspur reports 3.1 million couriers a day across 40 cities.", "figures.unit"),
    ],
)
def test_a_reworded_report_may_not_change_its_evidence(claim, rule) -> None:
    assert rule in rules(reported=[*REPORTED, claim])


@pytest.mark.parametrize(
    "claim",
    [
        "A nightly batch assignment was replaced by streaming matches on Postgres and Kafka.",
        "Streaming matches on Postgres and Kafka took the place of a nightly batch assignment.",
        "After the rollout, median assignment time came down from 9 minutes to 40 seconds.",
    ],
)
def test_a_report_that_keeps_the_order_in_other_words_passes(claim) -> None:
    assert rules(reported=[*REPORTED, claim]) == []
