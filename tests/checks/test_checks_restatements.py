"""Correct restatements of a record pass the claim checks; their wrong twins still fail."""

from __future__ import annotations

import pytest
from checkhelp import REPORTED, body, context, rules, source

SUMMARY = (
    "Dovetail runs 1.8 million test executions a day. The edge cache serves 92% of tile "
    "requests. Sentinel flagged twice as many fraudulent accounts after launch. Dovetail tripled "
    "its query capacity on the same hardware. Ember serves 97% of feature lookups; the rest go "
    "to Cassandra. Replanning a fleet now takes 48 seconds instead of 11 minutes. Engineers see "
    "every quarantined test in a weekly report, and no test stays quarantined for more than 14 "
    "days. Sieve reruns a failing test up to three times. For three weeks every write went to "
    "both systems. The pipeline runs in three regions with 2-4 seconds from event to alert."
)


def errors(sentence: str) -> list[str]:
    ctx = context(source(company="Dovetail", summary=SUMMARY, notes="", scale=[]))
    return rules(body(reported=[sentence], ctx=ctx), ctx)


@pytest.mark.parametrize(
    "sentence",
    [
        "Dovetail runs over 1.5 million test executions a day.",
        "The edge cache serves nearly 95% of tile requests.",
        "Sentinel flagged 100% more fraudulent accounts after launch.",
        "Sentinel flagged a twofold increase in fraudulent accounts after launch.",
        "Dovetail achieved a threefold increase in query capacity on the same hardware.",
        "Dovetail raised its query capacity by 200% on the same hardware.",
        "The company tripled its query capacity on the same hardware.",
        "Ember serves 97% of feature lookups; the remaining 3% go to Cassandra.",
        "Replanning a fleet now takes 48 seconds instead of 660 seconds.",
        "Replanning a fleet now takes 612 seconds less than the 11 minutes it used to.",
        "No test stays quarantined for more than two weeks.",
        "Engineers see every quarantined test in a weekly report.",
        "For 3 weeks every write went to both systems.",
    ],
)
def test_consistent_restatements_pass(sentence: str) -> None:
    assert errors(sentence) == []


@pytest.mark.parametrize(
    "sentence",
    [
        "Dovetail runs over 2 million test executions a day.",
        "The edge cache serves nearly 90% of tile requests.",
        "Sentinel flagged 200% more fraudulent accounts after launch.",
        "Ember serves 97% of feature lookups; the remaining 5% go to Cassandra.",
        "Replanning a fleet now takes 48 seconds instead of 600 seconds.",
        "No test stays quarantined for more than three weeks.",
        "Engineers see every quarantined test in a weekly report, and every test stays "
        "quarantined for more than 14 days.",
        "Sieve reruns a failing test up to four times.",
        "Sieve reruns a failing test at least three times.",
        "The pipeline runs in four regions with 2-4 seconds from event to alert.",
        "Dovetail runs 1.8 million test executions an hour.",
        "Dovetail tripled its query capacity on the same hardware, thanks to Cassandra.",
    ],
)
def test_wrong_twins_still_fail(sentence: str) -> None:
    assert errors(sentence)


def test_a_hyphenated_term_may_be_written_open() -> None:
    sentence = (
        "Custom low-precision kernels and 5D parallelism doubled end to end training efficiency "
        "to 20-25% MFU at 4x the training FLOPs."
    )
    assert rules(body(reported=[REPORTED[0], sentence])) == []


@pytest.mark.parametrize(
    "sentence",
    [
        "GEM's designers recommend that you profile before you optimize.",
        "GEM shows that you should profile before you optimize.",
        "Meta's architects advise profiling first.",
    ],
)
def test_advice_from_the_makers_of_a_system_is_an_error(sentence: str) -> None:
    assert "attribution.advice" in rules(body(case_study=sentence))


@pytest.mark.parametrize(
    "step",
    [
        "Strong candidates often profile before optimizing.",
        "Teams usually report end-to-end gains.",
    ],
)
def test_a_step_that_describes_people_is_not_an_imperative(step: str) -> None:
    steps = [step, "Profile before choosing an optimization.", "Report only end-to-end effects."]
    assert "ours.steps" in rules(body(steps=steps))


def test_a_frequency_word_before_a_participle_leaves_the_step_an_imperative() -> None:
    step = "Move rarely viewed refreshes to on demand and measure the change."
    steps = [step, "Profile before choosing an optimization.", "Report only end-to-end effects."]
    assert "ours.steps" not in rules(body(steps=steps))
    described = "Teams rarely measure the change in compute."
    assert "ours.steps" in rules(body(steps=[described, *steps[1:]]))
