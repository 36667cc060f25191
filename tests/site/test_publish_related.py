"""Related stories: shared company first, then shared tags, at most 3, ties by recency."""

from __future__ import annotations

from test_topics import record, seed_database

from generator.site.model import related_stories


def keys(items) -> list[str]:
    return [item.key for item in items]


def test_seed_card_order_for_meta_gem():
    sources = seed_database(0)
    gem = sources[0]
    # Seed 001: How Meta trains LLMs (Meta, 3 shared tags), Prometheus (Meta, 1), Shopify (1).
    assert keys(related_stories(gem, sources)) == [
        "meta-llm-training-at-scale",
        "meta-prometheus",
        "shopify-catalog-clustering",
    ]


def test_company_beats_tags_tags_beat_recency_and_at_most_three():
    me = record("me", "Acme", "2024-01-01", techniques=["caching", "sharding"], stack=["Go"])
    sources = [
        me,
        record("same-company-no-tags", "ACME", "2019-01-01"),
        record("two-tags-old", "Other", "2018-01-01", techniques=["Caching"], stack=["go"]),
        record("one-tag-new", "Other", "2026-01-01", techniques=["sharding"]),
        record("one-tag-newer", "Third", "2026-06-01", stack=["Go"]),
        record("unrelated", "Nobody", "2026-07-01", techniques=["cooking"]),
    ]
    assert keys(related_stories(me, sources)) == [
        "same-company-no-tags",
        "two-tags-old",
        "one-tag-newer",
    ]
    assert keys(related_stories(me, sources, limit=10)) == [
        "same-company-no-tags",
        "two-tags-old",
        "one-tag-newer",
        "one-tag-new",
    ]


def test_ties_by_recency_put_undated_last_and_are_stable():
    me = record("me", "A", "2024-01-01", stack=["Go"])
    sources = [
        me,
        record("undated", "B", None, stack=["Go"]),
        record("b-2020", "C", "2020-01-01", stack=["Go"]),
        record("a-2020", "D", "2020-01-01", stack=["Go"]),
    ]
    assert keys(related_stories(me, sources)) == ["a-2020", "b-2020", "undated"]
