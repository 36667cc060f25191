"""Our words about the company that restate the record pass; their invented twins fail."""

from __future__ import annotations

from dataclasses import replace

import pytest
from checkhelp import context, source

from generator.checks import check_body
from generator.guides.compose import compose_body
from generator.guides.findings import Finding
from generator.guides.schema import Draft, ReportedStatement

SUMMARY = (
    "Tamsin renders map tiles for delivery apps. "
    "Rendering vector tiles is slow, so tiles are now rendered ahead of time for the "
    "busiest 3% of zoom levels and on request for the rest. "
    "Pins reach other viewers in about 90 ms at the median. "
    "The team replaced exact geocoding with an approximate index that answers in 12 ms. "
    "Style tests reach a decision with about a fifth of the traffic that A/B tests needed. "
    "Before the shared style sheet, one in ten tiles differed between the web and phone apps. "
    "Tiles shrank by dropping hidden layers, merging small polygons and rounding coordinates."
)
RECORD = {
    "id": "tamsin-tiles",
    "company": "Tamsin",
    "title": "Rendering map tiles at Tamsin",
    "url": "https://tamsin.example/eng/tiles",
    "publisher": "Tamsin Engineering",
    "published": "2026-05-02",
    "checked": "2026-10-30",
    "summary": SUMMARY,
    "scale": ["about 90 ms at the median"],
    "techniques": ["tile pre-rendering"],
    "stack": ["Mapnik"],
}
FIRST = "Tamsin renders map tiles for delivery apps."
BASE = "For map roles, explain what you render ahead of time and why."


def errors(interpretation: str) -> list[str]:
    """Return the error rules of a guide whose interpretation adds one sentence."""
    return [f.rule for f in error_findings(interpretation)]


def error_findings(interpretation: str, reported: str = FIRST, said: str = FIRST) -> list[Finding]:
    """Return the error findings of a guide whose interpretation adds one sentence."""
    c = replace(context(source(**RECORD, citations=[])), companies=("Tamsin",))
    draft = Draft(
        reported=[ReportedStatement(text=reported, quote=said.rstrip("."))],
        angle="what to render ahead of time",
        interpretation=f"{BASE} {interpretation}",
        case_study_title="systems-oriented",
        case_study="Render a small tile set on your laptop and time each zoom level.",
        steps=[
            "Render one zoom level ahead of time.",
            "Time a tile rendered on request.",
            "Write down which levels you would pre-render.",
        ],
    )
    text = compose_body(draft, c.source, c.originals, c.site_name)
    return [f for f in check_body(text, c) if f.severity == "error"]


@pytest.mark.parametrize(
    "faithful",
    [
        "Tamsin renders only the busiest zoom levels ahead of time because rendering is slow.",
        "Tamsin needs every pin to reach other viewers quickly.",
        "Tamsin answers geocoding queries in 12 ms, because an approximate index trades "
        "accuracy for speed.",
        "Tamsin uses a more sensitive test to compare tile styles with less traffic.",
        "Tamsin removes a class of errors by sharing one style sheet between its web and "
        "phone apps.",
    ],
)
def test_our_words_that_restate_the_record_pass(faithful: str) -> None:
    assert errors(faithful) == []


@pytest.mark.parametrize(
    ("invented", "rule"),
    [
        ("Tamsin renders only the quietest zoom levels ahead of time.", "grounding.polarity"),
        ("Tamsin renders every tile ahead of time.", "grounding.polarity"),
        ("Tamsin checks every pin by hand before it is shown.", "grounding.polarity"),
        ("Tamsin renders tiles ahead of time because its customers demand it.", "grounding.claim"),
        ("Tamsin renders tiles ahead of time because regulators require it.", "grounding.claim"),
        ("Tamsin uses a more sensitive test to compare tile styles.", "grounding.claim"),
        ("Tamsin removes the lag users saw by sharing one style sheet.", "grounding.claim"),
        ("Tamsin removes a class of errors by caching geocoding answers.", "grounding.claim"),
        ("Tamsin removes a class of outages by rendering tiles ahead of time.", "grounding.claim"),
        (
            "Tamsin renders tiles ahead of time because slow tiles hurt retention.",
            "grounding.claim",
        ),
        (
            "Tamsin uses a more sensitive test to compare styles with less memory.",
            "grounding.claim",
        ),
    ],
)
def test_invented_quantifiers_and_motives_still_fail(invented: str, rule: str) -> None:
    assert rule in errors(invented)


def test_an_outcome_the_record_lacks_is_named_with_its_whole_noun_phrase() -> None:
    found = error_findings("Tamsin removes a class of outages by rendering tiles ahead of time.")
    claims = [f.message for f in found if f.rule == "grounding.claim"]
    assert claims and "outcome 'removes a class'" in claims[0]


@pytest.mark.parametrize(("count", "rules"), [("three", []), ("four", ["figures.reports"])])
def test_a_number_word_may_count_the_items_a_record_sentence_lists(count, rules) -> None:
    reported = f"Merging small polygons was one of the {count} changes that shrank the tiles."
    found = error_findings("", reported=reported, said="merging small polygons")
    assert [f.rule for f in found if f.rule.startswith("figures.")] == rules
