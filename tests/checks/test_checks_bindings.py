"""A figure keeps its metric, its hedge and its estimate; a statement of ours that restates a
record sentence without naming the company is still a claim about it."""

from __future__ import annotations

from dataclasses import replace

import pytest
from checkhelp import body, context, source

from generator.checks import Evidence, check_body

RECORD = {
    "id": "wrenfield-edge-cache",
    "company": "Wrenfield",
    "title": "Faster cold reads at the Wrenfield edge",
    "url": "https://wrenfield.example/eng/edge-cache",
    "publisher": "Wrenfield Engineering",
    "published": "2026-07-02",
    "checked": "2026-10-30",
    "summary": (
        "Wrenfield added a regional tier in front of its object store. They report that p99 "
        "latency for cold reads fell from about 400 ms to 70 ms, while warm reads stayed under "
        "8 ms. Origin traffic fell by about 45%, which the team estimates saves $210,000 a "
        "year. In an experiment, uploads rose 3% and sessions rose 5%."
    ),
    "notes": "The first regional tier performed worse than the old single cache.",
    "scale": ["cold-read p99 from about 400 ms to 70 ms"],
    "techniques": ["tiered caching"],
    "stack": ["Varnish"],
}
REPORTED = ["Wrenfield added a regional tier in front of its object store."]
INTERPRETATION = "For candidates in platform roles, explain a cache tier before a database."


def findings(reported=(), interpretation=""):
    c = replace(context(source(**RECORD, citations=[])), vocabulary=("varnish",))
    text = body(
        reported=[*REPORTED, *reported],
        interpretation=f"{INTERPRETATION} {interpretation}".strip(),
        ctx=c,
    )
    return [f for f in check_body(text, c) if f.severity == "error"]


def rules(**kw) -> list[str]:
    return sorted({f.rule for f in findings(**kw)})


@pytest.mark.parametrize(
    "claim",
    [
        "Warm-read p99 latency fell from about 400 ms to 70 ms, while cold reads stayed under "
        "8 ms.",
        "In an experiment, uploads rose 5% and sessions rose 3%.",
    ],
)
def test_a_figure_moved_to_another_metric_of_its_sentence_is_caught(claim) -> None:
    assert "figures.unit" in rules(reported=[claim])


def test_a_figure_dropping_the_evidences_approximation_is_caught() -> None:
    claim = "Cold-read p99 latency fell from 400 ms to 70 ms, while warm reads stayed under 8 ms."
    found = [f for f in findings(reported=[claim]) if f.rule == "grounding.polarity"]
    assert found and "'about 400'" in found[0].message


def test_an_estimate_stated_as_a_measurement_is_caught() -> None:
    claim = "Origin traffic fell by about 45%, which saves $210,000 a year."
    assert "grounding.polarity" in rules(reported=[claim])


@pytest.mark.parametrize(
    "claim",
    [
        "Cold-read p99 latency fell from about 400 ms to 70 ms, while warm reads stayed under "
        "8 ms.",
        "In an experiment, sessions rose 5% and uploads rose 3%.",
        "Origin traffic fell by roughly 45%, which the team estimates saves $210,000 a year.",
    ],
)
def test_a_faithful_restatement_keeps_its_figures_metrics_and_hedges(claim) -> None:
    assert rules(reported=[claim]) == []


def test_a_statement_of_ours_that_restates_the_record_keeps_its_order() -> None:
    flipped = "The old single cache performed worse than the first regional tier."
    assert "grounding.direction" in rules(interpretation=flipped)
    kept = "The first regional tier lost to the old single cache."
    assert rules(interpretation=kept) == []


def quoted(claim: str, quote: str) -> list[str]:
    c = replace(context(source(**RECORD, citations=[])), vocabulary=("varnish",))
    text = body(reported=[*REPORTED, claim], interpretation=INTERPRETATION, ctx=c)
    found = check_body(text, c, evidence=(Evidence(claim, quote),))
    return sorted({f.rule for f in found if f.severity == "error"})


def test_a_statement_states_no_figure_its_quote_lacks() -> None:
    claim = "Origin traffic dropped by about 45%, which the team estimates saves $210,000 yearly."
    whole = "Origin traffic fell by about 45%, which the team estimates saves $210,000 a year"
    assert quoted(claim, whole) == []
    assert "figures.claim" in quoted(claim, "Origin traffic fell by about 45%")


def test_a_quote_about_another_record_sentence_does_not_support_a_statement() -> None:
    claim = "In one experiment, uploads went up 3% and sessions went up 5%."
    assert quoted(claim, "In an experiment, uploads rose 3% and sessions rose 5%") == []
    assert "grounding.claim" in quoted(claim, "Wrenfield added a regional tier")


def test_our_sentence_keeps_a_record_figures_hedge() -> None:
    exact = "Be ready to say how a tier took cold reads from 400 ms to exactly 70 ms."
    assert "grounding.polarity" in rules(interpretation=exact)
    ranged = "Be ready to say how a tier can take p99 from about 400 ms down to 70 ms."
    assert rules(interpretation=ranged) == []


def test_our_statement_compares_with_no_industry_the_record_does_not() -> None:
    claim = "Here the tier did well at the stated load, beating what most hosted providers publish."
    assert "grounding.comparison" in rules(interpretation=claim)


def test_a_report_adds_no_benefit_the_record_does_not_name() -> None:
    claim = "Wrenfield's regional tier made uploads smoother and cheaper for its users."
    found = [f for f in findings(reported=[claim]) if f.rule == "grounding.claim"]
    assert found and "'smoother'" in found[0].message and "'cheaper'" in found[0].message


@pytest.mark.parametrize(
    ("claim", "ok"),
    [
        ("Cold reads were slow before the regional tier went in front of the object store.", True),
        ("The regional tier went in after cold reads had been slow for a long time.", True),
        ("Origin traffic fell by about 45% before Wrenfield added a regional tier.", False),
    ],
)
def test_before_and_after_compare_the_events_on_each_side(claim, ok) -> None:
    evidence = "Origin traffic fell by about 45% after the regional tier went in."
    c = replace(context(source(**{**RECORD, "notes": evidence}, citations=[])), vocabulary=())
    text = body(reported=[*REPORTED, claim], interpretation=INTERPRETATION, ctx=c)
    found = {f.rule for f in check_body(text, c) if f.severity == "error"}
    assert ("grounding.direction" not in found) == ok


def test_a_participle_after_the_outcome_noun_is_not_its_head() -> None:
    notes = "They report that the tier cut the time to warm a new region from days to hours."
    c = replace(context(source(**{**RECORD, "notes": notes}, citations=[])), vocabulary=())
    claim = "The tier cut the time needed to warm a new region from days to hours."
    text = body(reported=[*REPORTED, claim], interpretation=INTERPRETATION, ctx=c)
    assert [f.rule for f in check_body(text, c) if f.severity == "error"] == []


def test_every_in_a_report_is_the_evidences_each() -> None:
    notes = "Tracing got quicker because each hop now emits spans."
    c = replace(context(source(**{**RECORD, "notes": notes}, citations=[])), vocabulary=())
    claim = "Tracing got quicker since every hop now emits spans."
    text = body(reported=[*REPORTED, claim], interpretation=INTERPRETATION, ctx=c)
    assert [f.rule for f in check_body(text, c) if f.severity == "error"] == []
