"""Complexity guard: every rule finishes fast on the worst texts at the size limits.

Not a speed target: a bound far above normal (milliseconds) that a quadratic regex or loop
(tens of seconds on these inputs) cannot meet.
"""

from __future__ import annotations

import time

import pytest

from generator.checks import RULES, CheckContext
from generator.checks.base import parse_guide_body
from generator.checks.examples import (
    COMPANIES,
    RECORD,
    TODAY,
    VOCABULARY,
    example_body,
    example_context,
)
from generator.sources.citations import resolve_originals
from generator.sources.records import Source

BOUND = 2.0
BODY_LIMIT = 120_000
RECORD_LIMIT = 100_000


def _fill(unit: str, size: int) -> str:
    return unit * (size // len(unit))


def _email(size: int) -> str:
    half = _fill("a.", size // 2 - 1)
    return f"{half}@{half.replace('a', 'b')}"


HOSTILE = {
    "email": _email,
    "hyphens": lambda n: _fill("a-", n),
    "dots": lambda n: _fill("a.", n),
    "digits": lambda n: _fill("1 ", n),
    "digit-hyphens": lambda n: _fill("1-", n),
    "digit-commas": lambda n: _fill("1,", n),
    "capitals": lambda n: _fill("A ", n),
    "one-word": lambda n: _fill("x", n),
    "open-quote": lambda n: '"' + _fill("a ", n - 1),
    "brackets": lambda n: _fill("[", n),
    "braces": lambda n: _fill("{{", n),
    "urls": lambda n: _fill("http://a", n),
    "hosts": lambda n: _fill("www.a", n),
    "according": lambda n: _fill("according to Meta ", n),
    "advice": lambda n: _fill("Meta recommends ", n),
    "number-words": lambda n: _fill("three 1 ", n),
    "comment": lambda n: _fill("<!-", n),
}


def _context(summary: str) -> CheckContext:
    record = Source.model_validate({**RECORD, "summary": summary}, context={"today": TODAY})
    return CheckContext(
        record, resolve_originals(record), TODAY, 180, "Prepguide", VOCABULARY, COMPANIES
    )


def _body(text: str) -> str:
    """Put a hostile text into "reports" and into our case study, a body at the size limit."""
    half = text[: BODY_LIMIT // 2]
    body = example_body()
    body = body.replace("Meta replaced separate", f"{half} Meta replaced separate", 1)
    return body.replace("Use a modest dataset", f"{half} Use a modest dataset", 1)


@pytest.mark.parametrize("kind", sorted(HOSTILE))
def test_every_rule_is_fast_on_hostile_guide_text(kind: str) -> None:
    ctx = example_context()
    guide = parse_guide_body(_body(HOSTILE[kind](BODY_LIMIT)), ctx.site_name)
    for rule in RULES:
        started = time.perf_counter()
        rule(guide, ctx)
        elapsed = time.perf_counter() - started
        assert elapsed < BOUND, f"{rule.__name__} took {elapsed:.1f}s on {kind}"


@pytest.mark.parametrize("kind", ["email", "hyphens", "digits", "capitals", "according"])
def test_every_rule_is_fast_on_a_hostile_record(kind: str) -> None:
    ctx = _context(HOSTILE[kind](RECORD_LIMIT))
    for text in (example_body(), _body(HOSTILE[kind](BODY_LIMIT))):
        guide = parse_guide_body(text, ctx.site_name)
        for rule in RULES:
            started = time.perf_counter()
            rule(guide, ctx)
            elapsed = time.perf_counter() - started
            assert elapsed < BOUND, f"{rule.__name__} took {elapsed:.1f}s on a {kind} record"
