"""Figure extraction and normalisation: equal facts compare equal, different facts do not."""

from __future__ import annotations

from datetime import date

import pytest

from generator.checks.figureindex import ground
from generator.checks.numbers import extract
from generator.checks.quoting import find_quotes, is_verbatim


def supported(claim: str, source: str, dates: tuple[date, ...] = ()) -> bool:
    facts = ground(source, dates)
    return all(facts.supports(figure) for figure in extract(claim))


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        ("20–25%", "20-25% MFU"),
        ("20-25%", "MFU of 20–25%"),
        ("20 — 25 %", "20-25%"),
        ("between 20 and 25 percent", "20-25%"),
        ("20%–25%", "20-25%"),
        ("2.5×", "2.5x model complexity"),
        ("2.5x", "2.5× more complex"),
        ("2.5-fold", "2.5x"),
        ("54K", "54,000 GPU hours"),
        ("54,000", "54K GPU hours"),
        ("54 thousand", "54K"),
        ("3.6 billion", "3.6B daily users"),
        ("3.6B", "3.6 billion daily users"),
        ("1 million GPUs", "roughly one million GPUs"),
        ("$1.2M", "$1,200,000 saved"),
        ("$5–10M", "$5-10 million"),
        ("billions of listings", "billions of product listings"),
        ("billions of users", "3.6 billion users"),
        ("thousands of GPUs", "hundreds of thousands of GPUs"),
        ("doubled", "2x the efficiency"),
        ("three times", "3x"),
        ("GB200 racks", "Catalina on GB200"),
        ("H100s", "H100 GPUs"),
        ("5D parallelism", "5D parallelism"),
        ("20%", "20-25%"),
        ("August 3, 2026", "published 2026-08-03"),
    ],
)
def test_equal_figures_match(claim: str, source: str) -> None:
    assert extract(claim), f"no figure found in {claim!r}"
    assert supported(claim, source)


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        ("30%", "20-25%"),
        ("20-30%", "20-25% MFU"),
        ("25x", "25% MFU"),
        ("2.5%", "2.5x"),
        ("54M", "54K GPU hours"),
        ("540,000", "54,000"),
        ("$54K", "54,000 GPU hours"),
        ("3.6 million", "3.6 billion"),
        ("trillions of pairs", "billions of listings"),
        ("tripled", "doubled"),
        ("H100", "GB200"),
        ("2024-06-12", "2026-08-03"),
        ("a billion users", "a million users"),
    ],
)
def test_different_figures_do_not_match(claim: str, source: str) -> None:
    assert extract(claim)
    assert not supported(claim, source)


def test_record_dates_ground_dates_and_years() -> None:
    assert supported("in 2026 (2026-08-03)", "no figures here", (date(2026, 8, 3),))
    assert not supported("in 2025", "no figures here", (date(2026, 8, 3),))


@pytest.mark.parametrize(
    "text",
    [
        "1. Profile before choosing an optimization.",
        "See https://engineering.fb.com/2024/06/12/x for details.",
        "the 2nd step and the 3rd",
        "one model per task, two tasks",
        "end-to-end and real-time",
    ],
)
def test_non_figures_are_ignored(text: str) -> None:
    assert extract(text) == []


def test_plain_number_is_grounded_by_the_same_value_with_a_unit() -> None:
    assert supported("85 of them", "goodput above 85%")
    assert not supported("86 of them", "goodput above 85%")


def test_quotes_match_up_to_whitespace_quote_style_and_case() -> None:
    source = 'Meta\'s GEM   is "one central model" trained across all surfaces.'
    assert is_verbatim("meta’s gem is “one central model”", source)
    assert is_verbatim("GEM is … trained across all surfaces.", source)
    assert not is_verbatim("GEM is two central models", source)
    assert not is_verbatim("trained across all surfaces … GEM is", source)


def test_find_quotes_skips_apostrophes() -> None:
    text = 'Meta’s model is ‘central’ and "shared" and “tiered”; it\'s fine.'
    assert [q.text for q in find_quotes(text)] == ["central", "shared", "tiered"]
