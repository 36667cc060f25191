"""Claims about the company in wordings the first rules did not anticipate: synonyms,
passive voice, hedges and reordered clauses; and advice to the reader that stays free."""

from __future__ import annotations

from dataclasses import replace

import pytest
from checkhelp import body, context, source
from test_checks_claims_ours import REPORTED, ours, rules

from generator.checks import check_body
from generator.checks.shifts import direction_shift


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
            "Larkspur rebuilt courier dispatch around Relay, a service its couriers adore.",
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


# A second record, about a cost cut, for faithful paraphrase in varied wordings.
TALLOW = {
    "id": "tallow-warehouse-cost",
    "company": "Tallow",
    "title": "How Tallow cut its warehouse bill",
    "url": "https://tallow.example/eng/warehouse-cost",
    "publisher": "Tallow Engineering",
    "published": "2026-07-02",
    "checked": "2026-10-30",
    "summary": (
        "Tallow's data platform team reduced monthly warehouse spend by 38% over two quarters. "
        "They moved dashboards onto pre-aggregated tables refreshed every 15 minutes and put "
        "per-team query budgets in place. Analysts now wait a median of 4 seconds for a "
        "dashboard, down from 30 seconds. The largest saving came from retiring 1,200 unused "
        "scheduled queries."
    ),
    "notes": (
        "Compute costs fell while query volume grew 20%. The team says budgets changed "
        "behaviour more than any single optimisation."
    ),
    "scale": ["38% lower monthly warehouse spend", "1,200 scheduled queries retired"],
    "techniques": ["pre-aggregation", "query budgets"],
    "stack": ["Snowflake", "dbt", "Looker"],
}
TALLOW_REPORTED = [
    "Tallow's data platform team reduced monthly warehouse spend by 38% over two quarters."
]


def tallow_errors(reported=(), interpretation: str = "") -> list[str]:
    c = replace(
        context(source(**TALLOW, citations=[])),
        vocabulary=("snowflake", "dbt", "looker", "kafka"),
        companies=("Tallow", "Uber"),
    )
    kw = {"interpretation": f"For data roles, explain a cost before a fix. {interpretation}"}
    text = body(reported=[*TALLOW_REPORTED, *reported], ctx=c, **kw)
    return [f.rule for f in check_body(text, c) if f.severity == "error"]


@pytest.mark.parametrize(
    "sentence",
    [
        "Tallow made its dashboards faster and its warehouse cheaper at the same time.",
        "The team lowered compute costs even as query volume grew.",
        "Explain how Tallow brought down its warehouse costs, then say which step you would try.",
        "Tallow's budgets led to lower spend, which the team credits more than any one tuning.",
        "Describe why Tallow's pre-aggregated tables made dashboards quicker to load.",
        "Tallow's dashboards became more responsive once they read pre-aggregated tables.",
        "Tallow trimmed warehouse costs while query volume kept growing.",
        "Tallow's cost savings came largely from retiring unused scheduled queries.",
    ],
)
def test_faithful_paraphrase_of_a_cost_cut_in_our_sections_passes(sentence) -> None:
    assert tallow_errors(interpretation=sentence) == []


@pytest.mark.parametrize(
    "claim",
    [
        "Tallow reports that retiring 1,200 unused scheduled queries produced the largest saving.",
        "Dashboards became faster: analysts now wait a median of 4 seconds instead of 30.",
        "Compute costs went down even though query volume went up 20%.",
        "Warehouse spend was brought down by 38% over two quarters.",
    ],
)
def test_faithful_paraphrase_of_a_cost_cut_in_reports_passes(claim) -> None:
    assert tallow_errors(reported=[claim]) == []


def test_a_benefit_or_outcome_the_cost_record_lacks_is_still_found() -> None:
    assert "grounding.claim" in tallow_errors(interpretation="Tallow made Looker more secure.")
    assert "grounding.claim" in tallow_errors(interpretation="Tallow's budgets cut analyst churn.")


