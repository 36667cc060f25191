"""The integrity corpus itself: its edits do what their kind says, deterministically.

Detection rates are not asserted here; tests/bench/bench_integrity.py measures them.
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

import pytest
from integrity import TEMPLATES, build_corpus
from integrity.corpus import apply_templates
from integrity.kinds import CAUGHT_NEVER
from integrity.text import Body, kind_of, steps_of

# Rule-id families of the checks (RULE_FAMILIES.md): a kind may only name these.
FAMILIES = {
    "structure",
    "figures",
    "quotes",
    "attribution",
    "links",
    "leftovers",
    "steps",
    "citations",
    "originals",
    "staleness",
    "grounding",
    "ours",
    "hidden",
}
SECTIONS = ("preamble", "reports", "interpretation", "case_study", "steps", "originals")


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory):
    return build_corpus(Path(tmp_path_factory.mktemp("integrity")) / "db")


def test_generated_guides_are_complete_and_distinct(corpus) -> None:
    assert len(corpus.guides) >= 10
    for guide in corpus.guides.values():
        body = Body.parse(guide.body)
        assert [kind_of(h) for h in body.headings] == list(SECTIONS[1:]), guide.id
        assert body.get("reports") and body.preamble
    assert len({Body.parse(g.body).get("reports") for g in corpus.guides.values()}) == len(
        corpus.guides
    )


def test_every_wrong_edit_changes_its_intended_section_only(corpus) -> None:
    for case in corpus.cases:
        if case.group == "legit":
            continue
        before, after = Body.parse(case.before), Body.parse(case.after)
        assert before.section_of(case.section) != after.section_of(case.section), case.id
        if not case.whole:
            for key in SECTIONS:
                if key != case.section:
                    assert before.section_of(key) == after.section_of(key), (case.id, key)


def test_legitimate_edits_keep_the_structure(corpus) -> None:
    for case in (c for c in corpus.cases if c.group == "legit"):
        before, after = Body.parse(case.before), Body.parse(case.after)
        assert case.after != case.before, case.id
        assert [kind_of(h) for h in after.headings] == [kind_of(h) for h in before.headings]
        assert after.preamble == before.preamble, case.id
        assert after.get("originals") == before.get("originals"), case.id
        assert after.heading("reports") == before.heading("reports"), case.id
        assert 3 <= len(steps_of(after.get("steps"))[1]) <= 5, case.id
        assert "<!--" not in case.after and "\u200b" not in case.after, case.id


def test_corpus_has_the_kinds_wordings_and_guides_the_issue_asks_for(corpus) -> None:
    guides_of, wordings = defaultdict(set), defaultdict(set)
    for case in corpus.cases:
        guides_of[case.kind].add(case.guide)
        wordings[case.kind].add(case.template)
    wrong = {c.kind for c in corpus.cases if c.group == "wrong"}
    assert len(wrong) >= 30
    assert all(len(guides_of[kind]) >= 3 for kind in wrong), {
        kind: len(guides_of[kind]) for kind in wrong if len(guides_of[kind]) < 3
    }
    assert {kind.name for kind in CAUGHT_NEVER} <= wrong
    assert all(len(wordings[kind.name]) >= 3 for kind in CAUGHT_NEVER)
    assert len({c.template for c in corpus.cases if c.group == "legit"}) >= 60
    assert {t.id for t in TEMPLATES} == {c.template for c in corpus.cases}  # none unused
    for group in ("wrong", "legit"):
        assert {c.held_out for c in corpus.cases if c.group == group} == {True, False}
    for template in TEMPLATES:
        families = template.kind.families
        assert bool(families) == (template.kind.group != "legit"), template.id
        assert all(f.split(".")[0] in FAMILIES for f in families), template.id


def test_corpus_is_deterministic_for_a_seed(corpus) -> None:
    again = apply_templates(corpus.guides, templates=TEMPLATES[::-1])
    assert sorted((c.id, c.after) for c in again) == sorted((c.id, c.after) for c in corpus.cases)
    other = apply_templates(corpus.guides, seed=14)
    assert {c.id for c in other} != {c.id for c in corpus.cases}
