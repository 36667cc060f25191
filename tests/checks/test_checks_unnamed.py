"""Sentences that restate the record (our unnamed ones, reported ones) pass when faithful;
their invented twins fail with a related rule."""

from __future__ import annotations

from dataclasses import replace

import pytest
from checkhelp import context, source

from generator.checks import check_body
from generator.guides.compose import compose_body
from generator.guides.schema import Draft, ReportedStatement

SUMMARY = (
    "Quillet runs a recipe search service for grocery apps. "
    "The team raised the result cache hit ratio from 71% to 88% by trimming session "
    "parameters from cache keys. "
    "Median page weight fell by about 47% after thumbnails moved to a newer format. "
    "The team replaced keyword matching on one server with a BM25 index split across 12 "
    "nodes and pruned stop words with a curated list, cutting index size from 40 GB to 9 GB. "
    "Arguments over shared tags such as Vegan and Quick took longer than the code changes. "
    "Cooks rate recipes after each meal."
)
RECORD = {
    "id": "quillet-recipes",
    "company": "Quillet",
    "title": "Caching recipe search at Quillet",
    "url": "https://quillet.example/eng/search",
    "publisher": "Quillet Engineering",
    "published": "2026-04-02",
    "checked": "2026-10-30",
    "summary": SUMMARY,
    "scale": ["hit ratio from 71% to 88%"],
    "techniques": ["cache key trimming"],
    "stack": ["Varnish"],
}
FIRST = "Quillet runs a recipe search service for grocery apps."
BASE = "For search roles, explain what your cache keys hold and why."


def errors(interpretation: str = "", reported: str = FIRST, said: str = FIRST) -> list[str]:
    """Return the error rules of a guide whose interpretation adds a sentence."""
    c = replace(context(source(**RECORD, citations=[])), companies=("Quillet",))
    draft = Draft(
        reported=[ReportedStatement(text=reported, quote=said.rstrip("."))],
        angle="what a cache key holds",
        interpretation=f"{BASE} {interpretation}".strip(),
        case_study_title="systems-oriented",
        case_study="Cache a small search service on your laptop and time each query.",
        steps=[
            "Cache one query type.",
            "Time a cached query against an uncached one.",
            "Write down which parameters you would drop from the key.",
        ],
    )
    text = compose_body(draft, c.source, c.originals, c.site_name)
    return [f.rule for f in check_body(text, c) if f.severity == "error"]


@pytest.mark.parametrize(
    ("sentence", "rules"),
    [
        ("Seventeen points of hit ratio came from trimming cache keys.", []),
        ("The 17-point gain in hit ratio came from trimming cache keys.", []),
        ("Fifteen points of hit ratio came from trimming cache keys.", ["figures.attributed"]),
        ("The 15-point gain in hit ratio came from trimming cache keys.", ["figures.attributed"]),
        ("A 1% drop in hit ratio can double the load on a search server.", []),
    ],
)
def test_points_of_a_record_metric_are_the_company_s_figure(sentence, rules) -> None:
    assert [r for r in errors(sentence) if r.startswith("figures.")] == rules


@pytest.mark.parametrize(
    ("sentence", "rules"),
    [
        ("One lever is bytes: a newer format roughly halves median weight, seen by eye.", []),
        ("One lever is bytes: a newer format cuts median weight by about 50%, seen by eye.", []),
        (
            "One lever is bytes: a newer format halves median weight, seen by eye.",
            ["grounding.polarity"],
        ),
        (
            "One lever is bytes: a newer format cuts median weight by 50%, seen by eye.",
            ["grounding.polarity"],
        ),
        ("Try a newer format and aim to halve median weight on your own pages.", []),
    ],
)
def test_a_rounded_record_figure_keeps_the_record_s_hedge(sentence, rules) -> None:
    assert [r for r in errors(sentence) if r == "grounding.polarity"] == rules


INDEX = (
    "The team replaced keyword matching on one server with a BM25 index split across 12 nodes "
    "and pruned stop words with a curated list, cutting index size from 40 GB to 9 GB"
)


