"""Slips a fluent model makes that keep most of the record's words, each beside its faithful
wording: a plan told as done, a dropped "not yet", a result joined to the wrong change, a
neighbouring term, and an event invented as what set the work off."""

from __future__ import annotations

from dataclasses import replace

import pytest
from checkhelp import context, source

from generator.checks import check_body
from generator.guides.compose import compose_body
from generator.guides.schema import Draft, ReportedStatement

SUMMARY = (
    "Quillon moved about 900 services to credentials issued by Vault that expire daily. "
    "The team moved events from JSON to Avro, which cut average message size by about 40%. "
    "Consumer breakages caused by schema changes fell from 9 in the year before the registry "
    "to two in the year after. CI rejects a schema change unless it is backward compatible. "
    "The registry does not yet support schemas shared across clusters. "
    "A few batch jobs still use static passwords, which the team plans to retire next year. "
    "Laptops may read the registry but not write to it, so a local build cannot break CI."
)
RECORD = {
    "id": "quillon-schemas",
    "company": "Quillon",
    "title": "Schemas and secrets at Quillon",
    "url": "https://quillon.example/eng/schemas",
    "publisher": "Quillon Engineering",
    "published": "2026-05-02",
    "checked": "2026-10-30",
    "summary": SUMMARY,
    "scale": ["about 900 services", "consumer breakages from 9 to two a year"],
    "techniques": ["schema registry", "short-lived credentials"],
    "stack": ["Vault", "Avro", "Kafka"],
}
SENTENCES = [s.strip() + "." for s in SUMMARY.split(". ")]
BASE = "For platform roles, explain what a compatibility rule costs before what it saves."
STEPS = [
    "Register two Avro schemas in a local registry.",
    "Show an older consumer reading a newer event.",
    "Write down which change a compatibility check cannot catch.",
]


def errors(reported=(), interpretation: str = "", steps=None) -> list[str]:
    """Return the error rules of a guide with these reports (text, evidence index) and words."""
    c = replace(
        context(source(**RECORD, citations=[])),
        vocabulary=("vault", "avro", "kafka"),
        companies=("Quillon",),
    )
    draft = Draft(
        reported=[ReportedStatement(text=t, quote=SENTENCES[i].rstrip(".")) for t, i in reported]
        or [ReportedStatement(text=SENTENCES[0], quote=SENTENCES[0].rstrip("."))],
        angle="what a compatibility rule protects",
        interpretation=f"{BASE} {interpretation}".strip(),
        case_study_title="systems-oriented",
        case_study="Use a small Kafka topic on your laptop and evolve one schema three times.",
        steps=steps or STEPS,
    )
    text = compose_body(draft, c.source, c.originals, c.site_name)
    return [f.rule for f in check_body(text, c) if f.severity == "error"]


@pytest.mark.parametrize(
    ("faithful", "slip", "evidence", "rule"),
    [
        (
            "The team says a few batch jobs still use static passwords and plans to retire them.",
            "The team says the last batch jobs with static passwords have since been retired.",
            5,
            "grounding.plan",
        ),
        (
            "The registry does not yet support schemas shared across clusters.",
            "The registry now supports schemas shared across clusters.",
            4,
            "grounding.polarity",
        ),
        (
            "The move from JSON to Avro cut average message size by about 40%.",
            "The move from JSON to Avro cut average message size by about 40% and consumer "
            "breakages from 9 a year to two.",
            1,
            "figures.claim",
        ),
    ],
)
def test_a_report_that_keeps_the_words_but_changes_the_fact_is_caught(
    faithful, slip, evidence, rule
) -> None:
    assert errors(reported=[(faithful, evidence)]) == []
    assert rule in errors(reported=[(slip, evidence)])


def test_a_step_likened_to_the_company_is_held_to_its_terms() -> None:
    likened = "Add a CI check that, like Quillon's, rejects changes that are not {} compatible."
    assert errors(steps=[likened.format("backward"), *STEPS[1:]]) == []
    assert "grounding.direction" in errors(steps=[likened.format("forward"), *STEPS[1:]])


def test_an_event_invented_as_what_started_the_work_is_a_claim() -> None:
    invented = "Quillon started the project after an auditor flagged its static passwords."
    assert "grounding.claim" in errors(interpretation=invented)
    stated = "Quillon moved its services to Vault once the credentials expired daily."
    assert errors(interpretation=stated) == []


def test_a_reason_the_record_gives_with_its_own_so_may_be_restated() -> None:
    restated = "Quillon keeps laptops read-only so that a local build cannot break CI."
    assert errors(interpretation=restated) == []
    invented = "Quillon keeps laptops read-only so that a local build cannot slow down CI."
    assert "grounding.claim" in errors(interpretation=invented)