def test_the_company_as_subject_may_rest_on_sentences_about_its_team() -> None:
    # "The dispatch team replaced … with streaming matches on Postgres and Kafka. They report
    # 3.1 million assignments a day across 40 cities."
    claim = (
        "Larkspur now makes 3.1 million assignments a day across 40 cities, with streaming "
        "matches on Postgres and Kafka."
    )
    assert rules(reported=[*REPORTED, claim]) == []
    borrowed = "Larkspur makes 3.1 million assignments a day, each kept in Redis for 12K CPU hours."
    assert rules(reported=[*REPORTED, borrowed]) != []


def test_a_change_written_as_a_range_rests_on_its_two_stated_ends() -> None:
    # The record: "Analysts now wait a median of 4 seconds for a dashboard, down from 30 seconds."
    assert tallow_errors(reported=["Dashboard waits went down from 30 to 4 seconds."]) == []
    wrong = tallow_errors(reported=["Dashboard waits went down from 30 to 6 seconds."])
    assert any(rule.startswith("figures.") for rule in wrong)


def test_a_past_event_of_a_record_thing_without_the_company_name_is_a_claim() -> None:
    assert "grounding.claim" in ours("The nightly batch was dropped since it could not keep up.")
    assert ours("The nightly batch is a common design, so ask when it stops fitting.") == []


def test_dropping_a_thing_the_record_removes_is_no_fall_of_an_amount() -> None:
    # The record: "The dispatch team replaced a nightly batch assignment with streaming ...".
    evidence = "The team sped up dispatch by removing the nightly batch job and raising caps."
    assert (
        direction_shift("Larkspur sped up dispatch, dropping the nightly batch job.", evidence)
        == ()
    )
    assert direction_shift("Larkspur dropping its caps sped up dispatch.", evidence) == (
        "dropping",
    )


def test_so_that_may_name_a_change_the_record_states_but_no_other_aim() -> None:
    kept = "Larkspur moved to streaming matches so that median assignment time fell to 40 seconds."
    assert "grounding.claim" not in ours(kept)
    aim = "Larkspur moved to streaming matches so that couriers would stay with the company."
    assert "grounding.claim" in ours(aim)


def test_a_reflexive_pronoun_is_not_the_thing_an_outcome_verb_changes() -> None:
    assert "grounding.claim" not in ours("Relay improves the assignment matching itself.")
    assert "grounding.claim" in ours("Relay improves the courier app itself.")


@pytest.mark.parametrize(
    "sentence",
    [
        "Larkspur is hiring dispatch engineers.",
        "Larkspur interviews for streaming experience.",
        "Larkspur's interviews ask about queues.",
        "Roles at Larkspur call for stream processing.",
        "For dispatch interviews, including Larkspur's current openings, explain queues first.",
        "Larkspur's openings ask for Kafka.",
        "Candidates interviewing at Larkspur should expect questions on dispatch.",
        "Larkspur's interviewers focus on queues.",
        "Larkspur's interview loop includes a dispatch design question.",
        "Expect Larkspur's interviewers to ask about Relay.",
        "Jobs at Larkspur require Kafka.",
        "A Larkspur interview will probe your queue design.",
        "Larkspur asks candidates about Relay.",
    ],
)
def test_hiring_or_interviews_said_of_the_company_need_the_record(sentence) -> None:
    assert "grounding.hiring" in ours(sentence)


@pytest.mark.parametrize(
    "sentence",
    [
        "Interviewers often ask about caching.",
        "Interviewers at most companies ask about caching.",
        "Roles in platform teams often call for queue design.",
        "If you are hiring for a platform team, ask about queues.",
        "Expect interviewers to ask how you would rebuild dispatch.",
        "Practise explaining Relay as you would in an interview.",
    ],
)
def test_interview_advice_to_the_reader_stays_ours(sentence) -> None:
    assert ours(sentence) == []
