"""Faithful paraphrase a fluent model writes passes; the one-word slips beside it do not."""

from __future__ import annotations

from dataclasses import replace

import pytest
from checkhelp import context, source

from generator.checks import check_body
from generator.guides.compose import compose_body
from generator.guides.schema import Draft, ReportedStatement

SUMMARY = (
    "Sorrel serves about 900 million product images and switched its default output from JPEG "
    "to AVIF with a WebP fallback. Build machines read from the shared cache but are not "
    "allowed to write to it. The hardest part was not speed but consistency during rollouts. "
    "Disputes over who owns shared image types took longer to settle than any technical work. "
    "A format check takes under a microsecond. Shops seeing failed uploads dropped from about "
    "400 to about 90 a week."
)
RECORD = {
    "id": "sorrel-image-formats",
    "company": "Sorrel",
    "title": "Moving a product image store to AVIF",
    "url": "https://sorrel.example/eng/avif",
    "publisher": "Sorrel Engineering",
    "published": "2026-06-02",
    "checked": "2026-10-30",
    "summary": SUMMARY,
    "scale": ["about 900 million product images"],
    "techniques": ["format negotiation"],
    "stack": ["libavif", "Rust"],
}
SENTENCES = [s.strip() + "." for s in SUMMARY.split(". ")]
BASE = "For backend roles, explain what a format change costs before what it saves."


def errors(reported=(), interpretation: str = "", steps=None) -> list[str]:
    """Return the error rules of a guide with these reports (text, quote) and our words."""
    c = replace(
        context(source(**RECORD, citations=[])),
        vocabulary=("kafka", "redis", "rust", "libavif"),
        companies=("Sorrel", "Uber"),
    )
    draft = Draft(
        reported=[ReportedStatement(text=t, quote=q.rstrip(".")) for t, q in reported]
        or [ReportedStatement(text=SENTENCES[0], quote=SENTENCES[0].rstrip("."))],
        angle="connect measurement to the bottleneck",
        interpretation=f"{BASE} {interpretation}".strip(),
        case_study_title="systems-oriented",
        case_study="Use a small image set and measure size and decode time on your own laptop.",
        steps=steps
        or [
            "Measure decode time before you pick a format.",
            "Report the median and the tail, not only the mean.",
            "Say which fallback you keep and why.",
        ],
    )
    text = compose_body(draft, c.source, c.originals, c.site_name)
    return [f.rule for f in check_body(text, c) if f.severity == "error"]


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        ("Build machines can read from the shared cache but may not write to it.", 1),
        ("The team says the hardest part was consistency during rollouts rather than speed.", 2),
        ("Shops seeing failed uploads dropped from about 400 to about 90 a week.", 5),
    ],
)
def test_a_faithful_rewording_of_a_report_passes(claim, evidence) -> None:
    assert errors(reported=[(claim, SENTENCES[evidence])]) == []


@pytest.mark.parametrize(
    ("claim", "evidence", "rule"),
    [
        ("Build machines may read from the shared cache and write to it.", 1, "grounding."),
        ("A format check takes under a millisecond.", 4, "figures.unit"),
        ("Shops seeing failed uploads dropped from 400 to 90 a week.", 5, "grounding.polarity"),
    ],
)
def test_a_report_that_changes_a_permission_unit_or_hedge_is_found(claim, evidence, rule) -> None:
    found = errors(reported=[(claim, SENTENCES[evidence])])
    assert any(r.startswith(rule) for r in found), found


def test_a_superlative_rests_on_a_record_sentence_that_compares_with_everything_else() -> None:
    said = "This write-up makes clear the slowest part was settling who owns shared image types."
    assert "grounding.claim" not in errors(interpretation=said)
    invented = "This write-up makes clear the fastest part was the switch to AVIF."
    assert "grounding.claim" in errors(interpretation=invented)


def test_a_record_system_the_reader_acts_on_is_the_readers_tool() -> None:
    step = "Serve AVIF or WebP from a small Rust service based on the request's Accept header."
    assert errors(steps=[step, "Measure decode time first.", "Say which fallback you keep."]) == []
    # said of the company's own system in a clause of its own, it is a claim again
    claim = "Explain how AVIF halved Sorrel's storage bill in a quarter."
    found = errors(steps=[claim, "Measure decode time first.", "Say which fallback you keep."])
    assert any(r.startswith(("grounding.", "figures.")) for r in found), found


def test_a_count_of_the_list_that_follows_it_is_our_own_grouping() -> None:
    grouped = (
        "The write-up's changes fall into three groups: choosing a format, keeping a fallback, "
        "and settling who owns the types."
    )
    assert "figures.attributed" not in errors(interpretation=grouped)
    miscounted = grouped.replace("three groups", "four groups")
    assert "figures.attributed" in errors(interpretation=miscounted)
    unlisted = "The write-up's changes fall into three groups."
    assert "figures.attributed" in errors(interpretation=unlisted)
