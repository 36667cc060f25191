"""Accounts of the company in our sections and in reports: hiring, plans, outside comparisons
and other companies are claims; faithful paraphrase of model prose passes."""

from __future__ import annotations

from dataclasses import replace

import pytest
from checkhelp import body, context, source

from generator.checks import Evidence, check_body

RECORD = {
    "id": "corvid-ledger-sync",
    "company": "Corvid",
    "title": "How Corvid rebuilt ledger sync with Tally",
    "url": "https://corvid.example/eng/ledger-sync",
    "publisher": "Corvid Engineering",
    "published": "2026-06-02",
    "checked": "2026-10-30",
    "summary": (
        "Corvid built Tally, an internal service that keeps merchant ledgers in sync across "
        "regions. It applies about 2 billion ledger updates a day from payment processors. "
        "A new conflict resolver (Quorum) cut sync conflicts by 70% in the first month. "
        "They report that 99.9% of updates are applied automatically, leaving a small queue "
        "for operators."
    ),
    "notes": (
        "The team describes a replay storm problem: a region that came back after an outage "
        "replayed every missed update at once. Batching replays by merchant and capping their "
        "rate reduced the effect. Storage fell by 40% by compacting entries older than 90 days."
    ),
    "scale": ["about 2 billion ledger updates a day", "sync conflicts down 70%"],
    "techniques": ["conflict resolution", "replay batching"],
    "stack": ["Kafka", "Postgres", "Tally", "Quorum"],
}
REPORTED = ["Corvid built Tally, an internal service that keeps merchant ledgers in sync."]
VOCABULARY = ("kafka", "postgres", "tally", "quorum", "conflict resolution", "replay batching")
COMPANIES = ("Corvid", "Larkspur")


def ctx():
    return replace(
        context(source(**RECORD, citations=[])), vocabulary=VOCABULARY, companies=COMPANIES
    )


def errors(reported=None, interpretation=None, case_study=None, angle=None, steps=None):
    c = ctx()
    kw = {}
    if interpretation:
        kw["interpretation"] = interpretation
    if case_study:
        kw["case_study"] = case_study
    if angle:
        kw["angle"] = angle
    reported = reported or REPORTED
    text = body(reported=reported, steps=steps, ctx=c, **kw)
    evidence = tuple(Evidence(t, t) for t in reported)
    return [f for f in check_body(text, c, evidence=evidence) if f.severity == "error"]


def rules(**kw) -> list[str]:
    return [f.rule for f in errors(**kw)]


BASE = "For candidates in payments roles, explain a replay before a cache."


def ours(sentence: str) -> list[str]:
    return rules(interpretation=f"{BASE} {sentence}")


@pytest.mark.parametrize(
    ("sentence", "rule"),
    [
        ("Corvid's payments team asks about replay storms in its interviews.", "hiring"),
        ("Corvid's platform team reviews projects like this one in interviews.", "hiring"),
        ("If you are applying for Corvid's open ledger roles, practise this answer.", "hiring"),
        ("You would be speaking the language of the team Corvid is hiring for.", "hiring"),
        ("Corvid plans to move Tally onto three more regions next year.", "plan"),
        ("Practise the design, as Corvid intends to do for its card ledgers.", "plan"),
        ("Tally applies more updates than most payment providers manage.", "comparison"),
        ("Unlike most companies, Corvid caps replays per merchant.", "comparison"),
        ("This account shows that replays always need a rate cap.", "polarity"),
        ("This story of the largest replay storm ever is worth retelling.", "claim"),
        ("This account from last year is worth retelling.", "time"),
        ("This account, which sets a high bar for ledger teams, is worth retelling.", "sentiment"),
    ],
)
def test_our_sentence_about_the_company_is_a_claim(sentence, rule) -> None:
    assert f"grounding.{rule}" in ours(sentence)


def test_another_company_is_refused_in_any_of_our_sentences() -> None:
    assert "grounding.actor" in ours("Replay batching, popularised by YouTube, is a good topic.")
    assert "grounding.actor" in rules(case_study="Replay a ledger like Akamai would.")


def test_the_angle_carries_no_praise() -> None:
    assert "grounding.sentiment" in rules(angle="an impressive lesson in replay control")
    assert rules(angle="a lesson in replay control") == []


@pytest.mark.parametrize(
    "claim",
    [
        "Corvid plans to extend Tally to card payments next.",
        "Tally applies about 2 billion ledger updates a day, well above the industry average.",
        "Corvid is hiring engineers for Tally.",
    ],
)
def test_a_report_adds_no_plan_comparison_or_hiring(claim) -> None:
    found = rules(reported=[*REPORTED, claim])
    assert {"grounding.plan", "grounding.comparison", "grounding.hiring"} & set(found), found


@pytest.mark.parametrize(
    "sentence",
    [
        "Interviewers for payments roles often ask how a replay is bounded.",
        "This account makes three choices worth discussing in platform interviews.",
        "Most teams never measure replays; unlike them, practise with real numbers.",
        "This write-up is a compact example of fixing the replay path rather than only adding "
        "capacity.",
        "The most transferable part of this write-up is its candour about the storm.",
        "This account shows how caps stop a replay from becoming an outage of its own.",
        "Conflict rates and replay load are the two figures the write-up leans on.",
        "You could plan to rebuild it next, once your own ledger is in sync.",
    ],
)
def test_our_reading_and_advice_stay_free(sentence) -> None:
    assert ours(sentence) == []


# Faithful paraphrase of model prose passes.


@pytest.mark.parametrize(
    "claim",
    [
        # a pronoun of the evidence stands for the name its sentence before introduces
        "Tally applies about 2 billion ledger updates a day from payment processors.",
        # a name given in parentheses stands where its phrase stands
        "The new Quorum conflict resolver cut sync conflicts by 70% in the first month.",
        # a plural ends the counted noun ("updates are applied")
        "The team reports that 99.9% of updates apply automatically, leaving a small queue.",
        # "days" is what 90 counts, not the storage the sentence goes on to
        "Compacting entries older than 90 days cut storage by 40%.",
        # "the effect" is what the sentence before it names
        "To damp the replay storm, replays were batched by merchant and capped in rate.",
    ],
)
def test_faithful_paraphrase_passes(claim) -> None:
    assert rules(reported=[*REPORTED, claim]) == []


def test_a_pronoun_join_never_lends_a_subject() -> None:
    claim = "Quorum applies about 2 billion ledger updates a day."
    assert "grounding.joined" in rules(reported=[*REPORTED, claim])
