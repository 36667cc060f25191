"""Topic hub statistics over a fixture database: exact sentences, exact tag matching."""

from __future__ import annotations

from datetime import date

from generator.sources.records import Source
from generator.sources.topics import compute_topics, topic_for, unique_slugs


def record(key: str, company: str, published: str | None, **fields) -> Source:
    return Source(
        id=key,
        company=company,
        title=fields.pop("title", f"Write-up {key}"),
        summary=fields.pop("summary", f"Summary of {key}."),
        published=date.fromisoformat(published) if published else None,
        **fields,
    )


def seed_database(filler: int = 69) -> list[Source]:
    """The four sample write-ups of the seeds, plus unrelated filler records (73 in all)."""
    sources = [
        record(
            "meta-gem",
            "Meta",
            "2026-10-13",
            scale=["2.5x model complexity", "4x total training FLOPs"],
            techniques=[
                "recommendation systems",
                "distributed training",
                "knowledge distillation",
                "model consolidation",
            ],
            stack=["GPUs", "PyTorch", "custom low-precision kernels"],
        ),
        record(
            "meta-llm-training-at-scale",
            "Meta",
            "2024-06-12",
            techniques=["distributed training", "hardware reliability", "networking"],
            stack=["GPUs", "PyTorch"],
        ),
        record(
            "meta-prometheus",
            "Meta",
            None,
            scale=["gigawatt-scale supercluster"],
            techniques=["GPU clusters", "distributed training", "hardware reliability"],
            stack=["NVIDIA GB200 NVL72", "Ethernet back-end network"],
        ),
        record(
            "shopify-catalog-clustering",
            "Shopify",
            "2026-05-20",
            scale=["billions of product listings across millions of stores"],
            techniques=["embedding retrieval", "tiered model cascade"],
            stack=["GBDT", "Multilingual E5 cross-encoder", "LLM judge", "GPUs"],
        ),
    ]
    for i in range(filler):
        sources.append(
            record(f"filler-{i:02d}", "Acme", "2020-01-01", techniques=[f"thing {i}"], stack=[])
        )
    return sources


def test_gpus_hub_follows_the_reference_sentence_pattern():
    topic = topic_for(seed_database(), "GPUs")
    assert topic is not None
    assert topic.title == "How teams scaled GPUs: 3 real case studies"
    assert topic.paragraph == (
        "3 of the 73 engineering write-ups in our database mention GPUs in their stack. "
        "They come from 2 companies (Meta and Shopify) and were published between 2024 and 2026. "
        "Techniques that show up most often alongside GPUs: distributed training (2). "
        "It's often paired with PyTorch (2). "
        '2 of the 3 state concrete scale numbers, for example "2.5x model complexity" (Meta).'
    )
    assert [s.key for s in topic.sources] == [
        "meta-gem",
        "shopify-catalog-clustering",
        "meta-llm-training-at-scale",
    ]


def test_tags_match_exactly_after_trimming_and_case_folding():
    sources = seed_database(0) + [record("x", "Zed", "2025-02-02", stack=["  gpus  "])]
    topic = topic_for(sources, "GPUs")
    # "GPU clusters" (meta-prometheus) is another tag; " gpus " is the same one.
    assert [s.key for s in topic.sources] == [
        "meta-gem",
        "shopify-catalog-clustering",
        "x",
        "meta-llm-training-at-scale",
    ]
    assert topic.name == "GPUs"
    assert topic_for(sources, "GPU") is None
    clusters = topic_for(sources, "gpu clusters")
    assert [s.key for s in clusters.sources] == ["meta-prometheus"]


def test_undated_records_single_year_and_techniques_field():
    topic = topic_for(seed_database(0), "hardware reliability")
    assert topic.paragraph == (
        "2 of the 4 engineering write-ups in our database mention hardware reliability in their "
        "techniques. They come from 1 company (Meta) and those with a date were published in "
        "2024. Techniques that show up most often alongside hardware reliability: distributed "
        'training (2). 1 of the 2 states concrete scale numbers, for example "gigawatt-scale '
        'supercluster" (Meta).'
    )
    undated = [
        record("a", "One", None, stack=["Rust"]),
        record("b", "Two", None, stack=["Rust"]),
    ]
    assert topic_for(undated, "rust").paragraph == (
        "2 of the 2 engineering write-ups in our database mention Rust in their stack. "
        "They come from 2 companies (One and Two)."
    )


def test_a_hub_of_one_write_up_speaks_of_it_in_the_singular():
    sources = [
        record("a", "Acme", "2025-03-01", stack=["Rust"], scale=["12,000 workers"]),
        record("b", "Globex", "2024-01-01", stack=["Go"]),
    ]
    (rust,) = [topic for topic in compute_topics(sources, 1) if topic.name == "Rust"]
    assert rust.paragraph == (
        "1 of the 2 engineering write-ups in our database mentions Rust in its stack. "
        "It comes from 1 company (Acme) and was published in 2025. "
        '1 of the 1 states concrete scale numbers, for example "12,000 workers" (Acme).'
    )


def test_counts_exclude_the_tag_ties_by_name_and_lines_below_two_are_left_out():
    sources = [
        record("a", "B Corp", "2021-01-01", techniques=["caching", "zeta", "alpha"], stack=["Go"]),
        record("b", "a corp", "2022-01-01", techniques=["caching", "zeta", "alpha"], stack=["Go"]),
        record("c", "C Corp", "2023-01-01", techniques=["caching", "beta"], stack=["Java"]),
        record("d", "C Corp", "2023-05-01", techniques=["Caching", "beta", "gamma"]),
    ]
    topic = topic_for(sources, "caching")
    assert topic.techniques == (("alpha", 2), ("beta", 2), ("zeta", 2))
    assert topic.stack == (("Go", 2),)
    assert topic.companies == ("a corp", "B Corp", "C Corp")
    assert topic.paragraph == (
        "4 of the 4 engineering write-ups in our database mention caching in their techniques. "
        "They come from 3 companies (a corp, B Corp and C Corp) and were published between 2021 "
        "and 2023. Techniques that show up most often alongside caching: alpha (2), beta (2) and "
        "zeta (2). It's often paired with Go (2)."
    )
    lone = topic_for(sources, "gamma")
    assert "Techniques that show up" not in lone.paragraph
    assert "paired with" not in lone.paragraph


def test_threshold_and_slug_collisions():
    sources = [
        record("a", "X", "2021-01-01", stack=["C++", "Go"]),
        record("b", "Y", "2022-01-01", stack=["C#", "Go"]),
        record("c", "Z", "2023-01-01", stack=["C++", "C#"]),
    ]
    topics = compute_topics(sources, min_sources=2)
    assert [(t.name, t.slug) for t in topics] == [("C#", "c"), ("C++", "c"), ("Go", "go")]
    kept, clashes = unique_slugs(topics)
    assert [t.name for t in kept] == ["C#", "Go"]
    assert len(clashes) == 1 and clashes[0].kept == "C#" and clashes[0].dropped == ("C++",)
    assert [t.name for t in compute_topics(sources, min_sources=3)] == []


def test_hubs_count_every_record_whether_or_not_it_has_a_guide():
    topics = compute_topics(seed_database(0), min_sources=2)
    assert [t.slug for t in topics] == [
        "distributed-training",
        "gpus",
        "hardware-reliability",
        "pytorch",
    ]
    json_row = topics[1].as_json()
    assert json_row["count"] == 3 and json_row["total"] == 4
    assert json_row["example"] == {
        "scale": "2.5x model complexity",
        "company": "Meta",
        "source": "meta-gem",
    }