@pytest.mark.parametrize(
    ("reported", "rules"),
    [
        (
            "The team pruned stop words with a curated list, which cut index size from 40 GB "
            "to 9 GB.",
            [],
        ),
        ("The team cut index size from 40 GB to 9 GB.", []),
        (
            "The team replaced keyword matching on one server with a BM25 index split across "
            "12 nodes, which cut index size from 40 GB to 9 GB.",
            ["grounding.joined"],
        ),
    ],
)
def test_an_effect_stays_with_the_action_its_evidence_credits(reported, rules) -> None:
    found = errors(reported=reported, said=INDEX)
    assert [r for r in found if r == "grounding.joined"] == rules


@pytest.mark.parametrize(
    ("sentence", "wrong"),
    [
        ("At Quillet, the hard part was agreeing who owns the tags everyone uses.", False),
        ("At Quillet, the hard part was agreeing who owns the ratings everyone uses.", True),
        ("At Quillet, everyone uses the tags.", True),
    ],
)
def test_everyone_may_restate_a_thing_the_record_calls_shared(sentence, wrong) -> None:
    assert ("grounding.polarity" in errors(sentence)) is wrong


NOTE = "The write-up says most slow queries came from cooks searching for two tags at once."


@pytest.mark.parametrize(
    ("sentence", "copied"),
    [
        (
            "What stands out in this write-up is that most slow queries came from pairing: "
            "cooks searched for two tags at once.",
            False,
        ),
        (
            "Notably, the write-up says most slow queries came from cooks searching for two "
            "tags at once.",
            True,
        ),
        ("Most slow queries came, notably, from cooks searching for two tags at once.", True),
    ],
)
def test_a_sentence_framed_as_the_write_up_s_reports_it_and_copies_nothing(
    sentence, copied
) -> None:
    c = replace(context(source(**{**RECORD, "notes": NOTE}, citations=[])), companies=("Quillet",))
    draft = Draft(
        reported=[ReportedStatement(text=FIRST, quote=FIRST.rstrip("."))],
        angle="what a cache key holds",
        interpretation=f"{BASE} {sentence}",
        case_study_title="systems-oriented",
        case_study="Cache a small search service on your laptop and time each query.",
        steps=["Cache one query type.", "Time a cached query.", "Drop one key parameter."],
    )
    text = compose_body(draft, c.source, c.originals, c.site_name)
    found = [f.rule for f in check_body(text, c) if f.severity == "error"]
    assert ("ours.copied" in found) is copied


POOLS = (
    "Quillet built Cedar, a recipe search cluster. It runs two pools (Alder on SSDs with 4 "
    "replicas, Birch on disks) behind one proxy."
)


@pytest.mark.parametrize(
    ("reported", "wrong"),
    [
        (
            "It runs two pools (Alder on SSDs with 4 replicas, Birch on disks) behind a proxy.",
            False,
        ),
        ("It runs two pools (Cedar on SSDs with 4 replicas, Birch on disks) behind a proxy.", True),
    ],
)
def test_a_name_may_not_take_the_place_its_evidence_gives_another(reported, wrong) -> None:
    record = {**RECORD, "title": "Inside Cedar, Quillet's search cluster", "summary": POOLS}
    c = replace(context(source(**record, citations=[])), companies=("Quillet",))
    said = "It runs two pools (Alder on SSDs with 4 replicas, Birch on disks) behind one proxy"
    draft = Draft(
        reported=[ReportedStatement(text=reported, quote=said)],
        angle="what a cache key holds",
        interpretation=BASE,
        case_study_title="systems-oriented",
        case_study="Cache a small search service on your laptop and time each query.",
        steps=["Cache one query type.", "Time a cached query.", "Drop one key parameter."],
    )
    text = compose_body(draft, c.source, c.originals, c.site_name)
    found = [f.rule for f in check_body(text, c) if f.severity == "error"]
    assert ("grounding.joined" in found) is wrong
