"""Wrong edits in new wordings are caught by their rule; their correct look-alikes pass."""

from __future__ import annotations

import pytest
from checkhelp import CASE_STUDY, INTERPRETATION, REPORTED, STEPS, body, context, rules, source

SUMMARY = (
    "Brightwave re-encodes its catalogue with per-title ladders chosen by a quality model "
    "called Prism. Prism predicts VMAF scores from a short sample. The change cut storage for "
    "the catalogue by 31%. A bounded union-find splits the graph, and an LLM judge validates "
    "the clusters. Writes were mirrored to both systems for three weeks. After the cutover, "
    "p99 write latency fell from 180 ms to 35 ms. Encoding runs across thousands of GPUs."
)


def ctx():
    return context(source(company="Brightwave", summary=SUMMARY, notes="", scale=[]))


def reported(sentence: str) -> list[str]:
    c = ctx()
    return rules(body(reported=[sentence], ctx=c), c)


@pytest.mark.parametrize(
    ("sentence", "rule"),
    [
        ("The change cut storage for the catalogue by 31%, a best-in-class result.", "claim"),
        ("The change cut storage for the catalogue by 31%, the busiest week ever.", "claim"),
        ("The change cut storage for the catalogue by 31%, something no one else did.", "claim"),
        ("The change cut storage for the catalogue by 31% and reduced customer churn.", "claim"),
        ("The change cut storage for the catalogue by 31%, and engineer morale rose.", "claim"),
        ("Prism predicts VMAF scores from a short sample, using a bloom filter.", "term"),
        ("Prism predicts VMAF scores from a short sample, kept in a graph database.", "term"),
        ("Prism predicts VMAF scores from a short sample with speculative decoding.", "term"),
        ("Prism cut storage for the catalogue by 31%.", "joined"),
        (
            "A bounded LLM judge splits the graph, and an union-find validates the clusters.",
            "joined",
        ),
        ("Writes were mirrored to both systems for three weeks, and fell to 35 ms.", "joined"),
        ("Encoding runs across trillions of GPUs.", "figures.reports"),
        ("Writes were mirrored to both systems for thousands of weeks.", "figures.claim"),
    ],
)
def test_new_wordings_of_wrong_claims_are_caught(sentence: str, rule: str) -> None:
    found = reported(sentence)
    assert any(r.endswith(rule) for r in found), found


@pytest.mark.parametrize(
    "sentence",
    [
        "The change cut storage for the catalogue by 31%.",
        "According to the write-up, Prism predicts VMAF scores from a short sample.",
        "Brightwave describes how the change cut storage for the catalogue by 31%.",
        "A bounded union-find splits the graph, and an LLM judge validates the clusters.",
        "Encoding runs across thousands of GPUs.",
    ],
)
def test_correct_restatements_still_pass(sentence: str) -> None:
    assert reported(sentence) == []


def ours(sentence: str, where: str = "interpretation") -> list[str]:
    c = context()
    if where == "interpretation":
        text = body(interpretation=f"{INTERPRETATION} {sentence}", ctx=c)
    else:
        text = body(case_study=f"{CASE_STUDY} {sentence}", ctx=c)
    return rules(text, c)


@pytest.mark.parametrize(
    ("sentence", "rule"),
    [
        ("Meta's guidance is to measure before tuning.", "attribution.advice"),
        ("According to Meta, engineering teams ought to measure first.", "attribution.advice"),
        ("GEM teaches engineers to profile before tuning.", "attribution.advice"),
        ("Take it from GEM: profile before tuning.", "attribution.advice"),
        ("Ask anyone at Meta and they would tell you to profile first.", "attribution.advice"),
        ("The message of GEM for candidates is simple: profile first.", "attribution.advice"),
        (
            "Meta kept the design. Its engineers wrote that it was “easy to run”.",
            "quotes.attributed",
        ),
        ("“We stopped guessing.” That is how Meta's engineers sum it up.", "quotes.attributed"),
        ("One engineer said: “we never looked back.”", "quotes.attributed"),
        ("Meta is a useful reference. The company kept 99.99% uptime.", "figures.attributed"),
        ("Meta serves billions of requests, so keep yours small.", "figures.attributed"),
    ],
)
def test_advice_quotes_and_figures_in_the_companys_mouth_are_caught(sentence, rule) -> None:
    assert rule in ours(sentence), ours(sentence)


@pytest.mark.parametrize(
    "sentence",
    [
        "Unlike Meta, you work on one machine, so you should say what changes at scale.",
        "We suggest that you read how Meta tested the change before you plan yours.",
        "Ask yourself: “what would I measure first?”",
        "“Meta replaced separate per-surface ad prediction systems with GEM.” That is how "
        "Meta puts it.",
        "Your version will be far smaller than Meta's, and that is fine.",
        "Do what Meta did: profile the slowest path before you tune anything.",
        "The main lesson from Meta's write-up is that profiling pays off.",
        "Follow Meta's example and say which parts you only designed.",
        "Interviewers will ask you to explain how GEM passes gains to serving models.",
    ],
)
def test_our_own_advice_and_verbatim_quotes_pass(sentence: str) -> None:
    assert ours(sentence) == []


def steps(extra: str) -> list[str]:
    c = context()
    return rules(body(steps=[*STEPS, extra], ctx=c), c)


@pytest.mark.parametrize(
    "step",
    [
        "Could you profile the slowest request?",
        "How would you profile the slowest request",
        "Measuring the slowest request before tuning anything.",
        "Notes on what you measured and why.",
        "Profiled the slowest request first.",
        "Profile the slowest request; then report what changed.",
        "Profile before choosing an optimisation.",
        "Measure before choosing an optimization.",
        "Always profile before choosing any optimization first.",
        "Report end to end effects, not only a faster kernel.",
    ],
)
def test_steps_that_are_not_distinct_imperatives_are_caught(step: str) -> None:
    assert "ours.steps" in steps(step)


@pytest.mark.parametrize(
    "step",
    [
        "For each change, record the latency before and after.",
        "If time allows, repeat the run on a second machine.",
        "Don't round a local result up to production scale.",
        "Jot down one surprise from every run.",
        "Focus on one bottleneck at a time.",
        "Measure the same workload again after a cold restart.",
    ],
)
def test_distinct_imperative_steps_pass(step: str) -> None:
    assert steps(step) == []


def test_the_classic_reported_sentences_still_pass() -> None:
    c = context()
    assert rules(body(reported=REPORTED, ctx=c), c) == []
